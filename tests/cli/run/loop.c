int main(void)
{
    int i = 0;
    while (i >= 0)
        i = (i + 1) % 1000;
    return 0;
}

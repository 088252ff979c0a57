int main(void)
{
    int i = 0;
    if (i == 0)
        goto inside;
    while (i < 3) {
inside:
        i++;
    }
    return i;
}

int main(void)
{
    int i = 0;
    if (i == 0)
        goto done;
    i = 1;
done:
    return i;
}

int main(void)
{
    return count + 1;
}

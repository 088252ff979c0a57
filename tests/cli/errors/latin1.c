/* résumé: not UTF-8 (Latin-1) */
int main(void)
{
    return 0;
}

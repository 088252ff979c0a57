#include <stdio.h>

/* counts lines, words and characters of the input, like wc */
int main(void)
{
    int c, lines = 0, words = 0, chars = 0;
    int inword = 1;
    while ((c = getchar()) != EOF) {
        chars++;
        if (c == '\n')
            lines++;
        if (c == ' ' || c == '\n' || c == '\t')
            inword = 0;
        else if (!inword) {
            inword = 1;
            words++;
        }
    }
    printf("%d %d %d\n", lines, words, chars);
    return 0;
}

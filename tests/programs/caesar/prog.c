#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>

char shift_char(char c, int shift)
{
    if (isupper(c))
        return 'A' + ((c - 'A' + shift) % 26 + 26) % 26;
    if (islower(c))
        return 'a' + ((c - 'a' + shift) % 26 + 26) % 26;
    return c;
}

int main(int argc, char *argv[])
{
    int shift = 3;
    int c, changed = 0;

    if (argc > 1)
        shift = atoi(argv[1]);
    fprintf(stderr, "shift is %d\n", shift);
    while ((c = getchar()) != EOF) {
        char out = shift_char((char) c, shift);
        if (out != c)
            changed++;
        putchar(out);
    }
    printf("[%d letters shifted by %d]\n", changed, shift);
    return 0;
}

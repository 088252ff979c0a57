#include <stdio.h>
#include <string.h>
#include <ctype.h>

void encode(void)
{
    int c, prev = EOF, run = 0;
    while ((c = getchar()) != EOF) {
        if (c == prev) {
            run++;
            continue;
        }
        if (prev != EOF) {
            putchar(prev);
            if (run > 1)
                printf("%d", run);
        }
        prev = c;
        run = 1;
    }
    if (prev != EOF) {
        putchar(prev);
        if (run > 1)
            printf("%d", run);
    }
}

void decode(void)
{
    int c, last = EOF, count = 0;
    while ((c = getchar()) != EOF) {
        if (isdigit(c) && last != EOF) {
            count = count * 10 + (c - '0');
            continue;
        }
        if (last != EOF)
            for (int i = 0; i < (count ? count : 1); i++)
                putchar(last);
        last = c;
        count = 0;
    }
    if (last != EOF)
        for (int i = 0; i < (count ? count : 1); i++)
            putchar(last);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "-d") == 0)
        decode();
    else if (argc > 1) {
        printf("unknown option %s\n", argv[1]);
        return 2;
    } else
        encode();
    putchar('\n');
    return 0;
}

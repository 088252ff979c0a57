#include <stdio.h>
#include <string.h>

int maxval(a, b)
int a, b;
{
    return a > b ? a : b;
}

count_char(s, c)
char *s;
int c;
{
    int n = 0;
    while (*s)
        if (*s++ == c)
            n++;
    return n;
}

main(argc, argv)
int argc;
char *argv[];
{
    int i, longest = 0, total = 0;

    if (argc < 2) {
        printf("usage: kr_main WORD...\n");
        return 2;
    }
    for (i = argc - 1; i >= 1; i--) {
        int len = strlen(argv[i]);
        printf("%d: %-10s len=%d e's=%d\n", i, argv[i], len, count_char(argv[i], 'e'));
        longest = maxval(longest, len);
        total += len;
    }
    printf("longest=%d total=%d\n", longest, total);
    return 0;
}

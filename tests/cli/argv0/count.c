#include <stdio.h>
#include <stdlib.h>

/* count_ref.c with a seeded fault: counts from 0 (line 14). Without an
   argument both print a usage message naming argv[0], which must not be
   told apart: the reference runs under this program's name. */
int main(int argc, char *argv[])
{
    int i, n;
    if (argc != 2) {
        printf("usage: %s N\n", argv[0]);
        return 2;
    }
    n = atoi(argv[1]);
    for (i = 0; i <= n; i++)
        printf("%d\n", i);
    return 0;
}

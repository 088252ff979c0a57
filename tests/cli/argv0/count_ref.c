#include <stdio.h>
#include <stdlib.h>

/* Counts from 1 to N; without an argument, prints a usage message naming
   argv[0]. */
int main(int argc, char *argv[])
{
    int i, n;
    if (argc != 2) {
        printf("usage: %s N\n", argv[0]);
        return 2;
    }
    n = atoi(argv[1]);
    for (i = 1; i <= n; i++)
        printf("%d\n", i);
    return 0;
}

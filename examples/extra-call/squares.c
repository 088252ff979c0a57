#include <stdio.h>

/* Prints the squares of 0 .. n-1, each odd number's with a note after it. */

void note(int i)
{
    printf("(%d is odd)\n", i);
}

int main(void) {
    int n, i;
    if (scanf("%d", &n) != 1)
        return 1;
    for (i = 0; i < n; i++) {
        printf("%d\n", i * i);
        /* the fault: `if (i % 2 == 1)` is missing */
        note(i);
    }
    printf("done\n");
    return 0;
}

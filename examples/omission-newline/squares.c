/* Prints the squares of 1..n, one per line. The newline is missing. */
#include <stdio.h>

int main(void)
{
    int n, i;
    if (scanf("%d", &n) != 1)
        return 1;
    for (i = 1; i <= n; i++) {
        printf("%d", i * i);
    }
    return 0;
}

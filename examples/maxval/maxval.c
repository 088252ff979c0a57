#include <stdio.h>

/* Prints the largest of n numbers read from stdin (n comes first).
   Seeded fault: the comparison on line 13 keeps the smaller value. */
int main(void)
{
    int n, x, max, i;
    if (scanf("%d", &n) != 1 || n <= 0)
        return 1;
    scanf("%d", &max);
    for (i = 1; i < n; i++) {
        scanf("%d", &x);
        if (x < max)
            max = x;
    }
    printf("max %d\n", max);
    return 0;
}

/* Sums n numbers. The sum is never initialized. */
#include <stdio.h>

int main(void)
{
    int n, x, i, sum;
    scanf("%d", &n);
    for (i = 0; i < n; i++) {
        scanf("%d", &x);
        sum += x;
    }
    printf("sum %d\n", sum);
    return 0;
}

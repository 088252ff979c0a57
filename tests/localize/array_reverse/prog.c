#include <stdio.h>

/* Prints n numbers in reverse order.
   Fault: the first number is never printed (`i > 0` should be `i >= 0`). */
int main(void)
{
    int a[6], n, i;
    scanf("%d", &n);
    for (i = 0; i < n; i++)
        scanf("%d", &a[i]);
    for (i = n - 1; i > 0; i--)
        printf("%d ", a[i]);
    printf("\n");
    return 0;
}

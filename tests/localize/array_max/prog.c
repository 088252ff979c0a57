#include <stdio.h>

/* The largest of n numbers.
   Fault: the maximum starts at 0 instead of the first number. */
int main(void)
{
    int a[5], n, i, max;
    scanf("%d", &n);
    for (i = 0; i < n; i++)
        scanf("%d", &a[i]);
    max = 0;
    for (i = 1; i < n; i++)
        if (a[i] > max)
            max = a[i];
    printf("max %d\n", max);
    return 0;
}

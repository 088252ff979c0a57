#include <stdio.h>
#include <stdlib.h>

/* Reads n and n values into a heap array; prints the running maxima. */
int main(void)
{
    int n, i, best;
    int *a;
    if (scanf("%d", &n) != 1 || n <= 0)
        return 1;
    a = (int *)malloc(n * sizeof(int));
    for (i = 0; i < n; i++)
        if (scanf("%d", &a[i]) != 1)
            a[i] = 0;
    best = a[0];
    for (i = 1; i < n - 1; ++i) /* bug: should be i < n */
        if (a[i] > best)
            best = a[i];
    printf("%d\n", best);
    free(a);
    return 0;
}

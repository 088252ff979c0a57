#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n, i, *a, *b, max;
    if (scanf("%d", &n) != 1 || n <= 0)
        return 1;
    a = calloc(n, sizeof *a);
    b = malloc(n * sizeof *b);
    for (i = 1; i < n; i++) {
        a[i] = i * 7 % 5;
        b[i] = a[i] + 1;
    }
    printf("a[0] %d\n", a[0]);
    /* b[0] was never written: malloc does not clear memory. */
    max = n > 1 ? b[1] : b[0];
    for (i = 2; i < n; i++)
        if (b[i] > max)
            max = b[i];
    printf("max %d\n", max);
    free(a);
    free(b);
    return 0;
}

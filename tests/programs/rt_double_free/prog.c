#include <stdio.h>
#include <stdlib.h>

static void release(int *p)
{
    free(p);
}

int main(void)
{
    int n, *data, i, total = 0;
    if (scanf("%d", &n) != 1 || n <= 0)
        return 1;
    data = malloc(n * sizeof *data);
    for (i = 0; i < n; i++)
        data[i] = i * i;
    for (i = 0; i < n; i++)
        total += data[i];
    printf("total %d\n", total);
    if (total > 10)
        release(data);
    free(data);
    return 0;
}

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int local[4] = {1, 2, 3, 4};
    int *p;
    int n;
    if (scanf("%d", &n) != 1)
        return 1;
    p = n > 0 ? malloc(sizeof local) : local;
    p[0] = 7;
    printf("%d %d\n", p[0], local[0]);
    free(p);
    return 0;
}

#include <stdio.h>

#define N 5

/* Looks up entries of a table; the bounds check uses > instead of >=. */
int main(void)
{
    int a[N] = {10, 20, 30, 40, 50};
    int idx, lookups = 0;

    printf("table has %d entries\n", N);
    while (scanf("%d", &idx) == 1) {
        if (idx > N) {
            printf("index %d rejected\n", idx);
            continue;
        }
        printf("a[%d] = %d\n", idx, a[idx]);
        lookups++;
    }
    printf("%d lookups\n", lookups);
    return 0;
}

#include <stdio.h>

/* Sums the positive values; a negative one aborts with -1 through a cleanup label. */
int total(int n)
{
    int i, x, sum = 0, status = 0;
    for (i = 0; i < n; i++) {
        if (scanf("%d", &x) != 1) {
            status = 2;
            goto done;
        }
        if (x < 0) {
            status = 1;
            goto done;
        }
        sum = sum + x * 2; /* bug: should be sum + x */
    }
done:
    if (status != 0)
        sum = -status;
    return sum;
}

int main(void)
{
    int n;
    if (scanf("%d", &n) != 1)
        return 1;
    printf("%d\n", total(n));
    return 0;
}

#include <stdio.h>
#include <assert.h>

int isqrt(int n)
{
    int r = 0;
    assert(n >= 0);
    while ((r + 1) * (r + 1) <= n)
        r++;
    assert(r * r <= n && n < (r + 1) * (r + 1));
    return r;
}

int main(void)
{
    int n, count = 0;

    while (scanf("%d", &n) == 1) {
        if (n < 0 || n > 1000000) {
            printf("%d skipped\n", n);
            continue;
        }
        int r = isqrt(n);
        printf("isqrt(%d) = %d%s\n", n, r, r * r == n ? " (perfect square)" : "");
        count++;
    }
    assert(count >= 0);
    printf("%d numbers processed\n", count);
    return 0;
}

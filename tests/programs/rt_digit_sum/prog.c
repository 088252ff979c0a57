#include <stdio.h>

int digit_sum(int n, int base)
{
    int s = 0;
    while (n > 0) {
        s += n % base;
        n /= base;
    }
    return s;
}

int main(void)
{
    int n, base;

    while (scanf("%d %d", &n, &base) == 2) {
        printf("digit sum of %d in base %d:\n", n, base);
        printf("  %d\n", digit_sum(n, base));
    }
    return 0;
}

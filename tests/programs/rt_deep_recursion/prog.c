#include <stdio.h>

/* Missing base case for negative n: recursion never ends. */
long sum_to(int n)
{
    if (n == 0)
        return 0;
    return n + sum_to(n - 1);
}

int main(void)
{
    int n;

    while (scanf("%d", &n) == 1) {
        printf("sum_to(%d):\n", n);
        printf("  %ld\n", sum_to(n));
    }
    return 0;
}

#include <stdio.h>

/* prints the prime factors of n */
void factorize(int n)
{
    int d;
    printf("%d =", n);
    for (d = 2; d * d < n; d++) {
        while (n % d == 0) {
            printf(" %d", d);
            n /= d;
        }
    }
    if (n > 1)
        printf(" %d", n);
    printf("\n");
}

int main(void)
{
    int n;
    while (scanf("%d", &n) == 1) {
        if (n < 2)
            printf("%d has no prime factors\n", n);
        else
            factorize(n);
    }
    return 0;
}

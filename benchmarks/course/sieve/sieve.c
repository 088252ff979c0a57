#include <stdio.h>

#define N 100

int main(void)
{
    int composite[N + 1] = {0};
    int n, i, j, count = 0;
    if (scanf("%d", &n) != 1 || n < 2 || n > N) {
        printf("n must be between 2 and %d\n", N);
        return 1;
    }
    /* sieve of Eratosthenes */
    for (i = 2; i * i < n; i++)
        if (!composite[i])
            for (j = i * i; j <= n; j += i)
                composite[j] = 1;
    for (i = 2; i <= n; i++)
        if (!composite[i]) {
            printf("%d ", i);
            count++;
        }
    printf("\n%d primes up to %d\n", count, n);
    return 0;
}

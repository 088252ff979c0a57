#include <stdio.h>

#define MAX 1000

char composite[MAX + 1];
int primes[200];

int sieve(int n)
{
    int i, j, count = 0;

    for (i = 2; i * i <= n; i++)
        if (!composite[i])
            for (j = i * i; j <= n; j += i)
                composite[j] = 1;
    for (i = 2; i <= n; i++)
        if (!composite[i])
            primes[count++] = i;
    return count;
}

int main(void)
{
    int n, count, i, twins = 0;
    long sum = 0;

    if (scanf("%d", &n) != 1) {
        printf("no input\n");
        return 2;
    }
    if (n < 2 || n > MAX) {
        printf("n must be between 2 and %d\n", MAX);
        return 2;
    }
    count = sieve(n);
    for (i = 0; i < count; i++) {
        printf("%5d", primes[i]);
        if (i % 10 == 9 || i == count - 1)
            putchar('\n');
        sum += primes[i];
        if (i > 0 && primes[i] - primes[i - 1] == 2)
            twins++;
    }
    printf("%d primes up to %d, sum %ld, %d twin pairs\n", count, n, sum, twins);
    printf("largest gap: ");
    {
        int gap = 0, at = 0;
        for (i = 1; i < count; i++)
            if (primes[i] - primes[i - 1] > gap) {
                gap = primes[i] - primes[i - 1];
                at = primes[i - 1];
            }
        printf("%d after %d\n", gap, at);
    }
    return 0;
}

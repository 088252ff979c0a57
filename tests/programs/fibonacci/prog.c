#include <stdio.h>

int calls = 0;

int fib(int n)
{
    calls++;
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

long long fib_iter(int n)
{
    long long a = 0, b = 1;
    if (n == 0)
        return 0;
    for (int i = 1; i < n; i++) {
        long long t = a + b;
        a = b;
        b = t;
    }
    return b;
}

int main(void)
{
    int n;

    while (scanf("%d", &n) == 1) {
        if (n < 0 || n > 92) {
            printf("fib(%d): out of range\n", n);
            continue;
        }
        if (n <= 20) {
            calls = 0;
            int r = fib(n);
            printf("fib(%d) = %d (recursive, %d calls)\n", n, r, calls);
        }
        printf("fib(%d) = %lld (iterative)\n", n, fib_iter(n));
    }
    return 0;
}

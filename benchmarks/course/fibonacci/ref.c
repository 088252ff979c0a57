#include <stdio.h>

int fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

int main(void)
{
    int n, i;
    if (scanf("%d", &n) != 1 || n < 0 || n > 20) {
        printf("invalid input\n");
        return 1;
    }
    for (i = 0; i <= n; i++)
        printf("fib(%d) = %d\n", i, fib(i));
    return 0;
}

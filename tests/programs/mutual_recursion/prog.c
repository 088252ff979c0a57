#include <stdio.h>

int is_even(unsigned n);
int is_odd(unsigned n);
int female(int n);
int male(int n);

int depth = 0;

int main(void)
{
    int n;

    while (scanf("%d", &n) == 1) {
        if (n < 0) {
            printf("%d: negative, skipped\n", n);
            continue;
        }
        printf("%d is %s\n", n, is_even(n) ? "even" : "odd");
        printf("  F:");
        for (int i = 0; i <= n && i < 15; i++)
            printf(" %d", female(i));
        printf("\n  M:");
        for (int i = 0; i <= n && i < 15; i++)
            printf(" %d", male(i));
        printf("\n");
    }
    printf("max depth used by parity check: %d\n", depth);
    return 0;
}

int is_even(unsigned n)
{
    if ((int) n > depth)
        depth = n;
    if (n == 0)
        return 1;
    return is_odd(n - 1);
}

int is_odd(unsigned n)
{
    if (n == 0)
        return 0;
    return is_even(n - 1);
}

int female(int n)
{
    return n == 0 ? 1 : n - male(female(n - 1));
}

int male(int n)
{
    return n == 0 ? 0 : n - female(male(n - 1));
}

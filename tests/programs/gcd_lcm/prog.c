#include <stdio.h>
#include <stdlib.h>

long gcd(long a, long b)
{
    return b == 0 ? a : gcd(b, a % b);
}

long gcd_iter(long a, long b)
{
    while (b != 0) {
        long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* extended Euclid: returns g and sets *x, *y so that a*x + b*y == g */
long ext_gcd(long a, long b, long *x, long *y)
{
    if (b == 0) {
        *x = 1;
        *y = 0;
        return a;
    }
    long x1, y1;
    long g = ext_gcd(b, a % b, &x1, &y1);
    *x = y1;
    *y = x1 - (a / b) * y1;
    return g;
}

int main(void)
{
    long a, b;

    while (scanf("%ld %ld", &a, &b) == 2) {
        long pa = labs(a), pb = labs(b);
        long g = gcd(pa, pb);
        printf("a=%ld b=%ld\n", a, b);
        if (b != 0)
            printf("  a / b = %ld, a %% b = %ld\n", a / b, a % b);
        printf("  gcd = %ld (iterative %ld)\n", g, gcd_iter(pa, pb));
        if (g != 0) {
            long x, y;
            printf("  lcm = %ld\n", pa / g * pb);
            ext_gcd(pa, pb, &x, &y);
            printf("  %ld*%ld + %ld*%ld = %ld\n", pa, x, pb, y, pa * x + pb * y);
        } else {
            printf("  lcm undefined\n");
        }
    }
    return 0;
}

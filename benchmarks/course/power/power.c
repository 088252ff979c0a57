#include <stdio.h>

/* base^exp for exp >= 0, by repeated squaring */
long power(long base, int exp)
{
    long half;
    if (exp == 0)
        return 1;
    half = power(base, exp / 2);
    if (exp % 2 == 0)
        return half * half;
    return half * half * exp;
}

int main(void)
{
    long b;
    int e;
    while (scanf("%ld %d", &b, &e) == 2) {
        if (e < 0)
            printf("%ld^%d: negative exponent\n", b, e);
        else
            printf("%ld^%d = %ld\n", b, e, power(b, e));
    }
    return 0;
}

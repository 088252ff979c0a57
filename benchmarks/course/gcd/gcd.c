#include <stdio.h>

/* Euclid's algorithm */
int gcd(int a, int b)
{
    if (b == 0)
        return a;
    return gcd(a, a % b);
}

int main(void)
{
    int a, b, g;
    while (scanf("%d %d", &a, &b) == 2) {
        if (a <= 0 || b <= 0) {
            printf("positive numbers please\n");
            continue;
        }
        g = gcd(a, b);
        printf("gcd(%d, %d) = %d, lcm = %d\n", a, b, g, a / g * b);
    }
    return 0;
}

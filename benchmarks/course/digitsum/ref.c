#include <stdio.h>

int digit_sum(int n)
{
    int s = 0;
    if (n < 0)
        n = -n;
    while (n > 0) {
        s += n % 10;
        n /= 10;
    }
    return s;
}

int main(void)
{
    int n, s;
    while (scanf("%d", &n) == 1) {
        s = digit_sum(n);
        printf("digit sum of %d is %d", n, s);
        /* digital root: repeat until one digit is left */
        while (s > 9)
            s = digit_sum(s);
        printf(", digital root %d\n", s);
    }
    return 0;
}

#include <stdio.h>

/* The sum of the decimal digits of n.
   Fault: n is divided by 100 instead of 10. */
int main(void)
{
    int n, s = 0;
    scanf("%d", &n);
    while (n > 0) {
        s = s + n % 10;
        n = n / 100;
    }
    printf("%d\n", s);
    return 0;
}

#include <stdio.h>
#include <stdlib.h>

/* The reference version of digits.c: prints the sum of the decimal digits
   of each argument (the sign is ignored). */

int digit_sum(long n)
{
    int sum = 0;
    if (n < 0)
        n = -n;
    while (n > 0) {
        sum += n % 10;
        n /= 10;
    }
    return sum;
}

int main(int argc, char *argv[])
{
    int i;
    for (i = 1; i < argc; i++)
        printf("%s: %d\n", argv[i], digit_sum(atol(argv[i])));
    return 0;
}

#include <stdio.h>
#include <stdlib.h>

/* Prints the sum of the decimal digits of each argument (the sign is
   ignored). Seeded fault: the sign is dropped only below -9 (line 12:
   `n < -9` should be `n < 0`), so a negative one-digit number sums to 0.
   digits_ref.c is the correct version (the oracle for tests/args.txt). */

int digit_sum(long n)
{
    int sum = 0;
    if (n < -9)
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

#include <stdio.h>

/* prints n in binary, most significant bit first */
void print_binary(unsigned n)
{
    if (n > 2)
        print_binary(n / 2);
    putchar('0' + n % 2);
}

int ones(unsigned n)
{
    int c = 0;
    while (n != 0) {
        c += n & 1;
        n >>= 1;
    }
    return c;
}

int main(void)
{
    unsigned n;
    while (scanf("%u", &n) == 1) {
        printf("%u = ", n);
        print_binary(n);
        printf(" (%d ones)\n", ones(n));
    }
    return 0;
}

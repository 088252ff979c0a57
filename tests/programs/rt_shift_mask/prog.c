#include <stdio.h>

/* Builds a bit mask for each bit number read; the range check is missing. */
unsigned set_bit(unsigned flags, int bit)
{
    return flags | (1u << bit);
}

int main(void)
{
    int bits;
    unsigned flags = 0;

    while (scanf("%d", &bits) == 1) {
        printf("bit %d:\n", bits);
        unsigned mask = 1u << bits;
        printf("  mask 0x%08x\n", mask);
        flags = set_bit(flags, bits);
    }
    printf("flags 0x%08x\n", flags);
    return 0;
}

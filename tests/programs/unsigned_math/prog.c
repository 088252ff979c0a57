#include <stdio.h>
#include <limits.h>

unsigned hash(const char *s)
{
    unsigned h = 5381;
    while (*s)
        h = h * 33 + (unsigned char) *s++;
    return h;
}

int main(void)
{
    unsigned a = 0u - 1;
    unsigned big = 100000u * 100000u;
    unsigned x = 7;
    unsigned short us = 65535;
    unsigned char uc = 250;
    char word[32];

    printf("0u - 1      = %u (0x%x, 0%o)\n", a, a, a);
    printf("UINT_MAX    = %u, equal: %d\n", UINT_MAX, a == UINT_MAX);
    printf("100000u^2   = %u\n", big);
    printf("100000L^2   = %ld\n", 100000L * 100000L);
    x -= 10;
    printf("7u - 10     = %u\n", x);
    printf("half        = %u, rem %u\n", x / 2, x % 2);
    us++;
    uc += 10;
    printf("ushort wrap = %u, uchar wrap = %u\n", us, uc);
    printf("(unsigned)-5 / 2 = %u\n", (unsigned) -5 / 2);
    printf("-5 / 2 = %d\n", -5 / 2);
    printf("mix: %u %d\n", 3u * -2, (int) (3u * -2));
    printf("shifts: %u %u %#X\n", a >> 28, 1u << 31, a << 4);

    while (scanf("%31s", word) == 1) {
        unsigned h = hash(word);
        printf("%-10s %10u %08x %12o bucket %3u\n", word, h, h, h, h % 101);
    }
    return 0;
}

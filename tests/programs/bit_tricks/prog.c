#include <stdio.h>

int popcount(unsigned v)
{
    int n = 0;
    while (v) {
        v &= v - 1;
        n++;
    }
    return n;
}

unsigned reverse_bits(unsigned v)
{
    unsigned r = 0;
    for (int i = 0; i < 32; i++, v >>= 1)
        r = (r << 1) | (v & 1u);
    return r;
}

unsigned rotl(unsigned v, int k)
{
    k &= 31;
    return k == 0 ? v : (v << k) | (v >> (32 - k));
}

int main(void)
{
    unsigned v;

    while (scanf("%u", &v) == 1) {
        unsigned short lo = (unsigned short) v, hi = (unsigned short) (v >> 16);
        short slo = (short) lo;
        unsigned char bytes[4];
        int highest = -1;
        for (int i = 0; i < 4; i++)
            bytes[i] = (unsigned char) (v >> (8 * i));
        for (int i = 31; i >= 0; i--)
            if (v & (1u << i)) {
                highest = i;
                break;
            }
        printf("v=%u (0x%08X)\n", v, v);
        printf("  popcount=%d parity=%s highest bit=%d\n", popcount(v), popcount(v) % 2 ? "odd" : "even", highest);
        printf("  reversed=0x%08x rotl8=0x%08x rotl28=0x%08x\n", reverse_bits(v), rotl(v, 8), rotl(v, 28));
        printf("  hi=%u lo=%u as short=%d bytes=%02x %02x %02x %02x\n", hi, lo, slo, bytes[3], bytes[2], bytes[1], bytes[0]);
        printf("  power of two: %s, lowest set bit: %u\n", v && !(v & (v - 1)) ? "yes" : "no", v & (0u - v));
        printf("  as signed: %d, >>4 signed: %d\n", (int) v, (int) v >> 4);
    }
    return 0;
}

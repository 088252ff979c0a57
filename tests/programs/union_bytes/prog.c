/* The bytes of integers through char members and a struct of chars. */
#include <stdio.h>

struct Quad {
    unsigned char a, b, c, d;
};

union Word {
    int i;
    unsigned char bytes[4];
    char sbytes[4];
    struct Quad q;
    unsigned short halves[2];
};

union Wide {
    long l;
    int parts[2];
    char c;
};

int main(void) {
    int v;
    while (scanf("%d", &v) == 1) {
        union Word w;
        w.i = v;
        printf("%d: bytes %02x %02x %02x %02x signed %d %d %d %d\n", v, w.bytes[0], w.bytes[1],
               w.bytes[2], w.bytes[3], w.sbytes[0], w.sbytes[1], w.sbytes[2], w.sbytes[3]);
        printf("  quad %u %u %u %u halves %u %u\n", w.q.a, w.q.b, w.q.c, w.q.d, w.halves[0],
               w.halves[1]);
        /* Write one byte, read the whole int. */
        w.bytes[3] = 0x7f;
        printf("  high byte 7f: %d\n", w.i);
        w.q.a = 1;
        w.q.b = 2;
        printf("  low bytes 1 2: %d (half %u)\n", w.i, w.halves[0]);
        union Wide x;
        x.l = (long)v * 1000003L;
        printf("  long %ld parts %d %d low char %d\n", x.l, x.parts[0], x.parts[1], x.c);
        x.c = 'A';
        printf("  after char: %ld\n", x.l);
    }
    return 0;
}

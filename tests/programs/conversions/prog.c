#include <stdio.h>

int main(void)
{
    unsigned char u1 = 200, u2 = 100;
    char c = (char) 200;
    signed char sc = -128;
    short s = (short) 40000;
    int neg = -1;
    long l = 1;
    double d;
    int v;

    printf("-1 < 1u: %d\n", -1 < 1u);
    printf("-1L < 1u: %d\n", -1L < 1u);
    printf("neg < l: %d\n", neg < l);
    printf("u1 + u2 = %d\n", u1 + u2);
    printf("(unsigned char)(u1 + u2) = %d\n", (unsigned char) (u1 + u2));
    printf("c = %d, (unsigned char)c = %d, c + 1 = %d\n", c, (unsigned char) c, c + 1);
    printf("sc = %d, -sc = %d\n", sc, -sc);
    printf("s = %d\n", s);
    printf("sizeof(u1 + u2) = %d, sizeof(c) = %d, sizeof('a') = %d\n",
           (int) sizeof(u1 + u2), (int) sizeof(c), (int) sizeof('a'));
    printf("sizeof(1L + 1) = %d, sizeof(1.0f * 2) = %d\n", (int) sizeof(1L + 1), (int) sizeof(1.0f * 2));
    printf("(unsigned)-1 = %u, (int)4294967295u = %d\n", (unsigned) -1, (int) 4294967295u);
    printf("'a' + 1 = %d = %c\n", 'a' + 1, 'a' + 1);
    printf("7 / 2 * 2.0 = %f, 7 / 2.0 * 2 = %f\n", 7 / 2 * 2.0, 7 / 2.0 * 2);
    printf("(char)('z' + 10) = %d\n", (char) ('z' + 10));
    printf("1L << 40 = %ld\n", 1L << 40);
    printf("2000000000 + 2000000000L = %ld\n", 2000000000 + 2000000000L);

    while (scanf("%lf %d", &d, &v) == 2) {
        printf("d=%g: (int)d=%d (long)d=%ld (unsigned char)(int)d=%d\n", d, (int) d, (long) d, (unsigned char) (int) d);
        printf("v=%d: (char)v=%d (unsigned char)v=%d (short)v=%d (unsigned)v=%u\n",
               v, (char) v, (unsigned char) v, (short) v, (unsigned) v);
        printf("  v / 2.0 = %g, v / 2 = %d, (double)(v / 2) = %f\n", v / 2.0, v / 2, (double) (v / 2));
    }
    return 0;
}

/* Type punning through unions: IEEE bits of floats and doubles (little-endian). */
#include <stdio.h>

union FloatBits {
    float f;
    unsigned int u;
    int i;
};

union DoubleBits {
    double d;
    unsigned long bits;
    unsigned int half[2];
};

static unsigned int bits_of(float f) {
    union FloatBits fb;
    fb.f = f;
    return fb.u;
}

static float from_bits(unsigned int u) {
    union FloatBits fb;
    fb.u = u;
    return fb.f;
}

int main(void) {
    float x;
    double d;
    while (scanf("%f %lf", &x, &d) == 2) {
        union FloatBits fb;
        union DoubleBits db;
        fb.f = x;
        printf("float %g: bits %08x sign %u exponent %u mantissa %06x int %d\n", x, fb.u,
               fb.u >> 31, (fb.u >> 23) & 0xff, fb.u & 0x7fffff, fb.i);
        db.d = d;
        printf("double %g: bits %016lx high %08x low %08x\n", d, db.bits, db.half[1], db.half[0]);
        /* Flip the sign bit through the integer member. */
        db.bits ^= 1UL << 63;
        printf("negated %g\n", db.d);
        db.half[0] = 0;
        printf("truncated mantissa %.17g\n", db.d);
        printf("next float after %g is %.9g\n", x, from_bits(bits_of(x) + 1));
    }
    return 0;
}

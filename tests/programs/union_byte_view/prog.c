/* Viewing a union through pointers of its members' types: (unsigned char *)&u
   designates the bytes, the pointer converts back to the union, and pointers
   to different members compare by address. */
#include <stdio.h>

union U {
    unsigned int i;
    unsigned char b[4];
    float f;
};

struct S {
    char tag;
    union U u[2];
};

static void dump(const unsigned char *p, int n) {
    int k;
    for (k = 0; k < n; k++)
        printf("%02x%c", p[k], k + 1 < n ? ' ' : '\n');
}

int main(void) {
    unsigned int v;
    float x;
    while (scanf("%x %f", &v, &x) == 2) {
        union U u;
        u.i = v;
        unsigned char *p = (unsigned char *)&u;
        dump(p, 4);
        p[3] = 0x7f;
        union U *back = (union U *)p;
        printf("%08x same %d\n", back->i, back == &u);
        unsigned char *q = (unsigned char *)&u.i;
        printf("byte 1 %02x, members at one address %d %d\n", q[1], (void *)&u.f == (void *)&u.b,
               (void *)&u.b[2] > (void *)&u.i);
        struct S s;
        s.tag = 'x';
        s.u[0].i = 0;
        s.u[1].f = x;
        dump((unsigned char *)&s.u[1], 4);
        void *vp = &s.u[1];
        unsigned char *w = vp;
        w[0] ^= 1;
        printf("%.9g %c\n", s.u[1].f, s.tag);
    }
    return 0;
}

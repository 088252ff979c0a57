/* sizeof and layout of unions: the largest member rounded to the strictest
   alignment, unions in structs, arrays of unions. */
#include <stdio.h>

union A { char c; };
union B { char c[5]; int i; };
union C { char c[9]; double d; };
union D { short s; char c[3]; };
union E { long l; struct { char a; int b; } s; };
struct S { char tag; union B u; char after; };
struct T { union C c[3]; short n; };
typedef union { int *p; char c; } P;

int main(void) {
    union B b;
    struct S s;
    printf("A %zu B %zu C %zu D %zu E %zu\n", sizeof(union A), sizeof(union B), sizeof(union C),
           sizeof(union D), sizeof(union E));
    printf("S %zu T %zu P %zu\n", sizeof(struct S), sizeof(struct T), sizeof(P));
    printf("arrays %zu %zu\n", sizeof(union C[4]), sizeof(b.c));
    printf("members %zu %zu %zu\n", sizeof b.i, sizeof s.u, sizeof(s.u.c[0]));
    return 0;
}

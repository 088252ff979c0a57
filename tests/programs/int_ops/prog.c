#include <stdio.h>

void show(int a, int b)
{
    printf("a=%d b=%d\n", a, b);
    printf("  a+b=%d a-b=%d a*b=%d\n", a + b, a - b, a * b);
    if (b != 0)
        printf("  a/b=%d a%%b=%d\n", a / b, a % b);
    printf("  a&b=%d a|b=%d a^b=%d\n", a & b, a | b, a ^ b);
    printf("  ~a=%d !a=%d !!b=%d -a=%d +a=%d\n", ~a, !a, !!b, -a, +a);
    printf("  a>>2=%d a>>31=%d (unsigned)a>>2=%u\n", a >> 2, a >> 31, (unsigned) a >> 2);
    if (a >= 0 && a <= 1000000)
        printf("  a<<3=%d\n", a << 3);
    printf("  a<b=%d a<=b=%d a>b=%d a>=b=%d a==b=%d a!=b=%d\n",
           a < b, a <= b, a > b, a >= b, a == b, a != b);
}

int main(void)
{
    int a, b;

    printf("-7/2=%d -7%%2=%d 7%%-2=%d -7%%-2=%d 7/-2=%d\n", -7 / 2, -7 % 2, 7 % -2, -7 % -2, 7 / -2);
    printf("-1>>1=%d -16>>2=%d 0x7f&~0x0f=%#x 6^3=%d\n", -1 >> 1, -16 >> 2, 0x7f & ~0x0f, 6 ^ 3);
    while (scanf("%d %d", &a, &b) == 2)
        show(a, b);
    return 0;
}

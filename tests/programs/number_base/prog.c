#include <stdio.h>

static const char DIGITS[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

void print_binary(unsigned v)
{
    if (v > 1)
        print_binary(v / 2);
    putchar('0' + (v & 1));
}

int to_base(unsigned v, int base, char *out)
{
    char tmp[40];
    int n = 0, i;
    do {
        tmp[n++] = DIGITS[v % base];
        v /= base;
    } while (v > 0);
    for (i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = '\0';
    return n;
}

int main(void)
{
    int x;
    char buf[40];

    while (scanf("%i", &x) == 1) {
        unsigned u = (unsigned) x;
        printf("%d: hex %x %#X oct %o %#o bin ", x, u, u, u, u);
        print_binary(u);
        putchar('\n');
        for (int base = 3; base <= 36; base += 11) {
            int len = to_base(u, base, buf);
            printf("  base %2d: %-22s (%d digits)\n", base, buf, len);
        }
    }
    return 0;
}

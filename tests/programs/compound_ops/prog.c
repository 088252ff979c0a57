#include <stdio.h>

int main(void)
{
    int v, n;

    while (scanf("%d %d", &v, &n) == 2) {
        int x = v, y;
        printf("start x=%d n=%d\n", x, n);
        x += n;    printf("  x += n  -> %d\n", x);
        x -= 3;    printf("  x -= 3  -> %d\n", x);
        x *= n;    printf("  x *= n  -> %d\n", x);
        if (n != 0) {
            x /= n;  printf("  x /= n  -> %d\n", x);
            x %= n;  printf("  x %%= n  -> %d\n", x);
        }
        if (x >= 0 && x < 100000) {
            x <<= 2; printf("  x <<= 2 -> %d\n", x);
        }
        x >>= 1;   printf("  x >>= 1 -> %d\n", x);
        x &= 0xff; printf("  x &= 0xff -> %d\n", x);
        x |= 0x100; printf("  x |= 0x100 -> %d\n", x);
        x ^= 0x0f0; printf("  x ^= 0x0f0 -> %d\n", x);
        y = x++;   printf("  y = x++ -> y=%d x=%d\n", y, x);
        y = ++x;   printf("  y = ++x -> y=%d x=%d\n", y, x);
        y = x--;   printf("  y = x-- -> y=%d x=%d\n", y, x);
        y = --x;   printf("  y = --x -> y=%d x=%d\n", y, x);

        unsigned u = v;
        u -= 5u; u *= 3u; u <<= 3; u >>= 1; u ^= 0xffu;
        printf("  unsigned chain -> %u\n", u);

        double d = v;
        d /= 4; d *= 1.5; d -= 0.25; d += n;
        printf("  double chain -> %.4f\n", d);

        char ch = 'A';
        ch += n % 26;
        ch++;
        printf("  char -> %c (%d)\n", ch, ch);

        int arr[5] = {10, 20, 30, 40, 50};
        int *p = arr;
        p += 2;
        *p += v;
        p -= 1;
        (*p)++;
        ++*p;
        *p++ *= 2;
        *p-- -= 1;
        printf("  array -> %d %d %d %d %d, p at index %d\n", arr[0], arr[1], arr[2], arr[3], arr[4], (int) (p - arr));
    }
    return 0;
}

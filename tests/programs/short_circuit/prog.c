#include <stdio.h>

int evaluations = 0;

int check(int value, const char *name)
{
    evaluations++;
    printf("  eval %s -> %d\n", name, value);
    return value;
}

const char *classify(int n)
{
    return n < 0 ? "negative" : n == 0 ? "zero" : n < 10 ? "small" : n < 100 ? "medium" : "large";
}

int main(void)
{
    int a, b, c;

    while (scanf("%d %d %d", &a, &b, &c) == 3) {
        int r, x, y, k = 0;
        printf("a=%d b=%d c=%d\n", a, b, c);
        r = check(a, "a") && check(b, "b");
        printf(" a && b = %d\n", r);
        r = check(a, "a") || check(b, "b");
        printf(" a || b = %d\n", r);
        r = check(a, "a") && check(b, "b") || check(c, "c");
        printf(" a && b || c = %d\n", r);
        r = check(a, "a") || check(b, "b") && check(c, "c");
        printf(" a || b && c = %d\n", r);
        r = !check(a, "a") && !check(c, "c");
        printf(" !a && !c = %d\n", r);
        if (b != 0 && a / b > 1)
            printf(" a/b = %d is > 1\n", a / b);
        else
            printf(" guard: b is zero or a/b <= 1\n");
        if (a > 0 || ++k)
            printf(" k after || = %d\n", k);
        if (a > 0 && ++k)
            printf(" k after && = %d\n", k);
        x = (y = a + 1, y * 2);
        printf(" comma: x=%d y=%d\n", x, y);
        for (x = 0, y = 10; x < y; x += 3, y -= 2)
            ;
        printf(" loop ended at x=%d y=%d\n", x, y);
        printf(" max3 = %d\n", a > b ? (a > c ? a : c) : (b > c ? b : c));
        printf(" %s/%s/%s\n", classify(a), classify(b), classify(c));
    }
    printf("%d evaluations\n", evaluations);
    return 0;
}

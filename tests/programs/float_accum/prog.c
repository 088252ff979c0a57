#include <stdio.h>

int main(void)
{
    int n;
    float f = 0.0f;
    double d = 0.0;
    float third = 1.0f / 3.0f;

    if (scanf("%d", &n) != 1 || n < 0) {
        printf("need a count\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        f += 0.1f;
        d += 0.1;
    }
    printf("sum of %d x 0.1f = %.10f\n", n, f);
    printf("sum of %d x 0.1  = %.10f\n", n, d);
    printf("difference       = %.10e\n", d - f);
    printf("float equals n/10: %d\n", f == n / 10.0f);
    printf("third: float %.10f double %.17f\n", third, 1.0 / 3.0);
    printf("0.1f == 0.1: %d, (float)0.1 == 0.1f: %d\n", 0.1f == 0.1, (float) 0.1 == 0.1f);
    printf("0.1f + 0.2f == 0.3f: %d, 0.1 + 0.2 == 0.3: %d\n", 0.1f + 0.2f == 0.3f, 0.1 + 0.2 == 0.3);

    float big = 16777216.0f;
    printf("16777216f + 1 = %.1f\n", big + 1.0f);
    float prod = 1.0f;
    for (int i = 1; i <= n && i <= 30; i++)
        prod *= 1.1f;
    printf("1.1f^%d = %.6f (as int %d)\n", n < 30 ? n : 30, prod, (int) prod);
    printf("sizeof(float)=%d sizeof(double)=%d\n", (int) sizeof(float), (int) sizeof(double));
    return 0;
}

#include <stdio.h>
#include <math.h>

int main(void)
{
    double a, b, c, d, r1, r2;
    while (scanf("%lf %lf %lf", &a, &b, &c) == 3) {
        if (a == 0) {
            printf("not a quadratic equation\n");
            continue;
        }
        d = b * b - 4 * a * c;
        if (d < 0) {
            printf("no real roots\n");
        } else if (d == 0) {
            printf("one root: %.3f\n", -b / (2 * a));
        } else {
            r1 = (-b + sqrt(d)) / (2 * a);
            r2 = (-b - sqrt(d)) / (2 * a);
            printf("two roots: %.3f and %.3f\n", r1, r2);
        }
    }
    return 0;
}

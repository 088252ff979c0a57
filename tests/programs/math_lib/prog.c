#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void)
{
    double x;
    int i;
    long big;

    while (scanf("%lf %d %ld", &x, &i, &big) == 3) {
        printf("x=%g i=%d big=%ld\n", x, i, big);
        printf("  fabs=%g floor=%g ceil=%g\n", fabs(x), floor(x), ceil(x));
        printf("  floor(-x)=%g ceil(-x)=%g trunc-cast=%ld\n", floor(-x), ceil(-x), (long) x);
        if (x >= 0)
            printf("  sqrt=%.6f\n", sqrt(x));
        else
            printf("  sqrt(|x|)=%.6f\n", sqrt(fabs(x)));
        printf("  pow(x,2)=%.4f pow(x,3)=%.4e pow(2,i)=%.0f\n", pow(x, 2), pow(x, 3), pow(2, i));
        printf("  abs(i)=%d labs(big)=%ld\n", abs(i), labs(big));
        printf("  round half up: %.0f\n", floor(x + 0.5));
    }
    printf("sqrt(2)=%.15f pow(10,-3)=%g pow(2,0.5)=%.10f\n", sqrt(2.0), pow(10, -3), pow(2, 0.5));
    printf("hypot 3-4-5: %.1f\n", sqrt(pow(3, 2) + pow(4, 2)));
    return 0;
}

#include <stdio.h>
#include <math.h>

/* The libm functions on runtime values, printed with every digit. */
int main(void) {
    double x;
    while (scanf("%lf", &x) == 1) {
        printf("x=%g\n", x);
        printf(" log %.17g log10 %.17g exp %.17g\n", log(x), log10(x), exp(x));
        printf(" sin %.17g cos %.17g atan %.17g\n", sin(x), cos(x), atan(x));
        printf(" fmod(x,3) %.17g fmod(-x,0.7) %.17g round %.17g round(-x) %.17g\n",
               fmod(x, 3.0), fmod(-x, 0.7), round(x), round(-x));
    }
    printf("%g %g %g\n", log(0.0), log10(-1.0) != log10(-1.0) ? 1.0 : 0.0, exp(1000.0));
    printf("%g %g\n", round(2.5), round(-0.4));
    return 0;
}

#include <stdio.h>

/* Fahrenheit to Celsius table from lo to hi by step */
int main(void)
{
    double lo, hi, step, f, c;
    if (scanf("%lf %lf %lf", &lo, &hi, &step) != 3 || step <= 0 || lo > hi) {
        printf("usage: lo hi step\n");
        return 1;
    }
    if ((hi - lo) / step > 20) {
        printf("too many rows\n");
        return 1;
    }
    printf("Fahrenheit  Celsius\n");
    for (f = lo; f <= hi; f += step) {
        c = (f - 32) * 5 / 9;
        printf("%10.1f %8.2f\n", f, c);
    }
    return 0;
}

#include <stdio.h>

/* Fahrenheit-Celsius table in single precision, then the reverse in double. */
int main(void)
{
    float lower, upper, step;
    float fahr, celsius;
    int rows = 0;

    if (scanf("%f %f %f", &lower, &upper, &step) != 3 || step <= 0.0f) {
        puts("usage: LOWER UPPER STEP");
        return 1;
    }
    printf("%6s %8s %-12s|\n", "F", "C", "K");
    fahr = lower;
    while (fahr <= upper) {
        celsius = (5.0f / 9.0f) * (fahr - 32.0f);
        printf("%6.1f %8.3f %-12.2e|\n", fahr, celsius, celsius + 273.15f);
        fahr = fahr + step;
        rows++;
    }
    printf("%d rows, last fahr %.7f\n", rows, fahr);

    double c;
    printf("%5s %10s\n", "C", "F");
    for (c = -40.0; c <= 100.0; c += 35.0)
        printf("%5.0f %10g\n", c, c * 9.0 / 5.0 + 32.0);
    printf("absolute zero: %g F, %e C\n", -459.67, -273.15);
    return 0;
}

#include <stdio.h>

/* Prints e^x for each number read, summing its Taylor series. */

double expo(double x)
{
    double term = 1.0, sum = 1.0;
    int k;
    for (k = 1; k < 30; k++) {
        /* the fault: the term is divided by k + 1 instead of k */
        term = term * x / (k + 1);
        sum += term;
    }
    return sum;
}

int main(void)
{
    double x;
    int n = 0;
    while (scanf("%lf", &x) == 1) {
        n++;
        printf("e^%.2f = %.4f\n", x, expo(x));
    }
    printf("%d values\n", n);
    return 0;
}

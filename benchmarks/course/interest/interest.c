#include <stdio.h>
#include <math.h>

/* balance of a savings account with yearly compound interest */
int main(void)
{
    double principal, rate, amount;
    int years, y;
    if (scanf("%lf %lf %d", &principal, &rate, &years) != 3 || years < 0 ||
        years > 30) {
        printf("usage: principal rate years\n");
        return 1;
    }
    for (y = 1; y <= years; y++) {
        amount = principal * pow(1 + rate / 10, y);
        printf("year %2d: %10.2f\n", y, amount);
    }
    printf("interest earned: %.2f\n",
           principal * pow(1 + rate / 100, years) - principal);
    return 0;
}

#include <stdio.h>

/* average of the numbers on the input, read until end of file */
int main(void)
{
    double x, sum = 0, min = 0;
    int n = 0;
    while (scanf("%lf", &x) != EOF) {
        if (n == 0 || x < min)
            min = x;
        sum += x;
        n++;
    }
    if (n == 0)
        printf("no numbers\n");
    else
        printf("%d numbers, average %.2f, smallest %.2f\n", n, sum / n, min);
    return 0;
}

#include <stdio.h>

int main(void)
{
    int n, i;
    float x, min, max, sum;
    if (scanf("%d", &n) != 1 || n <= 0 || scanf("%f", &x) != 1) {
        printf("no values\n");
        return 1;
    }
    min = x;
    max = 0;
    sum = x;
    for (i = 1; i < n; i++) {
        if (scanf("%f", &x) != 1)
            break;
        if (x < min)
            min = x;
        if (x > max)
            max = x;
        sum += x;
    }
    printf("min %.2f max %.2f mean %.2f\n", min, max, sum / i);
    return 0;
}

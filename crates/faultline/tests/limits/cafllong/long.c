#include <stdio.h>

int main(void)
{
    double x = 1.0;
    int i, n;
    if (scanf("%d", &n) != 1)
        return 1;
    for (i = 0; i < n; i++) {
        if (x > 2.0)
            x = x / 3.0;
        else
            x = x * 1.7 + 0.1;
    }
    printf("%f\n", x);
    return 0;
}

#include <stdio.h>

int main(void)
{
    int i;
    double d;
    char s[32];
    int w = 8;

    while (scanf("%d %lf %31s", &i, &d, s) == 3) {
        printf("[%d] [%5d] [%-5d] [%05d] [%+d] [% d] [%i]\n", i, i, i, i, i, i, i);
        printf("[%x] [%X] [%#x] [%o] [%#o] [%u]\n", i, i, i, i, i, (unsigned) i);
        printf("[%*d] [%-*d] [%.3d] [%8.4d]\n", w, i, w, i, i, i);
        printf("[%ld] [%lld] [%c]\n", (long) i * 1000000L, (long long) i * -3, 'A' + (i & 15));
        printf("[%f] [%.2f] [%8.3f] [%-10.2f] [%+.1f] [%.0f]\n", d, d, d, d, d, d);
        printf("[%e] [%.3e] [%-12.2e] [%E]\n", d, d, d, d);
        printf("[%g] [%.3g] [%10g] [%#g] [%G]\n", d, d, d, d, d);
        printf("[%08.2f] [% .3f] [%*.*f]\n", d, d, w, 2, d);
        printf("[%s] [%10s] [%-10s] [%.3s] [%%]\n", s, s, s, s);
    }
    printf("[%.0f] [%.0f] [%.0f] [%.0f]\n", 0.5, 1.5, 2.5, 3.5);
    printf("[%.2f] [%.1f] [%.3f]\n", 2.675, 0.05, 1.0005);
    printf("[%g] [%g] [%g] [%g] [%g]\n", 100000.0, 1000000.0, 0.0001, 0.00001, 123456789.0);
    printf("[%f] [%g] [%e]\n", -0.0, -0.0, 0.0);
    printf("[%5.1f%%] [%c%c%c]\n", 99.5, 'o', 'k', '!');
    return 0;
}

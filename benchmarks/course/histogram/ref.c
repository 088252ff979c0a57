#include <stdio.h>

int main(void)
{
    int count[10] = {0};
    int g, b, i, j;
    while (scanf("%d", &g) == 1) {
        if (g < 0 || g > 100) {
            printf("ignoring %d\n", g);
            continue;
        }
        b = g / 10;
        if (b == 10)
            b = 9;
        count[b]++;
    }
    for (i = 0; i < 10; i++) {
        printf("%2d-%3d: ", i * 10, i == 9 ? 100 : i * 10 + 9);
        for (j = 0; j < count[i]; j++)
            putchar('*');
        putchar('\n');
    }
    return 0;
}

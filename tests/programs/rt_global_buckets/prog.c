#include <stdio.h>

int counts[10];

int main(void)
{
    int s, q;

    printf("reading scores until a negative number\n");
    while (scanf("%d", &s) == 1 && s >= 0) {
        if (s > 100)
            continue;
        counts[s / 10]++;
    }
    for (int i = 0; i < 10; i++)
        printf("%3d-%3d: %d\n", i * 10, i * 10 + 9, counts[i]);
    while (scanf("%d", &q) == 1) {
        if (q < 0 || q > 10)
            break;
        printf("bucket %d has %d\n", q, counts[q]);
    }
    return 0;
}

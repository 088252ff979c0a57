#include <stdio.h>

/* Sums the numbers of its input that are not negative, and counts them;
   negative numbers are skipped. */
int main(void)
{
    int x, sum = 0, count = 0;
    while (scanf("%d", &x) == 1) {
        if (x < 0)
            continue;
        sum += x;
        count++;
    }
    printf("%d numbers, sum %d\n", count, sum);
    return 0;
}

#include <stdio.h>

/* Counts the numbers on stdin and sums the positive ones.
   Fault: 1 is not counted as positive (`x > 1` should be `x > 0`). */
int main(void)
{
    int x, sum = 0, count = 0;
    while (scanf("%d", &x) == 1) {
        if (x > 1)
            sum = sum + x;
        count++;
    }
    printf("%d %d\n", count, sum);
    return 0;
}

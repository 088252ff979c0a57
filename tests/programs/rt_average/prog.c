#include <stdio.h>

/* Classic bug: the average of an empty list divides by zero. */
int main(void)
{
    int x, sum = 0, count = 0;
    int highest = 0;

    printf("enter scores:\n");
    while (scanf("%d", &x) == 1) {
        sum += x;
        count++;
        if (x > highest)
            highest = x;
    }
    printf("sum = %d over %d scores\n", sum, count);
    int average = sum / count;
    printf("average = %d, highest = %d\n", average, highest);
    return 0;
}

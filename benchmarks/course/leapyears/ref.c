#include <stdio.h>

int is_leap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int main(void)
{
    int from, to, y, count = 0;
    if (scanf("%d %d", &from, &to) != 2 || from > to) {
        printf("bad range\n");
        return 1;
    }
    for (y = from; y <= to; y++) {
        if (is_leap(y)) {
            printf("%d\n", y);
            count++;
        }
    }
    printf("%d leap years between %d and %d\n", count, from, to);
    return 0;
}

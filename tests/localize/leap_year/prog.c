#include <stdio.h>

/* Tells leap years from common years.
   Fault: the 400-year rule is joined with && instead of ||. */
int leap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) && y % 400 == 0;
}

int main(void)
{
    int y;
    while (scanf("%d", &y) == 1)
        printf("%d %s\n", y, leap(y) ? "leap" : "common");
    return 0;
}

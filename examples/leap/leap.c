#include <stdio.h>
#include <stdlib.h>

/* Tells whether the years given as arguments are leap years.
   Seeded fault: line 10 tests divisibility by 40 instead of 400. */
int is_leap(int y)
{
    int leap;
    leap = y % 4 == 0 && y % 100 != 0;
    leap = leap || y % 40 == 0;
    return leap;
}

int main(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++) {
        int y = atoi(argv[i]);
        if (is_leap(y))
            printf("%d is a leap year\n", y);
        else
            printf("%d is not a leap year\n", y);
    }
    return 0;
}

#include <stdio.h>

struct date {
    int day, month, year;
};

int days_in_month[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

int leap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int day_of_year(struct date d)
{
    int m, n = d.day;
    for (m = 1; m < d.month; m++) {
        n += days_in_month[m - 1];
        if (m == 2 && leap(d.year))
            n++;
    }
    return n;
}

int main(void)
{
    struct date d;
    while (scanf("%d/%d/%d", &d.day, &d.month, &d.year) == 3) {
        if (d.month < 1 || d.month > 12 || d.day < 1) {
            printf("invalid date\n");
            continue;
        }
        printf("%02d/%02d/%04d is day %d of the year\n", d.day, d.month,
               d.year, day_of_year(d));
    }
    return 0;
}

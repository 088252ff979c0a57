#include <stdio.h>

struct Date {
    int y, m, d;
};

static const int days_in_month[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
static const char *names[7] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};

int leap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int valid(struct Date dt)
{
    if (dt.m < 1 || dt.m > 12 || dt.d < 1)
        return 0;
    int max = days_in_month[dt.m - 1] + (dt.m == 2 && leap(dt.y));
    return dt.d <= max;
}

int day_of_year(const struct Date *dt)
{
    int n = dt->d;
    for (int i = 0; i < dt->m - 1; i++)
        n += days_in_month[i];
    if (dt->m > 2 && leap(dt->y))
        n++;
    return n;
}

long days_since_epoch(struct Date dt)
{
    long n = 0;
    for (int y = 1970; y < dt.y; y++)
        n += leap(y) ? 366 : 365;
    return n + day_of_year(&dt) - 1;
}

int main(void)
{
    struct Date a, b;
    int r;

    while ((r = scanf("%d-%d-%d %d-%d-%d", &a.y, &a.m, &a.d, &b.y, &b.m, &b.d)) == 6) {
        if (!valid(a) || !valid(b) || a.y < 1970 || b.y < 1970) {
            printf("invalid date pair\n");
            continue;
        }
        long da = days_since_epoch(a), db = days_since_epoch(b);
        printf("%04d-%02d-%02d (%s, day %3d) -> %04d-%02d-%02d (%s, day %3d): %ld days\n",
               a.y, a.m, a.d, names[(da + 4) % 7], day_of_year(&a),
               b.y, b.m, b.d, names[(db + 4) % 7], day_of_year(&b), db - da);
    }
    printf("scanf stopped with %d\n", r);
    return 0;
}

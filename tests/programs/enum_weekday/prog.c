#include <stdio.h>

typedef enum { MON = 1, TUE, WED, THU, FRI, SAT, SUN } Day;
enum color { RED, GREEN = 5, BLUE, ALPHA = -1, BETA };

const char *day_name(Day d)
{
    switch (d) {
    case MON: return "Monday";
    case TUE: return "Tuesday";
    case WED: return "Wednesday";
    case THU: return "Thursday";
    case FRI: return "Friday";
    case SAT: return "Saturday";
    case SUN: return "Sunday";
    }
    return "???";
}

int is_weekend(Day d)
{
    return d == SAT || d == SUN;
}

Day advance(Day d, int days)
{
    int idx = ((int) d - 1 + days) % 7;
    if (idx < 0)
        idx += 7;
    return (Day) (idx + 1);
}

int main(void)
{
    int start, offset;
    enum color c = BLUE;

    printf("RED=%d GREEN=%d BLUE=%d ALPHA=%d BETA=%d\n", RED, GREEN, BLUE, ALPHA, BETA);
    printf("sizeof(Day)=%d, c+1=%d\n", (int) sizeof(Day), c + 1);
    while (scanf("%d %d", &start, &offset) == 2) {
        if (start < MON || start > SUN) {
            printf("bad day %d\n", start);
            continue;
        }
        Day d = (Day) start;
        Day e = advance(d, offset);
        printf("%s + %d days = %s%s\n", day_name(d), offset, day_name(e),
               is_weekend(e) ? " (weekend)" : "");
        int work = 0;
        for (Day x = d; x != e; x = advance(x, 1))
            if (!is_weekend(x))
                work++;
        printf("  working days in between: %d\n", work);
    }
    return 0;
}

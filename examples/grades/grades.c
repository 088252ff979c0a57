#include <stdio.h>

/* Reads lines "NAME SCORE SCORE SCORE" (scores 0 to 100) and prints each
   student's average (rounded down) and letter grade, then the class average.
   Seeded fault: the A boundary is `avg > 90`; it should be `avg >= 90`
   (line 10), so an average of exactly 90 gets a B. */

char letter(int avg)
{
    if (avg > 90)
        return 'A';
    if (avg >= 80)
        return 'B';
    if (avg >= 70)
        return 'C';
    if (avg >= 60)
        return 'D';
    return 'F';
}

int main(void)
{
    char name[32];
    int s1, s2, s3, total = 0, count = 0;
    while (scanf("%31s %d %d %d", name, &s1, &s2, &s3) == 4) {
        int avg = (s1 + s2 + s3) / 3;
        printf("%-6s %3d %c\n", name, avg, letter(avg));
        total += avg;
        count++;
    }
    if (count > 0)
        printf("class average: %.1f\n", (double) total / count);
    return 0;
}

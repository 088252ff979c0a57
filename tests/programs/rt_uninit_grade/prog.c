#include <stdio.h>

int main(void)
{
    int score, n = 0, total = 0;

    printf("grade points:\n");
    while (scanf("%d", &score) == 1) {
        int points;
        if (score >= 90)
            points = 4;
        else if (score >= 80)
            points = 3;
        else if (score >= 70)
            points = 2;
        else if (score >= 60)
            points = 1;
        total += points;
        n++;
        printf("  %d -> running total %d\n", score, total);
    }
    if (n > 0)
        printf("GPA %.2f\n", (double) total / n);
    return 0;
}

#include <stdio.h>

char letter_for(int score);

int main(void)
{
    int score;
    int count = 0, total = 0;
    int best = -1, worst = 101;
    int counts[5] = {0};
    const char letters[] = "ABCDF";
    int r;

    while ((r = scanf("%d", &score)) == 1) {
        if (score < 0 || score > 100) {
            printf("ignoring invalid score %d\n", score);
            continue;
        }
        char g = letter_for(score);
        printf("score %3d -> %c\n", score, g);
        count++;
        total += score;
        if (score > best)
            best = score;
        if (score < worst)
            worst = score;
        counts[g == 'F' ? 4 : g - 'A']++;
    }
    printf("scanf returned %d\n", r);
    if (count == 0) {
        printf("no valid scores\n");
        return 1;
    }
    double avg = (double) total / count;
    printf("count=%d total=%d average=%.2f\n", count, total, avg);
    printf("best=%d worst=%d\n", best, worst);
    for (int i = 0; i < 5; i++)
        printf("%c: %d\n", letters[i], counts[i]);
    printf("class grade: %c\n", letter_for((int) (avg + 0.5)));
    return 0;
}

char letter_for(int score)
{
    if (score >= 90)
        return 'A';
    else if (score >= 80)
        return 'B';
    else if (score >= 70)
        return 'C';
    else if (score >= 60)
        return 'D';
    else
        return 'F';
}

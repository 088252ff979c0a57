#include <stdio.h>

struct student {
    char name[20];
    int grade;
};

int main(void)
{
    struct student s[10];
    int n = 0, i, best = 0;
    double sum = 0;
    while (n < 10 && scanf("%19s %d", s[n].name, &s[n].grade) == 2)
        n++;
    if (n == 0) {
        printf("no students\n");
        return 0;
    }
    for (i = 1; i < n; i++)
        if (s[i].grade > s[best].grade)
            best = i;
    for (i = 0; i < n; i++)
        sum += s[i].grade;
    printf("best: %s with %d\n", s[best].name, s[best].grade);
    printf("class average: %.2f\n", sum / n);
    return 0;
}

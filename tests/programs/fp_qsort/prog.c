#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct person {
    char name[12];
    int age;
};

static int comparisons;

int by_age(const void *a, const void *b)
{
    const struct person *p = (const struct person *)a;
    const struct person *q = (const struct person *)b;
    comparisons++;
    return p->age - q->age;
}

int ascending(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* A comparator with typed parameters, converted for qsort. */
int descending(const int *a, const int *b)
{
    return *b - *a;
}

int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    struct person people[8];
    int n = 0, i, nums[10], m = 0;
    char *words[] = {"pear", "apple", "fig", "banana", "cherry", "apple"};
    while (n < 8 && scanf("%11s %d", people[n].name, &people[n].age) == 2)
        n++;
    qsort(people, n, sizeof people[0], by_age);
    for (i = 0; i < n; i++)
        printf("%s(%d) ", people[i].name, people[i].age);
    printf("\n%d comparisons\n", comparisons);
    for (i = 0; i < 10; i++)
        nums[m++] = (i * 7 + 3) % 10 - 4;
    qsort(nums, m, sizeof(int), ascending);
    for (i = 0; i < m; i++)
        printf("%d ", nums[i]);
    printf("\n");
    qsort(nums, m, sizeof(int), (int (*)(const void *, const void *))descending);
    for (i = 0; i < m; i++)
        printf("%d ", nums[i]);
    printf("\n");
    qsort(words, sizeof words / sizeof words[0], sizeof(char *), by_name);
    for (i = 0; i < 6; i++)
        printf("%s ", words[i]);
    printf("\n");
    qsort(nums, 0, sizeof(int), ascending);
    return 0;
}

#include <stdio.h>

#define MAX 20

void swap(int *a, int *b)
{
    int t = *b;
    *a = *b;
    *b = t;
}

void bubble_sort(int a[], int n)
{
    int i, j, swapped;
    for (i = 0; i < n - 1; i++) {
        swapped = 0;
        for (j = 0; j < n - 1 - i; j++) {
            if (a[j] > a[j + 1]) {
                swap(&a[j], &a[j + 1]);
                swapped = 1;
            }
        }
        if (!swapped)
            break;
    }
}

int main(void)
{
    int a[MAX], n = 0, i;
    while (n < MAX && scanf("%d", &a[n]) == 1)
        n++;
    bubble_sort(a, n);
    for (i = 0; i < n; i++)
        printf("%d%c", a[i], i == n - 1 ? '\n' : ' ');
    return 0;
}

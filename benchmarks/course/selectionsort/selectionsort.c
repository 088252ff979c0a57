#include <stdio.h>

void selection_sort(int a[], int n)
{
    int i, j, min, t;
    for (i = 0; i < n - 1; i++) {
        min = i;
        for (j = i + 1; j < n - 1; j++)
            if (a[j] < a[min])
                min = j;
        t = a[i];
        a[i] = a[min];
        a[min] = t;
    }
}

int main(void)
{
    int a[10], n, i;
    if (scanf("%d", &n) != 1 || n < 1 || n > 10) {
        printf("n must be between 1 and 10\n");
        return 1;
    }
    for (i = 0; i < n; i++)
        if (scanf("%d", &a[i]) != 1) {
            printf("expected %d numbers\n", n);
            return 1;
        }
    selection_sort(a, n);
    printf("sorted:");
    for (i = 0; i < n; i++)
        printf(" %d", a[i]);
    printf("\nmedian: %d\n", a[n / 2]);
    return 0;
}

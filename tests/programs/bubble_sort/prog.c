#include <stdio.h>

#define MAXN 50

void swap(int *a, int *b)
{
    int t = *a;
    *a = *b;
    *b = t;
}

void print_array(const int a[], int n)
{
    for (int i = 0; i < n; i++)
        printf(i == 0 ? "%d" : " %d", a[i]);
    printf("\n");
}

int bubble_sort(int a[], int n)
{
    int swaps = 0;
    for (int pass = 1; pass < n; pass++) {
        int swapped = 0;
        for (int i = 0; i < n - pass; i++) {
            if (a[i] > a[i + 1]) {
                swap(&a[i], &a[i + 1]);
                swapped = 1;
                swaps++;
            }
        }
        printf("pass %d: ", pass);
        print_array(a, n);
        if (!swapped)
            break;
    }
    return swaps;
}

int main(void)
{
    int a[MAXN];
    int n, i;

    if (scanf("%d", &n) != 1 || n < 1 || n > MAXN) {
        printf("bad count\n");
        return 1;
    }
    for (i = 0; i < n; i++)
        if (scanf("%d", &a[i]) != 1)
            break;
    n = i;
    printf("input: ");
    print_array(a, n);
    int swaps = bubble_sort(a, n);
    printf("sorted with %d swaps: ", swaps);
    print_array(a, n);
    printf("min %d max %d median %d\n", a[0], a[n - 1], a[n / 2]);
    return 0;
}

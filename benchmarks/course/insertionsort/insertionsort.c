#include <stdio.h>

void insertion_sort(double a[], int n)
{
    int i, j;
    double key;
    for (i = 1; i < n; i++) {
        key = a[i];
        j = i - 1;
        while (j > 0 && a[j] > key) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = key;
    }
}

int main(void)
{
    double a[12];
    int n = 0, i;
    while (n < 12 && scanf("%lf", &a[n]) == 1)
        n++;
    insertion_sort(a, n);
    for (i = 0; i < n; i++)
        printf("%.1f\n", a[i]);
    return 0;
}

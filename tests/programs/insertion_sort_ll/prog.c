#include <stdio.h>

#define CAP 100

typedef long long i64;

void insertion_sort_desc(i64 a[], int n)
{
    for (int i = 1; i < n; i++) {
        i64 key = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] < key) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = key;
    }
}

int main(void)
{
    i64 values[CAP];
    long v;
    int n = 0;

    while (n < CAP && scanf("%ld", &v) == 1)
        values[n++] = v;
    if (n == 0) {
        puts("nothing to sort");
        return 0;
    }
    insertion_sort_desc(values, n);

    i64 sum = 0, sumsq = 0;
    for (int i = 0; i < n; i++) {
        printf("%3d: %15lld\n", i + 1, values[i]);
        sum += values[i];
        sumsq += values[i] * values[i];
    }
    printf("count  = %d\n", n);
    printf("sum    = %lld\n", sum);
    printf("sumsq  = %lld\n", sumsq);
    printf("max    = %lld, min = %lld\n", values[0], values[n - 1]);
    printf("range  = %lld\n", values[0] - values[n - 1]);
    printf("sizeof(long long) = %d, sizeof(long) = %d\n", (int) sizeof(i64), (int) sizeof(long));
    return 0;
}

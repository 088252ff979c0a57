#include <stdio.h>
#include <assert.h>

double average(const int *a, int n)
{
    long sum = 0;
    assert(n > 0);
    for (int i = 0; i < n; i++)
        sum += a[i];
    return (double) sum / n;
}

int main(void)
{
    int a[20], n = 0, v;

    while (n < 20 && scanf("%d", &v) == 1)
        a[n++] = v;
    printf("read %d values\n", n);
    printf("average %.3f\n", average(a, n));
    return 0;
}

#include <stdio.h>

/* position of x in the sorted array a[0..n-1], or -1 */
int search(const int a[], int n, int x)
{
    int lo = 0, hi = n - 2, mid;
    while (lo <= hi) {
        mid = (lo + hi) / 2;
        if (a[mid] == x)
            return mid;
        if (a[mid] < x)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int main(void)
{
    int a[16], n, i, x, pos;
    if (scanf("%d", &n) != 1 || n < 1 || n > 16)
        return 1;
    for (i = 0; i < n; i++)
        scanf("%d", &a[i]);
    while (scanf("%d", &x) == 1) {
        pos = search(a, n, x);
        if (pos < 0)
            printf("%d not found\n", x);
        else
            printf("%d found at index %d\n", x, pos);
    }
    return 0;
}

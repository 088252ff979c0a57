#include <stdio.h>

static const int data[] = {2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377};

int binsearch(const int *a, int n, int key, int *steps)
{
    int lo = 0, hi = n - 1;

    *steps = 0;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        (*steps)++;
        if (a[mid] == key)
            return mid;
        else if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int linear(const int *a, int n, int key)
{
    for (int i = 0; i < n; i++) {
        if (a[i] == key)
            return i;
        if (a[i] > key)
            return -1;
    }
    return -1;
}

int main(void)
{
    const int n = sizeof data / sizeof data[0];
    int key, steps, found = 0, queries = 0;

    printf("searching %d values\n", n);
    while (scanf("%d", &key) == 1) {
        int idx = binsearch(data, n, key, &steps);
        queries++;
        if (idx >= 0) {
            found++;
            printf("%4d found at index %2d after %d steps\n", key, idx, steps);
        } else {
            printf("%4d not found (%d steps)\n", key, steps);
        }
        if (linear(data, n, key) != idx)
            printf("mismatch for %d!\n", key);
    }
    printf("%d of %d found\n", found, queries);
    return found == queries ? 0 : 1;
}

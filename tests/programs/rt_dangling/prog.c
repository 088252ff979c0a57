#include <stdio.h>

int *saved;

int *make_counter(int start)
{
    int counter = start;
    return &counter;
}

void remember_max(const int *a, int n)
{
    int best = a[0];
    for (int i = 1; i < n; i++)
        if (a[i] > best)
            best = a[i];
    saved = &best;
}

int main(void)
{
    int mode;
    int data[4] = {3, 9, 2, 7};

    if (scanf("%d", &mode) != 1)
        return 1;
    printf("mode %d\n", mode);
    if (mode == 1) {
        int *p = make_counter(5);
        printf("counter is %d\n", *p);
    } else if (mode == 2) {
        remember_max(data, 4);
        printf("max is %d\n", *saved);
    } else {
        int local = 42;
        saved = &local;
        printf("local via pointer: %d\n", *saved);
    }
    return 0;
}

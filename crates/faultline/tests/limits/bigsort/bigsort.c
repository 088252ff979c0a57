#include <stdio.h>

int main(void)
{
    int a[40], n = 0, i, j, t;
    while (n < 40 && scanf("%d", &a[n]) == 1)
        n++;
    for (i = 0; i < n; i++)
        for (j = 0; j + 1 < n - i; j++)
            if (a[j] < a[j + 1]) {
                t = a[j];
                a[j] = a[j + 1];
                a[j + 1] = t;
            }
    for (i = 0; i < n; i++)
        printf("%d\n", a[i]);
    return 0;
}

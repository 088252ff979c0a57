#include <stdio.h>

int find_factor_pair(int n, int *a, int *b)
{
    for (int i = 2; i * i <= n; i++)
        for (int j = i; j <= n; j++) {
            if (i * j == n) {
                *a = i;
                *b = j;
                return 1;
            }
            if (i * j > n)
                break;
        }
    return 0;
}

int main(void)
{
    int n;

    while (scanf("%d", &n) == 1) {
        int steps = 0, k = 0, digits = 0, m = n, fa, fb;
        printf("n = %d\n", n);
        for (int i = 0; i < n; i++, steps++) {
            if (i % 3 == 0)
                continue;
            if (i > 20)
                break;
            printf(" %d", i);
        }
        printf("\n steps = %d\n", steps);
        while (1) {
            if (k * k > n)
                break;
            k++;
        }
        printf(" first k with k*k > n: %d\n", k);
        do {
            digits++;
            m /= 10;
        } while (m != 0);
        printf(" digits: %d\n", digits);
        for (int i = 0, j = n; i < j; i += 2, j -= 3)
            printf(" (%d,%d)", i, j);
        printf("\n");
        for (int i = 1; i <= n && i <= 5; i++) {
            for (int j = 1;; j++) {
                if (j > i)
                    break;
                printf("%4d", i * j);
            }
            printf("\n");
        }
        if (find_factor_pair(n, &fa, &fb))
            printf(" %d = %d * %d\n", n, fa, fb);
        else
            printf(" no factor pair\n");
        int odd = 0, t = n;
        while (t > 0) {
            t--;
            if (t % 2 == 0)
                continue;
            odd++;
        }
        printf(" odd numbers below n: %d\n", odd);
    }
    return 0;
}

#include <stdio.h>
#include <string.h>

long dot(int n, const int a[], const int b[])
{
    long s = 0;
    int i;
    for (i = 0; i < n; i++)
        s += (long)a[i] * b[i];
    return s;
}

void fill_rows(int n, int m[][3])
{
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < 3; j++)
            m[i][j] = i * 3 + j;
}

int main(void)
{
    int n, i, k;
    if (scanf("%d", &n) != 1 || n <= 0)
        return 1;
    int a[n], b[n];
    char name[n + 2];
    int rows[n][3];
    for (i = 0; i < n; i++) {
        a[i] = i + 1;
        b[i] = n - i;
        name[i] = 'a' + i % 26;
    }
    name[n] = '!';
    name[n + 1] = '\0';
    printf("dot %ld, name %s (%lu chars)\n", dot(n, a, b), name, (unsigned long)strlen(name));
    printf("sizeof a %lu, sizeof name %lu, elements %lu\n", (unsigned long)sizeof a,
           (unsigned long)sizeof(name), (unsigned long)(sizeof a / sizeof a[0]));
    fill_rows(n, rows);
    printf("rows[n-1][2] = %d, sizeof rows %lu\n", rows[n - 1][2], (unsigned long)sizeof rows);
    for (k = 1; k <= 3; k++) {
        double w[k * n];
        for (i = 0; i < k * n; i++)
            w[i] = i * 0.5;
        printf("k=%d last %.1f size %lu\n", k, w[k * n - 1], (unsigned long)sizeof w);
    }
    return 0;
}

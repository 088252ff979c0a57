#include <stdio.h>

#define MAXROWS 21

long binom(int n, int k)
{
    long r = 1;
    if (k < 0 || k > n)
        return 0;
    if (k > n - k)
        k = n - k;
    for (int i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

int main(void)
{
    long tri[MAXROWS][MAXROWS] = {{1}};
    int rows, n, k;

    if (scanf("%d", &rows) != 1 || rows < 1 || rows > MAXROWS) {
        printf("rows must be 1..%d\n", MAXROWS);
        return 1;
    }
    for (int i = 1; i < rows; i++) {
        tri[i][0] = 1;
        for (int j = 1; j <= i; j++)
            tri[i][j] = tri[i - 1][j - 1] + tri[i - 1][j];
    }
    int width = rows <= 8 ? 4 : 7;
    for (int i = 0; i < rows; i++) {
        printf("%*s", (rows - 1 - i) * width / 2, "");
        for (int j = 0; j <= i; j++)
            printf("%*ld", width, tri[i][j]);
        printf("\n");
    }
    long rowsum = 0;
    for (int j = 0; j < rows; j++)
        rowsum += tri[rows - 1][j];
    printf("sum of last row = %ld\n", rowsum);
    while (scanf("%d %d", &n, &k) == 2)
        printf("C(%d,%d) = %ld\n", n, k, binom(n, k));
    return 0;
}

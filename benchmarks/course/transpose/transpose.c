#include <stdio.h>

#define N 4

/* transposes the n x n matrix m in place */
void transpose(int m[N][N], int n)
{
    int i, j, t;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            t = m[i][j];
            m[i][j] = m[j][i];
            m[j][i] = t;
        }
}

int main(void)
{
    int m[N][N], n, i, j;
    if (scanf("%d", &n) != 1 || n < 1 || n > N) {
        printf("size must be between 1 and %d\n", N);
        return 1;
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            scanf("%d", &m[i][j]);
    transpose(m, n);
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++)
            printf("%3d", m[i][j]);
        printf("\n");
    }
    return 0;
}

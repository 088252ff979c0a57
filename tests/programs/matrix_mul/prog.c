#include <stdio.h>

#define N 3

int identity[N][N] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
int scale2[N][N] = {{2}, {0, 2}, {0, 0, 2}};
int weights[] = {1, -1, 2};

void multiply(int a[][N], int b[][N], int c[][N])
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            c[i][j] = 0;
            for (int k = 0; k < N; k++)
                c[i][j] += a[i][k] * b[k][j];
        }
}

void print_matrix(const char *name, int m[][N])
{
    printf("%s:\n", name);
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++)
            printf("%5d", m[i][j]);
        printf("\n");
    }
}

int main(void)
{
    int a[N][N];
    int b[N][N] = {{1, 2, 3}, {4, 5, 6}};
    int c[N][N];
    int i, j, trace = 0;

    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            if (scanf("%d", &a[i][j]) != 1) {
                printf("need %d numbers\n", N * N);
                return 1;
            }
    multiply(a, identity, c);
    print_matrix("A*I", c);
    multiply(a, scale2, c);
    print_matrix("A*2I", c);
    multiply(a, b, c);
    print_matrix("A*B", c);
    for (i = 0; i < N; i++)
        trace += a[i][i];
    printf("trace(A) = %d\n", trace);
    printf("weighted row sums:");
    for (i = 0; i < N; i++) {
        int s = 0;
        for (j = 0; j < (int) (sizeof weights / sizeof weights[0]); j++)
            s += weights[j] * a[i][j];
        printf(" %d", s);
    }
    printf("\n");
    return 0;
}

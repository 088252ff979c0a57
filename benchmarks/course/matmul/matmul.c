#include <stdio.h>

int read_matrix(int m[3][3])
{
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            if (scanf("%d", &m[i][j]) != 1)
                return 0;
    return 1;
}

int main(void)
{
    int a[3][3], b[3][3], c[3][3];
    int i, j, k;
    if (!read_matrix(a) || !read_matrix(b)) {
        printf("need two 3x3 matrices\n");
        return 1;
    }
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            c[i][j] = 0;
            for (k = 0; k < 3; k++)
                c[i][j] += a[i][k] * b[j][k];
        }
    for (i = 0; i < 3; i++)
        printf("%4d %4d %4d\n", c[i][0], c[i][1], c[i][2]);
    return 0;
}

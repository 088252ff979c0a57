#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int rows, cols;
    int **cell;
} Matrix;

Matrix *matrix_new(int rows, int cols)
{
    int r;
    Matrix *m = (Matrix *)malloc(sizeof(Matrix));
    m->rows = rows;
    m->cols = cols;
    m->cell = (int **)malloc(rows * sizeof(int *));
    for (r = 0; r < rows; r++)
        m->cell[r] = (int *)calloc(cols, sizeof(int));
    return m;
}

void matrix_free(Matrix *m)
{
    int r;
    for (r = 0; r < m->rows; r++)
        free(m->cell[r]);
    free(m->cell);
    free(m);
}

Matrix *multiply(const Matrix *a, const Matrix *b)
{
    int i, j, k;
    Matrix *c = matrix_new(a->rows, b->cols);
    for (i = 0; i < a->rows; i++)
        for (j = 0; j < b->cols; j++)
            for (k = 0; k < a->cols; k++)
                c->cell[i][j] += a->cell[i][k] * b->cell[k][j];
    return c;
}

void print(const Matrix *m)
{
    int i, j;
    for (i = 0; i < m->rows; i++) {
        for (j = 0; j < m->cols; j++)
            printf("%5d", m->cell[i][j]);
        printf("\n");
    }
}

int main(void)
{
    int n, i, j;
    Matrix *a, *c;
    if (scanf("%d", &n) != 1 || n < 1)
        return 1;
    a = matrix_new(n, n);
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            a->cell[i][j] = i + 2 * j - 1;
    c = multiply(a, a);
    print(c);
    matrix_free(a);
    matrix_free(c);
    return 0;
}

#include <stdio.h>
#include <stdlib.h>

/* Error handling in the style of tot_info: gotos to cleanup labels that free
   what was allocated so far. */
double row_info(int r, int c, const long *f, int *status)
{
    double *rows, *cols, total = 0.0, info;
    int i, j;

    if (r <= 0 || c <= 0) {
        info = -3.0;
        goto ret3;
    }
    if ((rows = (double *)malloc(r * sizeof(double))) == NULL) {
        info = -4.0;
        goto ret3;
    }
    if ((cols = (double *)malloc(c * sizeof(double))) == NULL) {
        info = -4.0;
        goto ret2;
    }
    for (j = 0; j < c; ++j)
        cols[j] = 0.0;
    for (i = 0; i < r; ++i) {
        double sum = 0.0;
        for (j = 0; j < c; ++j) {
            long k = f[i * c + j];
            if (k < 0L) {
                info = -2.0;
                goto ret1;
            }
            sum += (double)k;
            cols[j] += (double)k;
        }
        total += rows[i] = sum;
    }
    if (total <= 0.0) {
        info = -1.0;
        goto ret1;
    }
    info = 0.0;
    for (i = 0; i < r; ++i)
        info += rows[i] * rows[i] / total;
    for (j = 0; j < c; ++j)
        info -= cols[j] / total;
ret1:
    free((char *)cols);
ret2:
    free((char *)rows);
ret3:
    *status = info < 0.0;
    return info;
}

int main(void)
{
    long f[16];
    int r, c, i, status;
    double info;
    while (scanf("%d %d", &r, &c) == 2) {
        for (i = 0; i < r * c && i < 16; i++)
            if (scanf("%ld", &f[i]) != 1)
                return 2;
        info = row_info(r, c, f, &status);
        printf("%d x %d: %.4f (status %d)\n", r, c, info, status);
    }
    return 0;
}

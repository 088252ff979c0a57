#include <stdio.h>
#include <stdlib.h>

typedef struct {
    long *data;
    int len, cap;
} Vec;

static int vec_push(Vec *v, long x)
{
    if (v->len == v->cap) {
        int cap = v->cap ? v->cap * 2 : 2;
        long *d = realloc(v->data, cap * sizeof *d);
        if (!d)
            return -1;
        v->data = d;
        v->cap = cap;
        printf("grow to %d\n", cap);
    }
    v->data[v->len++] = x;
    return 0;
}

int main(void)
{
    Vec v = {NULL, 0, 0};
    long x, sum = 0;
    int i, n;
    double *z;
    char *big;
    while (scanf("%ld", &x) == 1)
        vec_push(&v, x * x);
    for (i = 0; i < v.len; i++)
        sum += v.data[i];
    printf("%d squares, sum %ld\n", v.len, sum);
    if (v.len > 2) {
        v.data = realloc(v.data, 2 * sizeof(long));
        v.len = 2;
        printf("shrunk: %ld %ld\n", v.data[0], v.data[1]);
    }
    free(v.data);

    n = 5;
    z = (double *)calloc(n, sizeof(double));
    z[2] += 1.5;
    for (i = 0; i < n; i++)
        printf("%.1f ", z[i]);
    printf("\n");
    free(z);

    big = malloc((size_t)-1);
    printf("huge malloc %s\n", big == NULL ? "failed" : "succeeded");
    z = calloc((size_t)1 << 62, 16);
    printf("overflowing calloc %s\n", z == NULL ? "failed" : "succeeded");
    z = realloc(NULL, sizeof(double));
    *z = 2.25;
    printf("%g\n", *z);
    z = realloc(z, 0);
    printf("realloc to 0 gives %s\n", z == NULL ? "NULL" : "a block");
    return 0;
}

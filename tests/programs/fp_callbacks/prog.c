#include <stdio.h>

typedef void (*visitor)(int value, void *ctx);
typedef int predicate(int);

struct stats {
    long sum;
    int count;
};

static void accumulate(int v, void *ctx)
{
    struct stats *s = ctx;
    s->sum += v;
    s->count++;
}

static void show(int v, void *ctx)
{
    printf("%s%d", *(int *)ctx ? ", " : "", v);
    *(int *)ctx = 1;
}

static int is_even(int v) { return v % 2 == 0; }
static int is_positive(int v) { return v > 0; }

static void for_each(const int *a, int n, predicate *keep, visitor f, void *ctx)
{
    int i;
    for (i = 0; i < n; i++)
        if (keep == 0 || keep(a[i]))
            f(a[i], ctx);
}

static predicate *choose(int which)
{
    return which ? is_positive : is_even;
}

int main(void)
{
    int a[16], n = 0, first, which;
    struct stats s;
    struct {
        const char *name;
        predicate *p;
    } filters[3] = {{"all", 0}, {"even", is_even}, {"positive", is_positive}};
    while (n < 16 && scanf("%d", &a[n]) == 1)
        n++;
    for (which = 0; which < 3; which++) {
        s.sum = 0;
        s.count = 0;
        first = 0;
        printf("%-8s [", filters[which].name);
        for_each(a, n, filters[which].p, show, &first);
        for_each(a, n, filters[which].p, accumulate, &s);
        printf("] count %d sum %ld\n", s.count, s.sum);
    }
    printf("%d %d\n", choose(0)(4), choose(1)(-4));
    return 0;
}

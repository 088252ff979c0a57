#include <stdio.h>

struct item {
    char tag;
    int value;
};

int sum_range(const int *begin, const int *end)
{
    int s = 0;
    while (begin < end)
        s += *begin++;
    return s;
}

int *find_max(int *a, int n)
{
    int *best = a;
    for (int *p = a + 1; p < a + n; p++)
        if (*p > *best)
            best = p;
    return best;
}

void bump(struct item *it, int by)
{
    it->value += by;
    (*it).tag++;
}

int main(void)
{
    int a[10];
    int n = 0, v;
    struct item items[3] = {{'a', 1}, {'m', 20}, {'x', 300}};
    struct item *ip = items;

    while (n < 10 && scanf("%d", &v) == 1)
        a[n++] = v;
    if (n == 0) {
        printf("no data\n");
        return 1;
    }
    int *first = &a[0], *last = &a[n - 1];
    printf("n=%d first=%d last=%d distance=%d\n", n, *first, *last, (int) (last - first));
    printf("sum all=%d sum 2nd half=%d\n", sum_range(a, a + n), sum_range(a + n / 2, a + n));
    int *m = find_max(a, n);
    printf("max %d at index %d\n", *m, (int) (m - a));
    *m = -*m;
    printf("after negation a[%d]=%d, first<last: %d, m>=first: %d\n", (int) (m - a), a[m - a], first < last, m >= first);
    int *q = a + n;
    while (q != a) {
        --q;
        printf("%d%c", *q, q == a ? '\n' : ' ');
    }
    bump(ip + 1, n);
    bump(&items[2], -5);
    ip += 2;
    printf("items: %c%d %c%d %c%d, ip->tag=%c\n", items[0].tag, items[0].value, items[1].tag, items[1].value,
           items[2].tag, items[2].value, ip->tag);
    printf("sizeof(struct item)=%d sizeof(items)=%d sizeof(int*)=%d\n", (int) sizeof(struct item),
           (int) sizeof items, (int) sizeof(int *));
    return 0;
}

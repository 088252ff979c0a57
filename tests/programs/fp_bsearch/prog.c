#include <stdio.h>
#include <stdlib.h>

struct code {
    int key;
    const char *name;
};

static const struct code codes[] = {
    {200, "OK"}, {201, "Created"}, {301, "Moved"}, {404, "Not Found"}, {418, "Teapot"}, {500, "Server Error"},
};

static int probes;

int key_cmp(const void *k, const void *e)
{
    int key = *(const int *)k;
    const struct code *c = e;
    probes++;
    return key < c->key ? -1 : key > c->key;
}

int int_cmp(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

int main(void)
{
    int key, sorted[] = {1, 3, 3, 3, 5, 8, 13};
    const struct code *hit;
    int *p;
    while (scanf("%d", &key) == 1) {
        probes = 0;
        hit = bsearch(&key, codes, sizeof codes / sizeof codes[0], sizeof codes[0], key_cmp);
        if (hit)
            printf("%d %s (%d probes, index %ld)\n", key, hit->name, probes, (long)(hit - codes));
        else
            printf("%d unknown (%d probes)\n", key, probes);
        p = bsearch(&key, sorted, 7, sizeof(int), int_cmp);
        printf("  in sorted: %s\n", p ? "yes" : "no");
    }
    key = 3;
    p = (int *)bsearch(&key, sorted, 7, sizeof sorted[0], int_cmp);
    printf("3 found at index %ld\n", (long)(p - sorted));
    return 0;
}

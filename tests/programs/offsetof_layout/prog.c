#include <stdio.h>
#include <stddef.h>

struct point {
    short x;
    double y;
};

struct rec {
    char tag;
    int count;
    struct point pts[3];
    union {
        long l;
        char c[3];
    } u;
    struct {
        char a;
        long b;
    };
    char name[5];
};

/* A buffer sized by a member's offset. */
static char head[offsetof(struct rec, pts)];

int main(void)
{
    int k;
    struct rec r;
    if (scanf("%d", &k) != 1 || k < 0 || k > 2)
        return 1;
    printf("%zu %zu %zu\n", offsetof(struct rec, tag), offsetof(struct rec, count),
           offsetof(struct rec, pts));
    printf("%zu %zu\n", offsetof(struct rec, pts[2].y), offsetof(struct rec, u.c[1]));
    printf("%zu %zu %zu\n", offsetof(struct rec, b), offsetof(struct rec, name[4]), sizeof(struct rec));
    printf("%zu\n", sizeof head);
    /* The offset agrees with the member's address. */
    r.pts[k].y = 2.5 * k;
    printf("%.1f %d\n", r.pts[k].y,
           (long)&r.pts[k].y - (long)&r
               == (long)(offsetof(struct rec, pts) + k * sizeof(struct point) + offsetof(struct point, y)));
    return 0;
}

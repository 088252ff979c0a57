#include <stdio.h>
#include <string.h>

struct point { int x, y; char tag; };

int main(void) {
    int a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8];
    char s[16] = "abcdefghij";
    struct point p = {3, 4, 'p'}, q, ps[3];
    double d[3] = {1.5, 2.5, 3.5}, e[3];
    int i;
    memcpy(b, a, sizeof a);
    memmove(a + 2, a, 4 * sizeof(int));   /* overlapping, forwards */
    for (i = 0; i < 8; i++) printf("%d ", a[i]);
    printf("\n");
    memmove(b, b + 3, 5 * sizeof b[0]);    /* overlapping, backwards */
    for (i = 0; i < 8; i++) printf("%d ", b[i]);
    printf("\n");
    memmove(s + 1, s, 5);
    printf("%s\n", s);
    memset(s, '*', 3);
    printf("%s\n", s);
    memset(a, 0, sizeof a);
    memset(b, -1, 2 * sizeof(int));
    memset(b + 2, 1, sizeof(int));
    printf("%d %d %d %d\n", a[0], a[7], b[0], b[2]);
    memcpy(&q, &p, sizeof p);
    printf("%d %d %c\n", q.x, q.y, q.tag);
    memset(ps, 0, sizeof ps);
    memcpy(&ps[1], &p, sizeof(struct point));
    printf("%d %d %d\n", ps[0].x, ps[1].y, ps[2].tag);
    memcpy(e, d, sizeof d);
    memset(d, 0, sizeof d);
    printf("%g %g %g\n", e[0] + e[2], d[1], e[1]);
    printf("%d %d %d\n", memcmp("abc", "abd", 3) < 0, memcmp("abc", "abc", 3), memcmp("b", "a", 1) > 0);
    printf("%d\n", memcmp(a, b, 0));
    return 0;
}

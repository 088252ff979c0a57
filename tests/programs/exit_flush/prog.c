#include <stdio.h>
#include <stdlib.h>

static void check(int v, int depth) {
    printf("depth %d: %d", depth, v);   /* no newline: exit flushes it */
    if (v < 0)
        exit(depth + 10);
    printf("\n");
    if (depth < 3)
        check(v - 5, depth + 1);
}

int main(void) {
    int v;
    if (scanf("%d", &v) != 1)
        exit(EXIT_FAILURE);
    fprintf(stderr, "starting\n");
    check(v, 0);
    printf("done\n");
    return 0;
}

/* Casts between pointers and integers where the program only compares,
   subtracts or converts them back: byte distances, field offsets,
   alignment, the round trip through an integer, null as 0. */
#include <stdio.h>
#include <stdlib.h>

struct rec {
    char tag;
    int count;
    double weight;
    char name[5];
    long id;
};

int main(void) {
    int a[8];
    struct rec r[3];
    int n, i;
    if (scanf("%d", &n) != 1 || n < 0 || n > 7)
        return 1;
    for (i = 0; i < 8; i++)
        a[i] = i * i;
    long d = (long)&a[n] - (long)&a[0];
    printf("distance %ld bytes\n", d);
    printf("offsets %ld %ld %ld %ld\n", (long)&r[0].count - (long)&r[0],
           (long)&r[0].weight - (long)&r[0], (long)&r[0].name[2] - (long)&r[0],
           (long)&r[0].id - (long)&r[0]);
    printf("stride %ld\n", (long)&r[2] - (long)&r[1]);
    printf("aligned %d %d\n", (unsigned long)&a[n] % sizeof(int) == 0,
           (unsigned long)&r[1].weight % 8 == 0);
    unsigned long u = (unsigned long)(a + n);
    int *back = (int *)u;
    printf("back %d\n", *back);
    char *c = (char *)(unsigned long)&r[1].name[0];
    c[0] = 'x';
    printf("name %c\n", r[1].name[0]);
    int *heap = malloc(4 * sizeof *heap);
    long h = (long)heap;
    heap[3] = 42;
    printf("heap %d\n", ((int *)(h + 3 * sizeof(int)))[0]);
    free(heap);
    char *none = NULL;
    printf("null %ld %d\n", (long)none, (int *)(long)0 == NULL);
    printf("order %d\n", (long)&a[n] <= (long)&a[7]);
    return 0;
}

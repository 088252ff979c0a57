/* Unions passed and returned by value, through pointers, assigned, and
   pointers to their members. */
#include <stdio.h>

typedef union {
    int i;
    float f;
    char c[4];
} Cell;

union Link {
    union Link *next;
    long n;
};

static Cell make(int v) {
    Cell c;
    c.i = v;
    return c;
}

static Cell bump(Cell c) {
    c.c[0]++;
    return c;
}

static void set_float(Cell *p, float f) {
    p->f = f;
}

static int sum_bytes(const Cell *p) {
    int s = 0, k;
    for (k = 0; k < 4; k++)
        s += p->c[k];
    return s;
}

int main(void) {
    int v;
    while (scanf("%d", &v) == 1) {
        Cell a = make(v);
        Cell b = bump(a);
        printf("%d -> %d (a still %d), byte sum %d\n", v, b.i, a.i, sum_bytes(&b));
        set_float(&a, (float)v);
        printf("as float: %08x\n", a.i);
        a = b;
        printf("copied: %d\n", a.i);
        int *ip = &a.i;
        char *cp = &a.c[1];
        *cp = 0;
        printf("through pointers: %d %d\n", *ip, a.c[1]);
        float *fp = &b.f;
        *fp = 0.5f;
        printf("float through pointer: %d\n", b.i);
        Cell arr[3];
        Cell *q;
        for (q = arr; q < arr + 3; q++)
            q->i = v + (int)(q - arr);
        arr[1].c[3] = 1;
        printf("array: %d %d %d\n", arr[0].i, arr[1].i, arr[2].i);
    }
    /* A pointer stored and read back through the same member. */
    union Link l1, l2, l3;
    l3.next = 0;
    l2.next = &l3;
    l1.next = &l2;
    int depth = 0;
    union Link *p;
    for (p = &l1; p; p = p->next)
        depth++;
    l3.n = 99;
    printf("depth %d, l3.n %ld, l1.next->next->n %ld\n", depth, l3.n, l1.next->next->n);
    return 0;
}

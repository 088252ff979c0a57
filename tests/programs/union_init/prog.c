/* Union initializers: the first member, designated members, zero fill,
   static and automatic, in arrays and in structs. */
#include <stdio.h>

union Num {
    int i;
    float f;
    unsigned char b[8];
};

union Small {
    char c;
    int i;
};

struct Rec {
    const char *name;
    union Num n;
    int tail;
};

static union Num g_first = {0x41424344};
static union Num g_float = {.f = 2.0f};
static union Num g_bytes = {.b = {1, 2, 3}};
static union Num g_table[3] = {{1}, {.f = -1.5f}, {.b = {0xff, 0xff}}};
static struct Rec g_recs[2] = {{"one", {7}, 1}, {"two", {.f = 0.5f}, 2}};
static union Num g_zero;

static void dump(const char *label, union Num n) {
    printf("%-8s i=%d b=%u,%u,%u,%u,%u,%u,%u,%u\n", label, n.i, n.b[0], n.b[1], n.b[2], n.b[3],
           n.b[4], n.b[5], n.b[6], n.b[7]);
}

int main(void) {
    int k;
    union Small s = {1};
    union Small t = {.i = 0x01020304};
    union Num local = {.f = 1.0f};
    union Num elems[2] = {{.b = {9}}, {-2}};
    struct Rec r = {"local", {.i = 300}, 5};
    printf("small %d %d, %d %d\n", s.c, s.i, t.c, t.i);
    dump("first", g_first);
    dump("float", g_float);
    dump("bytes", g_bytes);
    dump("zero", g_zero);
    for (k = 0; k < 3; k++)
        dump("table", g_table[k]);
    for (k = 0; k < 2; k++)
        printf("%s %d %g %d\n", g_recs[k].name, g_recs[k].n.i, g_recs[k].n.f, g_recs[k].tail);
    dump("local", local);
    dump("elem0", elems[0]);
    dump("elem1", elems[1]);
    printf("%s %d %d\n", r.name, r.n.b[1], r.tail);
    return 0;
}

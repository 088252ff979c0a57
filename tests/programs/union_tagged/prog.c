/* A tagged union in a struct, an array of them, dispatch on the tag. */
#include <stdio.h>
#include <string.h>

enum Kind { INT, REAL, TEXT, PAIR };

struct Pair {
    short x, y;
};

typedef struct {
    enum Kind kind;
    union {
        long i;
        double r;
        char text[12];
        struct Pair pair;
    } as;
} Value;

static Value values[8];
static int count;

static void show(const Value *v) {
    switch (v->kind) {
    case INT:
        printf("int %ld\n", v->as.i);
        break;
    case REAL:
        printf("real %.3f\n", v->as.r);
        break;
    case TEXT:
        printf("text \"%s\" (%d chars)\n", v->as.text, (int)strlen(v->as.text));
        break;
    case PAIR:
        printf("pair (%d, %d)\n", v->as.pair.x, v->as.pair.y);
        break;
    }
}

static double total(void) {
    double t = 0;
    int k;
    for (k = 0; k < count; k++) {
        Value *v = &values[k];
        if (v->kind == INT)
            t += v->as.i;
        else if (v->kind == REAL)
            t += v->as.r;
        else if (v->kind == PAIR)
            t += v->as.pair.x * v->as.pair.y;
    }
    return t;
}

int main(void) {
    char cmd[16];
    while (count < 8 && scanf("%15s", cmd) == 1) {
        Value *v = &values[count];
        if (strcmp(cmd, "int") == 0 && scanf("%ld", &v->as.i) == 1) {
            v->kind = INT;
        } else if (strcmp(cmd, "real") == 0 && scanf("%lf", &v->as.r) == 1) {
            v->kind = REAL;
        } else if (strcmp(cmd, "text") == 0 && scanf("%11s", v->as.text) == 1) {
            v->kind = TEXT;
        } else if (strcmp(cmd, "pair") == 0) {
            int x, y;
            if (scanf("%d %d", &x, &y) != 2)
                break;
            v->kind = PAIR;
            v->as.pair.x = (short)x;
            v->as.pair.y = (short)y;
        } else {
            printf("bad command %s\n", cmd);
            return 2;
        }
        count++;
    }
    int k;
    for (k = 0; k < count; k++) {
        printf("%d: ", k);
        show(&values[k]);
    }
    /* Reuse a slot with another member: the tag follows. */
    if (count > 0) {
        values[0].kind = TEXT;
        strcpy(values[0].as.text, "replaced");
        show(&values[0]);
    }
    printf("total %.3f, sizeof(Value) %zu\n", total(), sizeof(Value));
    return count;
}

/* Anonymous unions and structs as members (C11): their members are found
   through the enclosing struct, positional initializers fill them. */
#include <stdio.h>

struct Shape {
    char kind;
    union {
        struct {
            int w, h;
        };
        int radius;
        unsigned long raw;
    };
    int id;
};

static long area(const struct Shape *s) {
    if (s->kind == 'r')
        return (long)s->w * s->h;
    return 3L * s->radius * s->radius;
}

int main(void) {
    struct Shape shapes[3] = {{'r', {{2, 3}}, 1}, {'c', {{5}}, 2}};
    char kind;
    int a, b;
    shapes[2].kind = 'r';
    shapes[2].id = 3;
    if (scanf(" %c %d %d", &kind, &a, &b) == 3) {
        shapes[2].kind = kind;
        shapes[2].w = a;
        shapes[2].h = b;
    } else {
        shapes[2].raw = 0;
    }
    int k;
    for (k = 0; k < 3; k++)
        printf("%d %c area %ld radius %d raw %lx\n", shapes[k].id, shapes[k].kind,
               area(&shapes[k]), shapes[k].radius, shapes[k].raw);
    printf("sizeof %zu\n", sizeof(struct Shape));
    return 0;
}

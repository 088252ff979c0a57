#include <stdio.h>

typedef long (*binop)(long, long);

static long add(long a, long b) { return a + b; }
static long sub(long a, long b) { return a - b; }
static long mul(long a, long b) { return a * b; }
static long quo(long a, long b) { return b ? a / b : 0; }

/* A global dispatch table of structs holding function pointers. */
struct entry {
    char sym;
    binop fn;
} table[] = {{'+', add}, {'-', sub}, {'*', mul}, {'/', quo}};

long (*fallback)(long, long);

binop lookup(char c)
{
    unsigned i;
    for (i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].sym == c)
            return table[i].fn;
    return 0;
}

long fold(binop f, const long *v, int n)
{
    long acc = v[0];
    int i;
    for (i = 1; i < n; i++)
        acc = (*f)(acc, v[i]);
    return acc;
}

int main(void)
{
    char op;
    long a, b, v[4] = {2, 3, 4, 5};
    long (*local[2])(long, long) = {mul, add};
    binop f;
    int errors = 0;
    while (scanf(" %ld %c %ld", &a, &op, &b) == 3) {
        f = lookup(op);
        if (f == 0) {
            printf("unknown operator %c\n", op);
            errors++;
            continue;
        }
        printf("%ld %c %ld = %ld%s\n", a, op, b, f(a, b), f == quo && b == 0 ? " (division by zero)" : "");
    }
    printf("fold: %ld %ld\n", fold(local[0], v, 4), fold(local[1], v, 4));
    printf("fallback is %s\n", fallback ? "set" : "null");
    fallback = &sub;
    printf("%ld\n", fallback(10, 4));
    return errors;
}

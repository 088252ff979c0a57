#include <stdio.h>

int apply(int a, char op, int b, int *ok)
{
    *ok = 1;
    switch (op) {
    case '+':
        return a + b;
    case '-':
        return a - b;
    case 'x':
    case 'X':
    case '*':
        return a * b;
    default:
        printf("unknown operator '%c'\n", op);
        *ok = 0;
        return 0;
    case '/':
    case '%':
        if (b == 0) {
            printf("division by zero refused\n");
            *ok = 0;
            return 0;
        }
        return op == '/' ? a / b : a % b;
    case '^': {
        int r = 1;
        while (b-- > 0)
            r *= a;
        return r;
    }
    }
    return 0;
}

void gifts(int day)
{
    printf("day %d:", day);
    switch (day) {
    case 4:
        printf(" four birds,");
    case 3:
        printf(" three hens,");
    case 2:
        printf(" two doves and");
    case 1:
        printf(" a partridge\n");
        break;
    case 0:
        printf(" nothing\n");
        break;
    default:
        printf(" too many\n");
    }
}

int main(void)
{
    int a, b, ok, errors = 0, lines = 0;
    char op;

    while (scanf("%d %c %d", &a, &op, &b) == 3) {
        int r = apply(a, op, b, &ok);
        lines++;
        if (ok) {
            printf("%d %c %d = %d\n", a, op, b, r);
            gifts(r < 0 ? -r % 6 : r % 6);
        } else {
            errors++;
        }
    }
    printf("%d lines, %d errors\n", lines, errors);
    return errors;
}

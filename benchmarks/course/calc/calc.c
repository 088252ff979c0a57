#include <stdio.h>
#include <stdlib.h>

/* calc A OP B, with OP one of + - x / */
int main(int argc, char *argv[])
{
    int a, b;
    char op;
    if (argc != 4) {
        printf("usage: calc A OP B\n");
        return 1;
    }
    a = atoi(argv[1]);
    op = argv[2][0];
    b = atoi(argv[3]);
    switch (op) {
    case '+':
        printf("%d\n", a + b);
        break;
    case '-':
        printf("%d\n", b - a);
        break;
    case 'x':
        printf("%d\n", a * b);
        break;
    case '/':
        if (b == 0)
            printf("division by zero\n");
        else
            printf("%d remainder %d\n", a / b, a % b);
        break;
    default:
        printf("unknown operator %c\n", op);
    }
    return 0;
}

#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>

#define STACK_MAX 16

long stack[STACK_MAX];
int top = 0;

int push(long v)
{
    if (top >= STACK_MAX)
        return 0;
    stack[top++] = v;
    return 1;
}

int pop(long *v)
{
    if (top == 0)
        return 0;
    *v = stack[--top];
    return 1;
}

int main(void)
{
    char tok[16];
    long a, b;

    while (scanf("%15s", tok) == 1) {
        if (isdigit(tok[0]) || (tok[0] == '-' && isdigit(tok[1]))) {
            if (!push(atol(tok))) {
                printf("stack overflow\n");
                return 1;
            }
            continue;
        }
        if (tok[0] == '=') {
            if (top == 0)
                printf("(empty)\n");
            else
                printf("= %ld\n", stack[top - 1]);
            continue;
        }
        if (!pop(&b) || !pop(&a)) {
            printf("stack underflow at '%s'\n", tok);
            return 1;
        }
        switch (tok[0]) {
        case '+': push(a + b); break;
        case '-': push(a - b); break;
        case '*': push(a * b); break;
        case '/':
            if (b == 0) {
                printf("division by zero\n");
                return 1;
            }
            push(a / b);
            break;
        default:
            printf("unknown token '%s'\n", tok);
            return 1;
        }
    }
    printf("%d value(s) left\n", top);
    return 0;
}

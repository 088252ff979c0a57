#include <stdio.h>
#include <ctype.h>

char line[128];
int pos;
int error;

long expr(void);

void skip_spaces(void)
{
    while (line[pos] == ' ')
        pos++;
}

long factor(void)
{
    long v = 0;
    skip_spaces();
    if (line[pos] == '(') {
        pos++;
        v = expr();
        skip_spaces();
        if (line[pos] == ')')
            pos++;
        else
            error = 1;
    } else if (line[pos] == '-') {
        pos++;
        v = -factor();
    } else if (isdigit(line[pos])) {
        while (isdigit(line[pos]))
            v = v * 10 + (line[pos++] - '0');
    } else {
        error = 1;
    }
    return v;
}

long term(void)
{
    long v = factor();
    for (;;) {
        skip_spaces();
        char op = line[pos];
        if (op != '*' && op != '/' && op != '%')
            return v;
        pos++;
        long r = factor();
        if (op == '*')
            v *= r;
        else if (r == 0)
            error = 2;
        else
            v = op == '/' ? v / r : v % r;
    }
}

long expr(void)
{
    long v = term();
    skip_spaces();
    while (line[pos] == '+' || line[pos] == '-') {
        char op = line[pos++];
        long r = term();
        v = op == '+' ? v + r : v - r;
        skip_spaces();
    }
    return v;
}

int main(void)
{
    int c, n = 0;

    while ((c = getchar()) != EOF) {
        if (c != '\n') {
            if (n < (int) sizeof line - 1)
                line[n++] = c;
            continue;
        }
        line[n] = '\0';
        pos = 0;
        error = 0;
        long v = expr();
        if (line[pos] != '\0' && !error)
            error = 1;
        if (error)
            printf("%-24s => %s at column %d\n", line, error == 2 ? "division by zero" : "syntax error", pos + 1);
        else
            printf("%-24s => %ld\n", line, v);
        n = 0;
    }
    return 0;
}

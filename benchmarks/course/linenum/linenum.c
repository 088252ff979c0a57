#include <stdio.h>

/* Copies its input, numbering the lines: "  1  text". */
int lineno = 0;

void start_line(void)
{
    printf("%3d  ", lineno);
    lineno++;
}

int main(void)
{
    int c, at_start = 1;
    while ((c = getchar()) != EOF) {
        if (at_start) {
            start_line();
            at_start = 0;
        }
        putchar(c);
        if (c == '\n')
            at_start = 1;
    }
    return 0;
}

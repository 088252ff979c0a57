#include <stdio.h>
#include <ctype.h>

/* A tokenizer in the style of print_tokens: getc and ungetc on stdin. */
static int next_token(char *tok, int max) {
    int c, n = 0;
    do {
        c = getc(stdin);
    } while (c == ' ' || c == '\t' || c == '\n');
    if (c == EOF)
        return 0;
    if (isdigit(c)) {
        while (c != EOF && isdigit(c) && n < max - 1) {
            tok[n++] = (char) c;
            c = getc(stdin);
        }
        if (c != EOF)
            ungetc(c, stdin);
        tok[n] = '\0';
        return 1;
    }
    if (isalpha(c)) {
        while (c != EOF && isalnum(c) && n < max - 1) {
            tok[n++] = (char) c;
            c = fgetc(stdin);
        }
        if (c != EOF)
            ungetc(c, stdin);
        tok[n] = '\0';
        return 2;
    }
    tok[0] = (char) c;
    tok[1] = '\0';
    return 3;
}

int main(void) {
    char tok[32];
    int kind;
    const char *names[] = {"", "number", "word", "symbol"};
    while ((kind = next_token(tok, sizeof tok)) != 0)
        printf("%-6s %s\n", names[kind], tok);
    printf("ungetc(EOF) = %d\n", ungetc(EOF, stdin));
    return 0;
}

#include <stdio.h>
#include <string.h>

/* Reads lines with a small buffer: long lines arrive in pieces. */
int main(void) {
    char buf[8];
    int pieces = 0, lines = 0;
    while (fgets(buf, sizeof buf, stdin) != NULL) {
        char *nl = strchr(buf, '\n');
        pieces++;
        if (nl) {
            *nl = '\0';
            lines++;
        }
        printf("%2d [%s]%s\n", pieces, buf, nl ? " <eol>" : "");
    }
    printf("pieces=%d lines=%d eof=%d error=%d\n", pieces, lines, feof(stdin), ferror(stdin));
    if (fgets(buf, 1, stdin) == buf)
        printf("n=1 gives an empty string: [%s]\n", buf);
    if (fgets(buf, 0, stdin) == NULL)
        printf("n=0 gives NULL\n");
    return lines;
}

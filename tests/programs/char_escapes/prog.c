#include <stdio.h>
#include <string.h>
#include <ctype.h>

int main(void)
{
    char esc[] = "tab:\t| nl-escaped:\\n quote:\" apos:' bell-code:\a";
    char embedded[] = "ab\0cd";
    char hi = (char) 0xE9;
    unsigned char uhi = (unsigned char) hi;
    int c, n = 0, high = 0;

    printf("%s\n", esc);
    printf("codes: %d %d %d %d %d %d %d\n", '\n', '\t', '\\', '\'', '"', '\0', '\a');
    printf("octal/hex: %c%c %d %d %d\n", '\101', '\x42', '\101', '\x7f', '\377');
    printf("sizeof embedded=%d strlen=%d\n", (int) sizeof embedded, (int) strlen(embedded));
    printf("hi=%d uhi=%d hi==uhi:%d (char)uhi==hi:%d\n", hi, uhi, hi == uhi, (char) uhi == hi);
    printf("upper: %c%c%c, lower: %c, digit value: %d\n", toupper('q'), toupper('Q'), toupper('3'), tolower('M'), '7' - '0');
    putchar('[');
    putchar(hi);
    putchar(']');
    putchar('\n');
    puts("puts adds a newline");

    while ((c = getchar()) != EOF) {
        char ch = (char) c;
        n++;
        if (c > 127) {
            high++;
            printf("byte %d: getchar=%d as char=%d\n", n, c, ch);
        } else if (isprint(c)) {
            printf("byte %d: '%c' %s%s%s\n", n, c, isalpha(c) ? "alpha " : "", isdigit(c) ? "digit " : "",
                   ispunct(c) ? "punct" : "");
        } else {
            printf("byte %d: control %d%s\n", n, c, c == '\n' ? " (newline)" : c == '\t' ? " (tab)" : "");
        }
    }
    printf("%d bytes, %d above 127\n", n, high);
    return 0;
}

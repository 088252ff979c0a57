#include <stdio.h>
#include <ctype.h>
#include <string.h>

#define MAXLINE 80

int read_line(char *buf, int max)
{
    int c, n = 0;
    while ((c = getchar()) != EOF && c != '\n')
        if (n < max - 1)
            buf[n++] = c;
    buf[n] = '\0';
    if (c == EOF && n == 0)
        return -1;
    return n;
}

int is_palindrome(const char *s)
{
    const char *end = s + strlen(s);
    while (s < end) {
        end--;
        if (*s != *end)
            return 0;
        s++;
    }
    return 1;
}

int main(void)
{
    char line[MAXLINE], clean[MAXLINE];
    int lineno = 0, count = 0;

    while (read_line(line, MAXLINE) >= 0) {
        int j = 0;
        lineno++;
        for (int i = 0; line[i] != '\0'; i++)
            if (isalnum((unsigned char) line[i]))
                clean[j++] = toupper((unsigned char) line[i]);
        clean[j] = '\0';
        if (j == 0) {
            printf("%2d: (empty)\n", lineno);
            continue;
        }
        int p = is_palindrome(clean);
        count += p;
        printf("%2d: \"%s\" -> %s -> %s\n", lineno, line, clean, p ? "yes" : "no");
    }
    printf("%d of %d lines are palindromes\n", count, lineno);
    return 0;
}

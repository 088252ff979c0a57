#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_str(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (d)
        strcpy(d, s);
    return d;
}

static char *join(char **words, int n, const char *sep)
{
    size_t total = 1;
    int i;
    char *out;
    for (i = 0; i < n; i++)
        total += strlen(words[i]) + (i ? strlen(sep) : 0);
    out = (char *)malloc(total);
    out[0] = '\0';
    for (i = 0; i < n; i++) {
        if (i)
            strcat(out, sep);
        strcat(out, words[i]);
    }
    return out;
}

int main(void)
{
    char buf[64];
    char **words = NULL;
    int n = 0, cap = 0, i;
    char *all;
    while (scanf("%63s", buf) == 1) {
        if (n == cap) {
            cap = cap * 2 + 1;
            words = (char **)realloc(words, cap * sizeof(char *));
        }
        words[n++] = dup_str(buf);
    }
    for (i = n - 1; i >= 0; i--)
        printf("%s%s", words[i], i ? " " : "\n");
    all = join(words, n, ", ");
    printf("[%s] %lu\n", all, (unsigned long)strlen(all));
    free(all);
    for (i = 0; i < n; i++)
        free(words[i]);
    free(words);
    return n;
}

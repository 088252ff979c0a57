#include <stdio.h>
#include <string.h>

/* The first n - 1 characters of a word: with n = 0 the length passed to
   strncpy is (size_t)-1, an overflow of `out`. */
int main(void)
{
    char word[20], out[20];
    int n;
    scanf("%19s %d", word, &n);
    strncpy(out, word, n - 1);
    out[n - 1] = '\0';
    printf("%s\n", out);
    return 0;
}

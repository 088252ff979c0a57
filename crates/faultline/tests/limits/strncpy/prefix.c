#include <stdio.h>
#include <string.h>

/* Prints the first n characters of a word. Fault: n - 1 for n. With n = 0
   the length is (size_t)-1: an overflow the run reports and the formula
   excludes. */
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

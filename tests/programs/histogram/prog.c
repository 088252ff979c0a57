#include <stdio.h>
#include <ctype.h>

int letters[26];
int lengths[11]; /* word lengths 1..9, 10 means 10 or more */

int main(void)
{
    int c, digits = 0, spaces = 0, others = 0, total = 0;
    int len = 0;

    while ((c = getchar()) != EOF) {
        total++;
        if (isalpha(c)) {
            letters[tolower(c) - 'a']++;
            len++;
        } else {
            if (isdigit(c))
                digits++;
            else if (isspace(c))
                spaces++;
            else
                others++;
            if (len > 0) {
                lengths[len > 10 ? 10 : len]++;
                len = 0;
            }
        }
    }
    if (len > 0)
        lengths[len > 10 ? 10 : len]++;

    printf("%d chars: %d digits, %d spaces, %d other\n", total, digits, spaces, others);
    for (int i = 0; i < 26; i++) {
        if (letters[i] == 0)
            continue;
        printf("%c %3d ", 'a' + i, letters[i]);
        for (int j = 0; j < letters[i]; j++)
            putchar('*');
        putchar('\n');
    }
    printf("word lengths:\n");
    for (int i = 1; i <= 10; i++) {
        if (lengths[i])
            printf("%2d%s %d\n", i, i == 10 ? "+" : " ", lengths[i]);
    }
    return 0;
}

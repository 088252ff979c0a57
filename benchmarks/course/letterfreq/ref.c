#include <stdio.h>
#include <ctype.h>

int main(void)
{
    int count[26] = {0};
    int c, i, total = 0;
    while ((c = getchar()) != EOF) {
        if (isalpha(c)) {
            count[tolower(c) - 'a']++;
            total++;
        }
    }
    for (i = 0; i < 26; i++)
        if (count[i] > 0)
            printf("%c: %d\n", 'a' + i, count[i]);
    printf("%d letters\n", total);
    return 0;
}

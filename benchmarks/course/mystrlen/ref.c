#include <stdio.h>

int my_strlen(const char s[])
{
    int n = 0;
    while (s[n] != '\0')
        n++;
    return n;
}

/* prints the words longer than the given length */
int main(void)
{
    char w[40];
    int min, count = 0, total = 0;
    if (scanf("%d", &min) != 1) {
        printf("missing length\n");
        return 1;
    }
    while (scanf("%39s", w) == 1) {
        total++;
        if (my_strlen(w) > min) {
            printf("%s\n", w);
            count++;
        }
    }
    printf("%d of %d words are longer than %d letters\n", count, total, min);
    return 0;
}

#include <stdio.h>
#include <string.h>

int sign(int v)
{
    return (v > 0) - (v < 0);
}

int main(void)
{
    char a[40], b[40];
    char buf[100];
    char prefix[5];

    while (scanf("%39s %39s", a, b) == 2) {
        printf("a=\"%s\" (%d) b=\"%s\" (%d)\n", a, (int) strlen(a), b, (int) strlen(b));
        printf("  strcmp sign: %d, strncmp(a,b,3) sign: %d\n", sign(strcmp(a, b)), sign(strncmp(a, b, 3)));
        strcpy(buf, a);
        strcat(buf, "+");
        strcat(buf, b);
        printf("  joined: %s (%d)\n", buf, (int) strlen(buf));
        strncpy(prefix, a, 4);
        prefix[4] = '\0';
        printf("  prefix: %s\n", prefix);
        char *p = buf + strlen(buf);
        int vowels = 0;
        while (p > buf) {
            p--;
            if (*p == 'a' || *p == 'e' || *p == 'i' || *p == 'o' || *p == 'u')
                vowels++;
        }
        printf("  vowels in joined: %d\n", vowels);
    }
    printf("empty vs a: %d, a vs empty: %d, equal: %d\n", sign(strcmp("", "a")), sign(strcmp("a", "")), strcmp("xyz", "xyz"));
    return 0;
}

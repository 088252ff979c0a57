#include <stdio.h>
#include <string.h>

int main(void) {
    char line[80];
    const char *text = "the quick brown fox jumps over the lazy dog";
    char *p;
    printf("first o at %d, last o at %d\n", (int) (strchr(text, 'o') - text),
           (int) (strrchr(text, 'o') - text));
    printf("z: %s\n", strchr(text, 'z'));
    printf("no x: %d\n", strchr(text, 'x') == NULL);
    printf("terminator: %d\n", strchr(text, '\0') == text + strlen(text));
    p = strstr(text, "the");
    while (p != NULL) {
        printf("'the' at %d\n", (int) (p - text));
        p = strstr(p + 1, "the");
    }
    printf("empty needle: %d\n", strstr(text, "") == text);
    while (fgets(line, sizeof line, stdin)) {
        char *nl = strrchr(line, '\n');
        if (nl) *nl = '\0';
        p = strstr(text, line);
        if (p)
            printf("%s: found at %d\n", line, (int) (p - text));
        else
            printf("%s: not found\n", line);
    }
    return 0;
}

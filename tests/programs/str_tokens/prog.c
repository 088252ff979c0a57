#include <stdio.h>
#include <string.h>

int main(void) {
    char line[100], out[120];
    int n = 0;
    while (fgets(line, sizeof line, stdin)) {
        char *tok = strtok(line, " ,;\n");
        out[0] = '\0';
        while (tok != NULL) {
            n++;
            if (out[0] != '\0')
                strncat(out, "|", 1);
            strncat(out, tok, 4);     /* at most four characters of each token */
            tok = strtok(NULL, " ,;\n");
        }
        printf("[%s]\n", out);
    }
    printf("%d tokens\n", n);
    if (n > 0)
        printf("after the end: %d\n", strtok(NULL, " ") == NULL);
    return 0;
}

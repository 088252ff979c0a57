#include <stdio.h>

/* fgets a line, then sscanf it (schedule2 style): the return value tells what matched. */
int main(void) {
    char line[100], word[20];
    int a, b, r;
    double x;
    while (fgets(line, sizeof line, stdin)) {
        r = sscanf(line, "%d %d", &a, &b);
        if (r == 2) {
            printf("pair %d %d\n", a, b);
            continue;
        }
        r = sscanf(line, "%19s = %lf", word, &x);
        if (r == 2)
            printf("assign %s %g\n", word, x);
        else
            printf("other (%d): %s", r, line);
    }
    r = sscanf("", "%d", &a);
    printf("empty string: %d\n", r);
    r = sscanf("12abc", "%d%s", &a, word);
    printf("%d %d %s\n", r, a, word);
    r = sscanf("0x1f 077", "%i %i", &a, &b);
    printf("%d %d %d\n", r, a, b);
    return 0;
}

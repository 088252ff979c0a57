#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sums the numeric columns of comma-separated lines: fgets, strtok, strtod, sprintf. */
int main(void) {
    char line[128], label[64];
    double sums[8] = {0};
    int cols = 0, rows = 0, i;
    while (fgets(line, sizeof line, stdin)) {
        char *f = strtok(line, ",\n");
        int c = 0;
        if (f == NULL)
            continue;
        rows++;
        while (f != NULL && c < 8) {
            char *end;
            double v = strtod(f, &end);
            if (end == f)
                printf("row %d col %d: '%s' is not a number\n", rows, c + 1, f);
            else
                sums[c] += v;
            c++;
            f = strtok(NULL, ",\n");
        }
        if (c > cols)
            cols = c;
    }
    for (i = 0; i < cols; i++) {
        int n = sprintf(label, "column %d", i + 1);
        printf("%-*s %10.3f\n", n + 2, label, sums[i]);
    }
    printf("%d rows\n", rows);
    return 0;
}

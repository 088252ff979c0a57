#include <stdio.h>
#include <string.h>
#include <math.h>

/* tot_info style: lines of counts, '#' comments, log/exp statistics. */
int main(void) {
    char line[128];
    int lineno = 0;
    while (fgets(line, sizeof line, stdin) != NULL) {
        char *hash = strchr(line, '#');
        int a, b, r;
        lineno++;
        if (hash)
            *hash = '\0';
        r = sscanf(line, "%d %d", &a, &b);
        if (r != 2) {
            if (r == 1)
                printf("line %d: one value\n", lineno);
            continue;
        }
        if (a <= 0 || b <= 0) {
            printf("line %d: counts must be positive\n", lineno);
            continue;
        }
        {
            double p = (double) a / (a + b);
            double h = -(p * log(p) + (1 - p) * log(1 - p)) / log(2.0);
            printf("line %d: p=%.6f entropy=%.6f exp=%.6e log10=%.6f\n", lineno, p, h,
                   exp(-h * a), log10((double) (a + b)));
        }
    }
    return 0;
}

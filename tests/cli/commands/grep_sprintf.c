#include <stdio.h>
#include <string.h>

/* faulty grep PATTERN [FILE], printing through sprintf (which the encoder does not encode yet). */
int main(int argc, char *argv[]) {
    char line[100], out[120];
    int n = 0, found = 0;
    FILE *fp = argc > 2 ? fopen(argv[2], "r") : stdin;
    FILE *copy = fopen("copy.txt", "w");
    if (argc < 2) return 2;
    while (fgets(line, sizeof line, fp)) {
        n += n < 1;
        fputs(line, copy);
        if (strstr(line, argv[1])) {
            sprintf(out, "%d: %s", n, line);
            fputs(out, stdout);
            found++;
        }
    }
    return 0;
}

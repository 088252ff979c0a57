#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints the files named on the command line with line numbers, as cat -n. */
static int show(const char *name) {
    char line[80];
    int n = 0;
    FILE *fp = fopen(name, "r");
    if (fp == NULL) {
        fprintf(stderr, "cannot open %s\n", name);
        return -1;
    }
    while (fgets(line, sizeof line, fp))
        printf("%s:%d: %s", name, ++n, line);
    if (n > 0 && line[strlen(line) - 1] != '\n')
        printf("\n");
    printf("%s: %d lines, eof %d\n", name, n, feof(fp) != 0);
    fclose(fp);
    return n;
}

int main(int argc, char *argv[]) {
    int i, total = 0;
    if (argc < 2) {
        printf("usage: prog FILE...\n");
        exit(2);
    }
    for (i = 1; i < argc; i++) {
        int n = show(argv[i]);
        if (n < 0)
            exit(1);
        total += n;
    }
    printf("total %d\n", total);
    return 0;
}

#include <stdio.h>

/* Reads a table from the file named by argv[1]: a count, then rows of name, int, double. */
int main(int argc, char **argv) {
    FILE *fp;
    int n, i, qty, c;
    double price, total = 0;
    char name[20];
    if (argc != 2 || (fp = fopen(argv[1], "r")) == NULL) {
        printf("no table\n");
        return 2;
    }
    if (fscanf(fp, "%d", &n) != 1)
        return 3;
    for (i = 0; i < n; i++) {
        int r = fscanf(fp, "%19s %d %lf", name, &qty, &price);
        if (r != 3) {
            printf("row %d: fscanf returned %d\n", i + 1, r);
            break;
        }
        printf("%-10s %3d x %7.2f = %8.2f\n", name, qty, price, qty * price);
        total += qty * price;
    }
    printf("total %.2f\n", total);
    /* the rest of the file, character by character, with one ungetc */
    c = getc(fp);
    while (c == '\n' || c == ' ')
        c = getc(fp);
    if (c != EOF) {
        ungetc(c, fp);
        printf("rest starts with '%c'\n", fgetc(fp));
    }
    printf("eof %d\n", feof(fp) != 0);
    fclose(fp);
    return 0;
}

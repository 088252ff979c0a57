#include <stdio.h>

/* Writes a file, reads it back, appends to it: writes stay in the test's own directory. */
int main(void) {
    FILE *out, *in;
    int c, count = 0;
    char line[40];
    out = fopen("out.txt", "w");
    if (!out)
        return 1;
    fprintf(out, "%s %d %.2f\n", "first", 1, 2.5);
    fputs("second line\n", out);
    fputc('3', out);
    putc('\n', out);
    c = fgetc(out);
    printf("reading a write-only stream: %d, ferror %d\n", c, ferror(out) != 0);
    fclose(out);

    in = fopen("out.txt", "r");
    while ((c = fgetc(in)) != EOF) {
        putchar(c);
        count++;
    }
    printf("%d bytes, feof %d\n", count, feof(in) != 0);
    printf("writing to a read-only stream: %d\n", fputs("x", in));
    printf("ferror after the write: %d\n", ferror(in) != 0);
    fclose(in);

    out = fopen("out.txt", "a");
    fprintf(out, "appended\n");
    fclose(out);
    in = fopen("out.txt", "r");
    while (fgets(line, sizeof line, in))
        printf("> %s", line);
    fclose(in);
    printf("w of a bad mode: %s\n", fopen("out.txt", "q") == NULL ? "NULL" : "opened");
    return 0;
}

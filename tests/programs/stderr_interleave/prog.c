#include <stdio.h>

int main(void) {
    int i;
    for (i = 0; i < 3; i++) {
        printf("out %d\n", i);
        fprintf(stderr, "err %d\n", i);
        fputs("err line\n", stderr);
        putc('e', stderr);
        fputc('\n', stderr);
        fputc('o', stdout);
        putc('\n', stdout);
        fputs("out line\n", stdout);
    }
    fflush(stdout);
    fprintf(stderr, "ferror(stderr) %d\n", ferror(stderr));
    i = fputc('x', stdin);
    printf("ferror(stdout) %d, fputc to stdin %d, ferror(stdin) %d\n", ferror(stdout), i,
           ferror(stdin) != 0);
    i = fprintf(stdin, "x%d", 5);
    printf("fprintf to stdin %d\n", i);
    return 0;
}

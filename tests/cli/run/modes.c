#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <assert.h>

/* Prints its arguments, copies stdin to stdout, then behaves as its first
   argument says (used by crates/faultline/tests/cli_run_test.rs). */
int main(int argc, char *argv[])
{
    int i, c, n = 0;
    for (i = 1; i < argc; i++)
        printf("argv[%d] = %s\n", i, argv[i]);
    while ((c = getchar()) != EOF) {
        putchar(c);
        n++;
    }
    if (argc < 2)
        return 0;
    if (strcmp(argv[1], "exit") == 0)
        exit(3);
    if (strcmp(argv[1], "return") == 0)
        return 42;
    if (strcmp(argv[1], "assert") == 0)
        assert(n == 0);
    if (strcmp(argv[1], "divide") == 0)
        printf("%d\n", 100 / (n - n));
    if (strcmp(argv[1], "index") == 0) {
        int a[4] = {0};
        a[n] = 1;
    }
    return 0;
}

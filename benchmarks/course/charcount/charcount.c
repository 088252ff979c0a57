#include <stdio.h>

/* charcount C: how often C occurs on each line of the input that has it */
int main(int argc, char *argv[])
{
    int c, count = 0, total = 0;
    int line = 0;
    char want;
    if (argc != 2) {
        printf("usage: charcount CHAR\n");
        return 1;
    }
    want = argv[1][0];
    while ((c = getchar()) != EOF) {
        if (c == want)
            count++;
        if (c == '\n') {
            if (count > 0)
                printf("line %d: %d\n", line, count);
            total += count;
            count = 0;
            line++;
        }
    }
    printf("total: %d\n", total);
    return 0;
}

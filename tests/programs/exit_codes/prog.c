#include <stdio.h>
#include <stdlib.h>

void fail(const char *msg, int code)
{
    fprintf(stderr, "error: %s\n", msg);
    fprintf(stdout, "aborting with status %d\n", code);
    exit(code);
}

int parse_digit(int c)
{
    if (c < '0' || c > '9')
        fail("not a digit", 3);
    return c - '0';
}

int main()
{
    int c, sum = 0, count = 0;

    fprintf(stdout, "reading digits\n");
    while ((c = getchar()) != EOF && c != '\n') {
        if (c == 'q') {
            printf("quit requested after %d digits\n", count);
            exit(EXIT_SUCCESS);
        }
        if (c == '!')
            fail("bang", EXIT_FAILURE);
        sum += parse_digit(c);
        count++;
        printf("digit %d, running sum %d\n", c - '0', sum);
    }
    fflush(stdout);
    fprintf(stderr, "done\n");
    if (count == 0)
        return 4;
    printf("checksum %d\n", sum % 10);
    return sum % 10 == 0 ? 0 : 5;
}

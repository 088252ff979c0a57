#include <stdio.h>
#include <stdlib.h>

/* Prints the sum of its arguments; exits with 1 when it is negative. */
int main(int argc, char *argv[])
{
    int i, sum = 0;
    for (i = 1; i < argc; i++)
        sum += atoi(argv[i]);
    printf("%d\n", sum);
    return sum < 0;
}

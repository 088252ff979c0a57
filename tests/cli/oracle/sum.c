#include <stdio.h>
#include <stdlib.h>

/* sum_ref.c with two seeded faults: the sum is capped at 100 (line 10) and
   the exit status is 1 for a zero sum too (line 12). */
int main(int argc, char *argv[])
{
    int i, sum = 0;
    for (i = 1; i < argc; i++)
        sum += atoi(argv[i]);
    if (sum > 100)
        sum = 100;
    printf("%d\n", sum);
    return sum <= 0;
}

#include <stdio.h>
#include <stdlib.h>

/* glibc's rand: the same sequence as the compiled program for a given seed. */
int main(int argc, char *argv[]) {
    int counts[6] = {0}, i;
    if (argc > 1)
        srand((unsigned) atoi(argv[1]));
    for (i = 0; i < 600; i++)
        counts[rand() % 6]++;
    for (i = 0; i < 6; i++)
        printf("%d: %d\n", i + 1, counts[i]);
    for (i = 0; i < 3; i++)
        printf("next: %d\n", rand());   /* one call per statement: argument order is unspecified */
    srand(1);
    i = rand();
    srand(0);
    printf("seed 0 is seed 1: %d\n", i == rand());
    return 0;
}

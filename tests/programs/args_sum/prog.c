#include <stdio.h>
#include <stdlib.h>

/* Sums its command-line arguments as int, double and long. */
int main(int argc, char *argv[])
{
    int i;
    int isum = 0;
    double dsum = 0.0;
    long lsum = 0;

    printf("argc = %d\n", argc);
    if (argc < 2) {
        printf("usage: args_sum NUMBER...\n");
        return 1;
    }
    for (i = 1; i < argc; i++) {
        int v = atoi(argv[i]);
        double d = atof(argv[i]);
        long l = atol(argv[i]);
        printf("arg %d: \"%s\" atoi=%d atof=%g atol=%ld\n", i, argv[i], v, d, l);
        isum += v;
        dsum += d;
        lsum += l;
    }
    printf("int sum:    %d\n", isum);
    printf("double sum: %.3f\n", dsum);
    printf("long sum:   %ld\n", lsum);
    printf("mean:       %8.4f\n", dsum / (argc - 1));
    return 0;
}

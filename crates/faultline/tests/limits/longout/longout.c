/* Prints 0..n-1, one per line, with every 100000th number off by one:
   a test whose expected output is megabytes long (the tests make it). */
#include <stdio.h>
int main(void) {
    int n, i;
    scanf("%d", &n);
    for (i = 0; i < n; i++) {
        if (i % 100000 == 99999)
            printf("%d\n", i + 1); /* bug: should print i */
        else
            printf("%d\n", i);
    }
    return 0;
}

#include <stdio.h>

int main(void) {
    int x, n = 0, r;
    long sum = 0;
    while ((r = fscanf(stdin, "%d", &x)) == 1) {
        sum += x;
        n++;
    }
    printf("read %d numbers, sum %ld, last fscanf returned %d\n", n, sum, r);
    printf("feof=%d\n", feof(stdin) != 0);
    if (r == 0) {
        char word[16];
        if (fscanf(stdin, "%15s", word) == 1)
            printf("stopped at '%s'\n", word);
    }
    return n;
}

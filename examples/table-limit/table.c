#include <stdio.h>

/* Reads tables (a count, then that many numbers) until the input ends and
   prints the sum of each; a table of more than 100 numbers is skipped. */
int main(void) {
    int n, i, x;
    long sum;
    while (scanf("%d", &n) == 1) {
        if (n > 10) {
            printf("table too large\n");
            for (i = 0; i < n; i++)
                scanf("%d", &x);
            continue;
        }
        sum = 0;
        for (i = 0; i < n; i++) {
            scanf("%d", &x);
            sum += x;
        }
        printf("sum %ld\n", sum);
    }
    return 0;
}

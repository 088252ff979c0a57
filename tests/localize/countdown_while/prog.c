#include <stdio.h>

/* Counts down from n to 1.
   Fault: the loop stops at 2 (`n > 1` should be `n > 0`). */
int main(void)
{
    int n;
    scanf("%d", &n);
    while (n > 1) {
        printf("%d ", n);
        n = n - 1;
    }
    printf("liftoff\n");
    return 0;
}

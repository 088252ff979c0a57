/* Echoes the positive numbers among n inputs and counts them. The count
   is never incremented. */
#include <stdio.h>

int main(void)
{
    int n, x, count = 0, i;
    scanf("%d", &n);
    for (i = 0; i < n; i++) {
        scanf("%d", &x);
        if (x > 0) {
            printf("positive %d\n", x);
        }
    }
    printf("%d positives\n", count);
    return 0;
}

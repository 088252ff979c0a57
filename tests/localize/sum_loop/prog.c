#include <stdio.h>

/* The sum 1 + 2 + ... + n.
   Fault: the loop stops one early (`i < n` should be `i <= n`). */
int main(void)
{
    int n, i, s;
    scanf("%d", &n);
    s = 0;
    for (i = 1; i < n; i++)
        s = s + i;
    printf("%d\n", s);
    return 0;
}

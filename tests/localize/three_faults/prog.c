#include <stdio.h>

/* Three results of x, three faults: p should be x - 1, q should be
   x * 2, r should be x % 3. */
int main(void)
{
    int x, p, q, r;
    scanf("%d", &x);
    p = x + 1;
    q = x * 3;
    r = x / 3;
    printf("%d %d\n", p, q);
    printf("%d\n", r);
    return 0;
}

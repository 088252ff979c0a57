#include <stdio.h>

/* b to the power e, by repeated multiplication.
   Fault: main passes e - 1 instead of e. */
int power(int b, int e)
{
    int r = 1, i;
    for (i = 0; i < e; i++)
        r = r * b;
    return r;
}

int main(void)
{
    int b, e, p;
    scanf("%d %d", &b, &e);
    p = power(b, e - 1);
    printf("%d^%d = %d\n", b, e, p);
    return 0;
}

#include <stdio.h>

/* a*a + b*b through a helper.
   Fault: sumsq squares a twice. */
int square(int x)
{
    return x * x;
}

int sumsq(int a, int b)
{
    return square(a) + square(a);
}

int main(void)
{
    int a, b;
    scanf("%d %d", &a, &b);
    printf("%d\n", sumsq(a, b));
    return 0;
}

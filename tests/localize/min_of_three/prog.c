#include <stdio.h>

/* The smallest of three numbers.
   Fault: the second comparison is reversed (`c > m` should be `c < m`). */
int min3(int a, int b, int c)
{
    int m = a;
    if (b < m)
        m = b;
    if (c > m)
        m = c;
    return m;
}

int main(void)
{
    int a, b, c;
    scanf("%d %d %d", &a, &b, &c);
    printf("min %d\n", min3(a, b, c));
    return 0;
}

#include <stdio.h>
int main(void)
{
    int a, b, c, m;
    printf("Three numbers: ");
    scanf("%d%d%d", &a, &b, &c);
    if ((a >= b && a <= c) || (a <= b && a >= c))
        m = b;
    else if ((b >= a && b <= c) || (b <= a && b >= c))
        m = b;
    else
        m = c;
    printf("%d is the median\n", m);
    return 0;
}

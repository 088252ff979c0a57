#include <stdio.h>
int main(void)
{
    int a, b, c, m;
    printf("Please enter 3 numbers separated by spaces > ");
    scanf("%d%d%d", &a, &b, &c);
    if ((a >= b && a <= c) || (a <= b && a >= c))
        m = a
    else if ((b >= a && b <= c) || (b <= a && b >= c))
        m = b;
    else
        m = c;
    printf("%d is the median\n", m);
    return 0;
}

#include <stdio.h>

/* Two independent results, each with a fault: a should be x + 2 and b
   should be y * 2. */
int main(void)
{
    int x, y, a, b;
    scanf("%d %d", &x, &y);
    a = x + 1;
    b = y * 3;
    printf("%d\n", a);
    printf("%d\n", b);
    return 0;
}

/* Prints the larger of two numbers. It computes it, and never prints it. */
#include <stdio.h>

int main(void)
{
    int a, b, m;
    scanf("%d %d", &a, &b);
    printf("max: ");
    if (a > b)
        m = a;
    else
        m = b;
    return 0;
}

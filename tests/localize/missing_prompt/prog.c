#include <stdio.h>

/* Reads two numbers and prints their sum and product.
   Fault: the prompt "Enter two numbers: " is never printed. */
int main(void)
{
    int a, b;
    scanf("%d %d", &a, &b);
    printf("%d\n", a + b);
    printf("%d\n", a * b);
    return 0;
}

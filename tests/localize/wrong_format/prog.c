#include <stdio.h>

/* Prints a number and its double.
   Fault: the number is printed in hexadecimal. */
int main(void)
{
    int n;
    scanf("%d", &n);
    printf("n = %x\n", n);
    printf("2n = %d\n", 2 * n);
    return 0;
}

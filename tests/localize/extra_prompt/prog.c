#include <stdio.h>

/* Prints the square of a number.
   Fault: a prompt is printed that the expected output does not have. */
int main(void)
{
    int n;
    printf("Number? ");
    scanf("%d", &n);
    printf("%d\n", n * n);
    return 0;
}

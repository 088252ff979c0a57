#include <stdio.h>

/* Prints the right numbers with irregular spacing. */
int main(void)
{
    int a, b;
    while (scanf("%d %d", &a, &b) == 2)
        printf("%d  %d \t%d\n", a, b, a + b);
    printf("\n");
    return 0;
}

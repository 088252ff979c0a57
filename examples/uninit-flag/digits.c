/* Prints the digits of an integer, last first; a negative number's last
 * digit carries the sign. The flag `neg` is set for negative numbers only:
 * for the others it is read uninitialized (a runtime error). The checker
 * ignores whitespace, and the program never ends its last line. */
#include <stdio.h>

int main(void)
{
    int n, neg;
    printf("Enter an integer > ");
    scanf("%d", &n);
    if (n < 0)
        neg = 1;
    while (n != 0) {
        int d = n % 10;
        n = n / 10;
        if (neg && n != 0)
            d = -d;
        printf("\n%d", d);
    }
    printf("\nThat's all, have a nice day!");
    return 0;
}

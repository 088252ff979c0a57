#include <stdio.h>

/* Converts Fahrenheit to Celsius and describes it.
   Fault: the offset is 30 instead of 32. */
int main(void)
{
    int f, c;
    scanf("%d", &f);
    c = (f - 30) * 5 / 9;
    if (c < 0)
        printf("freezing %d\n", c);
    else if (c < 20)
        printf("cold %d\n", c);
    else
        printf("warm %d\n", c);
    return 0;
}

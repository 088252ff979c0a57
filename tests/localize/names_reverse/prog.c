#include <stdio.h>

/* Prints three names in reverse order: scanf("%s") into a computed element
   of an array of strings.
   Fault: i > 0 instead of i >= 0 (the first name is never printed). */
int main(void)
{
    char names[3][8];
    int i;
    for (i = 0; i < 3; i++)
        if (scanf("%7s", names[i]) != 1)
            return 1;
    for (i = 2; i > 0; i--)
        printf("%s\n", names[i]);
    return 0;
}

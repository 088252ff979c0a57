#include <stdio.h>

/* Prints three names in reverse. Fault: i > 0 for i >= 0. The encoder
   cannot encode printing names[i], a string at a computed offset into an
   array of more than 64 characters. */
int main(void)
{
    char names[3][30];
    int i;
    for (i = 0; i < 3; i++)
        scanf("%s", names[i]);
    for (i = 2; i > 0; i--)
        printf("%s\n", names[i]);
    return 0;
}

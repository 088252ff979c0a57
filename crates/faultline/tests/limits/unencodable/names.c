#include <stdio.h>

/* Prints three names in reverse. Fault: i > 0 for i >= 0. The encoder
   cannot encode printing names[i] + j, a string at a computed offset into an
   array of more than 64 characters that may be any of them. */
int main(void)
{
    char names[3][30];
    int i, j;
    for (i = 0; i < 3; i++)
        scanf("%s", names[i]);
    for (i = 2; i > 0; i--)
        for (j = 0; j < 1; j++)
            printf("%s\n", names[i] + j);
    return 0;
}

#include <stdio.h>
#include <string.h>
#include <ctype.h>

int is_palindrome(const char s[])
{
    int i = 0, j = strlen(s) - 1;
    while (i < j) {
        if (tolower(s[i]) != tolower(s[j]))
            return 0;
        i++;
        j--;
    }
    return 1;
}

int main(void)
{
    char w[64];
    while (scanf("%63s", w) == 1) {
        if (is_palindrome(w))
            printf("%s: palindrome\n", w);
        else
            printf("%s: not a palindrome\n", w);
    }
    return 0;
}

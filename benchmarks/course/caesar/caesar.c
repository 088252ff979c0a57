#include <stdio.h>
#include <ctype.h>

/* Caesar cipher: first line the key, then the text to encrypt */
int main(void)
{
    int k, c;
    if (scanf("%d", &k) != 1) {
        printf("missing key\n");
        return 1;
    }
    getchar(); /* the newline after the key */
    k = (k % 26 + 26) % 26;
    while ((c = getchar()) != EOF) {
        if (islower(c))
            c = 'a' + (c - 'a' + k) % 26;
        else if (isupper(c))
            c = 'A' + (c - 'a' + k) % 26;
        putchar(c);
    }
    return 0;
}

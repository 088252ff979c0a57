#include <stdio.h>

void copy_word(char *dst, const char *src)
{
    int i = 0;
    while (src[i] != '\0') {
        dst[i] = src[i];
        i++;
    }
    dst[i] = '\0';
}

int main(void)
{
    char input[64];
    char word[8];

    while (scanf("%63s", input) == 1) {
        printf("copying \"%s\"\n", input);
        copy_word(word, input);
        printf("copied: %s\n", word);
    }
    return 0;
}

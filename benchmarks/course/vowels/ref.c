#include <stdio.h>
#include <ctype.h>

int is_vowel(int c)
{
    c = tolower(c);
    return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
}

int main(void)
{
    int c, vowels = 0, consonants = 0, line = 1;
    while ((c = getchar()) != EOF) {
        if (c == '\n') {
            printf("line %d: %d vowels, %d consonants\n", line, vowels,
                   consonants);
            line++;
            vowels = consonants = 0;
        } else if (is_vowel(c)) {
            vowels++;
        } else if (isalpha(c)) {
            consonants++;
        }
    }
    return 0;
}

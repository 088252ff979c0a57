#include <stdio.h>

const char *ones[] = {"zero", "one", "two", "three", "four", "five", "six",
                      "seven", "eight", "nine", "ten", "eleven", "twelve",
                      "thirteen", "fourteen", "fifteen", "sixteen",
                      "seventeen", "eighteen", "nineteen"};
const char *tens[] = {"", "", "twenty", "thirty", "forty", "fifty", "sixty",
                      "seventy", "eighty", "ninety"};

/* prints n (0..999) in words */
void say(int n)
{
    if (n >= 100) {
        say(n / 100);
        printf(" hundred");
        n %= 10;
        if (n == 0)
            return;
        printf(" and ");
    }
    if (n < 20) {
        printf("%s", ones[n]);
    } else {
        printf("%s", tens[n / 10]);
        if (n % 10 != 0)
            printf("-%s", ones[n % 10]);
    }
}

int main(void)
{
    int n;
    while (scanf("%d", &n) == 1) {
        if (n < 0 || n > 999) {
            printf("%d: out of range\n", n);
            continue;
        }
        printf("%d: ", n);
        say(n);
        printf("\n");
    }
    return 0;
}

#include <stdio.h>

int reverse(int n)
{
    int r = 0;
    do {
        r = r * 10 + n % 10;
        n /= 10;
    } while (n > 0);
    return r;
}

int main(void)
{
    int n, r;
    while (scanf("%d", &n) == 1) {
        if (n < 0) {
            printf("%d: negative\n", n);
            continue;
        }
        r = reverse(n);
        printf("%d reversed is %d", n, r);
        if (r == n)
            printf(", a palindrome");
        printf("\n");
    }
    return 0;
}

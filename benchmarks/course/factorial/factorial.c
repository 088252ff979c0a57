#include <stdio.h>

/* n! computed recursively */
long factorial(int n)
{
    if (n <= 1)
        return n;
    return n * factorial(n - 1);
}

int main(void)
{
    int n;
    while (scanf("%d", &n) == 1) {
        if (n < 0) {
            printf("%d! is undefined\n", n);
            continue;
        }
        printf("%d! = %ld\n", n, factorial(n));
    }
    return 0;
}

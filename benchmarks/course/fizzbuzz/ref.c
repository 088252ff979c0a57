#include <stdio.h>

int main(void)
{
    int n, i;
    if (scanf("%d", &n) != 1 || n < 1 || n > 30) {
        printf("n must be between 1 and 30\n");
        return 1;
    }
    for (i = 1; i <= n; i++) {
        if (i % 3 == 0 && i % 5 == 0)
            printf("FizzBuzz\n");
        else if (i % 3 == 0)
            printf("Fizz\n");
        else if (i % 5 == 0)
            printf("Buzz\n");
        else
            printf("%d\n", i);
    }
    return 0;
}

#include <stdio.h>

int main(void) {
    int n, i, sum = 0;
    scanf("%d", &n);
    i = 1;
    while (i <= n) {
        sum += i;
        i--;
    }
    printf("%d\n", sum);
    return 0;
}

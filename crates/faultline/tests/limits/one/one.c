#include <stdio.h>
/* Doubles its input; one test, which fails. */
int main(void) {
    int n;
    scanf("%d", &n);
    printf("%d\n", n + n + 1); /* bug: should be n + n */
    return 0;
}

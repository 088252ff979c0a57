/* Sums 0..n-1; the loop never ends for n > 7 (a test of the limits). */
#include <stdio.h>
int main(void) {
    int n, i, s = 0;
    scanf("%d", &n);
    i = 0;
    while (i < n) {
        s = s + i;
        if (i > 5) i = i - 1; /* bug: should be i = i + 1 */
        else i = i + 1;
    }
    printf("%d\n", s);
    return 0;
}

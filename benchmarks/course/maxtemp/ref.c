#include <stdio.h>
#include <limits.h>

/* Reads temperatures until the end of the input and prints how many there
   were and the highest. */
int main(void)
{
    int t, n = 0;
    int max = INT_MIN;
    while (scanf("%d", &t) == 1) {
        if (t > max)
            max = t;
        n++;
    }
    if (n == 0)
        printf("no readings\n");
    else
        printf("%d readings, highest %d\n", n, max);
    return 0;
}

#include <stdio.h>
#include "count.h"

int main(void) {
    int x, n = 0;
    while (scanf("%d", &x) == 1) {
        if (over(x))
            n++;
    }
    printf("%d\n", n);
    return 0;
}

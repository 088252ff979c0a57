#include <stdio.h>

/* The middle of three integers, with two seeded faults: a wrong assignment (line 10:
   `m = y;` where `m = z;` is right) and a wrong branch condition (line 14: `x > z`
   where `x < z` is right). On input 2 1 3 it prints 1 where 2 is expected. */
int main(void)
{
    int x, y, z, m;
    scanf("%d %d %d", &x, &y, &z);
    m = y;
    if (y < z) {
        if (x < y)
            m = y;
        else if (x > z)
            m = x;
    } else {
        if (x > y)
            m = y;
        else if (x > z)
            m = x;
    }
    printf("%d\n", m);
    return 0;
}

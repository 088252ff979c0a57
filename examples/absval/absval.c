#include <stdio.h>
#include <assert.h>

/* The absolute value of x.
   Seeded fault: the negative branch multiplies by 1 instead of negating (line 9). */
int absval(int x)
{
    if (x < 0)
        return x * 1;
    else
        return x;
}

int main(void)
{
    int x;
    scanf("%d", &x);
    assert(absval(x) >= 0);
    return 0;
}

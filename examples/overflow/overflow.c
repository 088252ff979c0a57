#include <stdio.h>
#include <assert.h>

/* b must not exceed a, whatever x and y are.
   Seeded fault: b is computed above a (lines 15 and 17 should not add).
   Relaxing `a = x` alone would explain the failure only if a could be
   INT_MAX and a + 1 wrapped around: signed overflow is undefined, so
   faultline does not report it. */
int main(void)
{
    int x, y, a, b;
    scanf("%d %d", &x, &y);
    if (x >= 0) a = x; else a = -x;
    if (y < 5)
        b = a + 1;
    else
        b = a + 2;
    assert(b <= a);
    return 0;
}

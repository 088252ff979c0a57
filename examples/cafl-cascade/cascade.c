/* CaFL's first worked example (Yi et al., "Explaining Software Failures by
   Cascade Fault Localization"): the assertion (line 14) fails because x was
   incremented (line 13) from 0 (line 10): the cause at level 0. That happened
   because y == 1 held (line 12, the critical condition), because of line 11:
   the cause at level 1. */
#include <assert.h>

int main(void)
{
    int x = 0;
    int y = 1;
    if (y == 1)
        x = x + 1;
    assert(x == 0);
    return 0;
}

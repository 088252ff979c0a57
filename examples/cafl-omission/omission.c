/* CaFL's second worked example: d ends up 4, not 5, because c kept its
   initial value: the assignment c = 2 (line 15) did not execute. The cause
   of the failure (level 0) is lines 11, 16 and 18; its critical conditions
   are line 12 (direct) and line 13 (indirect: its untaken side would have
   redefined c), not line 14, which did not execute. Level 1 explains them:
   lines 11 and 12, and lines 11 and 13. */
#include <assert.h>

int main(void)
{
    int a = 2, b = 1, c = 1, d = 0;
    if (a > 0) {
        if (b < 0)
            if (c != 2)
                c = 2;
        d = c + 3;
    }
    assert(d == 5);
    return 0;
}

#include <stdio.h>
#include <stdlib.h>

/* abort() does not flush stdout: what is still in its buffer is lost, what was
 * flushed (fflush, or a full 4096-byte buffer) is kept. */
int main(void) {
    int mode, i;
    if (scanf("%d", &mode) != 1)
        return 1;
    printf("mode %d\n", mode);
    if (mode == 1)
        fflush(stdout);
    if (mode == 2)
        for (i = 0; i < 300; i++)
            printf("line %03d of some padding text\n", i);
    printf("about to abort\n");
    if (mode >= 0)
        abort();
    printf("not aborted\n");
    return 0;
}

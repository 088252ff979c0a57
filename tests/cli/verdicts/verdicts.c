#include <stdio.h>
#include <assert.h>

/* Reads a command and ends as it says: 1 divides by zero, 2 fails an
   assertion, 3 loops forever; otherwise it prints the command. */
int main(void)
{
    int cmd, zero = 0;
    if (scanf("%d", &cmd) != 1)
        return 1;
    if (cmd == 1)
        printf("%d\n", 7 / zero);
    if (cmd == 2)
        assert(cmd != 2);
    while (cmd == 3)
        zero = 1 - zero;
    printf("cmd %d\n", cmd);
    return 0;
}

#include <stdio.h>

/* Moves a clock hand two hours at a time until it reaches the target.
   Odd targets are never reached. */
int main(void)
{
    int target, hand = 0;
    int start = 0;

    if (scanf("%d", &target) != 1)
        return 1;
    if (target < 0 || target > 11) {
        printf("target must be 0..11\n");
        return 2;
    }
    printf("target %d\n", target);
    while (hand != target) hand = (hand + 2) % 12;
    printf("reached %d after %d hours\n", hand, (hand - start + 12) % 12);
    return 0;
}

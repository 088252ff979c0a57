#include <stdio.h>

long moves = 0;

void hanoi(int n, char from, char to, char via, int verbose)
{
    if (n == 0)
        return;
    hanoi(n - 1, from, via, to, verbose);
    moves++;
    if (verbose)
        printf("move disk %d from %c to %c\n", n, from, to);
    hanoi(n - 1, via, to, from, verbose);
}

int main(void)
{
    int n;

    if (scanf("%d", &n) != 1 || n < 0 || n > 20) {
        printf("need 0..20 disks\n");
        return 1;
    }
    hanoi(n, 'A', 'C', 'B', n <= 4);
    printf("%d disks: %ld moves (expected %ld)\n", n, moves, (1L << n) - 1);
    return moves == (1L << n) - 1 ? 0 : 1;
}

#include <stdio.h>

int moves = 0;

/* move n disks from peg `from` to peg `to`, using peg `via` */
void hanoi(int n, char from, char to, char via)
{
    if (n == 0)
        return;
    hanoi(n - 1, from, via, to);
    printf("move disk %d from %c to %c\n", n, from, to);
    moves++;
    hanoi(n - 1, via, from, to);
}

int main(void)
{
    int n;
    if (scanf("%d", &n) != 1 || n < 0 || n > 6) {
        printf("n must be between 0 and 6\n");
        return 1;
    }
    hanoi(n, 'A', 'C', 'B');
    printf("%d moves\n", moves);
    return 0;
}

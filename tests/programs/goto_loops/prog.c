#include <stdio.h>

int grid[4][5] = {
    {3, 8, 1, 9, 4},
    {7, 2, 6, 5, 0},
    {1, 1, 2, 3, 5},
    {8, 13, 21, 34, 55},
};

/* Leaves two nested loops with a goto. */
int find(int key, int *row, int *col)
{
    int i, j;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 5; j++)
            if (grid[i][j] == key)
                goto found;
    return 0;
found:
    *row = i;
    *col = j;
    return 1;
}

/* A loop written with a backward goto. */
long factorial(int n)
{
    long r = 1;
top:
    if (n <= 1)
        goto done;
    r *= n--;
    goto top;
done:
    return r;
}

int classify(int x)
{
    int steps = 0;
    switch (x % 3) {
    case 0:
        steps = 10;
    again:
        steps++;
        if (steps % 4 != 0)
            goto again;
        break;
    case 1:
        goto out;
    default:
        steps = -1;
    }
    steps *= 2;
out:
    return steps;
}

int main(void)
{
    int k, r, c;
    while (scanf("%d", &k) == 1) {
        if (k < 0)
            goto finish;
        if (find(k, &r, &c))
            printf("%d at (%d,%d)", k, r, c);
        else
            printf("%d absent", k);
        printf(" %d! = %ld, classify %d\n", k % 15, factorial(k % 15), classify(k));
    }
finish:
    printf("bye\n");
    return 0;
}

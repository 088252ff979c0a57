#include <stdio.h>

char b[3][3];

int wins(char p)
{
    int i;
    for (i = 0; i < 3; i++) {
        if (b[i][0] == p && b[i][1] == p && b[i][2] == p)
            return 1;
        if (b[0][i] == p && b[1][i] == p && b[2][i] == p)
            return 1;
    }
    if (b[0][0] == p && b[1][1] == p && b[2][2] == p)
        return 1;
    if (b[0][2] == p && b[1][1] == p && b[2][1] == p)
        return 1;
    return 0;
}

int main(void)
{
    int i, j, empty = 0;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            if (scanf(" %c", &b[i][j]) != 1) {
                printf("incomplete board\n");
                return 1;
            }
            if (b[i][j] == '.')
                empty++;
        }
    if (wins('X'))
        printf("X wins\n");
    else if (wins('O'))
        printf("O wins\n");
    else if (empty > 0)
        printf("game not finished\n");
    else
        printf("draw\n");
    return 0;
}

#include <stdio.h>

char board[3][4] = {"...", "...", "..."};

void print_board(void)
{
    for (int r = 0; r < 3; r++)
        printf("  %s\n", board[r]);
}

char winner(void)
{
    for (int i = 0; i < 3; i++) {
        if (board[i][0] != '.' && board[i][0] == board[i][1] && board[i][1] == board[i][2])
            return board[i][0];
        if (board[0][i] != '.' && board[0][i] == board[1][i] && board[1][i] == board[2][i])
            return board[0][i];
    }
    if (board[1][1] != '.' &&
        ((board[0][0] == board[1][1] && board[1][1] == board[2][2]) ||
         (board[0][2] == board[1][1] && board[1][1] == board[2][0])))
        return board[1][1];
    return 0;
}

int main(void)
{
    int r, c, turn = 0;
    char player = 'X';

    while (scanf("%d %d", &r, &c) == 2) {
        if (r < 1 || r > 3 || c < 1 || c > 3 || board[r - 1][c - 1] != '.') {
            printf("%c: illegal move %d %d\n", player, r, c);
            continue;
        }
        board[r - 1][c - 1] = player;
        turn++;
        printf("move %d: %c at %d,%d\n", turn, player, r, c);
        char w = winner();
        if (w) {
            print_board();
            printf("%c wins after %d moves\n", w, turn);
            return 0;
        }
        if (turn == 9) {
            print_board();
            printf("draw\n");
            return 0;
        }
        player = player == 'X' ? 'O' : 'X';
    }
    print_board();
    printf("game unfinished\n");
    return 1;
}

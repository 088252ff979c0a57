#include <stdio.h>

/* A letter grade from a score.
   Fault: 70-79 gives B instead of C. */
int main(void)
{
    int score;
    char g;
    scanf("%d", &score);
    switch (score / 10) {
    case 10:
    case 9:
        g = 'A';
        break;
    case 8:
        g = 'B';
        break;
    case 7:
        g = 'B';
        break;
    case 6:
        g = 'D';
        break;
    default:
        g = 'F';
    }
    printf("%c\n", g);
    return 0;
}

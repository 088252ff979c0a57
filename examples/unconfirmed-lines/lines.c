/* Reads two words and a grid's rows and columns; prints the number of cells
 * and, on a line of its own, whether the words agree on their first that
 * many characters. Fault: the cells are rows + cols, not rows * cols. */
#include <stdio.h>
#include <string.h>

int main(void) {
    char s[32], t[32];
    int rows, cols;
    if (scanf("%31s %31s %d %d", s, t, &rows, &cols) != 4)
        return 1;
    int cells = rows + cols;
    printf("%d\n", cells);
    printf("%d\n", strncmp(s, t, cells) == 0);
    return 0;
}

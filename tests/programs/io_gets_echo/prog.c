#include <stdio.h>
#include <string.h>

int main(void) {
    char line[64];
    int n = 0;
    long total = 0;
    while (gets(line) != NULL) {
        n++;
        total += strlen(line);
        printf("%d: %s (%lu)\n", n, line, (unsigned long) strlen(line));
    }
    printf("%d lines, %ld characters\n", n, total);
    return 0;
}

#include <stdio.h>

int main(int argc, char *argv[]) {
    char line[32];
    FILE *fp = fopen(argc > 1 ? argv[1] : "data.txt", "r");
    int n = 0;
    while (fgets(line, sizeof line, fp) != NULL)
        n++;
    printf("%d lines\n", n);
    return 0;
}

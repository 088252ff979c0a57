#include <stdio.h>

int main(void) {
    char name[8];
    int n = 0;
    while (gets(name) != NULL) {
        n++;
        printf("hello, %s\n", name);
    }
    return n;
}

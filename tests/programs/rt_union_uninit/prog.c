/* Runtime error: reading an int member after writing only a char member
   (its other bytes were never written). */
#include <stdio.h>

union Mixed {
    char c;
    short s;
    int i;
};

int main(void) {
    int mode;
    union Mixed m;
    if (scanf("%d", &mode) != 1)
        return 1;
    if (mode == 0) {
        m.i = 0;
        m.c = 7;
        printf("full %d\n", m.i);
    } else if (mode == 1) {
        m.s = 258;
        printf("short %d char %d\n", m.s, m.c);
    } else {
        m.c = 7;
        printf("partial %d\n", m.i);
    }
    return 0;
}

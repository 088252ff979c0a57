#include <stdio.h>

union Bits {
    float f;
    unsigned int i;
};

int main(void) {
    int n;
    if (scanf("%d", &n) != 1)
        return 1;
    int m = n * 2 + 1;
    if (n > 100) {
        union Bits b;
        b.f = 1.5f;
        printf("%x\n", b.i);
    }
    printf("%d\n", m);
    return 0;
}

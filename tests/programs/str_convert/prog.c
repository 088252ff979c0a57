#include <stdio.h>
#include <stdlib.h>

int main(void) {
    const char *ints[] = {"42", "  -17xyz", "0x1F", "0755", "+9", "abc", "99999999999999999999", ""};
    const char *reals[] = {"3.25", "-1e3rest", ".5", "inf", "x1", "1e400", "0x10"};
    int i;
    char *end;
    for (i = 0; i < 8; i++) {
        long v = strtol(ints[i], &end, 0);
        unsigned long u = strtoul(ints[i], NULL, 10);
        printf("%-22s base0 %ld (used %d) base10u %lu\n", ints[i], v, (int) (end - ints[i]), u);
    }
    printf("base 2: %ld, base 36: %ld, base 16 of ff: %ld\n", strtol("1011", NULL, 2),
           strtol("zz", NULL, 36), strtol("ff", &end, 16));
    printf("strtoul of -1: %lu\n", strtoul("-1", NULL, 10));
    for (i = 0; i < 7; i++) {
        double d = strtod(reals[i], &end);
        printf("%-10s %g [%s]\n", reals[i], d, end);
    }
    return 0;
}

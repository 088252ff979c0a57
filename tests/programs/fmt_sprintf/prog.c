#include <stdio.h>
#include <string.h>
#include <stdlib.h>

int main(int argc, char *argv[]) {
    char buf[64], small[8];
    int n, v = argc > 1 ? atoi(argv[1]) : 42;
    double d = argc > 2 ? atof(argv[2]) : 3.14159;
    n = sprintf(buf, "[%5d|%-5d|%05d|%x|%o]", v, v, v, v, v);
    printf("%s %d\n", buf, n);
    n = sprintf(buf, "%.3f %e %g %10.4s|", d, d, d, "truncate");
    printf("%s %d\n", buf, n);
    n = snprintf(small, sizeof small, "%d-%d-%d", v, v, v);
    printf("snprintf wrote [%s], wanted %d\n", small, n);
    n = snprintf(NULL, 0, "%s=%d", "length", v);
    printf("snprintf(NULL, 0) = %d\n", n);
    n = snprintf(small, 1, "abc");
    printf("n=1: [%s] %d\n", small, n);
    sprintf(buf, "%s", "");
    printf("empty: [%s] %d\n", buf, (int) strlen(buf));
    sprintf(buf, "%c%c%c", 'a', 'b', 'c');
    sprintf(buf + strlen(buf), "+%d", v);
    puts(buf);
    return 0;
}

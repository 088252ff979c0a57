#include <stdio.h>

/* Pointer conversions faultline accepts (to the same type of object, through
   void *, to a first member), and with the argument "pun", one it refuses:
   reading an int through a char pointer. */
struct point { int x; int y; };

int main(int argc, char *argv[])
{
    struct point pts[2] = {{1, 2}, {3, 4}};
    int n = 258;
    void *v = pts;
    struct point *p = v;
    int *first = (int *) &pts[1];
    char *bytes;
    printf("%d %d %d\n", p[1].y, *first, *(int *) (void *) &n);
    if (argc > 1) {
        bytes = (char *) &n;
        printf("%d\n", bytes[0]);
    }
    return 0;
}

#include <stdio.h>

/* Classifies a triangle from its three side lengths.
   Seeded fault: the isosceles test compares a with b twice (line 14). */
int classify(int a, int b, int c)
{
    if (a <= 0 || b <= 0 || c <= 0)
        return 0;                      /* not a triangle */
    if (a + b <= c || a + c <= b || b + c <= a)
        return 0;
    if (a == b && b == c)
        return 3;                      /* equilateral */
    int iso;
    iso = a == b || a == b || a == c;
    if (iso)
        return 2;                      /* isosceles */
    return 1;                          /* scalene */
}

int main(void)
{
    int a, b, c;
    const char *names[4] = {"invalid", "scalene", "isosceles", "equilateral"};
    while (scanf("%d %d %d", &a, &b, &c) == 3) {
        int kind = classify(a, b, c);
        printf("%d %d %d: %s\n", a, b, c, names[kind]);
    }
    return 0;
}

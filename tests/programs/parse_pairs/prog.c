#include <stdio.h>
#include <math.h>

int main(void)
{
    int x = 0, y = 0, r;
    int n = 0;
    long sx = 0, sy = 0;

    while ((r = scanf(" x=%d,y=%d", &x, &y)) == 2) {
        n++;
        sx += x;
        sy += y;
        printf("point %d: (%d, %d) dist %.4f manhattan %d\n", n, x, y,
               sqrt((double) x * x + (double) y * y), (x < 0 ? -x : x) + (y < 0 ? -y : y));
    }
    printf("last scanf result: %d\n", r);
    if (r == 1)
        printf("partial point, x=%d\n", x);
    if (n > 0)
        printf("centroid: (%.3f, %.3f)\n", (double) sx / n, (double) sy / n);
    else
        printf("no points\n");
    return n;
}

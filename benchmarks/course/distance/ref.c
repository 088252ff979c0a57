#include <stdio.h>
#include <math.h>

struct point {
    double x, y;
};

double dist(struct point p, struct point q)
{
    double dx = p.x - q.x;
    double dy = p.y - q.y;
    return sqrt(pow(dx, 2) + pow(dy, 2));
}

/* length of the path through the points on the input */
int main(void)
{
    struct point prev, cur;
    double total = 0;
    int n = 0;
    while (scanf("%lf %lf", &cur.x, &cur.y) == 2) {
        if (n > 0) {
            printf("leg %d: %.3f\n", n, dist(prev, cur));
            total += dist(prev, cur);
        }
        prev = cur;
        n++;
    }
    printf("%d points, path length %.3f\n", n, total);
    return 0;
}

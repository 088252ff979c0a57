#include <stdio.h>
#include <math.h>

struct Point {
    double x, y;
};

struct Rect {
    struct Point tl, br;
};

typedef struct {
    struct Point center;
    double r;
} Circle;

struct Point make_point(double x, double y)
{
    struct Point p = {x, y};
    return p;
}

double dist(struct Point a, struct Point b)
{
    return sqrt(pow(a.x - b.x, 2) + pow(a.y - b.y, 2));
}

double area(const struct Rect *r)
{
    return fabs(r->br.x - r->tl.x) * fabs(r->br.y - r->tl.y);
}

void translate(struct Rect *r, double dx, double dy)
{
    r->tl.x += dx;
    r->tl.y += dy;
    r->br.x += dx;
    r->br.y += dy;
}

int contains(struct Rect r, struct Point p)
{
    double x0 = r.tl.x < r.br.x ? r.tl.x : r.br.x, x1 = r.tl.x < r.br.x ? r.br.x : r.tl.x;
    double y0 = r.tl.y < r.br.y ? r.tl.y : r.br.y, y1 = r.tl.y < r.br.y ? r.br.y : r.tl.y;
    return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1;
}

int main(void)
{
    struct Rect r;
    struct Point p;
    struct Point seen[10];
    int n = 0;

    while (scanf("%lf %lf %lf %lf %lf %lf", &r.tl.x, &r.tl.y, &r.br.x, &r.br.y, &p.x, &p.y) == 6) {
        struct Rect moved = r;
        Circle c = {make_point((r.tl.x + r.br.x) / 2, (r.tl.y + r.br.y) / 2), 0};
        c.r = dist(c.center, r.tl);
        translate(&moved, 1.5, -2);
        printf("rect (%.1f,%.1f)-(%.1f,%.1f) area %.2f diagonal %.3f\n",
               r.tl.x, r.tl.y, r.br.x, r.br.y, area(&r), dist(r.tl, r.br));
        printf("  moved copy (%.1f,%.1f)-(%.1f,%.1f), original tl.x still %.1f\n",
               moved.tl.x, moved.tl.y, moved.br.x, moved.br.y, r.tl.x);
        printf("  circumcircle center (%.2f,%.2f) r=%.4f\n", c.center.x, c.center.y, c.r);
        printf("  point (%g,%g) %s, %s after move\n", p.x, p.y,
               contains(r, p) ? "inside" : "outside", contains(moved, p) ? "inside" : "outside");
        if (n < 10)
            seen[n++] = p;
    }
    if (n > 0) {
        struct Point sum = {0, 0};
        for (int i = 0; i < n; i++) {
            sum.x += seen[i].x;
            sum.y += seen[i].y;
        }
        printf("centroid of %d points: (%.3f, %.3f)\n", n, sum.x / n, sum.y / n);
    }
    return 0;
}

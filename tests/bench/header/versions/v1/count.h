#define LIMIT 4
static int over(int x) {
    return x >= LIMIT;
}

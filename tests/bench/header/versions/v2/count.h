#define LIMIT 5
static int over(int x) {
    return x > LIMIT;
}

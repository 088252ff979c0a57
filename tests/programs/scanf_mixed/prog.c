#include <stdio.h>

int main(void)
{
    int qty = 0, r;
    char fruit[20] = "none";
    float weight = 0.0f;
    double price = 0.0;
    char grade = '?', sep = '?';
    int hex = 0;
    unsigned count = 0;
    long id = 0;

    r = scanf("%d %19s %f", &qty, fruit, &weight);
    printf("r=%d qty=%d fruit=%s weight=%.3f\n", r, qty, fruit, weight);
    r = scanf("%lf", &price);
    printf("r=%d price=%.2f total=%.2f\n", r, price, qty * price);
    r = scanf("%c", &sep);
    printf("r=%d sep=%d\n", r, sep);
    r = scanf(" %c", &grade);
    printf("r=%d grade=%c\n", r, grade);
    r = scanf("%i %u %ld", &hex, &count, &id);
    printf("r=%d hex=%d count=%u id=%ld\n", r, hex, count, id);
    r = scanf("%i", &hex);
    printf("r=%d next=%d\n", r, hex);
    r = scanf("%d", &qty);
    printf("r=%d qty=%d\n", r, qty);
    return 0;
}

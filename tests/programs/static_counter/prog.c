#include <stdio.h>

const double TAX_RATE = 0.08;
static const char SHOP[] = "Corner Shop";

int next_id(void)
{
    static int id = 100;
    return id++;
}

double running_average(double x)
{
    static double sum = 0.0;
    static int n;
    sum += x;
    n++;
    return sum / n;
}

int times_called(void)
{
    static int count;
    return ++count;
}

void print_line(const char *item, const double *price, int qty)
{
    const int width = 10;
    printf("#%d %-*s %3d x %7.2f = %8.2f\n", next_id(), width, item, qty, *price, qty * *price);
}

int main(void)
{
    char item[32];
    double price, total = 0.0;
    int qty;

    printf("%s\n", SHOP);
    while (scanf("%31s %lf %d", item, &price, &qty) == 3) {
        times_called();
        print_line(item, &price, qty);
        total += qty * price;
        printf("   running average price: %.3f\n", running_average(price));
    }
    printf("subtotal %.2f, tax %.2f, total %.2f\n", total, total * TAX_RATE, total * (1 + TAX_RATE));
    printf("%d items, next id would be %d\n", times_called() - 1, next_id());
    return 0;
}

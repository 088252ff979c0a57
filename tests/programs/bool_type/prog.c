#include <stdio.h>
#include <stdbool.h>

_Bool is_leap(int year)
{
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

bool all_positive(const int *a, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i] <= 0)
            return false;
    return true;
}

int main(void)
{
    _Bool b = 2;
    _Bool z = 0.0;
    _Bool h = 0.5;
    bool flags[4] = {true, false, 7, -1};
    int year, nums[8], n = 0;

    printf("b=%d z=%d h=%d sizeof(_Bool)=%d\n", b, z, h, (int) sizeof(_Bool));
    printf("flags: %d %d %d %d\n", flags[0], flags[1], flags[2], flags[3]);
    b = b + 1;
    printf("b + 1 stored back: %d, !b = %d, b + b = %d\n", b, !b, b + b);
    while (n < 8 && scanf("%d", &year) == 1) {
        nums[n++] = year;
        bool leap = is_leap(year);
        printf("%d: %s\n", year, leap ? "leap" : "common");
    }
    printf("all positive: %s\n", all_positive(nums, n) ? "true" : "false");
    return all_positive(nums, n) ? 0 : 1;
}

#include <stdio.h>
struct rec { char tag; int count; double weight; char name[5]; short code; };
struct rec table[4];
int main(void)
{
    struct rec rs[3];
    struct rec *end = rs + 3, *p;
    int n;
    if (scanf("%d", &n) != 1)
        return 1;
    for (p = rs; p < end; p++)
        p->tag = 'a';
    printf("%ld %ld\n", (long)(&rs[n] - rs), (long)((char *)&rs[n] - (char *)rs));
    printf("%ld %ld\n", (long)(end - &rs[n]), (long)((char *)end - (char *)&rs[n]));
    printf("%ld\n", (long)((char *)&table[3] - (char *)&table[n]));
    printf("%ld\n", (long)((char *)&table[3].name[4] - (char *)&table[n]));
    return 0;
}

#include <stdio.h>
#include <stddef.h>

struct entry {
    int key;
    int value;
};

struct entry table[4] = {{1, 100}, {2, 200}, {3, 300}, {5, 500}};

struct entry *lookup(int key)
{
    for (int i = 0; i < 4; i++)
        if (table[i].key == key)
            return &table[i];
    return NULL;
}

int main(void)
{
    int key;

    while (scanf("%d", &key) == 1) {
        struct entry *e = lookup(key);
        printf("looking up %d\n", key);
        printf("  value %d\n", e->value);
    }
    return 0;
}

#include <stdio.h>
#include <stdlib.h>

struct item {
    int id;
    struct item *next;
};

int main(void)
{
    struct item *head = NULL, *p;
    int n, i, sum = 0;
    if (scanf("%d", &n) != 1)
        return 1;
    for (i = 0; i < n; i++) {
        p = malloc(sizeof *p);
        p->id = i + 1;
        p->next = head;
        head = p;
    }
    /* Frees each node before reading its link when n > 2. */
    for (p = head; p != NULL; ) {
        struct item *next;
        sum += p->id;
        if (n > 2) {
            free(p);
            next = p->next;
        } else {
            next = p->next;
            free(p);
        }
        p = next;
    }
    printf("sum %d\n", sum);
    return 0;
}

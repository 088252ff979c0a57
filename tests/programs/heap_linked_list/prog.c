#include <stdio.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

static struct node *push(struct node *head, int v)
{
    struct node *n = (struct node *)malloc(sizeof(struct node));
    if (n == NULL)
        return head;
    n->value = v;
    n->next = head;
    return n;
}

static struct node *reverse(struct node *head)
{
    struct node *prev = NULL;
    while (head != NULL) {
        struct node *next = head->next;
        head->next = prev;
        prev = head;
        head = next;
    }
    return prev;
}

static struct node *remove_value(struct node *head, int v, int *removed)
{
    struct node **link = &head;
    while (*link) {
        if ((*link)->value == v) {
            struct node *dead = *link;
            *link = dead->next;
            free(dead);
            (*removed)++;
        } else {
            link = &(*link)->next;
        }
    }
    return head;
}

static void print(const char *label, const struct node *p)
{
    printf("%s:", label);
    for (; p; p = p->next)
        printf(" %d", p->value);
    printf("\n");
}

int main(void)
{
    struct node *list = NULL;
    int x, count = 0, removed = 0;
    while (scanf("%d", &x) == 1) {
        list = push(list, x);
        count++;
    }
    print("pushed", list);
    list = reverse(list);
    print("reversed", list);
    list = remove_value(list, 3, &removed);
    print("without 3", list);
    printf("%d read, %d removed\n", count, removed);
    while (list) {
        struct node *next = list->next;
        free(list);
        list = next;
    }
    return removed;
}

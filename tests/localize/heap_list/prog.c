#include <stdio.h>
#include <stdlib.h>

struct node {
    int key;
    struct node *next;
};

/* Inserts key keeping the list sorted; returns the new head. */
struct node *insert(struct node *head, int key)
{
    struct node *n = (struct node *)malloc(sizeof(struct node));
    struct node *p;
    n->key = key;
    n->next = NULL;
    if (head == NULL || key < head->key) {
        n->next = head;
        return n;
    }
    p = head;
    while (p->next != NULL && p->next->key >= key) /* bug: should be <= */
        p = p->next;
    n->next = p->next;
    p->next = n;
    return head;
}

int main(void)
{
    struct node *head = NULL, *p, *q;
    int k;
    while (scanf("%d", &k) == 1)
        head = insert(head, k);
    for (p = head; p != NULL; p = q) {
        printf("%d ", p->key);
        q = p->next;
        free(p);
    }
    printf("\n");
    return 0;
}

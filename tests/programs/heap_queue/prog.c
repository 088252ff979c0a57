#include <stdio.h>
#include <stdlib.h>

struct queue {
    int *buf;
    unsigned head, size, cap;
};

static struct queue *queue_new(unsigned cap)
{
    struct queue *q = malloc(sizeof(struct queue));
    q->buf = malloc(cap * sizeof(int));
    q->head = q->size = 0;
    q->cap = cap;
    return q;
}

static int enqueue(struct queue *q, int x)
{
    if (q->size == q->cap)
        return 0;
    q->buf[(q->head + q->size++) % q->cap] = x;
    return 1;
}

static int dequeue(struct queue *q, int *x)
{
    if (q->size == 0)
        return 0;
    *x = q->buf[q->head];
    q->head = (q->head + 1) % q->cap;
    q->size--;
    return 1;
}

int main(void)
{
    struct queue *q = queue_new(4);
    char op;
    int x, dropped = 0;
    void *empty = malloc(0);
    printf("malloc(0) %s\n", empty ? "gives a block" : "gives NULL");
    free(empty);
    while (scanf(" %c", &op) == 1) {
        if (op == '+' && scanf("%d", &x) == 1) {
            if (!enqueue(q, x))
                dropped++;
        } else if (op == '-') {
            if (dequeue(q, &x))
                printf("%d\n", x);
            else
                printf("empty\n");
        }
    }
    printf("left %u, dropped %d\n", q->size, dropped);
    free(q->buf);
    free(q);
    return 0;
}

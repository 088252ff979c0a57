#include <stdio.h>
#include <stdlib.h>

typedef struct Tree {
    int key;
    int count;
    struct Tree *left, *right;
} Tree;

Tree *insert(Tree *t, int key)
{
    if (!t) {
        t = malloc(sizeof *t);
        t->key = key;
        t->count = 1;
        t->left = t->right = NULL;
    } else if (key < t->key) {
        t->left = insert(t->left, key);
    } else if (key > t->key) {
        t->right = insert(t->right, key);
    } else {
        t->count++;
    }
    return t;
}

void inorder(const Tree *t)
{
    if (t == NULL)
        return;
    inorder(t->left);
    printf("%d(%d) ", t->key, t->count);
    inorder(t->right);
}

int height(const Tree *t)
{
    int l, r;
    if (!t)
        return 0;
    l = height(t->left);
    r = height(t->right);
    return 1 + (l > r ? l : r);
}

int destroy(Tree *t)
{
    int n;
    if (!t)
        return 0;
    n = 1 + destroy(t->left) + destroy(t->right);
    free(t);
    return n;
}

int main(void)
{
    Tree *root = NULL;
    int k;
    while (scanf("%d", &k) == 1)
        root = insert(root, k);
    inorder(root);
    printf("\nheight %d\n", height(root));
    printf("freed %d nodes\n", destroy(root));
    return 0;
}

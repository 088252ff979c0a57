/* K&R definitions are called without checks: print_tokens2 passes a
   FILE * where `report` declares a FILE ** it never uses, and a char *
   for an unused int. Both run as under gcc; the used parameters get
   their arguments converted as usual. */
#include <stdio.h>

static report();
static int twice();

int main(void) {
    FILE *in = stdin;
    char word[32];
    int n = 0;
    while (scanf("%31s", word) == 1) {
        n = twice(n + 1, word);
        if (word[0] == 'x')
            report(in, word);
    }
    printf("%d\n", n);
    return 0;
}

static report(fp, w)
FILE **fp;
char *w;
{
    printf("bad word %s\n", w);
}

static int twice(k, unused)
int k;
int unused;
{
    return 2 * k;
}

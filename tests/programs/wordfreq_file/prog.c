#include <stdio.h>
#include <string.h>
#include <ctype.h>

#define MAXW 50

char words[MAXW][20];
int counts[MAXW];
int nwords;

static void add(const char *w) {
    int i;
    for (i = 0; i < nwords; i++)
        if (strcmp(words[i], w) == 0) {
            counts[i]++;
            return;
        }
    if (nwords < MAXW) {
        strcpy(words[nwords], w);
        counts[nwords++] = 1;
    }
}

int main(int argc, char *argv[]) {
    FILE *in, *rep;
    char w[20], line[64];
    int c, n = 0, i;
    in = fopen(argc > 1 ? argv[1] : "text.txt", "r");
    if (!in) {
        puts("no input");
        return 1;
    }
    while ((c = fgetc(in)) != EOF) {
        if (isalpha(c)) {
            if (n < 19)
                w[n++] = (char) tolower(c);
        } else if (n > 0) {
            w[n] = '\0';
            add(w);
            n = 0;
        }
    }
    if (n > 0) {
        w[n] = '\0';
        add(w);
    }
    fclose(in);
    rep = fopen("report.txt", "w");
    for (i = 0; i < nwords; i++)
        if (counts[i] > 1)
            fprintf(rep, "%s %d\n", words[i], counts[i]);
    fclose(rep);
    rep = fopen("report.txt", "r");
    while (fgets(line, sizeof line, rep))
        printf("repeated: %s", line);
    fclose(rep);
    printf("%d distinct words\n", nwords);
    return 0;
}

#include <stdio.h>
#include <string.h>

/* reverses s in place */
void reverse(char s[])
{
    int i, n = strlen(s);
    char t;
    for (i = 0; i <= n / 2; i++) {
        t = s[i];
        s[i] = s[n - 1 - i];
        s[n - 1 - i] = t;
    }
}

int main(void)
{
    char w[32];
    int count = 0;
    while (scanf("%31s", w) == 1) {
        reverse(w);
        printf("%s\n", w);
        count++;
    }
    printf("%d words\n", count);
    return 0;
}

/* Counts down recursively: 100000 deep runs as under gcc -O0 with an 8 MiB
   stack; a negative input recurses until the stack overflows. */
#include <stdio.h>
int f(int n) { if (n == 0) return 0; return 1 + f(n - 1); }
int main(void) { int n; scanf("%d", &n); printf("%d\n", f(n)); return 0; }

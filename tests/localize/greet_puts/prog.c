#include <stdio.h>

/* A greeting for the hour of the day.
   Fault: the afternoon ends at 16 instead of 18. */
int main(void)
{
    int hour;
    const char *who = "world";
    scanf("%d", &hour);
    if (hour < 12)
        puts("Good morning");
    else if (hour < 16)
        puts("Good afternoon");
    else
        puts("Good evening");
    printf("Hello, %s!\n", who);
    return 0;
}

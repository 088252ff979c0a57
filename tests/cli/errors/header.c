#include <stdio.h>
#include <pthread.h>

int main(void)
{
    return 0;
}

#include <stdio.h>
#include <string.h>

#define MAX_ACCOUNTS 3

typedef struct {
    int id;
    char owner[12];
    long balance; /* in cents */
} Account;

Account make_account(int id, const char *owner, long balance)
{
    Account a;
    a.id = id;
    strncpy(a.owner, owner, sizeof a.owner - 1);
    a.owner[sizeof a.owner - 1] = '\0';
    a.balance = balance;
    return a;
}

int deposit(Account *acc, long amount)
{
    if (amount <= 0)
        return 0;
    acc->balance += amount;
    return 1;
}

int withdraw(Account *acc, long amount)
{
    if (amount <= 0 || amount > acc->balance)
        return 0;
    acc->balance -= amount;
    return 1;
}

Account with_interest(Account a, int percent)
{
    a.balance += a.balance * percent / 100;
    return a;
}

void show(Account a)
{
    printf("  #%d %-11s %7ld.%02ld\n", a.id, a.owner, a.balance / 100, a.balance % 100);
}

Account *find(Account accs[], int n, int id)
{
    for (int i = 0; i < n; i++)
        if (accs[i].id == id)
            return &accs[i];
    return NULL;
}

int main(void)
{
    Account accs[MAX_ACCOUNTS];
    char cmd;
    int id, id2, failed = 0;
    long amount;

    accs[0] = make_account(101, "alice", 5000);
    accs[1] = make_account(102, "bob", 0);
    accs[2] = make_account(103, "christopher-long-name", 12345);

    while (scanf(" %c", &cmd) == 1) {
        Account *a, *b;
        int ok = 0;
        if (cmd == 'D' && scanf("%d %ld", &id, &amount) == 2) {
            ok = (a = find(accs, MAX_ACCOUNTS, id)) != NULL && deposit(a, amount);
        } else if (cmd == 'W' && scanf("%d %ld", &id, &amount) == 2) {
            ok = (a = find(accs, MAX_ACCOUNTS, id)) != NULL && withdraw(a, amount);
        } else if (cmd == 'T' && scanf("%d %d %ld", &id, &id2, &amount) == 3) {
            a = find(accs, MAX_ACCOUNTS, id);
            b = find(accs, MAX_ACCOUNTS, id2);
            ok = a && b && withdraw(a, amount) && deposit(b, amount);
        } else if (cmd == 'S') {
            for (int i = 0; i < MAX_ACCOUNTS; i++)
                show(accs[i]);
            continue;
        } else if (cmd == 'I') {
            Account copy = accs[0];
            Account grown = with_interest(copy, 10);
            copy.balance = 1;
            printf("  interest preview: %ld -> %ld (copy now %ld)\n", accs[0].balance, grown.balance, copy.balance);
            continue;
        }
        printf("%c: %s\n", cmd, ok ? "ok" : "FAILED");
        if (!ok)
            failed++;
    }
    printf("final:\n");
    for (int i = 0; i < MAX_ACCOUNTS; i++)
        show(accs[i]);
    printf("%d failed transactions\n", failed);
    return failed > 0 ? 3 : 0;
}

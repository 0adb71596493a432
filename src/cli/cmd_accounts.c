/* cmd_accounts.c — `asobi accounts`: a server's accounts without SQL (list them, close one, reset one's password). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "server/password.h"
#include "server/store.h"
#include "server/token.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: asobi accounts --db FILE|postgresql://... list\n"
            "       asobi accounts --db FILE|postgresql://... close NAME\n"
            "       asobi accounts --db FILE|postgresql://... reset-password NAME\n\n"
            "The accounts of an asobi serve database (docs/server.md, \"Accounts and ratings\"); the server\n"
            "may be running (a running server ends the sessions it holds within 30 s).\n"
            "  list            every account: id, name, created, closed (UTC)\n"
            "  close NAME      close the account: no more sign-ins, its sessions end; its name and its\n"
            "                  finished games stay (the name is never given to another)\n"
            "  reset-password NAME  give the account a new random password, printed once on stdout,\n"
            "                  and end its sessions (hand it to its owner, who changes it)\n");
}

static void utc(int64_t ms, char out[32])
{
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A new password: 20 characters of an alphabet without look-alikes (about
 * 110 bits from getrandom), which a person can copy without doubt. */
static bool new_password(char out[21])
{
    static const char alphabet[] = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    unsigned char bytes[20];
    if (!token_random_bytes(bytes, sizeof bytes))
        return false;
    for (int i = 0; i < 20; i++)
        out[i] = alphabet[bytes[i] % (sizeof alphabet - 1)];
    out[20] = '\0';
    return true;
}

int cli_accounts(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"db", required_argument, NULL, 'd'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    const char *db = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "d:h", longopts, NULL)) != -1) {
        if (c == 'd') {
            db = optarg;
        } else if (c == 'h') {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    const char *what = optind < argc ? argv[optind] : NULL;
    const char *name = optind + 1 < argc ? argv[optind + 1] : NULL;
    bool listing = what && strcmp(what, "list") == 0;
    bool closing = what && strcmp(what, "close") == 0;
    bool resetting = what && strcmp(what, "reset-password") == 0;
    if (!db || !(listing || closing || resetting) || (listing ? argc - optind != 1 : argc - optind != 2)) {
        usage(stderr);
        return 2;
    }
    asobi_error err;
    store_accounts *sa = store_accounts_open(db, &err);
    if (!sa) {
        fprintf(stderr, "asobi accounts: %s\n", err.message);
        return 1;
    }
    int status = 0;
    if (listing) {
        json_t *list;
        if (store_accounts_list(sa, &list, &err) != ASOBI_OK) {
            fprintf(stderr, "asobi accounts: %s\n", err.message);
            store_accounts_close(sa);
            return 1;
        }
        printf("%-6s %-20s %-20s %s\n", "id", "name", "created", "closed");
        size_t i;
        json_t *row;
        json_array_foreach(list, i, row)
        {
            char created[32], closed[32] = "-";
            utc(json_integer_value(json_object_get(row, "created")), created);
            if (json_is_integer(json_object_get(row, "closed")))
                utc(json_integer_value(json_object_get(row, "closed")), closed);
            printf("%-6lld %-20s %-20s %s\n", (long long)json_integer_value(json_object_get(row, "id")),
                   json_string_value(json_object_get(row, "name")), created, closed);
        }
        json_decref(list);
        store_accounts_close(sa);
        return 0;
    }
    store_account a;
    int rc = store_account_find(sa, name, &a, &err);
    if (rc != ASOBI_OK || a.closed_ms) {
        fprintf(stderr, "asobi accounts: %s\n",
                rc == ASOBI_E_IO ? err.message : rc == ASOBI_OK ? "that account is closed" : "no account of that name");
        store_accounts_close(sa);
        return 1;
    }
    if (closing) {
        if (store_account_close(sa, a.id, wall_ms(), &err) != ASOBI_OK) {
            fprintf(stderr, "asobi accounts: %s\n", err.message);
            status = 1;
        } else {
            printf("closed %s\n", a.name);
        }
    } else {
        char password[21], encoded[PASSWORD_ENCODED_MAX];
        if (!new_password(password) || password_hash(password, strlen(password), encoded) != PASSWORD_OK) {
            fprintf(stderr, "asobi accounts: no randomness or memory for a new password\n");
            status = 1;
        } else if (store_account_set_password(sa, a.id, encoded, &err) != ASOBI_OK ||
                   store_sessions_revoke(sa, a.id, NULL, &err) != ASOBI_OK) {
            fprintf(stderr, "asobi accounts: %s\n", err.message);
            status = 1;
        } else {
            printf("%s's new password: %s\n", a.name, password);
        }
        memset(password, 0, sizeof password);
    }
    store_accounts_close(sa);
    return status;
}

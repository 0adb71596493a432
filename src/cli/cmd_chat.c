/* cmd_chat.c — asobi chat: an operator's hand on a table's stored chat (hide a line). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "server/store.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: asobi chat --db FILE|URI hide TABLE INDEX\n\n"
                 "An operator's hand on a table's chat as the server stores it (docs/server.md, \"Chat\").\n"
                 "  hide TABLE INDEX  the line of that index (its \"index\") leaves the stored history: no reader\n"
                 "                    is sent it again. Running servers (every node) notice within about 2 s\n"
                 "                    and send each reader of the table a history without it. Any time, with\n"
                 "                    SQLite beside a running server as with PostgreSQL.\n"
                 "  --db FILE|URI     the server's database: a SQLite file or a PostgreSQL URI\n");
}

int cli_chat(int argc, char **argv)
{
    const char *db = NULL;
    int arg = 1;
    for (; arg < argc && argv[arg][0] == '-'; arg++) {
        if (strcmp(argv[arg], "--help") == 0 || strcmp(argv[arg], "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(argv[arg], "--db") == 0 && arg + 1 < argc) {
            db = argv[++arg];
            continue;
        }
        usage(stderr);
        return 2;
    }
    long table, index;
    if (!db || argc - arg != 3 || strcmp(argv[arg], "hide") != 0) {
        usage(stderr);
        return 2;
    }
    if (!cli_parse_long(argv[arg + 1], 1, LONG_MAX, "TABLE", &table) ||
        !cli_parse_long(argv[arg + 2], 0, 2147483647L, "INDEX", &index))
        return 2;
    asobi_error err;
    int rc = store_hide_chat_at(db, table, (int)index, &err);
    if (rc != ASOBI_OK) {
        fprintf(stderr, "asobi chat: %s\n", err.message);
        return rc == ASOBI_E_BAD_ARGUMENT ? 1 : 3;
    }
    printf("table %ld: chat line %ld hidden\n", table, index);
    return 0;
}

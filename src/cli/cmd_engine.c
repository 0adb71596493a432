/* cmd_engine.c — `asobi engine`: the engine protocol (docs/protocol.md) as JSON lines on stdin/stdout. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "protocol/protocol.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: asobi engine [--card-sets DIR]\n\nThe JSON-lines engine protocol: one JSON request per line on "
                 "stdin,\none JSON reply per line on stdout. See docs/protocol.md.\n"
                 "  --card-sets DIR every DIR/NAME.json is a Time Masters card set that \"new\" may pick by\n"
                 "                  name (\"options\":{\"cards\":\"NAME\"}) and \"games\" lists\n");
}

int cli_engine(int argc, char **argv)
{
    static const struct option longopts[] = {CLI_CARD_SETS_OPTION, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    const char *dir = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "C:h", longopts, NULL)) != -1) {
        if (c == 'C') {
            dir = optarg;
        } else {
            usage(c == 'h' ? stdout : stderr);
            return c == 'h' ? 0 : 2;
        }
    }
    if (optind < argc) {
        usage(stderr);
        return 2;
    }
    asobi_data_sets *sets = dir ? cli_load_card_sets(dir) : NULL;
    if (dir && !sets)
        return 1;
    protocol_session *session = protocol_session_new();
    protocol_session_set_data_sets(session, sets);
    /* an external bot's own engine: the key of the arena that started it */
    protocol_session_set_sample_key(session, getenv("ASOBI_SAMPLE_KEY"));
    char *buf = NULL;
    size_t cap = 0, len = 0;
    int got;
    while (!protocol_session_quit(session) && (got = protocol_read_line(stdin, &buf, &cap, &len)) != 0) {
        json_t *reply;
        if (got < 0) {
            reply = protocol_errorf(ASOBI_E_LINE_TOO_LONG, "a request line may hold at most %u bytes",
                                    PROTOCOL_LINE_MAX);
        } else {
            size_t start = 0;
            while (start < len && (buf[start] == ' ' || buf[start] == '\t' || buf[start] == '\r'))
                start++;
            if (start == len)
                continue; /* blank lines are ignored */
            reply = protocol_handle_line(session, buf + start, len - start);
        }
        char *text = protocol_reply_text(reply);
        fputs(text, stdout);
        fputc('\n', stdout);
        fflush(stdout);
        free(text);
        json_decref(reply);
    }
    free(buf);
    protocol_session_free(session);
    asobi_data_sets_free(sets);
    return 0;
}

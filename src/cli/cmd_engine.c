/* cmd_engine.c — `asobi engine`: the engine protocol (docs/protocol.md) as JSON lines on stdin/stdout. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "protocol/protocol.h"

int cli_engine(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(argc > 1 && strcmp(argv[1], "--help") == 0 ? stdout : stderr,
                "usage: asobi engine\n\nThe JSON-lines engine protocol: one JSON request per line on stdin,\n"
                "one JSON reply per line on stdout. See docs/protocol.md.\n");
        return strcmp(argv[1], "--help") == 0 ? 0 : 2;
    }
    protocol_session *session = protocol_session_new();
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
    return 0;
}

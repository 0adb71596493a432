/* cli_log.c — a record's actions as one seat saw them happen: its own in full, the others' public texts. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Replay the record from its start, asking before each action how viewer
 * sees it (asobi_state_public_text takes the state before the action). This
 * is the only way a command may show a seat the history of a game it is in:
 * the record itself holds every face-down card and the seed, which decides
 * every hidden card. */
char **cli_seat_log(const asobi_match *played, int viewer, int *count, asobi_error *err)
{
    asobi_match *m = asobi_match_prefix(played, 0, err);
    if (!m)
        return NULL;
    int n = asobi_match_length(played);
    char **lines = calloc((size_t)n + 1, sizeof *lines);
    if (!lines) {
        asobi_match_free(m);
        asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
        return NULL;
    }
    char text[256];
    int done = 0;
    for (; done < n; done++) {
        int seat = asobi_match_action_seat(played, done);
        const asobi_state *s = asobi_match_state(m);
        int id = -1;
        if (asobi_state_parse_action(s, seat, asobi_match_action_text(played, done), &id, err) != ASOBI_OK)
            break;
        asobi_state_public_text(s, seat, id, viewer, text, sizeof text);
        if (asobi_match_act(m, seat, id, err) != ASOBI_OK || !(lines[done] = strdup(text)))
            break;
    }
    asobi_match_free(m);
    if (done < n) {
        cli_free_log(lines);
        return NULL;
    }
    *count = n;
    return lines;
}

void cli_free_log(char **lines)
{
    if (!lines)
        return;
    for (char **p = lines; *p; p++)
        free(*p);
    free(lines);
}

bool cli_print_seat_log(const asobi_match *match, int viewer)
{
    asobi_error err;
    int n = 0;
    char **lines = cli_seat_log(match, viewer, &n, &err);
    if (!lines) {
        printf("(the history cannot be shown: %s)\n", err.message);
        return false;
    }
    printf("The game so far, as seat %d saw it (%d action%s):\n", viewer + 1, n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++)
        printf("%4d. seat %d: %s\n", i + 1, asobi_match_action_seat(match, i) + 1, lines[i]);
    cli_free_log(lines);
    return true;
}

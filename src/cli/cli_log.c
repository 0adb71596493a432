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
        asobi_state *before = asobi_state_clone(s);
        if (!before || asobi_match_act(m, seat, id, err) != ASOBI_OK) {
            asobi_state_free(before);
            break;
        }
        /* then what the action made happen, as viewer knew it, one event a line */
        json_t *events = asobi_state_events(before, seat, id, asobi_match_state(m), viewer);
        asobi_state_free(before);
        lines[done] = cli_with_events(text, events);
        json_decref(events);
        if (!lines[done])
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

/* Each event's text on a line of its own, under the action's line. */
#define EVENT_INDENT "\n        - "

char *cli_with_events(const char *text, const json_t *events)
{
    size_t len = strlen(text) + 1, i;
    json_t *e;
    json_array_foreach(events, i, e) len += strlen(EVENT_INDENT) + strlen(json_string_value(json_object_get(e, "text")));
    char *out = malloc(len);
    if (!out)
        return NULL;
    strcpy(out, text);
    json_array_foreach(events, i, e)
    {
        strcat(out, EVENT_INDENT);
        strcat(out, json_string_value(json_object_get(e, "text")));
    }
    return out;
}

void cli_print_events(const json_t *events)
{
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e) printf("        - %s\n", json_string_value(json_object_get(e, "text")));
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

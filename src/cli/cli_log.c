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
char **cli_seat_log(const json_t *record, int viewer, int *count, asobi_error *err)
{
    asobi_match *m = asobi_match_load_prefix(record, 0, err);
    if (!m)
        return NULL;
    const json_t *actions = json_object_get(record, "actions");
    size_t n = json_array_size(actions);
    char **lines = calloc(n + 1, sizeof *lines);
    char text[256];
    size_t done = 0;
    for (; done < n; done++) {
        const json_t *a = json_array_get(actions, done);
        int seat = (int)json_integer_value(json_object_get(a, "seat"));
        const json_t *what = json_object_get(a, "action");
        const asobi_state *s = asobi_match_state(m);
        int id = -1;
        if (json_is_integer(what))
            id = (int)json_integer_value(what);
        else if (asobi_state_parse_action(s, seat, json_string_value(what) ? json_string_value(what) : "", &id,
                                          err) != ASOBI_OK)
            break;
        if (!asobi_state_is_legal(s, seat, id)) {
            asobi_fail(err, ASOBI_E_BAD_RECORD, "action %zu of the record is not legal", done + 1);
            break;
        }
        asobi_state_public_text(s, seat, id, viewer, text, sizeof text);
        if (asobi_match_act(m, seat, id, err) != ASOBI_OK)
            break;
        lines[done] = strdup(text);
    }
    asobi_match_free(m);
    if (done < n) {
        cli_free_log(lines);
        return NULL;
    }
    *count = (int)n;
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
    json_t *record = asobi_match_record(match);
    asobi_error err;
    int n = 0;
    char **lines = cli_seat_log(record, viewer, &n, &err);
    json_decref(record);
    if (!lines) {
        printf("(the history cannot be shown: %s)\n", err.message);
        return false;
    }
    printf("The game so far, as seat %d saw it (%d action%s):\n", viewer, n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++)
        printf("%4d. seat %d: %s\n", i + 1, asobi_match_action_seat(match, i), lines[i]);
    cli_free_log(lines);
    return true;
}

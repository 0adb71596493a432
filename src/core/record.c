/* record.c — matches: a state plus the history that made it, written and replayed as JSON records. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "asobi/record.h"
#include "game_def.h"

typedef struct history_entry {
    int seat;
    char *text;
} history_entry;

struct asobi_match {
    asobi_state *state;
    json_t *options; /* full options, defaults filled in */
    uint64_t seed;
    history_entry *history;
    int length, capacity;
};

asobi_match *asobi_match_new(const char *game, int players, const json_t *options, uint64_t seed,
                             asobi_error *err)
{
    const asobi_game_def *def = asobi_game_find(game);
    if (!def) {
        asobi_fail(err, ASOBI_E_UNKNOWN_GAME, "there is no game called \"%.60s\"", game ? game : "");
        return NULL;
    }
    json_t *full = asobi_game_options(def, options, err);
    if (!full)
        return NULL;
    asobi_state *state = asobi_state_new(def, players, full, seed, err);
    if (!state) {
        json_decref(full);
        return NULL;
    }
    asobi_match *m = calloc(1, sizeof *m);
    if (!m) {
        asobi_state_free(state);
        json_decref(full);
        asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
        return NULL;
    }
    m->state = state;
    m->options = full;
    m->seed = seed;
    return m;
}

void asobi_match_free(asobi_match *match)
{
    if (!match)
        return;
    for (int i = 0; i < match->length; i++)
        free(match->history[i].text);
    free(match->history);
    json_decref(match->options);
    asobi_state_free(match->state);
    free(match);
}

const asobi_state *asobi_match_state(const asobi_match *match) { return match->state; }
uint64_t asobi_match_seed(const asobi_match *match) { return match->seed; }
const json_t *asobi_match_options(const asobi_match *match) { return match->options; }
int asobi_match_length(const asobi_match *match) { return match->length; }

int asobi_match_action_seat(const asobi_match *match, int index)
{
    return index >= 0 && index < match->length ? match->history[index].seat : -1;
}

const char *asobi_match_action_text(const asobi_match *match, int index)
{
    return index >= 0 && index < match->length ? match->history[index].text : NULL;
}

/* The history is grown before the state changes, so that running out of
 * memory cannot leave an action applied but unrecorded. */
int asobi_match_act(asobi_match *match, int seat, int id, asobi_error *err)
{
    char text[256] = "";
    if (match->length == match->capacity) {
        int cap = match->capacity ? match->capacity * 2 : 64;
        history_entry *h = realloc(match->history, (size_t)cap * sizeof *h);
        if (!h)
            return asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
        match->history = h;
        match->capacity = cap;
    }
    /* The text is taken before applying: it describes the action in the
     * state where it was chosen, which is where replay will parse it. */
    if (asobi_state_is_legal(match->state, seat, id))
        asobi_state_action_text(match->state, seat, id, text, sizeof text);
    char *copy = strdup(text);
    if (!copy)
        return asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
    int rc = asobi_state_apply(match->state, seat, id, err);
    if (rc != ASOBI_OK) {
        free(copy);
        return rc;
    }
    match->history[match->length].seat = seat;
    match->history[match->length].text = copy;
    match->length++;
    return ASOBI_OK;
}

int asobi_match_act_text(asobi_match *match, int seat, const char *text, asobi_error *err)
{
    int id;
    int rc = asobi_state_parse_action(match->state, seat, text, &id, err);
    if (rc != ASOBI_OK)
        return rc;
    return asobi_match_act(match, seat, id, err);
}

json_t *asobi_match_record(const asobi_match *match)
{
    json_t *actions = json_array();
    for (int i = 0; i < match->length; i++)
        json_array_append_new(actions, json_pack("{s:i, s:s}", "seat", match->history[i].seat,
                                                 "action", match->history[i].text));
    /* Seeds are unsigned 64-bit; JSON integers here are signed 64-bit, so a
     * seed above INT64_MAX is written as its two's-complement negative and
     * read back the same way. */
    return json_pack("{s:s, s:i, s:O, s:I, s:o}", "game", asobi_state_game(match->state)->name,
                     "players", asobi_state_players(match->state), "options", match->options, "seed",
                     (json_int_t)match->seed, "actions", actions);
}

asobi_match *asobi_match_load_prefix(const json_t *record, int count, asobi_error *err)
{
    if (!json_is_object(record)) {
        asobi_fail(err, ASOBI_E_BAD_RECORD, "a record must be a JSON object");
        return NULL;
    }
    const json_t *game = json_object_get(record, "game");
    const json_t *players = json_object_get(record, "players");
    const json_t *options = json_object_get(record, "options");
    const json_t *seed = json_object_get(record, "seed");
    const json_t *actions = json_object_get(record, "actions");
    if (!json_is_string(game) || !json_is_integer(players) || !json_is_integer(seed) ||
        (options && !json_is_object(options) && !json_is_null(options)) ||
        (actions && !json_is_array(actions))) {
        asobi_fail(err, ASOBI_E_BAD_RECORD,
                   "a record needs \"game\" (string), \"players\" (integer), \"seed\" (integer), "
                   "\"options\" (object) and \"actions\" (array)");
        return NULL;
    }
    json_int_t np = json_integer_value(players);
    if (np < 0 || np > ASOBI_MAX_SEATS) {
        asobi_fail(err, ASOBI_E_BAD_PLAYERS, "a record for %lld players cannot be played",
                   (long long)np);
        return NULL;
    }
    asobi_match *m = asobi_match_new(json_string_value(game), (int)np,
                                     json_is_object(options) ? options : NULL,
                                     (uint64_t)json_integer_value(seed), err);
    if (!m)
        return NULL;
    size_t n = actions ? json_array_size(actions) : 0;
    if (count >= 0 && (size_t)count < n)
        n = (size_t)count;
    for (size_t i = 0; i < n; i++) {
        const json_t *a = json_array_get(actions, i);
        const json_t *s = json_object_get(a, "seat");
        const json_t *t = json_object_get(a, "action");
        asobi_error local;
        int rc;
        if (!json_is_integer(s) || (!json_is_string(t) && !json_is_integer(t))) {
            asobi_fail(err, ASOBI_E_BAD_RECORD,
                       "action %zu needs \"seat\" (integer) and \"action\" (text or id)", i);
            asobi_match_free(m);
            return NULL;
        }
        json_int_t seat = json_integer_value(s);
        if (seat < 0 || seat >= ASOBI_MAX_SEATS)
            rc = asobi_fail(&local, ASOBI_E_BAD_SEAT, "seat %lld does not exist", (long long)seat);
        else if (json_is_string(t))
            rc = asobi_match_act_text(m, (int)seat, json_string_value(t), &local);
        else if (json_integer_value(t) < 0 || json_integer_value(t) > 1 << 30)
            rc = asobi_fail(&local, ASOBI_E_ILLEGAL_ACTION, "action id out of range");
        else
            rc = asobi_match_act(m, (int)seat, (int)json_integer_value(t), &local);
        if (rc != ASOBI_OK) {
            asobi_fail(err, ASOBI_E_BAD_RECORD, "action %zu (seat %lld) does not replay: %s", i,
                       (long long)seat, local.message);
            asobi_match_free(m);
            return NULL;
        }
    }
    asobi_error_clear(err);
    return m;
}

asobi_match *asobi_match_load(const json_t *record, asobi_error *err)
{
    return asobi_match_load_prefix(record, -1, err);
}

/* record.c — matches: a state plus the history that made it, written and replayed as JSON records. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "asobi/record.h"
#include "game_def.h"
#include "view_writer.h"

typedef struct history_entry {
    int seat;
    int id;
    const char *final; /* why it may not be taken back (take_back.c); NULL if it may */
    char *text;
} history_entry;

/* Taking back (take_back.c has the rule). The last `run` actions of the
 * history are the ones that may still be taken back: each of kind run_kind
 * (all by one seat for STAYS; one choice each of a simultaneous step),
 * made since run_start, the state before the first of them. A take-back
 * replays the run without the withdrawn action from run_start: those
 * actions drew nothing from chance, so the replay is exact, and the state is
 * the one the shortened record replays to. run_start is the match's own
 * block, never shown to anyone; scratch is the state before each action,
 * kept while the action is judged. */
struct asobi_match {
    asobi_state *state;
    json_t *options; /* full options, defaults filled in */
    uint64_t seed;
    history_entry *history;
    int length, capacity;
    asobi_state *run_start, *scratch;
    int run;
    asobi_take_back run_kind;
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
    if (m) {
        m->run_start = asobi_state_clone(state);
        m->scratch = asobi_state_clone(state);
    }
    if (!m || !m->run_start || !m->scratch) {
        if (m) {
            asobi_state_free(m->run_start);
            asobi_state_free(m->scratch);
            free(m);
        }
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
    asobi_state_free(match->run_start);
    asobi_state_free(match->scratch);
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

int asobi_match_action_id(const asobi_match *match, int index)
{
    return index >= 0 && index < match->length ? match->history[index].id : -1;
}

/* The action just appended to the history, made from scratch (the state
 * before it) into state: does it join the run of actions that may be taken
 * back, start a new one, or end it? */
static void note_take_back(asobi_match *m)
{
    history_entry *h = &m->history[m->length - 1];
    asobi_take_back kind = asobi_take_back_kind(m->scratch, h->seat, h->id, m->state, &h->final);
    if (kind == ASOBI_TB_FINAL) {
        m->run = 0;
        return;
    }
    bool joins = m->run > 0 && m->run_kind == kind && (kind == ASOBI_TB_SIMULTANEOUS || h[-1].seat == h->seat);
    if (!joins) { /* the state before it starts the new run: swap the blocks, no copy */
        asobi_state *t = m->run_start;
        m->run_start = m->scratch;
        m->scratch = t;
        m->run = 0;
        m->run_kind = kind;
    }
    m->run++;
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
    asobi_state_copy(match->scratch, match->state);
    int rc = asobi_state_apply(match->state, seat, id, err);
    if (rc != ASOBI_OK) {
        free(copy);
        return rc;
    }
    match->history[match->length] = (history_entry){.seat = seat, .id = id, .text = copy};
    match->length++;
    note_take_back(match);
    return ASOBI_OK;
}

int asobi_match_undo_index(const asobi_match *match, int seat)
{
    if (match->run == 0 || seat < 0 || seat >= asobi_state_players(match->state))
        return -1;
    if (match->run_kind == ASOBI_TB_STAYS)
        return match->history[match->length - 1].seat == seat ? match->length - 1 : -1;
    for (int i = match->length - match->run; i < match->length; i++)
        if (match->history[i].seat == seat)
            return i;
    return -1;
}

bool asobi_match_can_undo(const asobi_match *match, int seat) { return asobi_match_undo_index(match, seat) >= 0; }

/* Why seat may not take anything back now, for the refusal's message. */
static int refuse_undo(const asobi_match *m, int seat, asobi_error *err)
{
    int players = asobi_state_players(m->state);
    if (seat < 0 || seat >= players)
        return asobi_fail(err, ASOBI_E_UNDO_NOT_ALLOWED, "seat %d does not exist (seats are 0 to %d)", seat,
                          players - 1);
    int mine = m->length - 1;
    while (mine >= 0 && m->history[mine].seat != seat)
        mine--;
    if (mine < 0)
        return asobi_fail(err, ASOBI_E_UNDO_NOT_ALLOWED, "seat %d has nothing to take back: it has not acted", seat);
    const history_entry *h = &m->history[mine];
    if (h->final)
        return asobi_fail(err, ASOBI_E_UNDO_NOT_ALLOWED, "seat %d may not take back \"%.60s\": %s", seat, h->text,
                          h->final);
    if (mine < m->length - 1)
        return asobi_fail(err, ASOBI_E_UNDO_NOT_ALLOWED, "seat %d may not take back \"%.60s\": seat %d has acted since",
                          seat, h->text, m->history[m->length - 1].seat);
    /* a quiet action whose run was cut: a take-back that reached back to it */
    return asobi_fail(err, ASOBI_E_UNDO_NOT_ALLOWED, "seat %d may not take back \"%.60s\" now", seat, h->text);
}

int asobi_match_undo(asobi_match *match, int seat, asobi_error *err)
{
    int gone = asobi_match_undo_index(match, seat);
    if (gone < 0)
        return refuse_undo(match, seat, err);
    /* Replay the run without it into scratch, then commit: a refusal (which
     * cannot happen: these actions were legal in this order and independent
     * of the withdrawn one) leaves the match as it was. */
    asobi_state_copy(match->scratch, match->run_start);
    for (int i = match->length - match->run; i < match->length; i++) {
        asobi_error local;
        if (i != gone && asobi_state_apply(match->scratch, match->history[i].seat, match->history[i].id, &local) != ASOBI_OK)
            return asobi_fail(err, ASOBI_E_INTERNAL, "the take-back did not replay: %s", local.message);
    }
    asobi_state_copy(match->state, match->scratch);
    free(match->history[gone].text);
    memmove(&match->history[gone], &match->history[gone + 1], (size_t)(match->length - gone - 1) * sizeof *match->history);
    match->length--;
    match->run--;
    asobi_error_clear(err);
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

/* The record's members, once, for the tree and for the text (view_writer.h). */
static void write_record(asobi_vw *w, const asobi_match *match)
{
    vw_str(w, "game", asobi_state_game(match->state)->name);
    vw_int(w, "players", asobi_state_players(match->state));
    vw_json(w, "options", match->options);
    /* Seeds are unsigned 64-bit; JSON integers here are signed 64-bit, so a
     * seed above INT64_MAX is written as its two's-complement negative and
     * read back the same way. */
    vw_int(w, "seed", (long long)(int64_t)match->seed);
    vw_array_begin(w, "actions");
    for (int i = 0; i < match->length; i++) {
        vw_object_begin(w, NULL);
        vw_int(w, "seat", match->history[i].seat);
        vw_str(w, "action", match->history[i].text);
        vw_object_end(w);
    }
    vw_array_end(w);
}

json_t *asobi_match_record(const asobi_match *match)
{
    asobi_vw w;
    if (!asobi_vw_start_tree(&w))
        return NULL;
    write_record(&w, match);
    return asobi_vw_finish_tree(&w);
}

char *asobi_match_record_text(const asobi_match *match, size_t *len)
{
    asobi_vw w;
    if (!asobi_vw_start_text(&w, 256 + 32 * (size_t)match->length))
        return NULL;
    write_record(&w, match);
    return asobi_vw_finish_text(&w, len);
}

/* A new match from a record's header: game, players, options, seed. The
 * actions are replayed by the caller, one by one (replay_action). */
static asobi_match *match_from_header(const json_t *record, bool has_actions, asobi_error *err)
{
    const json_t *game = json_object_get(record, "game");
    const json_t *players = json_object_get(record, "players");
    const json_t *options = json_object_get(record, "options");
    const json_t *seed = json_object_get(record, "seed");
    if (!json_is_string(game) || !json_is_integer(players) || !json_is_integer(seed) ||
        (options && !json_is_object(options) && !json_is_null(options)) || !has_actions) {
        asobi_fail(err, ASOBI_E_BAD_RECORD,
                   "a record needs \"game\" (string), \"players\" (integer), \"seed\" (integer), "
                   "\"options\" (object) and \"actions\" (array)");
        return NULL;
    }
    json_int_t np = json_integer_value(players);
    if (np < 0 || np > ASOBI_MAX_SEATS) {
        asobi_fail(err, ASOBI_E_BAD_PLAYERS, "a record for %lld players cannot be played", (long long)np);
        return NULL;
    }
    return asobi_match_new(json_string_value(game), (int)np, json_is_object(options) ? options : NULL,
                           (uint64_t)json_integer_value(seed), err);
}

/* Replay action i of a record, {"seat":K,"action":TEXT or ID}, on m. */
static int replay_action(asobi_match *m, size_t i, const json_t *a, asobi_error *err)
{
    const json_t *s = json_object_get(a, "seat");
    const json_t *t = json_object_get(a, "action");
    if (!json_is_integer(s) || (!json_is_string(t) && !json_is_integer(t)))
        return asobi_fail(err, ASOBI_E_BAD_RECORD, "action %zu needs \"seat\" (integer) and \"action\" (text or id)",
                          i);
    asobi_error local;
    int rc;
    json_int_t seat = json_integer_value(s);
    if (seat < 0 || seat >= ASOBI_MAX_SEATS)
        rc = asobi_fail(&local, ASOBI_E_BAD_SEAT, "seat %lld does not exist", (long long)seat);
    else if (json_is_string(t))
        rc = asobi_match_act_text(m, (int)seat, json_string_value(t), &local);
    else if (json_integer_value(t) < 0 || json_integer_value(t) > 1 << 30)
        rc = asobi_fail(&local, ASOBI_E_ILLEGAL_ACTION, "action id out of range");
    else
        rc = asobi_match_act(m, (int)seat, (int)json_integer_value(t), &local);
    if (rc != ASOBI_OK)
        return asobi_fail(err, ASOBI_E_BAD_RECORD, "action %zu (seat %lld) does not replay: %s", i, (long long)seat,
                          local.message);
    return ASOBI_OK;
}

asobi_match *asobi_match_load_prefix(const json_t *record, int count, asobi_error *err)
{
    if (!json_is_object(record)) {
        asobi_fail(err, ASOBI_E_BAD_RECORD, "a record must be a JSON object");
        return NULL;
    }
    const json_t *actions = json_object_get(record, "actions");
    asobi_match *m = match_from_header(record, !actions || json_is_array(actions), err);
    if (!m)
        return NULL;
    size_t n = actions ? json_array_size(actions) : 0;
    if (count >= 0 && (size_t)count < n)
        n = (size_t)count;
    for (size_t i = 0; i < n; i++) {
        if (replay_action(m, i, json_array_get(actions, i), err) != ASOBI_OK) {
            asobi_match_free(m);
            return NULL;
        }
    }
    asobi_error_clear(err);
    return m;
}

asobi_match *asobi_match_prefix(const asobi_match *match, int count, asobi_error *err)
{
    asobi_match *m = asobi_match_new(asobi_state_game(match->state)->name, asobi_state_players(match->state),
                                     match->options, match->seed, err);
    if (count < 0 || count > match->length)
        count = match->length;
    for (int i = 0; m && i < count; i++) {
        if (asobi_match_act_text(m, match->history[i].seat, match->history[i].text, err) != ASOBI_OK) {
            asobi_match_free(m); /* cannot happen: the texts replayed once already */
            return NULL;
        }
    }
    return m;
}

/* Reading a record from its text, one action at a time
 * -----------------------------------------------------
 * jansson reads a whole document into a tree: for a record that is about
 * 450 bytes of memory per action (an object, its table, two values), 17
 * times its text. Here jansson still reads every value, but the record's
 * outer object and its "actions" array are walked by hand, so each action
 * is read, replayed and dropped in turn: memory stays the text plus the
 * match's own history. Only the two containers' punctuation ({ : , } and
 * [ , ]) is handled here; JSON_DISABLE_EOF_CHECK makes jansson stop after
 * one value and say where. */
typedef struct cursor {
    const char *p, *end;
} cursor;

static void skip_space(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

/* Skip spaces, then take ch if it comes next. */
static bool take(cursor *c, char ch)
{
    skip_space(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

/* The next JSON value (a new reference), or NULL with err set. */
static json_t *next_value(cursor *c, asobi_error *err)
{
    json_error_t jerr;
    json_t *v = json_loadb(c->p, (size_t)(c->end - c->p), JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK |
                           JSON_REJECT_DUPLICATES, &jerr);
    if (!v) {
        asobi_fail(err, ASOBI_E_BAD_RECORD, "not a valid record: %s (line %d)", jerr.text, jerr.line);
        return NULL;
    }
    c->p += jerr.position;
    return v;
}

/* Walk the elements of the array at c (c is at its '['), calling each(ctx,
 * index, element) on every one; stops at the first error. */
static int walk_array(cursor *c, int (*each)(void *ctx, size_t i, const json_t *a, asobi_error *err), void *ctx,
                      asobi_error *err)
{
    if (!take(c, '['))
        return asobi_fail(err, ASOBI_E_BAD_RECORD, "a record's \"actions\" is an array");
    if (take(c, ']'))
        return ASOBI_OK;
    for (size_t i = 0;; i++) {
        json_t *a = next_value(c, err);
        if (!a)
            return err->code;
        int rc = each(ctx, i, a, err);
        json_decref(a);
        if (rc != ASOBI_OK)
            return rc;
        if (take(c, ']'))
            return ASOBI_OK;
        if (!take(c, ','))
            return asobi_fail(err, ASOBI_E_BAD_RECORD, "not a valid record: ',' or ']' expected after action %zu",
                              i);
    }
}

static int skip_action(void *ctx, size_t i, const json_t *a, asobi_error *err)
{
    (void)ctx, (void)i, (void)a, (void)err;
    return ASOBI_OK;
}

static int replay_one(void *ctx, size_t i, const json_t *a, asobi_error *err)
{
    return replay_action(ctx, i, a, err);
}

/* Has the record's header been read whole (then "actions" can be replayed as it is read)? */
static bool header_complete(const json_t *header)
{
    return json_object_get(header, "game") && json_object_get(header, "players") &&
           json_object_get(header, "options") && json_object_get(header, "seed");
}

asobi_match *asobi_match_read(const char *text, size_t len, asobi_error *err)
{
    cursor c = {text, text + len};
    const char *actions_at = NULL;
    asobi_match *m = NULL; /* made as soon as the header is known */
    json_t *header = json_object();
    if (!header) {
        asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
        return NULL;
    }
    int rc = ASOBI_OK;
    if (!take(&c, '{'))
        rc = asobi_fail(err, ASOBI_E_BAD_RECORD, "a record must be a JSON object");
    else if (!take(&c, '}')) {
        /* the outer object, key by key; "actions" is replayed at once when
         * the header came before it, else skipped over (its place kept) and
         * replayed once the header is known */
        while (rc == ASOBI_OK) {
            json_t *key = next_value(&c, err);
            if (!key) {
                rc = err->code;
                break;
            }
            const char *k = json_string_value(key);
            if (!k)
                rc = asobi_fail(err, ASOBI_E_BAD_RECORD, "not a valid record: a key is a string");
            else if (!take(&c, ':'))
                rc = asobi_fail(err, ASOBI_E_BAD_RECORD, "not a valid record: ':' expected after \"%.40s\"", k);
            else if (json_object_get(header, k) || (strcmp(k, "actions") == 0 && actions_at))
                rc = asobi_fail(err, ASOBI_E_BAD_RECORD, "not a valid record: \"%.40s\" twice", k);
            else if (strcmp(k, "actions") == 0 && header_complete(header)) {
                /* the whole header came first, as asobi writes records:
                 * replay at once, so a bad action stops the reading */
                actions_at = c.p;
                m = match_from_header(header, true, err);
                rc = m ? walk_array(&c, replay_one, m, err) : err->code;
            } else if (strcmp(k, "actions") == 0) {
                skip_space(&c);
                actions_at = c.p;
                rc = walk_array(&c, skip_action, NULL, err);
            } else {
                json_t *v = next_value(&c, err);
                rc = v ? json_object_set_new(header, k, v) == 0 ? ASOBI_OK : asobi_fail(err, ASOBI_E_NOMEM, "out of memory")
                       : err->code;
            }
            json_decref(key);
            if (rc != ASOBI_OK || take(&c, '}'))
                break;
            if (!take(&c, ','))
                rc = asobi_fail(err, ASOBI_E_BAD_RECORD, "not a valid record: ',' or '}' expected");
        }
    }
    skip_space(&c);
    if (rc == ASOBI_OK && c.p != c.end)
        rc = asobi_fail(err, ASOBI_E_BAD_RECORD, "not a valid record: text after its end");
    if (rc != ASOBI_OK || m) {
        json_decref(header);
        if (rc != ASOBI_OK)
            asobi_match_free(m);
        return rc == ASOBI_OK ? m : NULL;
    }
    m = match_from_header(header, true, err);
    json_decref(header);
    if (m && actions_at) { /* a record without "actions" is a game not begun, as asobi_match_load reads it */
        cursor a = {actions_at, text + len};
        if (walk_array(&a, replay_one, m, err) != ASOBI_OK) {
            asobi_match_free(m);
            return NULL;
        }
    }
    if (m)
        asobi_error_clear(err);
    return m;
}

asobi_match *asobi_match_load(const json_t *record, asobi_error *err)
{
    return asobi_match_load_prefix(record, -1, err);
}

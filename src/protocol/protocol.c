/* protocol.c — the engine protocol (docs/protocol.md): requests in, library calls, replies out. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.h"
#include "text.h"
#include "view_writer.h"

/* Why a layer of its own
 * ----------------------
 * `asobi engine` (a JSON line per request on stdin) and `asobi serve` (the
 * same requests over HTTP and WebSockets) must answer alike: the same codes,
 * the same messages, the same checks in the same order. So both call the
 * functions below and never the library directly for anything a client
 * asks. This file knows nothing of files, sockets or threads: it turns a
 * JSON request into library calls and a JSON reply. */

struct protocol_session {
    asobi_match *match; /* NULL until "new" or "load" (or while a sample is loaded) */
    asobi_state *sample; /* a loaded sample: a state without a record; NULL otherwise */
    const char *sample_key; /* samples load only with the key they were signed with */
    bool quit;
    const asobi_bot_limits *bot_limits;
    const asobi_data_sets *sets; /* --card-sets: names a "new" may use */
};

json_t *protocol_error_reply(int code, const char *message)
{
    /* The message may quote input, cut anywhere: only whole characters go
     * into the reply, so that it can always be written. */
    char msg[ASOBI_MESSAGE_MAX];
    asobi_utf8_copy(msg, sizeof msg, message ? message : "");
    return json_pack("{s:b, s:{s:s, s:s}}", "ok", 0, "error", "code", asobi_code_name(code), "message", msg);
}

/* The reply for a reply that could not be built: jansson refuses a string
 * that is not UTF-8, or ran out of memory. A bug of ours, said so, never a
 * crash or a reply with a field silently missing. */
static json_t *internal_reply(const char *what)
{
    return protocol_errorf(ASOBI_E_INTERNAL, "the reply could not be built (%s): a bug in asobi", what);
}

/* Put value into the reply r under key; when value is NULL (it could not be
 * built) the reply becomes an "internal" error instead. Takes both. */
static json_t *attach(json_t *r, const char *key, json_t *value)
{
    if (r && value && json_object_set_new(r, key, value) == 0)
        return r;
    if (!r)
        json_decref(value);
    json_decref(r);
    return internal_reply(key);
}

json_t *protocol_error_from(const asobi_error *err) { return protocol_error_reply(err->code, err->message); }

json_t *protocol_errorf(int code, const char *fmt, ...)
{
    char msg[ASOBI_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return protocol_error_reply(code, msg); /* which cuts at a character boundary */
}

static json_t *ok_reply(void) { return json_pack("{s:b}", "ok", 1); }

/* The session's state: its match's, or the loaded sample. */
static const asobi_state *current(const protocol_session *e)
{
    return e->sample ? e->sample : asobi_match_state(e->match);
}

/* May seat take back its last action? Never in a loaded sample (it has no history). */
static bool can_undo(const protocol_session *e, int seat)
{
    return !e->sample && asobi_match_can_undo(e->match, seat);
}

static json_t *to_move_reply(const asobi_state *s)
{
    json_t *r = attach(ok_reply(), "to_move", asobi_json_seats(asobi_state_to_move(s)));
    return attach(r, "terminal", json_boolean(asobi_state_terminal(s)));
}

/* A seat field: an integer that names a seat of the current game. With
 * allow_all, null or absent means the all-seeing view. */
static bool get_seat(const protocol_session *e, const json_t *req, bool allow_all, int *seat, json_t **reply)
{
    const json_t *v = json_object_get(req, "seat");
    if (!v || json_is_null(v)) {
        if (allow_all) {
            *seat = ASOBI_ALL_SEEING;
            return true;
        }
        *reply = protocol_error_reply(ASOBI_E_BAD_REQUEST, "\"seat\" (an integer) is required");
        return false;
    }
    if (!json_is_integer(v)) {
        *reply = protocol_error_reply(ASOBI_E_BAD_REQUEST, "\"seat\" must be an integer");
        return false;
    }
    int players = asobi_state_players(current(e));
    json_int_t k = json_integer_value(v);
    if (k < 0 || k >= players) {
        *reply = protocol_errorf(ASOBI_E_BAD_SEAT, "seat %lld does not exist (seats are 0 to %d)", (long long)k,
                        players - 1);
        return false;
    }
    *seat = (int)k;
    return true;
}

static json_t *cmd_games(protocol_session *e, const json_t *req)
{
    (void)e;
    (void)req;
    json_t *list = json_array();
    for (int i = 0; i < asobi_game_count(); i++)
        json_array_append_new(list, asobi_game_describe(asobi_game_at(i)));
    json_t *r = attach(ok_reply(), "games", list);
    if (e->sets)
        r = attach(r, "card_sets", asobi_data_sets_list(e->sets));
    json_t *bots = json_array();
    for (const char *const *b = asobi_bot_names(); *b; b++)
        json_array_append_new(bots, json_pack("{s:s, s:s}", "name", *b, "help", asobi_bot_help(*b)));
    return attach(r, "bots", bots);
}

static json_t *started(protocol_session *e, asobi_match *m)
{
    asobi_match_free(e->match);
    asobi_state_free(e->sample);
    e->sample = NULL;
    e->match = m;
    json_t *r = to_move_reply(asobi_match_state(m));
    const asobi_state *s = asobi_match_state(m);
    r = attach(r, "game", json_string(asobi_game_name(asobi_state_game(s))));
    r = attach(r, "players", json_integer(asobi_state_players(s)));
    r = attach(r, "seed", json_integer((json_int_t)asobi_match_seed(m)));
    return attach(r, "options", json_deep_copy(asobi_match_options(m)));
}

static json_t *cmd_new(protocol_session *e, const json_t *req)
{
    const json_t *game = json_object_get(req, "game"), *players = json_object_get(req, "players");
    const json_t *seed = json_object_get(req, "seed"), *options = json_object_get(req, "options");
    if (!json_is_string(game))
        return protocol_error_reply(ASOBI_E_BAD_REQUEST, "\"game\" (a string) is required");
    const asobi_game_def *def = asobi_game_find(json_string_value(game));
    if (!def)
        return protocol_errorf(ASOBI_E_UNKNOWN_GAME, "there is no game \"%.60s\"", json_string_value(game));
    if (players && !json_is_integer(players))
        return protocol_error_reply(ASOBI_E_BAD_REQUEST, "\"players\" must be an integer");
    if (seed && !json_is_integer(seed) && !json_is_null(seed))
        return protocol_error_reply(ASOBI_E_BAD_REQUEST, "\"seed\" must be an integer");
    if (options && !json_is_object(options) && !json_is_null(options))
        return protocol_error_reply(ASOBI_E_BAD_REQUEST, "\"options\" must be an object");
    json_int_t np = players ? json_integer_value(players) : asobi_game_min_players(def);
    if (np < asobi_game_min_players(def) || np > asobi_game_max_players(def)) {
        return protocol_errorf(ASOBI_E_BAD_PLAYERS, "%s is for %d to %d players, not %lld", asobi_game_title(def),
                      asobi_game_min_players(def), asobi_game_max_players(def), (long long)np);
    }
    uint64_t s = 0;
    asobi_error err;
    if (json_is_integer(seed))
        s = (uint64_t)json_integer_value(seed);
    else if (asobi_fresh_seed(&s, &err) != ASOBI_OK)
        return protocol_error_from(&err);
    /* a card set named by a client: one the person running the engine
     * loaded (--card-sets), never a path */
    json_t *opts = json_is_object(options) ? json_deep_copy(options) : NULL;
    if (opts && asobi_game_options_resolve(def, opts, e->sets, false, &err) != ASOBI_OK) {
        json_decref(opts);
        return protocol_error_from(&err);
    }
    asobi_match *m = asobi_match_new(asobi_game_name(def), (int)np, opts, s, &err);
    json_decref(opts);
    if (!m)
        return protocol_error_from(&err);
    return started(e, m);
}

/* {"cmd":"load","sample":S}: a whole state, as an external bot's choose
 * request carries them (docs/protocol.md, "Samples"); refused unless its
 * MAC matches under the session's key. */
static json_t *load_sample(protocol_session *e, const json_t *sample)
{
    if (!json_is_string(sample))
        return protocol_error_reply(ASOBI_E_BAD_REQUEST, "\"sample\" must be a string");
    asobi_error err;
    asobi_state *s = asobi_state_from_sample(json_string_value(sample), json_string_length(sample),
                                             e->sample_key, &err);
    if (!s)
        return protocol_error_from(&err);
    asobi_match_free(e->match);
    asobi_state_free(e->sample);
    e->match = NULL;
    e->sample = s;
    json_t *r = to_move_reply(s);
    r = attach(r, "game", json_string(asobi_game_name(asobi_state_game(s))));
    return attach(r, "players", json_integer(asobi_state_players(s)));
}

static json_t *cmd_load(protocol_session *e, const json_t *req)
{
    const json_t *record = json_object_get(req, "record"), *sample = json_object_get(req, "sample");
    if (sample && !record)
        return load_sample(e, sample);
    if (!json_is_object(record))
        return protocol_error_reply(ASOBI_E_BAD_REQUEST, "\"record\" (an object) or \"sample\" is required");
    asobi_error err;
    asobi_match *m = asobi_match_load(record, &err);
    if (!m)
        return protocol_error_from(&err);
    return started(e, m);
}

/* {"id","text"} of one action; NULL if it cannot be built. */
static json_t *action_json(const asobi_state *s, int seat, int id)
{
    char text[256];
    asobi_state_action_text(s, seat, id, text, sizeof text);
    return json_pack("{s:i, s:s}", "id", id, "text", text);
}

void protocol_vw_legal(asobi_vw *w, const char *key, const asobi_state *s, int seat)
{
    vw_array_begin(w, key);
    if (asobi_state_to_move(s) & (1u << seat)) {
        int max = asobi_game_max_actions(asobi_state_game(s));
        int *ids = malloc((size_t)max * sizeof *ids);
        if (!ids) {
            w->failed = true;
            return;
        }
        int n = asobi_state_legal(s, seat, ids);
        char text[256];
        for (int i = 0; i < n; i++) {
            asobi_state_action_text(s, seat, ids[i], text, sizeof text);
            vw_object_begin(w, NULL);
            vw_int(w, "id", ids[i]);
            vw_str(w, "text", text);
            vw_object_end(w);
        }
        free(ids);
    }
    vw_array_end(w);
}

json_t *protocol_legal_actions(const asobi_state *s, int seat)
{
    asobi_vw w;
    if (!asobi_vw_start_tree(&w))
        return NULL;
    protocol_vw_legal(&w, "actions", s, seat);
    return asobi_vw_finish_member(&w, "actions");
}

static json_t *cmd_legal(protocol_session *e, const json_t *req)
{
    int seat;
    json_t *reply;
    if (!get_seat(e, req, false, &seat, &reply))
        return reply;
    json_t *r = attach(ok_reply(), "seat", json_integer(seat));
    r = attach(r, "actions", protocol_legal_actions(current(e), seat));
    return attach(r, "undo", json_boolean(can_undo(e, seat)));
}

/* The id of action (as protocol_act_id reads it) for seat in s, checked
 * no further than its range; or the refusal. */
static int action_id(const asobi_state *s, int seat, const json_t *action, int *id_out, asobi_error *err)
{
    int id = -1;
    /* {"id":N} or {"text":T}, as suggest replies and external bots write it */
    if (json_is_object(action))
        action = json_object_get(action, "id") ? json_object_get(action, "id") : json_object_get(action, "text");
    if (json_is_string(action)) {
        int rc = asobi_state_parse_action(s, seat, json_string_value(action), &id, err);
        if (rc != ASOBI_OK)
            return rc;
    } else if (!json_is_integer(action)) {
        return asobi_fail(err, ASOBI_E_BAD_REQUEST, "\"action\" (a text, an integer id, or {\"id\":N}) is required");
    } else {
        json_int_t given = json_integer_value(action);
        int max = asobi_game_max_actions(asobi_state_game(s));
        if (given < 0 || given >= max) {
            /* turn errors come first, as for any other action */
            int rc = asobi_state_may_act(s, seat, err);
            if (rc == ASOBI_OK)
                rc = asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "action id %lld is out of range (0 to %d)",
                                (long long)given, max - 1);
            return rc;
        }
        id = (int)given;
    }
    *id_out = id;
    return ASOBI_OK;
}

int protocol_act_id(asobi_match *m, int seat, const json_t *action, int *id_out, asobi_error *err)
{
    int id;
    int rc = action_id(asobi_match_state(m), seat, action, &id, err);
    if (rc == ASOBI_OK)
        rc = asobi_match_act(m, seat, id, err);
    if (rc == ASOBI_OK && id_out)
        *id_out = id;
    return rc;
}

int protocol_act(asobi_match *m, int seat, const json_t *action, asobi_error *err)
{
    return protocol_act_id(m, seat, action, NULL, err);
}

/* The act request's "viewer": absent, the acting seat; null, the
 * all-seeing viewer; "spectator"; or a seat of the game. */
static bool get_viewer(const protocol_session *e, const json_t *req, int seat, int *viewer, json_t **reply)
{
    const json_t *v = json_object_get(req, "viewer");
    int players = asobi_state_players(current(e));
    if (!v)
        *viewer = seat;
    else if (json_is_null(v))
        *viewer = ASOBI_ALL_SEEING;
    else if (json_is_string(v) && strcmp(json_string_value(v), "spectator") == 0)
        *viewer = ASOBI_SPECTATOR;
    else if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) < players)
        *viewer = (int)json_integer_value(v);
    else {
        *reply = protocol_errorf(ASOBI_E_BAD_REQUEST,
                                 "\"viewer\" is a seat (0 to %d), null (all-seeing) or \"spectator\"", players - 1);
        return false;
    }
    return true;
}

/* The action, then what it made happen as viewer may know it (docs/protocol.md, "Events"). */
static json_t *cmd_act(protocol_session *e, const json_t *req)
{
    int seat, viewer, id = -1;
    json_t *reply;
    if (!get_seat(e, req, false, &seat, &reply) || !get_viewer(e, req, seat, &viewer, &reply))
        return reply;
    asobi_state *before = asobi_state_clone(current(e));
    if (!before)
        return protocol_error_reply(ASOBI_E_NOMEM, "out of memory");
    asobi_error err;
    const json_t *action = json_object_get(req, "action");
    int rc;
    if (e->sample) { /* a sample has no record to add the action to */
        rc = action_id(e->sample, seat, action, &id, &err);
        if (rc == ASOBI_OK)
            rc = asobi_state_apply(e->sample, seat, id, &err);
    } else {
        rc = protocol_act_id(e->match, seat, action, &id, &err);
    }
    if (rc != ASOBI_OK) {
        asobi_state_free(before);
        return protocol_error_from(&err);
    }
    json_t *events = asobi_state_events(before, seat, id, current(e), viewer);
    asobi_state_free(before);
    return attach(to_move_reply(current(e)), "events", events);
}

static json_t *cmd_view(protocol_session *e, const json_t *req)
{
    int seat;
    json_t *reply;
    if (!get_seat(e, req, true, &seat, &reply))
        return reply;
    const json_t *format = json_object_get(req, "format");
    if (format && !(json_is_string(format) && (strcmp(json_string_value(format), "json") == 0 ||
                                               strcmp(json_string_value(format), "text") == 0)))
        return protocol_error_reply(ASOBI_E_BAD_REQUEST, "\"format\" is \"json\" (default) or \"text\"");
    if (format && strcmp(json_string_value(format), "text") == 0) {
        char *text = asobi_state_render(current(e), seat);
        json_t *r = attach(ok_reply(), "text", text ? json_string(text) : NULL);
        free(text);
        return r;
    }
    json_t *r = attach(ok_reply(), "view", asobi_state_view(current(e), seat));
    return seat >= 0 ? attach(r, "undo", json_boolean(can_undo(e, seat))) : r;
}

/* Take back seat's last action (docs/protocol.md, "Taking back"): the reply
 * says which, and who is to move now; undo_not_allowed changes nothing. A
 * loaded sample has no history: nothing in it is taken back. */
static json_t *cmd_undo(protocol_session *e, const json_t *req)
{
    int seat;
    json_t *reply;
    if (!get_seat(e, req, false, &seat, &reply))
        return reply;
    asobi_error err;
    if (e->sample) {
        asobi_fail(&err, ASOBI_E_UNDO_NOT_ALLOWED, "a loaded sample has no history: nothing in it can be taken back");
        return protocol_error_from(&err);
    }
    int index = asobi_match_undo_index(e->match, seat);
    json_t *taken = index < 0 ? NULL
                              : json_pack("{s:i, s:s}", "seat", seat, "action", asobi_match_action_text(e->match, index));
    if (asobi_match_undo(e->match, seat, &err) != ASOBI_OK) {
        json_decref(taken);
        return protocol_error_from(&err);
    }
    return attach(to_move_reply(current(e)), "taken_back", taken);
}

json_t *protocol_result(const asobi_state *s)
{
    asobi_result res;
    asobi_state_result(s, &res);
    json_t *scores = json_array(), *ranks = json_array();
    for (int i = 0; i < res.players; i++) {
        json_array_append_new(scores, json_real(res.score[i]));
        json_array_append_new(ranks, json_integer(res.rank[i]));
    }
    return json_pack("{s:b, s:o, s:o, s:o}", "terminal", res.terminal, "scores", scores, "ranks", ranks,
                     "winners", res.terminal ? asobi_json_seats(res.winners) : json_array());
}

static json_t *cmd_result(protocol_session *e, const json_t *req)
{
    (void)req;
    json_t *r = ok_reply(), *res = protocol_result(current(e));
    if (!r || !res || json_object_update(r, res) != 0) {
        json_decref(r);
        json_decref(res);
        return internal_reply("result");
    }
    json_decref(res);
    return r;
}

static json_t *cmd_record(protocol_session *e, const json_t *req)
{
    (void)req;
    if (e->sample)
        return protocol_error_reply(ASOBI_E_BAD_RECORD, "a loaded sample has no record: its hidden cards were "
                                                        "drawn for a seat, not dealt from a seed");
    return attach(ok_reply(), "record", asobi_match_record(e->match));
}

/* A bot's choice for a seat, without playing it: {"cmd":"suggest","seat":0,"bot":"random"}. */
static json_t *cmd_suggest(protocol_session *e, const json_t *req)
{
    int seat;
    json_t *reply;
    if (!get_seat(e, req, false, &seat, &reply))
        return reply;
    const json_t *spec = json_object_get(req, "bot");
    const json_t *seed = json_object_get(req, "seed");
    if (spec && !json_is_string(spec))
        return protocol_error_reply(ASOBI_E_BAD_REQUEST, "\"bot\" must be a bot spec string");
    if (seed && !json_is_integer(seed))
        return protocol_error_reply(ASOBI_E_BAD_REQUEST, "\"seed\" must be an integer");
    const asobi_state *s = current(e);
    asobi_error err;
    if (asobi_state_may_act(s, seat, &err) != ASOBI_OK)
        return protocol_error_from(&err);
    uint64_t bot_seed = 0;
    if (seed)
        bot_seed = (uint64_t)json_integer_value(seed);
    else if (asobi_fresh_seed(&bot_seed, &err) != ASOBI_OK)
        return protocol_error_from(&err);
    asobi_bot *bot = asobi_bot_new_within(spec ? json_string_value(spec) : "random", asobi_state_game(s),
                                          asobi_state_players(s), seat, bot_seed, e->bot_limits, &err);
    if (!bot)
        return protocol_error_from(&err);
    int id = asobi_bot_choose(bot, s, &err);
    asobi_bot_free(bot);
    if (id < 0)
        return protocol_error_from(&err);
    return attach(ok_reply(), "action", action_json(s, seat, id));
}

static json_t *cmd_quit(protocol_session *e, const json_t *req)
{
    (void)req;
    e->quit = true;
    return ok_reply();
}

typedef struct protocol_command {
    const char *name;
    json_t *(*run)(protocol_session *e, const json_t *req);
    bool needs_game;
} protocol_command;

static const protocol_command commands[] = {
    {"games", cmd_games, false},   {"new", cmd_new, false},       {"load", cmd_load, false},
    {"legal", cmd_legal, true},    {"act", cmd_act, true},        {"view", cmd_view, true},
    {"result", cmd_result, true},  {"record", cmd_record, true},  {"suggest", cmd_suggest, true},
    {"quit", cmd_quit, false},     {"undo", cmd_undo, true},
};

static const protocol_command *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* One request line to one reply object. */
json_t *protocol_handle_line(protocol_session *e, const char *line, size_t len)
{
    json_error_t jerr;
    json_t *req = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!req)
        return protocol_errorf(ASOBI_E_BAD_JSON, "not valid JSON: %s", jerr.text);
    json_t *reply;
    const json_t *cmd = json_object_get(req, "cmd");
    if (!json_is_object(req)) {
        reply = protocol_error_reply(ASOBI_E_BAD_JSON, "a request is a JSON object");
    } else if (!json_is_string(cmd)) {
        reply = protocol_error_reply(ASOBI_E_BAD_REQUEST, "\"cmd\" (a string) is required");
    } else {
        const protocol_command *c = find_command(json_string_value(cmd));
        if (!c)
            reply = protocol_errorf(ASOBI_E_UNKNOWN_CMD, "unknown command \"%.60s\"", json_string_value(cmd));
        else if (c->needs_game && !e->match && !e->sample)
            reply = protocol_error_reply(ASOBI_E_NO_GAME, "no game yet: send \"new\" or \"load\" first");
        else
            reply = c->run(e, req);
        /* a command whose reply could not be built is not an unknown command */
        if (!reply)
            reply = internal_reply(json_string_value(cmd));
    }
    const json_t *id = json_is_object(req) ? json_object_get(req, "id") : NULL;
    if (id && reply)
        json_object_set(reply, "id", (json_t *)id);
    if (!reply)
        reply = internal_reply("out of memory");
    json_decref(req);
    return reply;
}


protocol_session *protocol_session_new(void)
{
    protocol_session *e = calloc(1, sizeof(protocol_session));
    if (e)
        e->bot_limits = &asobi_bot_default_limits;
    return e;
}

void protocol_session_set_bot_limits(protocol_session *e, const asobi_bot_limits *limits)
{
    e->bot_limits = limits ? limits : &asobi_bot_default_limits;
}

void protocol_session_set_data_sets(protocol_session *e, const asobi_data_sets *sets)
{
    e->sets = sets;
}

void protocol_session_set_sample_key(protocol_session *e, const char *key) { e->sample_key = key; }

int protocol_read_line(FILE *in, char **buf, size_t *cap, size_t *len)
{
    size_t n = 0;
    int c;
    bool too_long = false;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (too_long)
            continue;
        if (n == PROTOCOL_LINE_MAX) {
            too_long = true; /* keep reading to the newline, keep nothing */
            continue;
        }
        if (n == *cap) {
            /* grow by doubling, from 64 KiB, never past the limit */
            size_t want = *cap ? *cap * 2 : 1u << 16;
            if (want > PROTOCOL_LINE_MAX)
                want = PROTOCOL_LINE_MAX;
            char *bigger = realloc(*buf, want);
            if (!bigger) {
                too_long = true;
                continue;
            }
            *buf = bigger;
            *cap = want;
        }
        (*buf)[n++] = (char)c;
    }
    if (c == EOF && n == 0 && !too_long)
        return 0;
    *len = too_long ? 0 : n;
    return too_long ? -1 : 1;
}

void protocol_session_free(protocol_session *e)
{
    if (!e)
        return;
    asobi_match_free(e->match);
    asobi_state_free(e->sample);
    free(e);
}

bool protocol_session_quit(const protocol_session *e) { return e->quit; }

const asobi_match *protocol_session_match(const protocol_session *e) { return e->match; }

char *protocol_reply_text(const json_t *reply)
{
    char *text = reply ? json_dumps(reply, JSON_COMPACT) : NULL;
    if (text)
        return text;
    /* A reply jansson cannot write (it refuses invalid UTF-8, for one) is a
     * bug of ours: answer with a reply that is always valid, keeping "id"
     * when it can be written on its own. */
    json_t *err = protocol_error_reply(ASOBI_E_INTERNAL, "the reply could not be built (a bug in asobi)");
    const json_t *id = reply ? json_object_get(reply, "id") : NULL;
    char *id_text = id ? json_dumps(id, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    if (id_text)
        json_object_set(err, "id", (json_t *)id);
    free(id_text);
    text = json_dumps(err, JSON_COMPACT);
    json_decref(err);
    return text ? text : strdup("{\"ok\":false,\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}");
}

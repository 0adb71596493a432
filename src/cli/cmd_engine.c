/* cmd_engine.c — `asobi engine`: the JSON-lines engine protocol (docs/protocol.md) on stdin/stdout. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Lines longer than this are refused (and skipped to their end) without
 * being held in memory whole. */
#define ENGINE_LINE_MAX (1u << 20)

typedef struct engine {
    asobi_match *match;
    bool quit;
} engine;

static json_t *error_reply(int code, const char *message)
{
    return json_pack("{s:b, s:{s:s, s:s}}", "ok", 0, "error", "code", asobi_code_name(code), "message",
                     message);
}

static json_t *error_from(const asobi_error *err) { return error_reply(err->code, err->message); }

static json_t *errorf(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static json_t *errorf(int code, const char *fmt, ...)
{
    char msg[ASOBI_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return error_reply(code, msg);
}

static json_t *ok_reply(void) { return json_pack("{s:b}", "ok", 1); }

static json_t *to_move_reply(const asobi_match *m)
{
    const asobi_state *s = asobi_match_state(m);
    json_t *r = ok_reply();
    json_object_set_new(r, "to_move", asobi_json_seats(asobi_state_to_move(s)));
    json_object_set_new(r, "terminal", json_boolean(asobi_state_terminal(s)));
    return r;
}

/* A seat field: an integer that names a seat of the current game. With
 * allow_all, null or absent means the all-seeing view. */
static bool get_seat(const engine *e, const json_t *req, bool allow_all, int *seat, json_t **reply)
{
    const json_t *v = json_object_get(req, "seat");
    if (!v || json_is_null(v)) {
        if (allow_all) {
            *seat = ASOBI_ALL_SEEING;
            return true;
        }
        *reply = error_reply(ASOBI_E_BAD_REQUEST, "\"seat\" (an integer) is required");
        return false;
    }
    if (!json_is_integer(v)) {
        *reply = error_reply(ASOBI_E_BAD_REQUEST, "\"seat\" must be an integer");
        return false;
    }
    int players = asobi_state_players(asobi_match_state(e->match));
    json_int_t k = json_integer_value(v);
    if (k < 0 || k >= players) {
        *reply = errorf(ASOBI_E_BAD_SEAT, "seat %lld does not exist (seats are 0 to %d)", (long long)k,
                        players - 1);
        return false;
    }
    *seat = (int)k;
    return true;
}

static json_t *cmd_games(engine *e, const json_t *req)
{
    (void)e;
    (void)req;
    json_t *list = json_array();
    for (int i = 0; i < asobi_game_count(); i++)
        json_array_append_new(list, asobi_game_describe(asobi_game_at(i)));
    json_t *r = ok_reply();
    json_object_set_new(r, "games", list);
    json_t *bots = json_array();
    for (const char *const *b = asobi_bot_names(); *b; b++)
        json_array_append_new(bots, json_pack("{s:s, s:s}", "name", *b, "help", asobi_bot_help(*b)));
    json_object_set_new(r, "bots", bots);
    return r;
}

static json_t *started(engine *e, asobi_match *m)
{
    asobi_match_free(e->match);
    e->match = m;
    json_t *r = to_move_reply(m);
    const asobi_state *s = asobi_match_state(m);
    json_object_set_new(r, "game", json_string(asobi_game_name(asobi_state_game(s))));
    json_object_set_new(r, "players", json_integer(asobi_state_players(s)));
    json_object_set_new(r, "seed", json_integer((json_int_t)asobi_match_seed(m)));
    json_object_set_new(r, "options", json_deep_copy(asobi_match_options(m)));
    return r;
}

static json_t *cmd_new(engine *e, const json_t *req)
{
    const json_t *game = json_object_get(req, "game"), *players = json_object_get(req, "players");
    const json_t *seed = json_object_get(req, "seed"), *options = json_object_get(req, "options");
    if (!json_is_string(game))
        return error_reply(ASOBI_E_BAD_REQUEST, "\"game\" (a string) is required");
    const asobi_game_def *def = asobi_game_find(json_string_value(game));
    if (!def)
        return errorf(ASOBI_E_UNKNOWN_GAME, "there is no game \"%.60s\"", json_string_value(game));
    if (players && !json_is_integer(players))
        return error_reply(ASOBI_E_BAD_REQUEST, "\"players\" must be an integer");
    if (seed && !json_is_integer(seed) && !json_is_null(seed))
        return error_reply(ASOBI_E_BAD_REQUEST, "\"seed\" must be an integer");
    if (options && !json_is_object(options) && !json_is_null(options))
        return error_reply(ASOBI_E_BAD_REQUEST, "\"options\" must be an object");
    json_int_t np = players ? json_integer_value(players) : asobi_game_min_players(def);
    if (np < asobi_game_min_players(def) || np > asobi_game_max_players(def)) {
        return errorf(ASOBI_E_BAD_PLAYERS, "%s is for %d to %d players, not %lld", asobi_game_title(def),
                      asobi_game_min_players(def), asobi_game_max_players(def), (long long)np);
    }
    uint64_t s = json_is_integer(seed) ? (uint64_t)json_integer_value(seed) : cli_fresh_seed();
    asobi_error err;
    asobi_match *m = asobi_match_new(asobi_game_name(def), (int)np, json_is_object(options) ? options : NULL,
                                     s, &err);
    if (!m)
        return error_from(&err);
    return started(e, m);
}

static json_t *cmd_load(engine *e, const json_t *req)
{
    const json_t *record = json_object_get(req, "record");
    if (!json_is_object(record))
        return error_reply(ASOBI_E_BAD_REQUEST, "\"record\" (an object) is required");
    asobi_error err;
    asobi_match *m = asobi_match_load(record, &err);
    if (!m)
        return error_from(&err);
    return started(e, m);
}

static json_t *cmd_legal(engine *e, const json_t *req)
{
    int seat;
    json_t *reply;
    if (!get_seat(e, req, false, &seat, &reply))
        return reply;
    const asobi_state *s = asobi_match_state(e->match);
    int max = asobi_game_max_actions(asobi_state_game(s));
    int *ids = malloc((size_t)max * sizeof *ids);
    int n = asobi_state_legal(s, seat, ids);
    json_t *list = json_array();
    char text[256];
    for (int i = 0; i < n; i++) {
        asobi_state_action_text(s, seat, ids[i], text, sizeof text);
        json_array_append_new(list, json_pack("{s:i, s:s}", "id", ids[i], "text", text));
    }
    free(ids);
    json_t *r = ok_reply();
    json_object_set_new(r, "seat", json_integer(seat));
    json_object_set_new(r, "actions", list);
    return r;
}

static json_t *cmd_act(engine *e, const json_t *req)
{
    int seat;
    json_t *reply;
    if (!get_seat(e, req, false, &seat, &reply))
        return reply;
    const json_t *action = json_object_get(req, "action");
    asobi_error err;
    int rc;
    if (json_is_string(action)) {
        rc = asobi_match_act_text(e->match, seat, json_string_value(action), &err);
    } else if (json_is_integer(action)) {
        json_int_t id = json_integer_value(action);
        int max = asobi_game_max_actions(asobi_state_game(asobi_match_state(e->match)));
        if (id < 0 || id >= max) {
            /* turn errors come first, as for any other action */
            rc = asobi_state_may_act(asobi_match_state(e->match), seat, &err);
            if (rc == ASOBI_OK)
                rc = asobi_fail(&err, ASOBI_E_ILLEGAL_ACTION, "action id %lld is out of range (0 to %d)",
                                (long long)id, max - 1);
        } else {
            rc = asobi_match_act(e->match, seat, (int)id, &err);
        }
    } else {
        return error_reply(ASOBI_E_BAD_REQUEST, "\"action\" (a text or an integer id) is required");
    }
    if (rc != ASOBI_OK)
        return error_from(&err);
    return to_move_reply(e->match);
}

static json_t *cmd_view(engine *e, const json_t *req)
{
    int seat;
    json_t *reply;
    if (!get_seat(e, req, true, &seat, &reply))
        return reply;
    const json_t *format = json_object_get(req, "format");
    if (format && !(json_is_string(format) && (strcmp(json_string_value(format), "json") == 0 ||
                                               strcmp(json_string_value(format), "text") == 0)))
        return error_reply(ASOBI_E_BAD_REQUEST, "\"format\" is \"json\" (default) or \"text\"");
    json_t *r = ok_reply();
    if (format && strcmp(json_string_value(format), "text") == 0) {
        char *text = asobi_state_render(asobi_match_state(e->match), seat);
        json_object_set_new(r, "text", json_string(text ? text : ""));
        free(text);
    } else {
        json_object_set_new(r, "view", asobi_state_view(asobi_match_state(e->match), seat));
    }
    return r;
}

static json_t *cmd_result(engine *e, const json_t *req)
{
    (void)req;
    asobi_result res;
    asobi_state_result(asobi_match_state(e->match), &res);
    json_t *scores = json_array(), *ranks = json_array();
    for (int i = 0; i < res.players; i++) {
        json_array_append_new(scores, json_real(res.score[i]));
        json_array_append_new(ranks, json_integer(res.rank[i]));
    }
    json_t *r = ok_reply();
    json_object_set_new(r, "terminal", json_boolean(res.terminal));
    json_object_set_new(r, "scores", scores);
    json_object_set_new(r, "ranks", ranks);
    json_object_set_new(r, "winners", res.terminal ? asobi_json_seats(res.winners) : json_array());
    return r;
}

static json_t *cmd_record(engine *e, const json_t *req)
{
    (void)req;
    json_t *r = ok_reply();
    json_object_set_new(r, "record", asobi_match_record(e->match));
    return r;
}

/* A bot's choice for a seat, without playing it: {"cmd":"suggest","seat":0,"bot":"random"}. */
static json_t *cmd_suggest(engine *e, const json_t *req)
{
    int seat;
    json_t *reply;
    if (!get_seat(e, req, false, &seat, &reply))
        return reply;
    const json_t *spec = json_object_get(req, "bot");
    const json_t *seed = json_object_get(req, "seed");
    if (spec && !json_is_string(spec))
        return error_reply(ASOBI_E_BAD_REQUEST, "\"bot\" must be a bot spec string");
    if (seed && !json_is_integer(seed))
        return error_reply(ASOBI_E_BAD_REQUEST, "\"seed\" must be an integer");
    const asobi_state *s = asobi_match_state(e->match);
    asobi_error err;
    if (asobi_state_may_act(s, seat, &err) != ASOBI_OK)
        return error_from(&err);
    asobi_bot *bot = asobi_bot_new(spec ? json_string_value(spec) : "random", asobi_state_game(s),
                                   asobi_state_players(s), seat,
                                   seed ? (uint64_t)json_integer_value(seed) : cli_fresh_seed(), &err);
    if (!bot)
        return error_from(&err);
    int id = asobi_bot_choose(bot, s, &err);
    asobi_bot_free(bot);
    if (id < 0)
        return error_from(&err);
    char text[256];
    asobi_state_action_text(s, seat, id, text, sizeof text);
    json_t *r = ok_reply();
    json_object_set_new(r, "action", json_pack("{s:i, s:s}", "id", id, "text", text));
    return r;
}

static json_t *cmd_quit(engine *e, const json_t *req)
{
    (void)req;
    e->quit = true;
    return ok_reply();
}

typedef struct engine_command {
    const char *name;
    json_t *(*run)(engine *e, const json_t *req);
    bool needs_game;
} engine_command;

static const engine_command commands[] = {
    {"games", cmd_games, false},   {"new", cmd_new, false},       {"load", cmd_load, false},
    {"legal", cmd_legal, true},    {"act", cmd_act, true},        {"view", cmd_view, true},
    {"result", cmd_result, true},  {"record", cmd_record, true},  {"suggest", cmd_suggest, true},
    {"quit", cmd_quit, false},
};

/* One request line to one reply object. */
static json_t *handle_line(engine *e, const char *line, size_t len)
{
    json_error_t jerr;
    json_t *req = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!req)
        return errorf(ASOBI_E_BAD_JSON, "not valid JSON: %s", jerr.text);
    json_t *reply;
    const json_t *cmd = json_object_get(req, "cmd");
    if (!json_is_object(req)) {
        reply = error_reply(ASOBI_E_BAD_JSON, "a request is a JSON object");
    } else if (!json_is_string(cmd)) {
        reply = error_reply(ASOBI_E_BAD_REQUEST, "\"cmd\" (a string) is required");
    } else {
        reply = NULL;
        for (size_t i = 0; i < sizeof commands / sizeof commands[0] && !reply; i++) {
            if (strcmp(commands[i].name, json_string_value(cmd)) != 0)
                continue;
            if (commands[i].needs_game && !e->match)
                reply = error_reply(ASOBI_E_NO_GAME, "no game yet: send \"new\" or \"load\" first");
            else
                reply = commands[i].run(e, req);
        }
        if (!reply)
            reply = errorf(ASOBI_E_UNKNOWN_CMD, "unknown command \"%.60s\"", json_string_value(cmd));
    }
    const json_t *id = json_is_object(req) ? json_object_get(req, "id") : NULL;
    if (id)
        json_object_set(reply, "id", (json_t *)id);
    json_decref(req);
    return reply;
}

/* Read one line of at most ENGINE_LINE_MAX bytes into *buf. Returns 0 at
 * the end of input, 1 for a line, -1 for a line that was too long (already
 * skipped to its end). */
static int read_request(FILE *in, char **buf, size_t *len)
{
    size_t n = 0;
    int c;
    bool too_long = false;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n < ENGINE_LINE_MAX)
            (*buf)[n++] = (char)c;
        else
            too_long = true;
    }
    if (c == EOF && n == 0 && !too_long)
        return 0;
    *len = n;
    return too_long ? -1 : 1;
}

int cli_engine(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(argc > 1 && strcmp(argv[1], "--help") == 0 ? stdout : stderr,
                "usage: asobi engine\n\nThe JSON-lines engine protocol: one JSON request per line on stdin,\n"
                "one JSON reply per line on stdout. See docs/protocol.md.\n");
        return strcmp(argv[1], "--help") == 0 ? 0 : 2;
    }
    engine e = {0};
    char *buf = malloc(ENGINE_LINE_MAX);
    size_t len;
    int got;
    while (!e.quit && (got = read_request(stdin, &buf, &len)) != 0) {
        json_t *reply;
        if (got < 0) {
            reply = errorf(ASOBI_E_LINE_TOO_LONG, "a request line may hold at most %u bytes", ENGINE_LINE_MAX);
        } else {
            size_t start = 0;
            while (start < len && (buf[start] == ' ' || buf[start] == '\t' || buf[start] == '\r'))
                start++;
            if (start == len)
                continue; /* blank lines are ignored */
            reply = handle_line(&e, buf + start, len - start);
        }
        char *text = json_dumps(reply, JSON_COMPACT);
        fputs(text, stdout);
        fputc('\n', stdout);
        fflush(stdout);
        free(text);
        json_decref(reply);
    }
    free(buf);
    asobi_match_free(e.match);
    return 0;
}

/* table.c — one table's rules of play around the game: seats, joins, actions, bots, clocks, what each viewer is told. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/view_writer.h"
#include "protocol/protocol.h"
#include "server/ratings.h"
#include "server/table.h"

const char *table_status_name(table_status s)
{
    return s == TABLE_OPEN ? "open" : s == TABLE_PLAYING ? "playing" : "over";
}

/* ---------------------------------------------------------------------------
 * Names: 1-24 characters of valid UTF-8, none of them a control character
 * (C0, DEL, C1), not only spaces. JSON escaping (jansson) makes them safe in
 * every message; a browser client must still insert them as text, not HTML.
 * ------------------------------------------------------------------------- */
bool table_name_valid(const char *name, srv_error *e)
{
    const unsigned char *p = (const unsigned char *)name;
    int chars = 0;
    bool visible = false;
    while (*p) {
        uint32_t c;
        int len;
        if (p[0] < 0x80) {
            c = p[0];
            len = 1;
        } else if ((p[0] & 0xe0) == 0xc0) {
            c = p[0] & 0x1fu;
            len = 2;
        } else if ((p[0] & 0xf0) == 0xe0) {
            c = p[0] & 0x0fu;
            len = 3;
        } else if ((p[0] & 0xf8) == 0xf0) {
            c = p[0] & 0x07u;
            len = 4;
        } else {
            return srv_fail(e, 400, "bad_name", "a name must be valid UTF-8") == 0;
        }
        for (int i = 1; i < len; i++) {
            if ((p[i] & 0xc0) != 0x80)
                return srv_fail(e, 400, "bad_name", "a name must be valid UTF-8") == 0;
            c = c << 6 | (p[i] & 0x3fu);
        }
        static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (c < least[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
            return srv_fail(e, 400, "bad_name", "a name must be valid UTF-8") == 0;
        if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))
            return srv_fail(e, 400, "bad_name", "a name may not hold control characters") == 0;
        if (c != ' ')
            visible = true;
        chars++;
        p += len;
    }
    if (chars < 1 || chars > TABLE_NAME_MAX || !visible)
        return srv_fail(e, 400, "bad_name", "a name is 1 to %d characters, not only spaces", TABLE_NAME_MAX) == 0;
    return true;
}

/* ---------------------------------------------------------------------------
 * Creating and freeing.
 * ------------------------------------------------------------------------- */
static int64_t seconds_ms(const json_t *v, bool *ok)
{
    if (!json_is_number(v) || json_number_value(v) < 0 || json_number_value(v) > 86400.0 * 7) {
        *ok = false;
        return 0;
    }
    return (int64_t)(json_number_value(v) * 1000.0 + 0.5);
}

/* Read the clock object into t (absent: no clock). */
static int parse_clock(table *t, const json_t *clock, srv_error *e)
{
    t->clock = CLOCK_NONE;
    if (!clock || json_is_null(clock))
        return 0;
    const char *kind = json_string_value(json_object_get(clock, "kind"));
    if (!json_is_object(clock) || !kind)
        return srv_fail(e, 400, "bad_clock", "\"clock\" is {\"kind\":\"none\"|\"move\"|\"fischer\", ...}");
    bool ok = true;
    if (strcmp(kind, "none") == 0)
        return 0;
    if (strcmp(kind, "move") == 0) {
        t->clock = CLOCK_MOVE;
        t->move_ms = seconds_ms(json_object_get(clock, "seconds"), &ok);
        if (!ok || t->move_ms < 1000)
            return srv_fail(e, 400, "bad_clock", "a move clock needs \"seconds\" from 1 to 604800");
        return 0;
    }
    if (strcmp(kind, "fischer") == 0) {
        t->clock = CLOCK_FISCHER;
        t->base_ms = seconds_ms(json_object_get(clock, "base"), &ok);
        t->increment_ms = seconds_ms(json_object_get(clock, "increment"), &ok);
        if (!ok || t->base_ms < 1000)
            return srv_fail(e, 400, "bad_clock",
                            "a fischer clock needs \"base\" (1 to 604800 seconds) and \"increment\" (0 or more)");
        return 0;
    }
    return srv_fail(e, 400, "bad_clock", "clock kind \"%.40s\" is none of none, move, fischer", kind);
}

static void start_clocks(table *t, uint32_t started, int64_t now)
{
    for (int s = 0; s < t->players; s++)
        if (started & (1u << s))
            t->seat[s].since_ms = now;
}

/* Every human seat taken: the game starts, clocks run for whoever is to move. */
static void maybe_start(table *t, int64_t now)
{
    if (t->status != TABLE_OPEN)
        return;
    for (int s = 0; s < t->players; s++)
        if (!t->seat[s].taken)
            return;
    t->status = asobi_state_terminal(asobi_match_state(t->match)) ? TABLE_OVER : TABLE_PLAYING;
    start_clocks(t, asobi_state_to_move(asobi_match_state(t->match)), now);
    t->version++;
}

/* The part of creating a table shared by a new table and a restored one:
 * everything from the stored description. */
static table *table_from_spec(store *st, const json_t *spec, srv_error *e)
{
    table *t = calloc(1, sizeof *t);
    if (!t) {
        srv_fail(e, 500, "no_memory", "out of memory");
        return NULL;
    }
    t->store = st;
    t->spec = json_deep_copy(spec);
    const char *game = json_string_value(json_object_get(spec, "game"));
    int players = (int)json_integer_value(json_object_get(spec, "players"));
    uint64_t seed = (uint64_t)json_integer_value(json_object_get(spec, "seed"));
    const json_t *options = json_object_get(spec, "options");
    asobi_error err;
    t->match = asobi_match_new(game ? game : "", players, json_is_object(options) ? options : NULL, seed, &err);
    if (!t->match) {
        srv_fail_asobi(e, 400, &err);
        table_free(t);
        return NULL;
    }
    t->players = players;
    t->seed_chosen = json_is_true(json_object_get(spec, "seed_chosen"));
    t->private_table = json_is_true(json_object_get(spec, "private"));
    t->rated = json_is_true(json_object_get(spec, "rated"));
    if (parse_clock(t, json_object_get(spec, "clock"), e) != 0) {
        table_free(t);
        return NULL;
    }
    const json_t *bots = json_object_get(spec, "bots");
    for (int s = 0; s < players; s++) {
        const char *bot = json_string_value(json_array_get(bots, (size_t)s));
        table_seat *seat = &t->seat[s];
        seat->bank_ms = t->base_ms;
        const char *invite = json_string_value(json_array_get(json_object_get(spec, "invites"), (size_t)s));
        if (t->private_table && invite)
            snprintf(seat->invite_hash, sizeof seat->invite_hash, "%s", invite);
        const char *watch = json_string_value(json_object_get(spec, "watch"));
        if (t->private_table && watch)
            snprintf(t->watch_hash, sizeof t->watch_hash, "%s", watch);
        if (!bot)
            continue;
        /* a server's bots are held to the server's tighter budgets */
        if (asobi_bot_check_spec_within(bot, asobi_state_game(asobi_match_state(t->match)), &asobi_bot_server_limits,
                                        &err) != ASOBI_OK) {
            srv_fail_asobi(e, 400, &err);
            table_free(t);
            return NULL;
        }
        seat->bot = strdup(bot);
        seat->taken = true;
        snprintf(seat->name, sizeof seat->name, "%s", bot);
    }
    return t;
}

/* A private table's invite codes: a fresh one per person's seat into
 * invites (when the caller wants them), their hashes into the description
 * ("invites": [hash or null per seat]), which is all the store and the
 * table keep. false when the system gives no random bits. */
static bool make_invites(json_t *spec, const json_t *bot_list, table_invites *invites)
{
    json_t *hashes = json_array();
    for (size_t s = 0; s < json_array_size(bot_list); s++) {
        char code[TOKEN_CHARS + 1] = "", hash[TOKEN_HASH_CHARS + 1];
        if (json_is_string(json_array_get(bot_list, s))) {
            json_array_append_new(hashes, json_null());
        } else if (token_new(code)) {
            token_hash(code, hash);
            json_array_append_new(hashes, json_string(hash));
        } else {
            json_decref(hashes);
            return false;
        }
        if (invites)
            memcpy(invites->code[s], code, sizeof code);
    }
    json_object_set_new(spec, "invites", hashes);
    char watch[TOKEN_CHARS + 1], hash[TOKEN_HASH_CHARS + 1];
    if (!token_new(watch))
        return false;
    token_hash(watch, hash);
    json_object_set_new(spec, "watch", json_string(hash));
    if (invites)
        memcpy(invites->watch, watch, sizeof watch);
    return true;
}

/* What the description says besides the game: a chosen seed (told to
 * everyone at the table: its creator may know every hand) and a private
 * table with its codes' hashes. false when the system gives no random bits
 * for the codes. */
static bool mark_spec(json_t *spec, const json_t *seed, const json_t *private_, const json_t *bot_list,
                      table_invites *invites)
{
    if (json_is_integer(seed))
        json_object_set_new(spec, "seed_chosen", json_true());
    if (!json_is_true(private_))
        return true;
    json_object_set_new(spec, "private", json_true());
    return make_invites(spec, bot_list, invites);
}

table *table_create(store *st, const json_t *req, int64_t now, srv_error *e)
{
    return table_create_invited(st, req, now, NULL, e);
}

table *table_create_invited(store *st, const json_t *req, int64_t now, table_invites *invites, srv_error *e)
{
    if (!json_is_object(req)) {
        srv_fail(e, 400, "bad_request", "the body must be a JSON object");
        return NULL;
    }
    const json_t *game = json_object_get(req, "game"), *players = json_object_get(req, "players");
    const json_t *options = json_object_get(req, "options"), *seed = json_object_get(req, "seed");
    const json_t *bots = json_object_get(req, "bots"), *clock = json_object_get(req, "clock");
    const json_t *private_ = json_object_get(req, "private"), *rated = json_object_get(req, "rated");
    if (!json_is_string(game)) {
        srv_fail(e, 400, "bad_request", "\"game\" (a string) is required");
        return NULL;
    }
    const asobi_game_def *def = asobi_game_find(json_string_value(game));
    if (!def) {
        srv_fail(e, 400, "unknown_game", "there is no game \"%.60s\"", json_string_value(game));
        return NULL;
    }
    if ((players && !json_is_integer(players)) || (options && !json_is_object(options) && !json_is_null(options)) ||
        (seed && !json_is_integer(seed) && !json_is_null(seed)) ||
        (bots && !json_is_array(bots) && !json_is_null(bots)) ||
        (private_ && !json_is_boolean(private_) && !json_is_null(private_)) ||
        (rated && !json_is_boolean(rated) && !json_is_null(rated))) {
        srv_fail(e, 400, "bad_request",
                 "\"players\" is an integer, \"options\" an object, \"seed\" an integer, \"bots\" an array, "
                 "\"private\" and \"rated\" true or false");
        return NULL;
    }
    json_int_t n = players ? json_integer_value(players) : asobi_game_min_players(def);
    if (n < asobi_game_min_players(def) || n > asobi_game_max_players(def)) {
        srv_fail(e, 400, "bad_players", "%s is for %d to %d players, not %lld", asobi_game_title(def),
                 asobi_game_min_players(def), asobi_game_max_players(def), (long long)n);
        return NULL;
    }
    json_t *bot_list = json_array();
    for (json_int_t s = 0; s < n; s++) {
        const json_t *b = json_array_get(bots, (size_t)s);
        if (b && !json_is_null(b) && !json_is_string(b)) {
            json_decref(bot_list);
            srv_fail(e, 400, "bad_request", "\"bots\" holds a bot spec or null per seat");
            return NULL;
        }
        json_array_append_new(bot_list, b && json_is_string(b) ? json_copy((json_t *)b) : json_null());
    }
    if (bots && json_array_size(bots) > (size_t)n) {
        json_decref(bot_list);
        srv_fail(e, 400, "bad_request", "\"bots\" has %zu entries for %lld seats", json_array_size(bots),
                 (long long)n);
        return NULL;
    }
    if (json_is_true(rated) && !ratings_people_only(bot_list, e)) {
        json_decref(bot_list);
        return NULL;
    }
    if (json_is_integer(seed) && json_integer_value(seed) < 0) {
        json_decref(bot_list);
        srv_fail(e, 400, "bad_request", "\"seed\" is an integer from 0 to 2^63-1");
        return NULL;
    }
    uint64_t fresh = 0;
    asobi_error err;
    if (!json_is_integer(seed) && asobi_fresh_seed(&fresh, &err) != ASOBI_OK) {
        json_decref(bot_list);
        srv_fail(e, 500, "internal", "%s", err.message);
        return NULL;
    }
    json_int_t s = json_is_integer(seed) ? json_integer_value(seed) : (json_int_t)fresh;
    json_t *spec = json_pack("{s:s, s:I, s:o, s:I, s:O, s:O, s:I}", "game", asobi_game_name(def), "players",
                             (json_int_t)n, "options",
                             json_is_object(options) ? json_copy((json_t *)options) : json_object(),
                             "seed", s, "bots", bot_list, "clock", clock ? (json_t *)clock : json_null(), "created",
                             (json_int_t)time(NULL));
    if (spec && json_is_true(rated))
        json_object_set_new(spec, "rated", json_true());
    bool marked = !spec || mark_spec(spec, seed, private_, bot_list, invites);
    json_decref(bot_list);
    if (!marked) {
        json_decref(spec);
        srv_fail(e, 500, "internal", "the system gave no random bits for the invite codes");
        return NULL;
    }
    table *t = spec ? table_from_spec(st, spec, e) : NULL;
    if (!spec)
        srv_fail(e, 500, "no_memory", "out of memory");
    if (t) {
        /* the full options (defaults filled in) are what the table plays */
        json_object_set(t->spec, "options", (json_t *)asobi_match_options(t->match));
        if (store_create_table(st, t->spec, &t->id, &err) != ASOBI_OK) {
            srv_fail_asobi(e, 500, &err);
            table_free(t);
            t = NULL;
        }
    }
    json_decref(spec);
    if (t)
        maybe_start(t, now);
    return t;
}

static void free_event(table_event *ev, int players)
{
    if (ev->text) {
        for (int v = 0; v <= players; v++)
            free(ev->text[v]);
        free(ev->text);
    }
    if (ev->events) {
        for (int v = 0; v <= players; v++)
            json_decref(ev->events[v]);
        free(ev->events);
    }
}

void table_free(table *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->log_count; i++)
        free_event(&t->log[i], t->players);
    free(t->log);
    for (int s = 0; s < ASOBI_MAX_SEATS; s++)
        free(t->seat[s].bot);
    asobi_match_free(t->match);
    json_decref(t->spec);
    free(t);
}

/* ---------------------------------------------------------------------------
 * Seats.
 * ------------------------------------------------------------------------- */
/* A person takes seat k under the token whose hash this is: stored, then
 * the table starts if every person's seat is taken. */
static int take_seat(table *t, int k, const char *name, const char *hash, int64_t now, srv_error *e)
{
    asobi_error err;
    if (store_add_seat(t->store, t->id, k, name, hash, &err) != ASOBI_OK)
        return srv_fail_asobi(e, 500, &err);
    table_seat *ts = &t->seat[k];
    ts->taken = true;
    snprintf(ts->name, sizeof ts->name, "%s", name);
    snprintf(ts->token_hash, sizeof ts->token_hash, "%s", hash);
    ts->left_ms = now;
    t->version++;
    maybe_start(t, now);
    return 0;
}

int table_seat_account(table *t, int k, int64_t account, srv_error *e)
{
    asobi_error err;
    if (store_seat_account(t->store, t->id, k, account, &err) != ASOBI_OK)
        return srv_fail_asobi(e, 500, &err);
    t->seat[k].account = account;
    return 0;
}

/* The seat of a private table whose invite code this is (-1: none). Every
 * seat's hash is compared, each in constant time, so the time taken says
 * nothing about which seat, if any, a guess is near. */
static int seat_of_invite(const table *t, const char *code)
{
    int k = -1;
    for (int s = 0; s < t->players; s++)
        if (t->seat[s].invite_hash[0] && token_matches(code, t->seat[s].invite_hash) && k < 0)
            k = s;
    return k;
}

/* At a private table a person's seat is taken with its invite code only:
 * the seat asked for (want >= 0) must be the code's, and without a seat the
 * code names it. The seat into *k; -1 and e on refusal. */
static int invited_seat(const table *t, const json_t *invite, int want, int *k, srv_error *e)
{
    if (!invite || json_is_null(invite))
        return srv_fail(e, 403, "invite_required",
                        "table %lld is private: a seat is joined with its invite code (\"invite\")", (long long)t->id);
    int of = seat_of_invite(t, json_string_value(invite));
    if (of < 0 || (want >= 0 && of != want))
        return srv_fail(e, 403, "bad_invite", "this is not the invite code of %s of table %lld",
                        want >= 0 ? "that seat" : "a seat", (long long)t->id);
    *k = of;
    return 0;
}

/* The seat a join takes: the one asked for (want >= 0), or the first free
 * one; at a private table, the one its invite code opens. -1 and e when it
 * cannot be taken. */
static int seat_to_take(const table *t, int want, const json_t *invite, int *k, srv_error *e)
{
    *k = want;
    if (t->private_table && invited_seat(t, invite, want, k, e) != 0)
        return -1;
    for (int s = 0; s < t->players && *k < 0; s++)
        if (!t->seat[s].taken)
            *k = s;
    if (*k < 0)
        return srv_fail(e, 409, "table_full", "every seat of table %lld is taken", (long long)t->id);
    if (t->seat[*k].bot)
        return srv_fail(e, 409, "seat_taken", "seat %d is played by a bot", *k);
    if (t->seat[*k].taken)
        return srv_fail(e, 409, "seat_taken", "seat %d is taken", *k);
    return 0;
}

int table_join(table *t, const json_t *req, int64_t now, int *seat, char token[TOKEN_CHARS + 1], srv_error *e)
{
    if (!json_is_object(req))
        return srv_fail(e, 400, "bad_request", "the body must be a JSON object");
    const json_t *name = json_object_get(req, "name"), *want = json_object_get(req, "seat");
    const json_t *invite = json_object_get(req, "invite");
    if (!json_is_string(name))
        return srv_fail(e, 400, "bad_name", "\"name\" (a string) is required");
    if (!table_name_valid(json_string_value(name), e))
        return -1;
    if (want && !json_is_null(want) && !json_is_integer(want))
        return srv_fail(e, 400, "bad_request", "\"seat\" must be an integer");
    if (invite && !json_is_null(invite) && !json_is_string(invite))
        return srv_fail(e, 400, "bad_request", "\"invite\" must be a string");
    json_int_t w = json_is_integer(want) ? json_integer_value(want) : -1;
    if (json_is_integer(want) && (w < 0 || w >= t->players))
        return srv_fail(e, 400, "bad_seat", "seat %lld does not exist (seats are 0 to %d)", (long long)w,
                        t->players - 1);
    int k;
    if (seat_to_take(t, (int)w, invite, &k, e) != 0)
        return -1;
    char hash[TOKEN_HASH_CHARS + 1];
    if (!token_new(token))
        return srv_fail(e, 500, "internal", "the system gave no random bits for a token");
    token_hash(token, hash);
    if (take_seat(t, k, json_string_value(name), hash, now, e) != 0)
        return -1;
    *seat = k;
    return 0;
}

table *table_rematch(table *old, int64_t now, srv_error *e)
{
    if (old->status != TABLE_OVER) {
        srv_fail(e, 409, "game_not_over", "table %lld is not over yet", (long long)old->id);
        return NULL;
    }
    const json_t *clock = json_object_get(old->spec, "clock");
    json_t *req = json_pack("{s:O, s:i, s:O, s:O}", "game", json_object_get(old->spec, "game"), "players",
                            old->players, "options", json_object_get(old->spec, "options"), "bots",
                            json_object_get(old->spec, "bots"));
    if (req && clock && !json_is_null(clock))
        json_object_set(req, "clock", (json_t *)clock);
    if (req && old->private_table) { /* still unlisted; its people take their seats below, without codes */
        json_object_set_new(req, "private", json_true());
        /* A seat its person left would wait for a code nobody holds until
         * the table expired: the heuristic takes it, as it played it. */
        json_t *bots = json_deep_copy(json_object_get(old->spec, "bots"));
        while (bots && json_array_size(bots) < (size_t)old->players)
            json_array_append_new(bots, json_null());
        for (int k = 0; bots && k < old->players; k++)
            if (!old->seat[k].bot && old->seat[k].left)
                json_array_set_new(bots, (size_t)k, json_string("heuristic"));
        json_object_set_new(req, "bots", bots ? bots : json_null());
    }
    table *t = req ? table_create(old->store, req, now, e) : NULL;
    json_decref(req);
    if (!t)
        return NULL;
    /* every person keeps their seat, under the token they already hold */
    for (int k = 0; k < old->players; k++) {
        if (old->seat[k].bot || !old->seat[k].taken || old->seat[k].left) /* one who left is not there */
            continue;
        if (take_seat(t, k, old->seat[k].name, old->seat[k].token_hash, now, e) != 0 ||
            (old->seat[k].account && table_seat_account(t, k, old->seat[k].account, e) != 0)) {
            table_free(t);
            return NULL;
        }
    }
    asobi_error err;
    if (store_set_rematch(old->store, old->id, t->id, &err) != ASOBI_OK) {
        srv_fail_asobi(e, 500, &err);
        table_free(t);
        return NULL;
    }
    old->rematch = t->id;
    old->version++;
    return t;
}

int table_seat_of_token(const table *t, const char *token)
{
    for (int s = 0; s < t->players; s++)
        if (t->seat[s].taken && !t->seat[s].bot && token_matches(token, t->seat[s].token_hash))
            return s;
    return -1;
}

bool table_readable(const table *t, const char *secret)
{
    if (!t->private_table)
        return true;
    if (!secret || !*secret)
        return false;
    bool watch = t->watch_hash[0] && token_matches(secret, t->watch_hash);
    bool invite = seat_of_invite(t, secret) >= 0, token = table_seat_of_token(t, secret) >= 0;
    return watch || invite || token;
}

bool table_summary_readable(const json_t *summary, const char *secret)
{
    if (!json_is_true(json_object_get(summary, "private")))
        return true;
    const json_t *access = json_object_get(summary, "access");
    if (!secret || !*secret || !json_is_object(access))
        return false; /* finished before the watch codes: nobody reads it */
    const char *watch = json_string_value(json_object_get(access, "watch"));
    bool ok = watch && token_matches(secret, watch);
    static const char *const lists[] = {"invites", "tokens"};
    for (int l = 0; l < 2; l++) {
        size_t k;
        const json_t *h;
        json_array_foreach(json_object_get(access, lists[l]), k, h)
            ok |= json_is_string(h) && token_matches(secret, json_string_value(h));
    }
    return ok;
}

int table_leave(table *t, const json_t *body, int *seat, srv_error *e)
{
    const json_t *token = json_object_get(body, "token");
    if (!json_is_object(body) || !json_is_string(token))
        return srv_fail(e, 400, "bad_request", "the body must be a JSON object with the seat's \"token\"");
    int s = table_seat_of_token(t, json_string_value(token));
    if (s < 0 || t->seat[s].left)
        return srv_fail(e, 403, "bad_token", "this token holds no seat at table %lld", (long long)t->id);
    if (t->status == TABLE_OVER)
        return srv_fail(e, 409, "game_over", "table %lld is over: there is nothing to leave", (long long)t->id);
    asobi_error err;
    if (store_leave_seat(t->store, t->id, s, &err) != ASOBI_OK) /* kept across a restart too */
        return srv_fail_asobi(e, 500, &err);
    table_seat *ts = &t->seat[s];
    ts->left = ts->handed = true;
    ts->token_hash[0] = '\0'; /* no socket can take the seat back */
    bool held = false;   /* does a person still hold a seat here? */
    for (int k = 0; k < t->players; k++)
        held |= t->seat[k].taken && !t->seat[k].bot && !t->seat[k].left;
    t->abandoned = !held;
    t->version++;
    *seat = s;
    return 0;
}

void table_connect(table *t, int seat, int64_t now)
{
    (void)now;
    if (seat == ASOBI_SPECTATOR) {
        t->spectators++;
        return;
    }
    table_seat *s = &t->seat[seat];
    s->connections++;
    /* the person is back: the seat is theirs again */
    s->handed = false;
    s->timeouts = 0;
    t->version++;
}

void table_disconnect(table *t, int seat, int64_t now)
{
    if (seat == ASOBI_SPECTATOR) {
        t->spectators--;
        return;
    }
    table_seat *s = &t->seat[seat];
    if (--s->connections == 0)
        s->left_ms = now;
    t->version++;
}

/* ---------------------------------------------------------------------------
 * Actions: one path for a person's, a bot's and a timeout's move, and for
 * the replay of stored actions on restore.
 * ------------------------------------------------------------------------- */
static int64_t remaining_ms(const table *t, int s, int64_t now)
{
    bool running = t->status == TABLE_PLAYING && (asobi_state_to_move(asobi_match_state(t->match)) & (1u << s));
    int64_t used = running ? now - t->seat[s].since_ms : 0;
    if (t->clock == CLOCK_MOVE)
        return t->move_ms - used;
    return t->seat[s].bank_ms - used;
}

/* The public texts of seat's action id for every viewer, from the state
 * before it is applied (as asobi_state_public_text requires). */
static char **public_texts(const asobi_state *pre, int seat, int id, int players)
{
    char **text = calloc((size_t)players + 1, sizeof *text);
    char buf[256];
    for (int v = 0; v <= players && text; v++) {
        asobi_state_public_text(pre, seat, id, v == players ? ASOBI_SPECTATOR : v, buf, sizeof buf);
        text[v] = strdup(buf);
    }
    return text;
}

/* What seat's action id (taken in pre, giving post) made happen, as each
 * viewer may know it: column v for seat v, column players for spectators,
 * as the public texts. */
static json_t **viewers_events(const asobi_state *pre, int seat, int id, const asobi_state *post, int players)
{
    json_t **events = calloc((size_t)players + 1, sizeof *events);
    for (int v = 0; v <= players && events; v++)
        events[v] = asobi_state_events(pre, seat, id, post, v == players ? ASOBI_SPECTATOR : v);
    return events;
}

/* The bookkeeping after seat's action (already applied to the match). */
static void after_action(table *t, int seat, const char *by, uint32_t before, int64_t now, int64_t clock_ms)
{
    table_seat *ts = &t->seat[seat];
    if (t->clock == CLOCK_FISCHER)
        ts->bank_ms = clock_ms;
    if (strcmp(by, "timeout") == 0) {
        if (++ts->timeouts >= TABLE_TIMEOUTS_HANDOVER && !ts->bot)
            ts->handed = true;
    } else if (strcmp(by, "human") == 0) {
        ts->timeouts = 0;
        ts->handed = false;
    }
    uint32_t after = asobi_state_to_move(asobi_match_state(t->match));
    /* a seat starts a fresh clock when it becomes to move, or moves again */
    start_clocks(t, (after & ~before) | (after & (1u << seat)), now);
    if (after == 0)
        t->status = TABLE_OVER;
    t->version++;
}

/* The actor's clock after acting now (the value stored with the action). */
static int64_t clock_after(const table *t, int seat, int64_t now)
{
    if (t->clock != CLOCK_FISCHER)
        return -1;
    int64_t left = remaining_ms(t, seat, now);
    return (left < 0 ? 0 : left) + t->increment_ms;
}

static void append_event(table *t, int seat, const char *by, char **text, json_t **events)
{
    if (t->log_count == t->log_cap) {
        int cap = t->log_cap ? 2 * t->log_cap : 64;
        table_event *log = realloc(t->log, (size_t)cap * sizeof *log);
        if (!log) {
            /* the game goes on; this event is simply not shown */
            table_event ev = {seat, by, text, events};
            free_event(&ev, t->players);
            return;
        }
        t->log = log;
        t->log_cap = cap;
    }
    t->log[t->log_count++] = (table_event){seat, by, text, events};
}

static void finish_if_over(table *t)
{
    if (t->status != TABLE_OVER)
        return;
    char *summary = table_stored_summary_text(t), *record = asobi_match_record_text(t->match, NULL);
    asobi_error err;
    /* A failure here (out of memory included) leaves the table unfinished in
     * the store: restoring it replays to the same end and finishes it then. */
    store_result result; /* who played it: the bot records, and a rated table's ratings (ratings.c) */
    ratings_result(t, &result);
    if (summary && record)
        store_finish_result(t->store, t->id, summary, record, &result, &err);
    free(summary);
    free(record);
}

/* Apply action for seat, commit it, log it. The one place an action enters
 * a table. On a store failure the match is rebuilt without it. */
static int apply_action(table *t, int seat, const json_t *action, const char *by, int64_t now, bool commit,
                        int64_t stored_clock, srv_error *e)
{
    const asobi_state *state = asobi_match_state(t->match);
    asobi_state *pre = asobi_state_clone(state);
    if (!pre)
        return srv_fail(e, 500, "no_memory", "out of memory");
    uint32_t before = asobi_state_to_move(state);
    int64_t clock_ms = commit ? clock_after(t, seat, now) : stored_clock;
    asobi_error err;
    if (protocol_act(t->match, seat, action, &err) != ASOBI_OK) {
        asobi_state_free(pre);
        return srv_fail_asobi(e, err.code == ASOBI_E_BAD_REQUEST ? 400 : 409, &err);
    }
    int n = asobi_match_length(t->match);
    const char *text = asobi_match_action_text(t->match, n - 1);
    if (commit && store_add_action(t->store, t->id, n - 1, seat, text, by, clock_ms, &err) != ASOBI_OK) {
        json_t *record = asobi_match_record(t->match);
        asobi_match *back = asobi_match_load_prefix(record, n - 1, NULL);
        json_decref(record);
        if (back) {
            asobi_match_free(t->match);
            t->match = back;
        }
        asobi_state_free(pre);
        return srv_fail_asobi(e, 500, &err);
    }
    int id = -1;
    asobi_state_parse_action(pre, seat, text, &id, NULL);
    append_event(t, seat, by, id >= 0 ? public_texts(pre, seat, id, t->players) : NULL,
                 id >= 0 ? viewers_events(pre, seat, id, asobi_match_state(t->match), t->players) : NULL);
    asobi_state_free(pre);
    after_action(t, seat, by, before, now, clock_ms);
    if (commit)
        finish_if_over(t);
    return 0;
}

int table_act(table *t, int seat, const json_t *action, int64_t now, srv_error *e)
{
    if (seat < 0 || seat >= t->players)
        return srv_fail(e, 403, "not_seated", "a spectator cannot act");
    if (t->status == TABLE_OPEN)
        return srv_fail(e, 409, "not_started", "the game starts when every seat is taken");
    if (t->status == TABLE_OVER) {
        asobi_error err;
        asobi_state_may_act(asobi_match_state(t->match), seat, &err);
        return srv_fail_asobi(e, 409, &err);
    }
    return apply_action(t, seat, action, "human", now, true, -1, e);
}

/* ---------------------------------------------------------------------------
 * Bots, clocks and leavers.
 * ------------------------------------------------------------------------- */
/* Who must move for seat now, if not its person: its bot spec and why. */
static const char *due_spec(const table *t, int s, int64_t now, int64_t grace, const char **by)
{
    const table_seat *ts = &t->seat[s];
    if (ts->bot) {
        *by = "bot";
        return ts->bot;
    }
    if (ts->handed) {
        *by = "bot";
        return "heuristic";
    }
    *by = "timeout";
    if (t->clock != CLOCK_NONE && remaining_ms(t, s, now) <= 0)
        return "heuristic";
    if (ts->connections == 0 && grace >= 0) {
        int64_t from = ts->left_ms > ts->since_ms ? ts->left_ms : ts->since_ms;
        if (now - from >= grace)
            return "heuristic";
    }
    return NULL;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

int table_due_jobs(table *t, int64_t now, int64_t grace, table_job *jobs, int cap)
{
    if (t->status != TABLE_PLAYING || t->abandoned) /* nobody is left to play for: it is about to end */
        return 0;
    uint32_t to_move = asobi_state_to_move(asobi_match_state(t->match));
    int n = 0;
    for (int s = 0; s < t->players && n < cap; s++) {
        if (!(to_move & (1u << s)) || t->seat[s].busy)
            continue;
        const char *by = NULL, *spec = due_spec(t, s, now, grace, &by);
        if (!spec)
            continue;
        table_job *j = &jobs[n];
        memset(j, 0, sizeof *j);
        j->state = asobi_state_clone(asobi_match_state(t->match));
        j->spec = strdup(spec);
        if (!j->state || !j->spec) {
            table_job_release(j);
            break;
        }
        j->table = t->id;
        j->seat = s;
        j->at = asobi_match_length(t->match);
        j->by = by;
        j->id = -1;
        /* deterministic per table, move and seat: a restored table's bots
         * choose as they would have */
        uint64_t table_seed = (uint64_t)json_integer_value(json_object_get(t->spec, "seed"));
        j->seed = mix(table_seed ^ mix((uint64_t)j->at << 8 | (uint64_t)s));
        t->seat[s].busy = true;
        n++;
    }
    return n;
}

int table_standin_job(table *t, const table_job *late, const char *spec, table_job *job)
{
    memset(job, 0, sizeof *job);
    if (t->status != TABLE_PLAYING || late->at != asobi_match_length(t->match))
        return -1;
    job->state = asobi_state_clone(asobi_match_state(t->match));
    job->spec = strdup(spec);
    if (!job->state || !job->spec) {
        table_job_release(job);
        return -1;
    }
    job->table = late->table;
    job->seat = late->seat;
    job->at = late->at;
    job->by = late->by;
    job->seed = late->seed;
    job->id = -1;
    return 0;
}

bool table_bots_only(const table *t)
{
    for (int s = 0; s < t->players; s++)
        if (!t->seat[s].bot)
            return false;
    return true;
}

bool table_bot_searches(const char *spec)
{
    static const char *const quick[] = {"random", "heuristic", "psycle-nash"};
    size_t len = strcspn(spec, ":");
    for (size_t i = 0; i < sizeof quick / sizeof quick[0]; i++)
        if (len == strlen(quick[i]) && strncmp(spec, quick[i], len) == 0)
            return false;
    return true;
}

bool table_bots_alone(const table *t, int64_t now_ms)
{
    for (int s = 0; s < t->players; s++) {
        const table_seat *ts = &t->seat[s];
        if (!ts->bot && !ts->handed && !ts->left && (ts->connections > 0 || now_ms - ts->left_ms < TABLE_AWAY_MS))
            return false;
    }
    return true;
}

bool table_joined(const table *t)
{
    for (int s = 0; s < t->players; s++)
        if (t->seat[s].taken && !t->seat[s].bot)
            return true;
    return table_bots_only(t);
}

void table_job_run(table_job *job)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    asobi_bot *bot = asobi_bot_new_within(job->spec, asobi_state_game(job->state), asobi_state_players(job->state),
                                          job->seat, job->seed, &asobi_bot_server_limits, &job->err);
    job->id = bot ? asobi_bot_choose(bot, job->state, &job->err) : -1;
    asobi_bot_free(bot);
    clock_gettime(CLOCK_MONOTONIC, &b);
    job->ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

void table_job_release(table_job *job)
{
    asobi_state_free(job->state);
    free(job->spec);
    job->state = NULL;
    job->spec = NULL;
}

int table_job_done(table *t, table_job *job, int64_t now, srv_error *e)
{
    int rc = 0;
    if (job->seat >= 0 && job->seat < t->players)
        t->seat[job->seat].busy = false;
    /* stale: the table moved on (the person acted meanwhile) */
    bool current = t->status == TABLE_PLAYING && job->at == asobi_match_length(t->match) && job->id >= 0;
    if (current) {
        json_t *id = json_integer(job->id);
        rc = apply_action(t, job->seat, id, job->by, now, true, -1, e) == 0 ? 1 : -1;
        json_decref(id);
    }
    table_job_release(job);
    return rc;
}

int64_t table_next_deadline(const table *t, int64_t now, int64_t grace)
{
    if (t->status != TABLE_PLAYING)
        return INT64_MAX;
    /* Most tables have no clock and every person there: nothing can fall due, and the tick, which asks every
     * table ten times a second, need not ask the game who is to move. */
    if (t->clock == CLOCK_NONE) {
        int away = 0;
        for (int s = 0; s < t->players; s++)
            away |= t->seat[s].connections == 0 && !t->seat[s].bot && !t->seat[s].handed;
        if (!away || grace < 0)
            return INT64_MAX;
    }
    uint32_t to_move = asobi_state_to_move(asobi_match_state(t->match));
    int64_t next = INT64_MAX;
    for (int s = 0; s < t->players; s++) {
        const table_seat *ts = &t->seat[s];
        if (!(to_move & (1u << s)) || ts->bot || ts->handed)
            continue;
        if (t->clock != CLOCK_NONE) {
            int64_t at = now + remaining_ms(t, s, now);
            next = at < next ? at : next;
        }
        if (ts->connections == 0 && grace >= 0) {
            int64_t at = (ts->left_ms > ts->since_ms ? ts->left_ms : ts->since_ms) + grace;
            next = at < next ? at : next;
        }
    }
    return next;
}

/* ---------------------------------------------------------------------------
 * Restoring: the stored actions replayed through the same path.
 * ------------------------------------------------------------------------- */
table *table_restore(store *st, int64_t id, const json_t *spec, const json_t *seats, const json_t *actions,
                     const json_t *finished, int64_t now, asobi_error *err)
{
    srv_error e;
    table *t = table_from_spec(st, spec, &e);
    if (!t) {
        asobi_fail(err, ASOBI_E_BAD_RECORD, "table %lld: %s", (long long)id, e.message);
        return NULL;
    }
    t->id = id;
    size_t i;
    const json_t *row;
    json_array_foreach(seats, i, row)
    {
        int s = (int)json_integer_value(json_object_get(row, "seat"));
        if (s < 0 || s >= t->players)
            continue;
        t->seat[s].taken = true;
        snprintf(t->seat[s].name, sizeof t->seat[s].name, "%s", json_string_value(json_object_get(row, "name")));
        snprintf(t->seat[s].token_hash, sizeof t->seat[s].token_hash, "%s",
                 json_string_value(json_object_get(row, "token_hash")));
        t->seat[s].left_ms = now;
        t->seat[s].account = json_integer_value(json_object_get(row, "account")); /* 0: a guest's */
        /* its person left it for good (store_leave_seat): the bot plays on, no token takes it back */
        t->seat[s].left = t->seat[s].handed = !t->seat[s].token_hash[0];
    }
    bool held = false; /* a table every person left stays abandoned (expired at the next tick) */
    for (int k = 0; k < t->players; k++)
        held |= !t->seat[k].bot && (!t->seat[k].taken || !t->seat[k].left);
    t->abandoned = !held;
    maybe_start(t, now);
    json_array_foreach(actions, i, row)
    {
        const char *by = json_string_value(json_object_get(row, "by"));
        by = by && strcmp(by, "bot") == 0 ? "bot" : by && strcmp(by, "timeout") == 0 ? "timeout" : "human";
        if (apply_action(t, (int)json_integer_value(json_object_get(row, "seat")), json_object_get(row, "action"),
                         by, now, false, json_integer_value(json_object_get(row, "clock_ms")), &e) != 0) {
            asobi_fail(err, ASOBI_E_BAD_RECORD, "table %lld: action %zu does not replay: %s", (long long)id, i,
                       e.message);
            table_free(t);
            return NULL;
        }
    }
    if (finished)
        t->rematch = json_integer_value(json_object_get(finished, "rematch")); /* 0: none */
    else
        finish_if_over(t); /* a table whose last action was stored but not its end */
    return t;
}

/* ---------------------------------------------------------------------------
 * What is sent.
 * ------------------------------------------------------------------------- */
/* Every message about a table is written once, through the writer of the
 * views (core/view_writer.h): as compact JSON text for what is sent (no tree,
 * no dump: most of the server's work per action was building and printing
 * update trees), or as the jansson tree for the callers that read it. */

static void write_clock(asobi_vw *w, const char *key, const table *t, int64_t now)
{
    vw_object_begin(w, key);
    vw_str(w, "kind", t->clock == CLOCK_MOVE ? "move" : "fischer");
    vw_array_begin(w, "remaining_ms");
    for (int s = 0; s < t->players; s++) {
        int64_t ms = remaining_ms(t, s, now);
        vw_int(w, NULL, ms < 0 ? 0 : ms);
    }
    vw_array_end(w);
    vw_seats(w, "running", t->status == TABLE_PLAYING ? asobi_state_to_move(asobi_match_state(t->match)) : 0);
    vw_array_begin(w, "timeouts");
    for (int s = 0; s < t->players; s++)
        vw_int(w, NULL, t->seat[s].timeouts);
    vw_array_end(w);
    vw_object_end(w);
}

/* When the person of seat s, away, is to move: the milliseconds left before
 * a bot moves for them (--grace, counted as due_spec counts it); -1 when
 * nothing is counting down. */
static int64_t grace_left_ms(const table *t, int s, int64_t now)
{
    const table_seat *ts = &t->seat[s];
    if (now < 0 || t->grace_ms <= 0 || t->status != TABLE_PLAYING || ts->bot || ts->handed || ts->connections > 0)
        return -1;
    if (!(asobi_state_to_move(asobi_match_state(t->match)) & (1u << s)))
        return -1;
    int64_t from = ts->left_ms > ts->since_ms ? ts->left_ms : ts->since_ms;
    int64_t left = from + t->grace_ms - now;
    return left < 0 ? 0 : left;
}

/* Every seat: name, bot and its level, connected, handed, left; with NOW (an
 * update, not a summary) also how long an away person has been gone and,
 * on their turn, their grace left. */
static void write_seats(asobi_vw *w, const char *key, const table *t, int64_t now)
{
    asobi_result result; /* a finished table's summary: each seat's place (profiles list the games with them) */
    bool ranked = now < 0 && t->status == TABLE_OVER;
    if (ranked)
        asobi_state_result(asobi_match_state(t->match), &result);
    vw_array_begin(w, key);
    for (int s = 0; s < t->players; s++) {
        const table_seat *ts = &t->seat[s];
        vw_object_begin(w, NULL);
        vw_int(w, "seat", s);
        if (ts->taken)
            vw_str(w, "name", ts->name);
        else
            vw_null(w, "name");
        if (ts->bot) {
            vw_str(w, "bot", ts->bot);
            vw_str(w, "level", asobi_bot_level(ts->bot));
        } else {
            vw_null(w, "bot");
            vw_null(w, "level");
        }
        vw_bool(w, "connected", ts->bot || ts->connections > 0);
        vw_bool(w, "handed", ts->handed);
        if (ts->left)
            vw_bool(w, "left", true); /* for good: handed, and nobody takes it back */
        if (now >= 0 && !ts->bot && !ts->left && ts->taken && ts->connections == 0 && t->status == TABLE_PLAYING)
            vw_int(w, "away_ms", now - ts->left_ms);
        int64_t grace = grace_left_ms(t, s, now);
        if (grace >= 0)
            vw_int(w, "grace_left_ms", grace);
        if (ranked)
            vw_int(w, "rank", result.rank[s]);
        vw_object_end(w);
    }
    vw_array_end(w);
}

json_t *table_clock_json(const table *t, int64_t now)
{
    if (t->clock == CLOCK_NONE)
        return NULL;
    asobi_vw w;
    if (!asobi_vw_start_tree(&w))
        return NULL;
    write_clock(&w, "clock", t, now);
    return asobi_vw_finish_member(&w, "clock");
}

/* What everyone at a table and in the lobby is told about how it was made:
 * its creator chose the seed (and so may know every hand), it is private.
 * Written only when so: most tables are neither. */
static void write_flags(asobi_vw *w, const table *t)
{
    if (t->seed_chosen)
        vw_bool(w, "seed_chosen", true);
    if (t->private_table)
        vw_bool(w, "private", true);
    if (t->rated)
        vw_bool(w, "rated", true);
}

static void write_summary(asobi_vw *w, const table *t)
{
    vw_int(w, "table", t->id);
    vw_json(w, "game", json_object_get(t->spec, "game"));
    vw_int(w, "players", t->players);
    vw_json(w, "options", json_object_get(t->spec, "options"));
    vw_str(w, "status", table_status_name(t->status));
    write_seats(w, "seats", t, -1);
    write_flags(w, t);
    vw_int(w, "actions", asobi_match_length(t->match));
    vw_int(w, "created", json_integer_value(json_object_get(t->spec, "created")));
    const json_t *clock = json_object_get(t->spec, "clock");
    if (clock && !json_is_null(clock))
        vw_json(w, "clock", clock);
    if (t->rematch)
        vw_int(w, "rematch", t->rematch);
}

json_t *table_summary(const table *t)
{
    asobi_vw w;
    if (!asobi_vw_start_tree(&w))
        return NULL;
    write_summary(&w, t);
    return asobi_vw_finish_tree(&w);
}

char *table_summary_text(const table *t)
{
    asobi_vw w;
    if (!asobi_vw_start_text(&w, 512))
        return NULL;
    write_summary(&w, t);
    return asobi_vw_finish_text(&w, NULL);
}

char *table_stored_summary_text(const table *t)
{
    asobi_vw w;
    if (!asobi_vw_start_text(&w, 512))
        return NULL;
    write_summary(&w, t);
    if (t->private_table) {
        vw_object_begin(&w, "access");
        vw_str(&w, "watch", t->watch_hash);
        vw_array_begin(&w, "invites");
        for (int s = 0; s < t->players; s++)
            vw_str(&w, NULL, t->seat[s].invite_hash);
        vw_array_end(&w);
        vw_array_begin(&w, "tokens");
        for (int s = 0; s < t->players; s++)
            vw_str(&w, NULL, t->seat[s].token_hash);
        vw_array_end(&w);
        vw_object_end(&w);
    }
    return asobi_vw_finish_text(&w, NULL);
}

/* Action i of the log as the viewer of column was told it, then each of
 * its events for that viewer, carrying the action's index, seat and by:
 * {"index","kind":"action","seat","text","by"} and
 * {"index","kind":"event","seat","by","text","event"} (docs/server.md). */
static void write_log_entries(asobi_vw *w, const table_event *ev, int i, int column)
{
    vw_object_begin(w, NULL);
    vw_int(w, "index", i);
    vw_str(w, "kind", "action");
    vw_int(w, "seat", ev->seat);
    vw_str(w, "text", ev->text && ev->text[column] ? ev->text[column] : "acts");
    vw_str(w, "by", ev->by);
    vw_object_end(w);
    const json_t *events = ev->events ? ev->events[column] : NULL;
    size_t k;
    const json_t *e;
    json_array_foreach(events, k, e)
    {
        vw_object_begin(w, NULL);
        vw_int(w, "index", i);
        vw_str(w, "kind", "event");
        vw_int(w, "seat", ev->seat);
        vw_str(w, "by", ev->by);
        vw_str(w, "text", json_string_value(json_object_get(e, "text")));
        vw_json(w, "event", e);
        vw_object_end(w);
    }
}

/* Why the game ended, in the game's own words (its over_text: Time Masters'
 * turn cap or second empty sphere), once it is over; absent for a game that
 * says nothing (the browser explains each game's ending from the view). */
static void write_over(asobi_vw *w, const asobi_state *s)
{
    /* The library says why in its refusal of any act at an ended game:
     * "the game is over: WHY" (asobi_state_may_act, the game's over_text). */
    static const char prefix[] = "the game is over: ";
    asobi_error err = {0};
    asobi_state_may_act(s, 0, &err);
    if (err.code == ASOBI_E_GAME_OVER && strncmp(err.message, prefix, sizeof prefix - 1) == 0)
        vw_str(w, "over", err.message + sizeof prefix - 1);
}

/* {"type":"update","table","seat","view","legal","log","status","seats",
 * "result"?,"rematch"?,"clock"?}: docs/server.md. The view is the viewer's
 * own (core writes it, hiding what that viewer may not see). */
static void write_update(asobi_vw *w, const table *t, const asobi_state *s, int viewer, int log_from, int64_t now)
{
    int column = viewer == ASOBI_SPECTATOR ? t->players : viewer;
    vw_str(w, "type", "update");
    vw_int(w, "table", t->id);
    if (viewer == ASOBI_SPECTATOR)
        vw_null(w, "seat");
    else
        vw_int(w, "seat", viewer);
    vw_view(w, "view", s, viewer);
    if (viewer == ASOBI_SPECTATOR || t->status != TABLE_PLAYING) {
        vw_array_begin(w, "legal");
        vw_array_end(w);
    } else {
        protocol_vw_legal(w, "legal", s, viewer);
    }
    vw_array_begin(w, "log");
    for (int i = log_from < 0 ? 0 : log_from; i < t->log_count; i++)
        write_log_entries(w, &t->log[i], i, column);
    vw_array_end(w);
    vw_str(w, "status", table_status_name(t->status));
    write_seats(w, "seats", t, now);
    write_flags(w, t);
    if (t->status == TABLE_OVER) {
        json_t *result = protocol_result(s); /* real-valued scores: printed by jansson */
        vw_json(w, "result", result);
        json_decref(result);
        write_over(w, s);
    }
    if (t->rematch)
        vw_int(w, "rematch", t->rematch);
    if (t->clock != CLOCK_NONE)
        write_clock(w, "clock", t, now);
}

json_t *table_update(const table *t, int viewer, int log_from, int64_t now)
{
    return table_update_of(t, asobi_match_state(t->match), viewer, log_from, now);
}

json_t *table_update_of(const table *t, const asobi_state *s, int viewer, int log_from, int64_t now)
{
    asobi_vw w;
    if (!asobi_vw_start_tree(&w))
        return NULL;
    write_update(&w, t, s, viewer, log_from, now);
    return asobi_vw_finish_tree(&w);
}

char *table_update_text(const table *t, int viewer, int log_from, int64_t now, size_t *len)
{
    char *buf = NULL;
    size_t cap = 0, n = table_update_text_in(t, viewer, log_from, now, &buf, &cap, 0);
    if (len)
        *len = n;
    return buf;
}

size_t table_update_text_in(const table *t, int viewer, int log_from, int64_t now, char **buf, size_t *cap,
                            size_t headroom)
{
    asobi_vw w;
    if (asobi_vw_start_text_in(&w, *buf, *cap, headroom))
        write_update(&w, t, asobi_match_state(t->match), viewer, log_from, now);
    return asobi_vw_finish_text_in(&w, buf, cap);
}

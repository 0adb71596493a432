/* test_table.c — asobi serve's table logic without sockets: seats, joins, actions, bots, clocks, updates, restore. */
#define _GNU_SOURCE /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "server/store.h"
#include "server/table.h"
#include "repetitions.h"
#include "temp_db.h"

#define UPDATE_BYTES_HASH 0x50419be44fbdaa83ull /* changed by issue 44: "undo": true in a seat's update while it may take back; issue 40: Time Masters' action ids (32 timers) and events; issue 33 before: the log's events; the seats' bot levels and the ended game's why */

/* A store in a fresh temporary file (restore tests reopen it). */
static char db_path[64];

static store *open_temp_store(void)
{
    temp_db_make(db_path, sizeof db_path, "table");
    asobi_error err;
    store *st = store_open(db_path, &err);
    assert_non_null(st);
    return st;
}

static void remove_temp_store(store *st)
{
    store_close(st);
    temp_db_remove(db_path);
}

static table *create(store *st, const char *json, srv_error *e)
{
    json_t *req = json_loads(json, 0, NULL);
    assert_non_null(req);
    table *t = table_create(st, req, 0, e);
    json_decref(req);
    return t;
}

static int join(table *t, const char *name, int seat, char *token, srv_error *e)
{
    json_t *req = json_object();
    /* nocheck: the invalid UTF-8 of some tests must reach the server's own check */
    json_object_set_new(req, "name", json_string_nocheck(name));
    if (seat >= 0)
        json_object_set_new(req, "seat", json_integer(seat));
    int k = -1;
    int rc = table_join(t, req, 0, &k, token, e);
    json_decref(req);
    return rc == 0 ? k : -1;
}

static void assert_refused(int rc, const srv_error *e, const char *code)
{
    assert_int_not_equal(rc, 0);
    assert_string_equal(e->code, code);
    assert_true(e->message[0] != '\0');
}

/* Run every due bot job at once, as the worker pool would. */
static int run_bots(table *t, int64_t now, int64_t grace)
{
    table_job jobs[ASOBI_MAX_SEATS];
    int n = table_due_jobs(t, now, grace, jobs, ASOBI_MAX_SEATS), played = 0;
    for (int i = 0; i < n; i++) {
        table_job_run(&jobs[i]);
        srv_error e;
        int rc = table_job_done(t, &jobs[i], now, &e);
        assert_true(rc >= 0);
        played += rc;
    }
    return played;
}

static void test_create_refuses_bad_requests(void **unused)
{
    (void)unused;
    store *st = open_temp_store();
    srv_error e;
    const struct {
        const char *json, *code;
    } bad[] = {
        {"{}", "bad_request"},
        {"{\"game\":\"chess\"}", "unknown_game"},
        {"{\"game\":\"psycle\",\"players\":9}", "bad_players"},
        {"{\"game\":\"psycle\",\"players\":\"two\"}", "bad_request"},
        {"{\"game\":\"psycle\",\"options\":{\"nope\":1}}", "bad_option"},
        {"{\"game\":\"psycle\",\"bots\":[\"no-such-bot\",null]}", "bad_bot"},
        {"{\"game\":\"psycle\",\"bots\":[1,null]}", "bad_request"},
        {"{\"game\":\"psycle\",\"bots\":[null,null,null]}", "bad_request"},
        {"{\"game\":\"psycle\",\"seed\":-4}", "bad_request"},
        {"{\"game\":\"psycle\",\"clock\":{\"kind\":\"hourglass\"}}", "bad_clock"},
        {"{\"game\":\"psycle\",\"clock\":{\"kind\":\"move\"}}", "bad_clock"},
        {"{\"game\":\"psycle\",\"clock\":{\"kind\":\"fischer\",\"base\":-1,\"increment\":2}}", "bad_clock"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&e, 0, sizeof e);
        assert_null(create(st, bad[i].json, &e));
        if (strcmp(e.code, bad[i].code) != 0)
            fail_msg("%s: %s (%s), wanted %s", bad[i].json, e.code, e.message, bad[i].code);
        assert_int_equal(e.status, 400);
    }
    table *t = create(st, "{\"game\":\"psycle\",\"seed\":5}", &e);
    assert_non_null(t);
    assert_true(t->id > 0);
    assert_int_equal(t->status, TABLE_OPEN);
    assert_int_equal(t->players, 2); /* the game's smallest count by default */
    table_free(t);
    remove_temp_store(st);
}

static void test_join_checks_names_seats_and_keeps_only_the_hash(void **unused)
{
    (void)unused;
    store *st = open_temp_store();
    srv_error e;
    table *t = create(st, "{\"game\":\"octal\",\"players\":3,\"bots\":[null,\"random\",null]}", &e);
    assert_non_null(t);
    char token[TOKEN_CHARS + 1], token2[TOKEN_CHARS + 1];
    const char *bad_names[] = {"", "   ", "abcdefghijklmnopqrstuvwxy", "tab\there", "bell\a", "\xff\xfe", "\xc0\xaf",
                               "del\x7f"};
    for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++)
        assert_refused(join(t, bad_names[i], -1, token, &e) < 0 ? -1 : 0, &e, "bad_name");
    assert_refused(join(t, "Aki", 1, token, &e) < 0 ? -1 : 0, &e, "seat_taken"); /* a bot's */
    assert_refused(join(t, "Aki", 7, token, &e) < 0 ? -1 : 0, &e, "bad_seat");
    /* 24 characters of Japanese are fine (72 bytes) */
    assert_int_equal(join(t, "あいうえおかきくけこさしすせそたちつてとなにぬね", 2, token, &e), 2);
    assert_refused(join(t, "Ben", 2, token2, &e) < 0 ? -1 : 0, &e, "seat_taken");
    assert_int_equal(t->status, TABLE_OPEN);
    assert_int_equal(join(t, "<b>Ben</b>", -1, token2, &e), 0);
    assert_int_equal(t->status, TABLE_PLAYING); /* every human seat taken */
    assert_refused(join(t, "Cho", -1, token2, &e) < 0 ? -1 : 0, &e, "table_full");

    assert_int_equal(strlen(token), TOKEN_CHARS);
    assert_string_not_equal(token, token2);
    assert_int_equal(table_seat_of_token(t, token), 2);
    assert_int_equal(table_seat_of_token(t, token2), 0);
    assert_int_equal(table_seat_of_token(t, "00000000000000000000000000000000"), -1);
    assert_int_equal(table_seat_of_token(t, ""), -1);
    /* the token itself is nowhere in memory's table nor in the store */
    assert_null(strstr(t->seat[2].token_hash, token));
    char hash[TOKEN_HASH_CHARS + 1];
    token_hash(token, hash);
    assert_string_equal(t->seat[2].token_hash, hash);
    json_t *summary = table_summary(t);
    char *text = json_dumps(summary, 0);
    assert_null(strstr(text, token));
    assert_null(strstr(text, hash));
    free(text);
    json_decref(summary);
    table_free(t);
    /* the database (the main file and its write-ahead log) holds the hash, never the token */
    asobi_error err;
    assert_int_equal(store_flush(st, &err), ASOBI_OK);
    static char bytes[4 << 20];
    size_t n = 0;
    for (int file = 0; file < 2; file++) {
        char path[96];
        snprintf(path, sizeof path, "%s%s", db_path, file ? "-wal" : "");
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        n += fread(bytes + n, 1, sizeof bytes - 1 - n, f);
        fclose(f);
    }
    assert_non_null(memmem(bytes, n, hash, TOKEN_HASH_CHARS));
    assert_null(memmem(bytes, n, token, TOKEN_CHARS));
    assert_null(memmem(bytes, n, token2, TOKEN_CHARS));
    remove_temp_store(st);
}

static const json_t *legal_of(const json_t *update) { return json_object_get(update, "legal"); }

/* The id of the first legal action of SEAT, as its update lists it (a new reference). */
static json_t *first_legal_id(table *t, int seat)
{
    json_t *u = table_update(t, seat, 0, 0);
    json_t *id = json_copy(json_object_get(json_array_get(legal_of(u), 0), "id"));
    json_decref(u);
    return id;
}

/* What each viewer is sent must not change when everything it may not see
 * is resampled (the library's determinization for that seat; for the
 * spectator, determinizations for every seat). */
static void check_updates_hide_hidden(const table *t, int log_from, asobi_rng *rng)
{
    const asobi_state *s = asobi_match_state(t->match);
    /* the server's send buffer, kept from one viewer's update to the next
     * (shorter texts into a longer buffer, a longer one growing it) */
    enum { HEADROOM = 16 };
    char *kept = NULL;
    size_t kept_cap = 0;
    for (int viewer = ASOBI_SPECTATOR; viewer < t->players; viewer++) {
        if (viewer == ASOBI_ALL_SEEING)
            continue;
        json_t *real = table_update(t, viewer, log_from, 0);
        /* what the server sends: the same bytes, the view written as text */
        char *dumped = json_dumps(real, JSON_COMPACT);
        size_t len = 0;
        char *sent = table_update_text(t, viewer, log_from, 0, &len);
        assert_non_null(sent);
        assert_string_equal(sent, dumped);
        assert_int_equal(len, strlen(dumped));
        bool reused = kept != NULL;
        if (reused)
            memset(kept, 'x', kept_cap);
        len = table_update_text_in(t, viewer, log_from, 0, &kept, &kept_cap, HEADROOM);
        assert_int_equal(len, strlen(dumped));
        assert_true(kept_cap > HEADROOM + len);
        if (reused) /* the headroom left as it was */
            assert_memory_equal(kept, "xxxxxxxxxxxxxxxx", HEADROOM);
        assert_string_equal(kept + HEADROOM, dumped);
        free(sent);
        free(dumped);
        for (int k = 0; k < t->players; k++) {
            if (viewer >= 0 && k != viewer)
                continue;
            asobi_state *d = asobi_state_clone(s);
            asobi_state_determinize(d, k, rng);
            json_t *other = table_update_of(t, d, viewer, log_from, 0);
            if (!json_equal(real, other)) {
                char *a = json_dumps(real, JSON_SORT_KEYS), *b = json_dumps(other, JSON_SORT_KEYS);
                fail_msg("viewer %d's update depends on hidden information:\n%s\n%s", viewer, a, b);
            }
            json_decref(other);
            asobi_state_free(d);
        }
        json_decref(real);
    }
    free(kept);
}

/* The log of an update cannot be checked by resampling the present alone:
 * its lines were written when each action was taken, from the state then,
 * and two updates of one table share them whatever state is passed. So
 * each viewer (every seat, and the spectator) gets a twin: a table of its
 * own, whose game lives in another deal the viewer cannot tell from the
 * real one (a determinization for it), and which plays along. For every
 * action of the real table, the twin's same seat plays, in its own deal,
 * an action the viewer cannot tell from it: one that leaves it the very
 * same view and that the library announces to it in the same words
 * (test_conformance checks that one exists), another face-down card when
 * there is one; the twin table writes its own log line for it, from its
 * own state, as the server does. When no such action exists
 * (the action showed something the twin's deal lacks), the twin takes the
 * real state for that action and is dealt anew just after. The viewer's
 * update at the twin (its log, view, legal actions, result) must then be
 * the real one, byte for byte: what the server sends anybody depends only
 * on what it may see (docs/server.md). */
typedef struct twin {
    table *t;
    int viewer;
} twin;

/* Another deal viewer cannot tell from s: for the spectator, one for every
 * seat in turn (each keeps what its seat sees, so what is public stays). */
static void deal_anew(asobi_state *s, int viewer, asobi_rng *rng)
{
    if (viewer != ASOBI_SPECTATOR) {
        asobi_state_determinize(s, viewer, rng);
        return;
    }
    for (int k = 0; k < asobi_state_players(s); k++)
        asobi_state_determinize(s, k, rng);
}

/* The twin table's game, to be dealt anew (the test reaches into the table's
 * match: no server path changes a deal). */
static asobi_state *twin_state(const twin *tw) { return (asobi_state *)asobi_match_state(tw->t->match); }

static void twin_redeal(twin *tw, const asobi_state *real, asobi_rng *rng)
{
    asobi_state *d = asobi_state_clone(real);
    deal_anew(d, tw->viewer, rng);
    asobi_state_copy(twin_state(tw), d);
    asobi_state_free(d);
}

static void twins_start(twin *tw, int count, const table *t, const char *create_json, store *st, asobi_rng *rng)
{
    for (int i = 0; i < count; i++) {
        srv_error e;
        tw[i].viewer = i == t->players ? ASOBI_SPECTATOR : i;
        tw[i].t = create(st, create_json, &e);
        assert_non_null(tw[i].t);
        for (int s = 0; s < t->players; s++) {
            char token[TOKEN_CHARS + 1];
            if (!tw[i].t->seat[s].bot)
                assert_int_equal(join(tw[i].t, "P", s, token, &e), s);
        }
        assert_int_equal(tw[i].t->status, TABLE_PLAYING);
        twin_redeal(&tw[i], asobi_match_state(t->match), rng);
    }
}

static void twins_free(twin *tw, int count)
{
    for (int i = 0; i < count; i++)
        table_free(tw[i].t);
}

/* viewer's view of s as compact text (malloc'd). */
static char *view_of(const asobi_state *s, int viewer) { return asobi_state_view_text(s, viewer, NULL); }

/* The twin's move for the real (seat, id) from pre to post; its own log line
 * written by the twin table. */
static void twin_follow(twin *tw, const asobi_state *pre, int seat, int id, const asobi_state *post, const char *by,
                        asobi_rng *rng)
{
    asobi_state *mine = twin_state(tw);
    char *want = view_of(post, tw->viewer);
    int max = asobi_game_max_actions(asobi_state_game(pre));
    int *legal = malloc((size_t)max * sizeof *legal), *alike = malloc((size_t)max * sizeof *alike);
    int n = asobi_state_to_move(mine) & (1u << seat) ? asobi_state_legal(mine, seat, legal) : 0;
    int m = 0, other = 0;
    char real_text[256], text[256], real_line[256], line[256];
    asobi_state_action_text(pre, seat, id, real_text, sizeof real_text);
    asobi_state_public_text(pre, seat, id, tw->viewer, real_line, sizeof real_line);
    for (int i = 0; i < n; i++) {
        asobi_state *next = asobi_state_clone(mine);
        asobi_state_apply_unchecked(next, seat, legal[i]);
        char *seen = view_of(next, tw->viewer);
        asobi_state_public_text(mine, seat, legal[i], tw->viewer, line, sizeof line);
        if (strcmp(seen, want) == 0 && strcmp(line, real_line) == 0) {
            /* the actions that differ from the real one first */
            asobi_state_action_text(mine, seat, legal[i], text, sizeof text);
            if (strcmp(text, real_text) != 0) {
                alike[m++] = alike[other];
                alike[other++] = legal[i];
            } else {
                alike[m++] = legal[i];
            }
        }
        free(seen);
        asobi_state_free(next);
    }
    bool redeal = m == 0;
    int pick = id;
    if (redeal)
        asobi_state_copy(mine, pre); /* the real action, in the real state */
    else
        pick = alike[asobi_rng_below(rng, (uint32_t)(other ? other : m))];
    json_t *action = json_integer(pick);
    srv_error e;
    if (table_act(tw->t, seat, action, 0, &e) != 0)
        fail_msg("the twin of viewer %d could not play %d: %s %s", tw->viewer, pick, e.code, e.message);
    json_decref(action);
    tw->t->log[tw->t->log_count - 1].by = by; /* a bot's move at the real table, a person's here */
    if (redeal && !asobi_state_terminal(post))
        twin_redeal(tw, post, rng);
    free(want);
    free(legal);
    free(alike);
}

/* The twin's update for its viewer, with the real table's seats, status and
 * clock (the twin's seats are its own people), must be the real update. */
static void check_twin_update(const table *t, const twin *tw, int log_from)
{
    table shown = *t;
    shown.log = tw->t->log;
    shown.log_count = tw->t->log_count;
    json_t *real = table_update(t, tw->viewer, log_from, 0);
    json_t *other = table_update_of(&shown, asobi_match_state(tw->t->match), tw->viewer, log_from, 0);
    if (!json_equal(real, other)) {
        char *a = json_dumps(real, JSON_SORT_KEYS), *b = json_dumps(other, JSON_SORT_KEYS);
        size_t at = 0;
        while (a[at] && a[at] == b[at])
            at++;
        at = at > 120 ? at - 120 : 0;
        fail_msg("viewer %d's update (its log included) depends on hidden information: in another deal it "
                 "cannot tell from this one, played alike, it would be sent something else, from byte %zu:\n"
                 "%.300s\n%.300s", tw->viewer, at, a + at, b + at);
    }
    json_decref(real);
    json_decref(other);
}

/* After the real table moved from pre: every new action followed by every
 * twin, then every twin's update checked, with the new events (the earlier
 * ones were checked when they were new, and a log only grows: a whole log
 * at every step would make a long game's check quadratic). */
static void twins_follow(twin *tw, int count, const table *t, const asobi_state *pre, int from, asobi_rng *rng)
{
    asobi_state *at = asobi_state_clone(pre), *next = asobi_state_clone(pre);
    for (int i = from; i < t->log_count; i++) {
        int seat = t->log[i].seat, id = -1;
        asobi_error err;
        if (asobi_state_parse_action(at, seat, asobi_match_action_text(t->match, i), &id, &err) != ASOBI_OK)
            fail_msg("action %d does not parse back: %s", i, err.message);
        asobi_state_copy(next, at);
        assert_int_equal(asobi_state_apply(next, seat, id, &err), ASOBI_OK);
        for (int k = 0; k < count; k++)
            twin_follow(&tw[k], at, seat, id, next, t->log[i].by, rng);
        asobi_state_copy(at, next);
    }
    assert_true(asobi_state_equal(at, asobi_match_state(t->match)));
    for (int k = 0; k < count; k++)
        check_twin_update(t, &tw[k], from);
    asobi_state_free(at);
    asobi_state_free(next);
}

/* A whole game: people at the seats without a bot play random legal moves
 * (ids from their own update's "legal"), bots move through jobs. With
 * twins (count > 0: every seat's and the spectator's, see above), every
 * update of every viewer is checked at every step. */
static void play_out_twinned(table *t, asobi_rng *rng, int stop_after, twin *tw, int count)
{
    int steps = 0;
    asobi_state *pre = asobi_state_clone(asobi_match_state(t->match));
    while (t->status == TABLE_PLAYING && (stop_after < 0 || steps < stop_after)) {
        /* every 7th step, the present resampled afresh (the twins check every step) */
        if (count > 0 && steps % 7 == 0)
            check_updates_hide_hidden(t, t->log_count > 0 ? t->log_count - 1 : 0, rng);
        asobi_state_copy(pre, asobi_match_state(t->match));
        int from = t->log_count;
        if (run_bots(t, 0, -1) > 0) {
            if (count > 0)
                twins_follow(tw, count, t, pre, from, rng);
            steps++;
            continue;
        }
        uint32_t to_move = asobi_state_to_move(asobi_match_state(t->match));
        int seat = -1;
        for (int s = 0; s < t->players && seat < 0; s++)
            if ((to_move & (1u << s)) && !t->seat[s].bot)
                seat = s;
        assert_true(seat >= 0);
        json_t *u = table_update(t, seat, 0, 0);
        const json_t *legal = legal_of(u);
        assert_true(json_array_size(legal) > 0);
        const json_t *pick = json_array_get(legal, asobi_rng_below(rng, (uint32_t)json_array_size(legal)));
        /* people send texts or ids: alternate */
        const json_t *action = steps % 2 ? json_object_get(pick, "text") : json_object_get(pick, "id");
        srv_error e;
        if (table_act(t, seat, action, 0, &e) != 0)
            fail_msg("seat %d could not play %s: %s %s", seat, json_string_value(json_object_get(pick, "text")), e.code,
                     e.message);
        json_decref(u);
        if (count > 0)
            twins_follow(tw, count, t, pre, from, rng);
        steps++;
    }
    if (count > 0)
        check_updates_hide_hidden(t, 0, rng);
    asobi_state_free(pre);
}

static void play_out(table *t, asobi_rng *rng, int stop_after) { play_out_twinned(t, rng, stop_after, NULL, 0); }

/* play_out with every viewer's update checked at every step (above). */
static void play_out_checked(table *t, const char *create_json, asobi_rng *rng)
{
    twin tw[ASOBI_MAX_SEATS + 1];
    int count = t->players + 1;
    twins_start(tw, count, t, create_json, t->store, rng);
    play_out_twinned(t, rng, -1, tw, count);
    for (int k = 0; k < count; k++) /* and the whole log, once */
        check_twin_update(t, &tw[k], 0);
    twins_free(tw, count);
}

static void test_full_games_of_every_game_with_people_and_bots(void **unused)
{
    (void)unused;
    store *st = open_temp_store();
    const char *games[] = {"psycle", "ninja", "octal", "timemasters"};
    const char *create_json[] = {
        "{\"game\":\"psycle\",\"players\":3,\"seed\":11,\"bots\":[null,\"heuristic\",null]}",
        "{\"game\":\"ninja\",\"players\":3,\"seed\":12,\"bots\":[null,null,\"random\"]}",
        "{\"game\":\"octal\",\"players\":4,\"seed\":13,\"bots\":[\"heuristic\",null,null,null]}",
        "{\"game\":\"timemasters\",\"players\":2,\"seed\":14}",
    };
    asobi_rng rng;
    asobi_rng_seed(&rng, 99);
    for (int g = 0; g < 4; g++) {
        srv_error e;
        table *t = create(st, create_json[g], &e);
        assert_non_null(t);
        char tokens[ASOBI_MAX_SEATS][TOKEN_CHARS + 1];
        for (int s = 0; s < t->players; s++)
            if (!t->seat[s].bot)
                assert_int_equal(join(t, "P", s, tokens[s], &e), s);
        assert_int_equal(t->status, TABLE_PLAYING);
        play_out_checked(t, create_json[g], &rng);
        assert_int_equal(t->status, TABLE_OVER);
        assert_int_equal(t->log_count, asobi_match_length(t->match));
        /* the record and summary are in the store, the table no longer restored */
        json_t *summary = NULL, *record = NULL;
        asobi_error err;
        assert_int_equal(store_load_finished(st, t->id, &summary, &record, &err), ASOBI_OK);
        json_t *mine = asobi_match_record(t->match);
        assert_true(json_equal(mine, record));
        assert_string_equal(json_string_value(json_object_get(summary, "status")), "over");
        assert_string_equal(json_string_value(json_object_get(summary, "game")), games[g]);
        json_decref(mine);
        json_decref(summary);
        json_decref(record);
        json_t *u = table_update(t, 0, t->log_count, 0);
        assert_non_null(json_object_get(u, "result"));
        assert_int_equal(json_array_size(legal_of(u)), 0);
        json_decref(u);
        /* acting at a finished table: refused with the library's code */
        json_t *any = json_integer(0);
        assert_refused(table_act(t, 0, any, 0, &e), &e, "game_over");
        json_decref(any);
        table_free(t);
    }
    remove_temp_store(st);
}

/* docs/server.md: "every update" a viewer is sent hides what it may not
 * see. Every game at every player count (under the sanitizers the smallest
 * and the largest), a bot at seat 1 and people elsewhere; every seat's and
 * the spectator's update at every step, against their twins
 * (play_out_checked). */
static void test_every_update_hides_hidden_information(void **unused)
{
    (void)unused;
    store *st = open_temp_store();
    asobi_rng rng;
    asobi_rng_seed(&rng, 32);
    int tables = 0;
    for (int g = 0; g < asobi_game_count(); g++) {
        const asobi_game_def *def = asobi_game_at(g);
        int min = asobi_game_min_players(def), max = asobi_game_max_players(def);
        for (int p = min; p <= max; p++) {
            /* under the sanitizers (repetitions.h: a tenth), the smallest and largest tables only */
            if (test_reps(10) < 10 && p != min && p != max)
                continue;
            char create_json[256];
            int len = snprintf(create_json, sizeof create_json, "{\"game\":\"%s\",\"players\":%d,\"seed\":%d,\"bots\":[",
                               asobi_game_name(def), p, 320 + 10 * g + p);
            for (int s = 0; s < p; s++)
                len += snprintf(create_json + len, sizeof create_json - (size_t)len, "%s%s", s ? "," : "",
                                s == 1 ? "\"random\"" : "null");
            snprintf(create_json + len, sizeof create_json - (size_t)len, "]}");
            srv_error e;
            table *t = create(st, create_json, &e);
            assert_non_null(t);
            char token[TOKEN_CHARS + 1];
            for (int s = 0; s < p; s++)
                if (!t->seat[s].bot)
                    assert_int_equal(join(t, "P", s, token, &e), s);
            play_out_checked(t, create_json, &rng);
            assert_int_equal(t->status, TABLE_OVER);
            table_free(t);
            tables++;
        }
    }
    assert_true(tables >= (test_reps(10) < 10 ? 8 : 14));
    remove_temp_store(st);
}

static void test_refusals_change_nothing(void **unused)
{
    (void)unused;
    store *st = open_temp_store();
    srv_error e;
    table *t = create(st, "{\"game\":\"ninja\",\"players\":3,\"seed\":3}", &e);
    char tok[TOKEN_CHARS + 1];
    json_t *zero = json_integer(0);
    assert_int_equal(join(t, "A", -1, tok, &e), 0);
    assert_refused(table_act(t, 0, zero, 0, &e), &e, "not_started");
    assert_int_equal(join(t, "B", -1, tok, &e), 1);
    assert_int_equal(join(t, "C", -1, tok, &e), 2);
    asobi_state *before = asobi_state_clone(asobi_match_state(t->match));
    uint64_t version = t->version;
    uint32_t to_move = asobi_state_to_move(before);
    int waiting = (to_move & 1u) ? 1 : 0, mover = __builtin_ctz(to_move);
    assert_refused(table_act(t, waiting, zero, 0, &e), &e, "not_your_turn");
    assert_refused(table_act(t, ASOBI_SPECTATOR, zero, 0, &e), &e, "not_seated");
    json_t *bad = json_string("dance");
    assert_refused(table_act(t, mover, bad, 0, &e), &e, "illegal_action");
    json_decref(bad);
    bad = json_integer(100000);
    assert_refused(table_act(t, mover, bad, 0, &e), &e, "illegal_action");
    json_decref(bad);
    bad = json_object();
    assert_refused(table_act(t, mover, bad, 0, &e), &e, "bad_request");
    json_decref(bad);
    assert_true(asobi_state_equal(before, asobi_match_state(t->match)));
    assert_int_equal(t->version, version);
    assert_int_equal(t->log_count, 0);
    asobi_state_free(before);
    json_decref(zero);
    table_free(t);
    remove_temp_store(st);
}

static int restore_into(void *ctx, int64_t id, const json_t *spec, const json_t *seats, const json_t *actions)
{
    table **out = ctx;
    asobi_error err;
    *out = table_restore(NULL, id, spec, seats, actions, NULL, 0, &err);
    if (!*out)
        fail_msg("restore: %s", err.message);
    return 0;
}

static void test_restore_replays_to_the_same_table(void **unused)
{
    (void)unused;
    const char *create_json[] = {
        "{\"game\":\"psycle\",\"players\":2,\"seed\":21}",
        "{\"game\":\"ninja\",\"players\":4,\"seed\":22,\"bots\":[null,\"heuristic\",null,null]}",
        "{\"game\":\"octal\",\"players\":3,\"seed\":23}",
        "{\"game\":\"timemasters\",\"players\":3,\"seed\":24,\"bots\":[\"random\",null,null],"
        "\"clock\":{\"kind\":\"fischer\",\"base\":60,\"increment\":5}}",
    };
    asobi_rng rng;
    asobi_rng_seed(&rng, 7);
    for (int g = 0; g < 4; g++) {
        store *st = open_temp_store();
        srv_error e;
        table *t = create(st, create_json[g], &e);
        assert_non_null(t);
        char tokens[ASOBI_MAX_SEATS][TOKEN_CHARS + 1];
        for (int s = 0; s < t->players; s++)
            if (!t->seat[s].bot)
                assert_int_equal(join(t, "P", s, tokens[s], &e), s);
        play_out(t, &rng, 25);
        assert_int_equal(t->status, TABLE_PLAYING);
        /* the server flushes before telling anyone; then the process dies */
        asobi_error err;
        assert_int_equal(store_flush(st, &err), ASOBI_OK);
        store_close(st);
        st = store_open(db_path, &err);
        assert_non_null(st);
        table *back = NULL;
        assert_int_equal(store_load_unfinished(st, restore_into, &back, &err), ASOBI_OK);
        assert_non_null(back);
        assert_int_equal(back->id, t->id);
        assert_true(asobi_state_equal(asobi_match_state(t->match), asobi_match_state(back->match)));
        assert_int_equal(back->status, TABLE_PLAYING);
        for (int s = 0; s < t->players; s++) {
            assert_string_equal(back->seat[s].token_hash, t->seat[s].token_hash);
            assert_int_equal(back->seat[s].bank_ms, t->seat[s].bank_ms);
            if (!t->seat[s].bot)
                assert_int_equal(table_seat_of_token(back, tokens[s]), s);
        }
        for (int v = ASOBI_SPECTATOR; v < t->players; v++) {
            if (v == ASOBI_ALL_SEEING)
                continue;
            json_t *a = table_update(t, v, 0, 0), *b = table_update(back, v, 0, 0);
            json_object_del(a, "seats"); /* nobody has reconnected yet */
            json_object_del(b, "seats");
            assert_true(json_equal(a, b));
            json_decref(a);
            json_decref(b);
        }
        /* the restored table plays on to its end */
        back->store = st;
        play_out(back, &rng, -1);
        assert_int_equal(back->status, TABLE_OVER);
        table_free(back);
        table_free(t);
        remove_temp_store(st);
    }
}

/* docs/server.md: "a restored bot chooses as it would have". A table with
 * searching bots (their choices depend on their seed) plays 12 moves, is
 * restored from its store as after a crash, and plays on to the end; its
 * twin, the same table in a store of its own, plays the whole game without
 * a restart, its people making the same random choices: every bot move
 * must be the same, so the two games are. */
static void test_restored_bots_choose_as_before(void **unused)
{
    (void)unused;
    const char *create_json = "{\"game\":\"ninja\",\"players\":3,\"seed\":41,"
                              "\"bots\":[null,\"ismcts:iters=60\",\"ismcts:iters=60,worlds=3\"]}";
    char twin_path[64];
    temp_db_make(twin_path, sizeof twin_path, "twin");
    asobi_error err;
    store *twin_store = store_open(twin_path, &err);
    assert_non_null(twin_store);
    store *st = open_temp_store();
    table *tables[2];
    srv_error e;
    char token[TOKEN_CHARS + 1];
    for (int k = 0; k < 2; k++) {
        tables[k] = create(k ? twin_store : st, create_json, &e);
        assert_non_null(tables[k]);
        assert_int_equal(join(tables[k], "P", 0, token, &e), 0);
    }
    asobi_rng rng, twin_rng;
    asobi_rng_seed(&rng, 41);
    twin_rng = rng;
    play_out(tables[1], &twin_rng, -1); /* never restored */
    play_out(tables[0], &rng, 12);
    assert_int_equal(tables[0]->status, TABLE_PLAYING);
    assert_int_equal(store_flush(st, &err), ASOBI_OK);
    table_free(tables[0]);
    store_close(st); /* the process dies; a new one restores */
    st = store_open(db_path, &err);
    assert_non_null(st);
    table *back = NULL;
    assert_int_equal(store_load_unfinished(st, restore_into, &back, &err), ASOBI_OK);
    assert_non_null(back);
    back->store = st;
    play_out(back, &rng, -1);
    assert_int_equal(back->status, TABLE_OVER);
    json_t *a = asobi_match_record(tables[1]->match), *b = asobi_match_record(back->match);
    if (!json_equal(a, b))
        fail_msg("the restored table's bots chose otherwise than its twin's (%d and %d actions)",
                 asobi_match_length(back->match), asobi_match_length(tables[1]->match));
    json_decref(a);
    json_decref(b);
    table_free(back);
    table_free(tables[1]);
    store_close(twin_store);
    temp_db_remove(twin_path);
    remove_temp_store(st);
}

/* Clocks with an injected clock: a move clock runs out, the heuristic moves,
 * three in a row hand the seat over, reconnecting takes it back. */
static void test_move_clock_timeouts_hand_the_seat_to_the_bot(void **unused)
{
    (void)unused;
    store *st = open_temp_store();
    srv_error e;
    table *t = create(st, "{\"game\":\"octal\",\"players\":3,\"seed\":4,\"bots\":[null,\"random\",\"random\"],"
                          "\"clock\":{\"kind\":\"move\",\"seconds\":10}}", &e);
    char tok[TOKEN_CHARS + 1];
    json_t *req = json_pack("{s:s}", "name", "Aki");
    int seat;
    assert_int_equal(table_join(t, req, 1000, &seat, tok, &e), 0);
    json_decref(req);
    table_connect(t, 0, 1000);
    int64_t now = 1000;
    /* let the bots move until it is seat 0's turn */
    while (!(asobi_state_to_move(asobi_match_state(t->match)) & 1u))
        assert_int_equal(run_bots(t, now, -1), 1);
    int64_t started = t->seat[0].since_ms;
    assert_int_equal(table_next_deadline(t, now, -1), started + 10000);
    json_t *clock = table_clock_json(t, started + 4000);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(clock, "remaining_ms"), 0)), 6000);
    json_decref(clock);
    assert_int_equal(run_bots(t, started + 9999, -1), 0); /* not yet */
    for (int timeout = 1; timeout <= 3; timeout++) {
        now = t->seat[0].since_ms + 10000;
        int n = asobi_match_length(t->match);
        assert_int_equal(run_bots(t, now, -1), 1);
        assert_int_equal(asobi_match_length(t->match), n + 1);
        assert_string_equal(t->log[n].by, "timeout");
        assert_int_equal(t->seat[0].timeouts, timeout);
        assert_int_equal(t->seat[0].handed, timeout == 3);
        while (t->status == TABLE_PLAYING && !(asobi_state_to_move(asobi_match_state(t->match)) & 1u))
            assert_int_equal(run_bots(t, now, -1), 1);
        if (t->status != TABLE_PLAYING)
            break;
    }
    assert_true(t->seat[0].handed);
    if (t->status == TABLE_PLAYING) {
        /* handed: the bot moves at once, with no clock waiting */
        assert_int_equal(run_bots(t, now, -1), 1);
        assert_string_equal(t->log[t->log_count - 1].by, "bot");
    }
    table_connect(t, 0, now); /* the person is back */
    assert_false(t->seat[0].handed);
    assert_int_equal(t->seat[0].timeouts, 0);
    table_free(t);
    remove_temp_store(st);
}

/* docs/server.md: a handed seat is taken back by reconnecting or by acting.
 * Three timeouts hand seat 0 to the bot; then, on its turn, its person
 * acts before the bot does: the seat is theirs again, the count cleared. */
static void test_acting_takes_a_handed_seat_back(void **unused)
{
    (void)unused;
    store *st = open_temp_store();
    srv_error e;
    table *t = create(st, "{\"game\":\"octal\",\"players\":3,\"seed\":6,\"bots\":[null,\"random\",\"random\"],"
                          "\"clock\":{\"kind\":\"move\",\"seconds\":10}}", &e);
    char tok[TOKEN_CHARS + 1];
    assert_int_equal(join(t, "Aki", 0, tok, &e), 0);
    int64_t now = 1000;
    for (int timeout = 1; timeout <= 3; timeout++) {
        while (t->status == TABLE_PLAYING && !(asobi_state_to_move(asobi_match_state(t->match)) & 1u))
            assert_int_equal(run_bots(t, now, -1), 1);
        assert_int_equal(t->status, TABLE_PLAYING);
        now = t->seat[0].since_ms + 10000;
        assert_int_equal(run_bots(t, now, -1), 1);
        assert_string_equal(t->log[t->log_count - 1].by, "timeout");
    }
    assert_true(t->seat[0].handed);
    while (t->status == TABLE_PLAYING && !(asobi_state_to_move(asobi_match_state(t->match)) & 1u))
        assert_int_equal(run_bots(t, now, -1), 1);
    assert_int_equal(t->status, TABLE_PLAYING);
    json_t *a = first_legal_id(t, 0);
    assert_int_equal(table_act(t, 0, a, now, &e), 0);
    json_decref(a);
    assert_string_equal(t->log[t->log_count - 1].by, "human");
    assert_false(t->seat[0].handed);
    assert_int_equal(t->seat[0].timeouts, 0);
    table_free(t);
    remove_temp_store(st);
}

static void test_fischer_clock_and_grace(void **unused)
{
    (void)unused;
    store *st = open_temp_store();
    srv_error e;
    table *t = create(st, "{\"game\":\"psycle\",\"players\":2,\"seed\":8,"
                          "\"clock\":{\"kind\":\"fischer\",\"base\":30,\"increment\":2}}", &e);
    char tok[TOKEN_CHARS + 1];
    int seat;
    json_t *req = json_pack("{s:s}", "name", "A");
    assert_int_equal(table_join(t, req, 0, &seat, tok, &e), 0);
    assert_int_equal(table_join(t, req, 0, &seat, tok, &e), 0);
    json_decref(req);
    table_connect(t, 0, 0);
    table_connect(t, 1, 0);
    /* PSYCLE: both choose at once, both clocks run */
    json_t *a = first_legal_id(t, 0);
    assert_int_equal(table_act(t, 0, a, 12000, &e), 0);
    assert_int_equal(t->seat[0].bank_ms, 30000 - 12000 + 2000);
    json_t *clock = table_clock_json(t, 15000);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(clock, "remaining_ms"), 0)), 20000);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(clock, "remaining_ms"), 1)), 15000);
    json_decref(clock);
    /* seat 1 leaves; with a grace of 5 s it is moved for at 5 s after leaving */
    table_disconnect(t, 1, 16000);
    assert_int_equal(table_next_deadline(t, 16000, 5000), 21000);
    assert_int_equal(run_bots(t, 20999, 5000), 0);
    assert_int_equal(run_bots(t, 21000, 5000), 1);
    assert_string_equal(t->log[1].by, "timeout");
    assert_int_equal(t->seat[1].bank_ms, 30000 - 21000 + 2000);
    json_decref(a);
    table_free(t);
    remove_temp_store(st);
}

/* Without a clock, only a person away on their turn makes a deadline: --grace after they left (server.c's
 * tick asks every table ten times a second, and skips the game's state when nothing can fall due). */
static void test_grace_without_clock(void **unused)
{
    (void)unused;
    store *st = open_temp_store();
    srv_error e;
    table *t = create(st, "{\"game\":\"psycle\",\"players\":2,\"seed\":3}", &e);
    char tok[TOKEN_CHARS + 1];
    assert_int_equal(join(t, "A", 0, tok, &e), 0);
    assert_int_equal(join(t, "B", 1, tok, &e), 1);
    table_connect(t, 0, 0);
    table_connect(t, 1, 0);
    assert_int_equal(table_next_deadline(t, 1000, 3000), INT64_MAX); /* everyone there */
    table_disconnect(t, 1, 5000);
    assert_int_equal(table_next_deadline(t, 5000, 3000), 8000);
    assert_int_equal(table_next_deadline(t, 5000, -1), INT64_MAX); /* no grace: wait for ever */
    table_connect(t, 1, 6000);
    assert_int_equal(table_next_deadline(t, 6000, 3000), INT64_MAX);
    /* seat 0 chooses and leaves: it is not to move, so its absence makes no deadline */
    json_t *a = first_legal_id(t, 0);
    assert_int_equal(table_act(t, 0, a, 7000, &e), 0);
    json_decref(a);
    table_disconnect(t, 0, 7000);
    assert_int_equal(table_next_deadline(t, 7000, 3000), INT64_MAX);
    table_disconnect(t, 1, 7500); /* seat 1, to move, leaves too */
    assert_int_equal(table_next_deadline(t, 7500, 3000), 10500);
    table_free(t);
    remove_temp_store(st);
}

/* The seat object of seat s in an update or summary. */
static const json_t *seat_of(const json_t *u, int s) { return json_array_get(json_object_get(u, "seats"), (size_t)s); }

/* Issue 33: bots are named by a level people understand ("easy", "medium",
 * "strong"; null for a person), never only by the engine's spec. */
static void test_seats_say_each_bot_level(void **unused)
{
    (void)unused;
    store *st = open_temp_store();
    srv_error e;
    table *t = create(st, "{\"game\":\"octal\",\"players\":5,\"seed\":3,"
                          "\"bots\":[null,\"random\",\"heuristic\",\"ismcts:iters=50\",\"ismcts\"]}", &e);
    assert_non_null(t);
    const char *want[] = {NULL, "easy", "medium", "strong", "strong"};
    json_t *u = table_update(t, ASOBI_SPECTATOR, 0, 0), *sum = table_summary(t);
    for (int s = 0; s < 5; s++) {
        const json_t *views[] = {seat_of(u, s), seat_of(sum, s)};
        for (int k = 0; k < 2; k++) {
            const json_t *level = json_object_get(views[k], "level");
            if (want[s])
                assert_string_equal(json_string_value(level), want[s]);
            else
                assert_true(json_is_null(level));
        }
    }
    json_decref(u);
    json_decref(sum);
    table_free(t);
    remove_temp_store(st);
}

/* Issue 33, leavers: the updates say how long an away person has been gone
 * (away_ms) and, on their turn, how long before a bot moves for them
 * (grace_left_ms, the table's --grace counted as the tick counts it); a
 * summary, which has no time, says neither. */
static void test_seats_count_down_an_away_person_grace(void **unused)
{
    (void)unused;
    store *st = open_temp_store();
    srv_error e;
    table *t = create(st, "{\"game\":\"psycle\",\"players\":2,\"seed\":3}", &e);
    t->grace_ms = 3000; /* what hall_add tells every table */
    char tok[TOKEN_CHARS + 1];
    assert_int_equal(join(t, "A", 0, tok, &e), 0);
    assert_int_equal(join(t, "B", 1, tok, &e), 1);
    table_connect(t, 0, 0);
    table_connect(t, 1, 0);
    json_t *u = table_update(t, 0, 0, 1000);
    assert_null(json_object_get(seat_of(u, 1), "away_ms"));
    assert_null(json_object_get(seat_of(u, 1), "grace_left_ms"));
    json_decref(u);
    table_disconnect(t, 1, 5000); /* seat 1, to move, leaves */
    u = table_update(t, 0, 0, 6000);
    assert_int_equal(json_integer_value(json_object_get(seat_of(u, 1), "away_ms")), 1000);
    assert_int_equal(json_integer_value(json_object_get(seat_of(u, 1), "grace_left_ms")), 2000);
    assert_null(json_object_get(seat_of(u, 0), "grace_left_ms"));
    json_decref(u);
    u = table_update(t, 0, 0, 9000); /* past the grace: 0, the bot is due */
    assert_int_equal(json_integer_value(json_object_get(seat_of(u, 1), "grace_left_ms")), 0);
    json_decref(u);
    json_t *sum = table_summary(t);
    assert_null(json_object_get(seat_of(sum, 1), "away_ms"));
    json_decref(sum);
    table_connect(t, 1, 9500); /* back: nothing counts down */
    u = table_update(t, 0, 0, 9600);
    assert_null(json_object_get(seat_of(u, 1), "away_ms"));
    assert_null(json_object_get(seat_of(u, 1), "grace_left_ms"));
    assert_null(json_object_get(seat_of(u, 1), "left"));
    json_decref(u);
    /* a person who left for good (table_leave) is not away: the seat says "left", and nothing counts down */
    json_t *leave = json_pack("{s:s}", "token", tok);
    int seat;
    assert_int_equal(table_leave(t, leave, &seat, &e), 0);
    json_decref(leave);
    table_disconnect(t, 1, 9700);
    u = table_update(t, 0, 0, 9800);
    assert_true(json_is_true(json_object_get(seat_of(u, 1), "left")));
    assert_true(json_is_true(json_object_get(seat_of(u, 1), "handed")));
    assert_null(json_object_get(seat_of(u, 1), "away_ms"));
    assert_null(json_object_get(seat_of(u, 1), "grace_left_ms"));
    json_decref(u);
    table_free(t);
    remove_temp_store(st);
}

/* Issue 33, the result explains itself: once over, the update says why in
 * the game's words ("over"), as its refusals do: Time Masters' turn cap. */
static void test_update_says_why_the_game_ended(void **unused)
{
    (void)unused;
    store *st = open_temp_store();
    srv_error e;
    table *t = create(st, "{\"game\":\"timemasters\",\"players\":2,\"seed\":5,\"options\":{\"max_turns\":10}}", &e);
    assert_non_null(t);
    char tok[TOKEN_CHARS + 1];
    assert_int_equal(join(t, "A", 0, tok, &e), 0);
    assert_int_equal(join(t, "B", 1, tok, &e), 1);
    json_t *u = table_update(t, 0, 0, 0);
    assert_null(json_object_get(u, "over"));
    json_decref(u);
    asobi_rng rng;
    asobi_rng_seed(&rng, 5);
    play_out(t, &rng, -1);
    assert_int_equal(t->status, TABLE_OVER);
    int viewers[] = {0, 1, ASOBI_SPECTATOR};
    for (int k = 0; k < 3; k++) {
        u = table_update(t, viewers[k], 0, 0);
        const char *over = json_string_value(json_object_get(u, "over"));
        assert_non_null(over);
        assert_non_null(strstr(over, "max_turns 10"));
        json_decref(u);
    }
    table_free(t);
    remove_temp_store(st);
}

/* PSYCLE: a seat's face-down choice is hidden until both reveal: the other
 * seat's and the spectator's updates are the same whichever card it chose. */
static void test_psycle_choice_stays_hidden_in_updates(void **unused)
{
    (void)unused;
    for (int card = 0; card < 6; card++) {
        store *st = open_temp_store();
        srv_error e;
        table *t[2];
        json_t *sent[2][2];
        for (int k = 0; k < 2; k++) {
            t[k] = create(st, "{\"game\":\"psycle\",\"players\":2,\"seed\":31}", &e);
            char tok[TOKEN_CHARS + 1];
            join(t[k], "A", 0, tok, &e);
            join(t[k], "B", 1, tok, &e);
            char buf[16];
            snprintf(buf, sizeof buf, "play %d", k == 0 ? card : (card + 3) % 6);
            json_t *text = json_string(buf);
            assert_int_equal(table_act(t[k], 1, text, 0, &e), 0);
            json_decref(text);
            sent[k][0] = table_update(t[k], 0, 0, 0);
            sent[k][1] = table_update(t[k], ASOBI_SPECTATOR, 0, 0);
            json_object_del(sent[k][0], "table");
            json_object_del(sent[k][1], "table");
        }
        assert_true(json_equal(sent[0][0], sent[1][0]));
        assert_true(json_equal(sent[0][1], sent[1][1]));
        /* and seat 1 itself does see its choice */
        json_t *mine = table_update(t[0], 1, 0, 0);
        char *text = json_dumps(json_object_get(mine, "log"), 0);
        char want[16];
        snprintf(want, sizeof want, "play %d", card);
        assert_non_null(strstr(text, want));
        free(text);
        json_decref(mine);
        for (int k = 0; k < 2; k++) {
            json_decref(sent[k][0]);
            json_decref(sent[k][1]);
            table_free(t[k]);
        }
        remove_temp_store(st);
    }
}

/* The bytes of the updates are a contract (docs/server.md): clients parse
 * them. FNV-1a over every update text sent to every seat and the spectator,
 * from the first event and from the last, at every step of scripted tables
 * of every game (clocks, bots, handed seats, names that need escaping, the
 * result and the rematch included), against the hash of the same texts as
 * the server wrote them at d3f0d51 (the update built as a jansson tree and
 * dumped), then with "seed_chosen":true, which these tables (their seeds
 * chosen) carry since issue 31. A change of the update's bytes must change
 * this constant on purpose, with docs/server.md. */
/* The first entry of kind and event type in an update's log, or NULL. */
static const json_t *log_entry(const json_t *update, const char *kind, const char *type)
{
    size_t i;
    const json_t *entry;
    json_array_foreach(json_object_get(update, "log"), i, entry)
    {
        const json_t *event = json_object_get(entry, "event");
        if (strcmp(json_string_value(json_object_get(entry, "kind")), kind) == 0 &&
            (!type || strcmp(json_string_value(json_object_get(event, "type")), type) == 0))
            return entry;
    }
    return NULL;
}

/* Issue 33: an update's log tells each action ("kind": "action") and then
 * what it made happen ("kind": "event"), as that viewer may know it. Time
 * Masters: the seat that draws is told which cards ("山札から引く"), the other
 * seat and the spectator how many, never which. */
static void test_log_tells_events_per_viewer(void **unused)
{
    (void)unused;
    store *st = open_temp_store();
    srv_error e;
    table *t = create(st, "{\"game\":\"timemasters\",\"players\":2,\"seed\":3}", &e);
    char tok[TOKEN_CHARS + 1];
    join(t, "A", 0, tok, &e);
    join(t, "B", 1, tok, &e);
    asobi_rng rng;
    asobi_rng_seed(&rng, 33);
    json_t *mine = NULL;
    int actor = -1;
    for (int step = 0; step < 400 && t->status == TABLE_PLAYING; step++) {
        actor = __builtin_ctz(asobi_state_to_move(asobi_match_state(t->match)));
        json_t *id = first_legal_id(t, actor);
        int from = t->log_count;
        if (step % 2) { /* a random one, not always the first */
            json_t *u = table_update(t, actor, 0, 0);
            const json_t *legal = legal_of(u);
            json_decref(id);
            id = json_incref(json_object_get(json_array_get(legal, asobi_rng_below(&rng, (uint32_t)json_array_size(legal))), "id"));
            json_decref(u);
        }
        assert_int_equal(table_act(t, actor, id, 0, &e), 0);
        json_decref(id);
        mine = table_update(t, actor, from, 0);
        if (log_entry(mine, "event", "draw"))
            break;
        json_decref(mine);
        mine = NULL;
    }
    assert_non_null(mine);
    int from = t->log_count - 1;
    const json_t *action = log_entry(mine, "action", NULL);
    assert_non_null(action);
    assert_int_equal(json_integer_value(json_object_get(action, "index")), from);
    const json_t *drawn = log_entry(mine, "event", "draw");
    const json_t *event = json_object_get(drawn, "event");
    assert_int_equal(json_integer_value(json_object_get(drawn, "index")), from);
    assert_int_equal(json_integer_value(json_object_get(drawn, "seat")), actor);
    assert_string_equal(json_string_value(json_object_get(drawn, "by")), "human");
    assert_string_equal(json_string_value(json_object_get(drawn, "text")),
                        json_string_value(json_object_get(event, "text")));
    json_int_t count = json_integer_value(json_object_get(event, "count"));
    assert_true(count > 0);
    assert_int_equal(json_array_size(json_object_get(event, "cards")), count);
    for (int viewer = ASOBI_SPECTATOR; viewer < 2; viewer++) {
        if (viewer == actor || viewer == ASOBI_ALL_SEEING)
            continue;
        json_t *theirs = table_update(t, viewer, from, 0);
        const json_t *seen = json_object_get(log_entry(theirs, "event", "draw"), "event");
        assert_non_null(seen);
        assert_int_equal(json_integer_value(json_object_get(seen, "count")), count);
        assert_null(json_object_get(seen, "cards"));
        /* its text says how many, and lists none ("draws 2 cards: A, B" is the drawer's) */
        char *text = json_dumps(json_object_get(theirs, "log"), 0), listed[64];
        snprintf(listed, sizeof listed, "draws %d card%s: ", (int)count, count == 1 ? "" : "s");
        assert_null(strstr(text, listed));
        free(text);
        json_decref(theirs);
    }
    json_decref(mine);
    table_free(t);
    remove_temp_store(st);
}

static uint64_t fnv1a(uint64_t h, const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)text[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t hash_updates(const table *t, uint64_t h, int64_t now)
{
    for (int viewer = ASOBI_SPECTATOR; viewer < t->players; viewer++) {
        if (viewer == ASOBI_ALL_SEEING)
            continue;
        int froms[2] = {0, t->log_count > 0 ? t->log_count - 1 : 0};
        for (int f = 0; f < 2; f++) {
            size_t len = 0;
            char *text = table_update_text(t, viewer, froms[f], now, &len);
            assert_non_null(text);
            assert_int_equal(len, strlen(text));
            h = fnv1a(h, text, len + 1);
            free(text);
        }
    }
    return h;
}

static void test_update_bytes_are_those_of_the_protocol(void **unused)
{
    (void)unused;
    store *st = open_temp_store();
    const char *create_json[] = {
        "{\"game\":\"psycle\",\"players\":2,\"seed\":5,\"clock\":{\"kind\":\"fischer\",\"base\":60,\"increment\":3}}",
        "{\"game\":\"psycle\",\"players\":4,\"seed\":6,\"bots\":[null,\"heuristic\",null,\"random\"]}",
        "{\"game\":\"ninja\",\"players\":2,\"seed\":7,\"clock\":{\"kind\":\"move\",\"seconds\":20}}",
        "{\"game\":\"ninja\",\"players\":5,\"seed\":8,\"bots\":[null,\"random\",null,\"random\",null]}",
        "{\"game\":\"octal\",\"players\":3,\"seed\":9,\"clock\":{\"kind\":\"move\",\"seconds\":5},"
        "\"bots\":[null,\"random\",null]}",
        "{\"game\":\"octal\",\"players\":6,\"seed\":10,\"options\":{}}",
        "{\"game\":\"timemasters\",\"players\":2,\"seed\":11,\"bots\":[null,\"random\"]}",
    };
    const char *names[] = {"Aki", "\"quoted\" \\ back", "\xe6\x97\xa5\xe6\x9c\xac", "a/b <c> &d", "P5", "P6"};
    asobi_rng rng;
    asobi_rng_seed(&rng, 2026);
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t g = 0; g < sizeof create_json / sizeof *create_json; g++) {
        srv_error e;
        table *t = create(st, create_json[g], &e);
        assert_non_null(t);
        int64_t now = 1000;
        h = hash_updates(t, h, now); /* open, nobody seated */
        char tok[TOKEN_CHARS + 1];
        for (int s = 0; s < t->players; s++) {
            if (t->seat[s].bot)
                continue;
            json_t *req = json_pack("{s:s, s:i}", "name", names[s % 6], "seat", s);
            int seat;
            assert_int_equal(table_join(t, req, now, &seat, tok, &e), 0);
            json_decref(req);
            if (s % 2 == 0)
                table_connect(t, s, now);
            h = hash_updates(t, h, now);
        }
        int steps = 0;
        while (t->status == TABLE_PLAYING) {
            now += 700 + (int64_t)asobi_rng_below(&rng, 9000);
            if (run_bots(t, now, 30000) == 0) {
                uint32_t to_move = asobi_state_to_move(asobi_match_state(t->match));
                int seat = -1;
                for (int s = 0; s < t->players && seat < 0; s++)
                    if (to_move & (1u << s))
                        seat = s;
                json_t *u = table_update(t, seat, 0, now);
                const json_t *legal = legal_of(u);
                const json_t *pick = json_array_get(legal, asobi_rng_below(&rng, (uint32_t)json_array_size(legal)));
                assert_int_equal(table_act(t, seat, json_object_get(pick, "id"), now, &e), 0);
                json_decref(u);
            }
            if (steps++ % 3 == 0)
                h = hash_updates(t, h, now);
        }
        h = hash_updates(t, h, now);
        table *again = table_rematch(t, now, &e);
        assert_non_null(again);
        h = hash_updates(t, h, now); /* the finished table names its rematch */
        table_free(again);
        table_free(t);
    }
    remove_temp_store(st);
    printf("update bytes hash %016llx\n", (unsigned long long)h);
    assert_true(h == UPDATE_BYTES_HASH);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_refuses_bad_requests),
        cmocka_unit_test(test_join_checks_names_seats_and_keeps_only_the_hash),
        cmocka_unit_test(test_full_games_of_every_game_with_people_and_bots),
        cmocka_unit_test(test_every_update_hides_hidden_information),
        cmocka_unit_test(test_refusals_change_nothing),
        cmocka_unit_test(test_restore_replays_to_the_same_table),
        cmocka_unit_test(test_restored_bots_choose_as_before),
        cmocka_unit_test(test_move_clock_timeouts_hand_the_seat_to_the_bot),
        cmocka_unit_test(test_acting_takes_a_handed_seat_back),
        cmocka_unit_test(test_fischer_clock_and_grace),
        cmocka_unit_test(test_grace_without_clock),
        cmocka_unit_test(test_psycle_choice_stays_hidden_in_updates),
        cmocka_unit_test(test_log_tells_events_per_viewer),
        cmocka_unit_test(test_seats_say_each_bot_level),
        cmocka_unit_test(test_seats_count_down_an_away_person_grace),
        cmocka_unit_test(test_update_says_why_the_game_ended),
        cmocka_unit_test(test_update_bytes_are_those_of_the_protocol),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

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
#include "temp_db.h"

#define UPDATE_BYTES_HASH 0x70b6f154ae5d3d84ull /* changed by issue 30: THE OCTAL and Time Masters rules */

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
static void check_updates_hide_hidden(const table *t, asobi_rng *rng)
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
        json_t *real = table_update(t, viewer, 0, 0);
        /* what the server sends: the same bytes, the view written as text */
        char *dumped = json_dumps(real, JSON_COMPACT);
        size_t len = 0;
        char *sent = table_update_text(t, viewer, 0, 0, &len);
        assert_non_null(sent);
        assert_string_equal(sent, dumped);
        assert_int_equal(len, strlen(dumped));
        bool reused = kept != NULL;
        if (reused)
            memset(kept, 'x', kept_cap);
        len = table_update_text_in(t, viewer, 0, 0, &kept, &kept_cap, HEADROOM);
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
            json_t *other = table_update_of(t, d, viewer, 0, 0);
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

/* A whole game: people at the seats without a bot play random legal moves
 * (ids from their own update's "legal"), bots move through jobs. */
static void play_out(table *t, asobi_rng *rng, int stop_after, bool check)
{
    int steps = 0;
    while (t->status == TABLE_PLAYING && (stop_after < 0 || steps < stop_after)) {
        if (check && steps % 7 == 0)
            check_updates_hide_hidden(t, rng);
        if (run_bots(t, 0, -1) > 0) {
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
        steps++;
    }
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
        play_out(t, &rng, -1, true);
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
        play_out(t, &rng, 25, false);
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
        play_out(back, &rng, -1, false);
        assert_int_equal(back->status, TABLE_OVER);
        table_free(back);
        table_free(t);
        remove_temp_store(st);
    }
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
        cmocka_unit_test(test_refusals_change_nothing),
        cmocka_unit_test(test_restore_replays_to_the_same_table),
        cmocka_unit_test(test_move_clock_timeouts_hand_the_seat_to_the_bot),
        cmocka_unit_test(test_fischer_clock_and_grace),
        cmocka_unit_test(test_grace_without_clock),
        cmocka_unit_test(test_psycle_choice_stays_hidden_in_updates),
        cmocka_unit_test(test_update_bytes_are_those_of_the_protocol),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

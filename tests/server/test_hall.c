/* test_hall.c — the server's requests without sockets (src/server/hall.c): the rematch (issue 15), persisted; a finished table brought back from the store; the tables in memory as ids grow; the store's checkpoints off the loop. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "server/hall.h"
#include "temp_db.h"

/* The hall of one test, its store in a temporary file, bot moves made
 * inline when a table changes (as the workers would). */
static char db_path[64];

static void run_bots(void *ctx, hall_slot *sl)
{
    (void)ctx;
    table_job jobs[ASOBI_MAX_SEATS];
    int n;
    while ((n = table_due_jobs(sl->t, 0, 120000, jobs, ASOBI_MAX_SEATS)) > 0) {
        for (int i = 0; i < n; i++) {
            table_job_run(&jobs[i]);
            srv_error e;
            assert_true(table_job_done(sl->t, &jobs[i], 0, &e) >= 0);
        }
    }
}

static void open_hall(hall *h)
{
    memset(h, 0, sizeof *h);
    srv_log_quiet = true;
    asobi_error err;
    h->store = store_open(db_path, &err);
    assert_non_null(h->store);
    h->changed = run_bots;
    h->allow_chosen_seeds = true; /* play_a_game's deal is the same every time */
}

static void close_hall(hall *h)
{
    hall_close(h);
    store_close(h->store);
}

static int http(hall *h, bool post, const char *path, const char *body, json_t **reply)
{
    srv_error e;
    int status = hall_http(h, post, path, body, body ? strlen(body) : 0, false, 0, reply, &e);
    assert_true(store_flush(h->store, NULL) == ASOBI_OK);
    return status;
}

static int message(hall *h, int64_t id, int seat, const char *text, srv_error *e)
{
    json_t *msg_id;
    int rc = hall_message(h, id, seat, text, strlen(text), 0, &msg_id, e);
    json_decref(msg_id);
    return rc;
}

/* A PSYCLE table, Aki at seat 0 and a random bot at seat 1, played to its
 * end by Aki's first legal action each time. Returns its id. */
static int64_t play_a_game(hall *h, char *token)
{
    json_t *r;
    assert_int_equal(http(h, true, "/api/tables", "{\"game\":\"psycle\",\"players\":2,\"seed\":3,\"bots\":[null,\"random\"],"
                                                  "\"clock\":{\"kind\":\"move\",\"seconds\":30}}", &r), 201);
    int64_t id = json_integer_value(json_object_get(r, "table"));
    json_decref(r);
    char path[64];
    snprintf(path, sizeof path, "/api/tables/%lld/join", (long long)id);
    assert_int_equal(http(h, true, path, "{\"name\":\"Aki\"}", &r), 200);
    strcpy(token, json_string_value(json_object_get(r, "token")));
    json_decref(r);
    table *t = hall_slot_of(h, id)->t;
    int ids[64];
    while (t->status == TABLE_PLAYING) {
        const asobi_state *s = asobi_match_state(t->match);
        assert_true(asobi_state_to_move(s) & 1u);
        assert_true(asobi_state_legal(s, 0, ids) > 0);
        char act[64];
        snprintf(act, sizeof act, "{\"type\":\"act\",\"action\":%d}", ids[0]);
        srv_error e;
        assert_int_equal(message(h, id, 0, act, &e), 0);
    }
    return id;
}

/* Issue 33, the replay: GET /api/tables/ID/replay?step=K gives a finished
 * table's all-seeing view after its first K actions and the moves before it
 * (at most 50), each followed by its events as the all-seeing viewer is
 * told them (the library's, read off the states before and after it); its
 * last step without step=; refused before the end (game_not_over) and for
 * a step outside 0..N (bad_request); also once the table has left memory
 * (from the store). */
static void check_replay_events(const json_t *log, size_t *k, const asobi_match *whole, int i)
{
    asobi_error err;
    asobi_match *a = asobi_match_prefix(whole, i, &err), *b = asobi_match_prefix(whole, i + 1, &err);
    int seat = asobi_match_action_seat(whole, i), id = -1;
    assert_int_equal(asobi_state_parse_action(asobi_match_state(a), seat, asobi_match_action_text(whole, i), &id, NULL),
                     ASOBI_OK);
    json_t *events = asobi_state_events(asobi_match_state(a), seat, id, asobi_match_state(b), ASOBI_ALL_SEEING);
    for (size_t e = 0; e < json_array_size(events); e++, (*k)++) {
        const json_t *entry = json_array_get(log, *k);
        assert_non_null(entry);
        assert_string_equal(json_string_value(json_object_get(entry, "kind")), "event");
        assert_int_equal(json_integer_value(json_object_get(entry, "index")), i);
        assert_true(json_equal(json_object_get(entry, "event"), json_array_get(events, e)));
    }
    json_decref(events);
    asobi_match_free(a);
    asobi_match_free(b);
}

static int check_replay_log(const json_t *log, const asobi_match *whole, int step)
{
    int actions = 0, events = 0;
    size_t k = 0;
    for (int i = step > 50 ? step - 50 : 0; i < step; i++, actions++) {
        const json_t *entry = json_array_get(log, k++);
        assert_string_equal(json_string_value(json_object_get(entry, "kind")), "action");
        assert_int_equal(json_integer_value(json_object_get(entry, "index")), i);
        assert_string_equal(json_string_value(json_object_get(entry, "text")), asobi_match_action_text(whole, i));
        size_t before = k;
        check_replay_events(log, &k, whole, i);
        events += (int)(k - before);
    }
    assert_int_equal(k, json_array_size(log)); /* nothing else */
    assert_int_equal(actions, step < 50 ? step : 50);
    return events;
}

static int check_replay_step(hall *h, int64_t id, const asobi_match *whole, int step)
{
    char path[96];
    snprintf(path, sizeof path, "/api/tables/%lld/replay?step=%d", (long long)id, step);
    json_t *r;
    assert_int_equal(http(h, false, path, NULL, &r), 200);
    assert_int_equal(json_integer_value(json_object_get(r, "step")), step);
    assert_int_equal(json_integer_value(json_object_get(r, "steps")), asobi_match_length(whole));
    asobi_error err;
    asobi_match *prefix = asobi_match_prefix(whole, step, &err);
    json_t *view = asobi_state_view(asobi_match_state(prefix), ASOBI_ALL_SEEING);
    assert_true(json_equal(view, json_object_get(r, "view")));
    int events = check_replay_log(json_object_get(r, "log"), whole, step);
    json_decref(view);
    asobi_match_free(prefix);
    json_decref(r);
    return events;
}

static void test_a_finished_table_replays_step_by_step(void **unused)
{
    (void)unused;
    temp_db_make(db_path, sizeof db_path, "hall");
    hall h;
    open_hall(&h);
    json_t *r;
    assert_int_equal(http(&h, true, "/api/tables", "{\"game\":\"psycle\",\"players\":2}", &r), 201);
    char path[96];
    snprintf(path, sizeof path, "/api/tables/%lld/replay", (long long)json_integer_value(json_object_get(r, "table")));
    json_decref(r);
    assert_int_equal(http(&h, false, path, NULL, &r), 409); /* nobody sat down: not over */
    json_decref(r);
    /* a game of bots only, played at once (run_bots), long enough for the log's cap */
    assert_int_equal(http(&h, true, "/api/tables", "{\"game\":\"ninja\",\"players\":3,\"seed\":4,"
                                                   "\"bots\":[\"random\",\"random\",\"random\"]}", &r), 201);
    int64_t id = json_integer_value(json_object_get(r, "table"));
    json_decref(r);
    assert_int_equal(hall_slot_of(&h, id)->t->status, TABLE_OVER);
    asobi_match *whole = asobi_match_prefix(hall_slot_of(&h, id)->t->match, -1, &(asobi_error){0});
    int n = asobi_match_length(whole);
    assert_true(n > 60);
    for (int step = 0; step <= n; step += (step < 3 || step >= n - 1) ? 1 : n / 4)
        check_replay_step(&h, id, whole, step);
    assert_true(check_replay_step(&h, id, whole, n) > 10); /* the last 50 moves' tricks, tiles, rounds, the end */
    snprintf(path, sizeof path, "/api/tables/%lld/replay", (long long)id); /* no step: the last */
    assert_int_equal(http(&h, false, path, NULL, &r), 200);
    assert_int_equal(json_integer_value(json_object_get(r, "step")), n);
    json_decref(r);
    const char *bad[] = {"-1", "x", "", "3x", "99999"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        snprintf(path, sizeof path, "/api/tables/%lld/replay?step=%s", (long long)id, bad[k]);
        assert_int_equal(http(&h, false, path, NULL, &r), 400);
        json_decref(r);
    }
    snprintf(path, sizeof path, "/api/tables/%lld/replay?step=%d", (long long)id, n + 1);
    assert_int_equal(http(&h, false, path, NULL, &r), 400);
    json_decref(r);
    assert_int_equal(http(&h, false, "/api/tables/999/replay", NULL, &r), 404);
    json_decref(r);
    assert_int_equal(http(&h, true, path, "{}", &r), 405);
    json_decref(r);
    hall_evict(&h, id); /* from the store now */
    check_replay_step(&h, id, whole, 2);
    asobi_match_free(whole);
    close_hall(&h);
    temp_db_remove(db_path);
}

/* Issue 15: "the result at the end with a rematch button". A seat of a
 * finished table asks; one new table is made (same game, players, options,
 * bots, clock; a new seed), the person keeps the seat under the same token,
 * and the game starts at once; the old table's updates and summary name it,
 * also after a restart. */
static void test_a_rematch_keeps_every_person_at_their_seat(void **unused)
{
    (void)unused;
    temp_db_make(db_path, sizeof db_path, "hall");
    hall h;
    open_hall(&h);
    char token[TOKEN_CHARS + 1];
    int64_t old = play_a_game(&h, token);
    srv_error e;
    assert_int_equal(message(&h, old, ASOBI_SPECTATOR, "{\"type\":\"rematch\"}", &e), -1);
    assert_string_equal(e.code, "not_seated");

    assert_int_equal(message(&h, old, 0, "{\"type\":\"rematch\"}", &e), 0);
    table *t = hall_slot_of(&h, old)->t;
    int64_t next = t->rematch;
    assert_true(next > old);
    const table *n = hall_slot_of(&h, next)->t;
    assert_int_equal(n->status, TABLE_PLAYING);
    assert_int_equal(table_seat_of_token(n, token), 0);
    assert_string_equal(n->seat[0].name, "Aki");
    assert_string_equal(n->seat[1].bot, "random");
    assert_true(json_equal(json_object_get(n->spec, "options"), json_object_get(t->spec, "options")));
    assert_true(json_equal(json_object_get(n->spec, "clock"), json_object_get(t->spec, "clock")));
    assert_int_equal(message(&h, old, 0, "{\"type\":\"rematch\"}", &e), 0); /* asked again: the same table */
    assert_int_equal(t->rematch, next);

    json_t *u = table_update(t, 0, 0, 0);
    assert_int_equal(json_integer_value(json_object_get(u, "rematch")), next);
    json_decref(u);
    char path[64];
    snprintf(path, sizeof path, "/api/tables/%lld", (long long)old);
    json_t *r;
    assert_int_equal(http(&h, false, path, NULL, &r), 200);
    assert_int_equal(json_integer_value(json_object_get(r, "rematch")), next);
    json_decref(r);

    /* a table still playing has no rematch yet */
    assert_int_equal(message(&h, next, 0, "{\"type\":\"rematch\"}", &e), -1);
    assert_string_equal(e.code, "game_not_over");

    /* the finished table left memory (a restart): the store still names it */
    size_t len[2];
    char *told[2] = {table_update_text(t, 0, 0, 0, &len[0]), NULL};
    close_hall(&h);
    open_hall(&h);
    assert_null(hall_slot_of(&h, old));
    assert_int_equal(http(&h, false, path, NULL, &r), 200);
    assert_int_equal(json_integer_value(json_object_get(r, "rematch")), next);
    json_decref(r);

    /* and a connection to it brings it back from the store as it was: the
     * same update, byte for byte, the same rematch, nothing rewritten */
    assert_null(hall_slot_or_stored(&h, 9999, 0));
    hall_slot *back = hall_slot_or_stored(&h, old, 0);
    assert_non_null(back);
    assert_ptr_equal(hall_slot_of(&h, old), back);
    assert_int_equal(back->t->status, TABLE_OVER);
    assert_int_equal(back->t->rematch, next);
    told[1] = table_update_text(back->t, 0, 0, 0, &len[1]);
    assert_int_equal(len[0], len[1]);
    assert_memory_equal(told[0], told[1], len[0]);
    free(told[0]);
    free(told[1]);
    assert_int_equal(message(&h, old, 0, "{\"type\":\"rematch\"}", &e), 0);
    assert_int_equal(hall_slot_of(&h, old)->t->rematch, next);
    hall_evict(&h, old); /* the stored summary, read again, still names it */
    assert_null(hall_slot_of(&h, old));
    assert_int_equal(http(&h, false, path, NULL, &r), 200);
    assert_int_equal(json_integer_value(json_object_get(r, "rematch")), next);
    json_decref(r);
    close_hall(&h);
    temp_db_remove(db_path);
}

/* Issue 14, hostile clients: sockets opened on many old finished tables
 * bring back at most HALL_RELOADS_MAX at once (each holds its rows and
 * queues a replay); the next is refused as busy until one is taken or
 * released, and one table is never read twice while it is under way. */
static void test_finished_tables_come_back_a_bounded_number_at_once(void **unused)
{
    (void)unused;
    temp_db_make(db_path, sizeof db_path, "hall_reloads");
    hall h;
    open_hall(&h);
    enum { N = HALL_RELOADS_MAX + 2 };
    int64_t ids[N];
    char token[TOKEN_CHARS + 1];
    for (int i = 0; i < N; i++) {
        ids[i] = play_a_game(&h, token);
        hall_evict(&h, ids[i]);
        assert_null(hall_slot_of(&h, ids[i]));
    }
    hall_reload r[N];
    for (int i = 0; i < HALL_RELOADS_MAX; i++) {
        assert_int_equal(hall_reload_read(&h, ids[i], &r[i]), HALL_RELOAD_STARTED);
        assert_true(hall_reloading(&h, ids[i]));
    }
    assert_int_equal(hall_reload_read(&h, ids[0], &r[N - 1]), HALL_RELOAD_NONE); /* under way already */
    assert_int_equal(hall_reload_read(&h, ids[HALL_RELOADS_MAX], &r[HALL_RELOADS_MAX]), HALL_RELOAD_BUSY);
    assert_false(hall_reloading(&h, ids[HALL_RELOADS_MAX]));
    assert_null(r[HALL_RELOADS_MAX].actions); /* nothing was read */

    /* one given up (the server stopping), one replayed and taken: two places free */
    hall_reload_release(&h, &r[0]);
    assert_false(hall_reloading(&h, ids[0]));
    hall_reload_replay(&r[1], h.store, 0);
    assert_non_null(hall_reload_take(&h, &r[1]));
    assert_false(hall_reloading(&h, ids[1]));
    assert_non_null(hall_slot_of(&h, ids[1]));
    assert_int_equal(hall_reload_read(&h, ids[1], &r[N - 1]), HALL_RELOAD_NONE); /* in memory now */
    assert_int_equal(hall_reload_read(&h, ids[HALL_RELOADS_MAX], &r[HALL_RELOADS_MAX]), HALL_RELOAD_STARTED);
    assert_int_equal(hall_reload_read(&h, ids[N - 1], &r[N - 1]), HALL_RELOAD_STARTED);
    assert_int_equal(hall_reload_read(&h, ids[0], &r[0]), HALL_RELOAD_BUSY);

    for (int i = 2; i < N; i++) {
        hall_reload_replay(&r[i], h.store, 0);
        hall_slot *sl = hall_reload_take(&h, &r[i]);
        assert_non_null(sl);
        assert_int_equal(sl->t->status, TABLE_OVER);
    }
    assert_int_equal(h.n_reloading, 0);
    assert_int_equal(hall_reload_read(&h, ids[0], &r[0]), HALL_RELOAD_STARTED);
    hall_reload_release(&h, &r[0]);
    assert_int_equal(h.n_reloading, 0);
    close_hall(&h);
    temp_db_remove(db_path);
}

/* A server runs for weeks and table ids only grow: the hall's memory and
 * its scans must follow the tables in memory, not every id ever given
 * (issue 14: it had been an array indexed by id, which grew for good). */
static void test_the_slots_follow_the_tables_in_memory_not_the_ids(void **unused)
{
    (void)unused;
    temp_db_make(db_path, sizeof db_path, "hall_slots");
    hall h;
    open_hall(&h);
    enum { ROUNDS = 40, PER_ROUND = 25 };
    int64_t first = 0, last = 0;
    for (int round = 0; round < ROUNDS; round++) {
        for (int k = 0; k < PER_ROUND; k++) {
            json_t *r;
            assert_int_equal(http(&h, true, "/api/tables", "{\"game\":\"psycle\",\"players\":2}", &r), 201);
            last = json_integer_value(json_object_get(r, "table"));
            json_decref(r);
            if (!first)
                first = last;
        }
        /* all but every seventh table leave (as finished ones would) */
        for (int64_t id = first; id <= last; id++)
            if (id % 7 != 0)
                hall_evict(&h, id);
        assert_true(h.n_slots <= 2 * h.tables_in_memory + PER_ROUND);
    }
    assert_int_equal(last - first + 1, ROUNDS * PER_ROUND);
    int64_t kept = 0;
    for (int64_t id = first - 1; id <= last + 1; id++) {
        hall_slot *sl = hall_slot_of(&h, id);
        bool here = id >= first && id <= last && id % 7 == 0;
        assert_int_equal(sl != NULL, here);
        if (sl) {
            assert_int_equal(sl->id, id);
            assert_int_equal(sl->t->id, id);
            kept++;
        }
    }
    assert_int_equal(kept, h.tables_in_memory);
    assert_true(h.cap_slots < 4 * kept + 128); /* not the 1000 ids given */

    /* the lobby lists exactly those, newest first, in pages of at most
     * HALL_PAGE_TABLES (issue 31 point 4: "list at most 100 tables per page
     * (GET /api/tables?before=ID)") */
    json_t *list = json_array();
    char path[64] = "/api/tables";
    for (int pages = 1;; pages++) {
        json_t *r;
        assert_int_equal(http(&h, false, path, NULL, &r), 200);
        json_t *page = json_object_get(r, "tables"), *next = json_object_get(r, "next");
        assert_true(json_array_size(page) <= HALL_PAGE_TABLES);
        json_array_extend(list, page);
        assert_true(pages <= kept / HALL_PAGE_TABLES + 1);
        if (next)
            snprintf(path, sizeof path, "/api/tables?before=%lld", (long long)json_integer_value(next));
        json_decref(r);
        if (!next)
            break;
    }
    assert_int_equal((int64_t)json_array_size(list), kept);
    for (size_t i = 0; i + 1 < json_array_size(list); i++)
        assert_true(json_integer_value(json_object_get(json_array_get(list, i), "table")) >
                    json_integer_value(json_object_get(json_array_get(list, i + 1), "table")));
    json_decref(list);
    close_hall(&h);
    temp_db_remove(db_path);
}

/* Issue 31 point 5: "cap all-bot tables ... overall". A table whose every
 * seat is a bot's is refused past max_bot_tables (503 too_many_bot_tables),
 * and the refusal makes no table; a table where a person may sit is not. */
static void test_tables_only_bots_play_are_capped(void **unused)
{
    (void)unused;
    temp_db_make(db_path, sizeof db_path, "hall_bots");
    hall h;
    open_hall(&h);
    h.changed = NULL; /* the bots do not move: the tables stay unfinished */
    h.max_bot_tables = 2;
    const char *bots = "{\"game\":\"psycle\",\"players\":2,\"bots\":[\"random\",\"heuristic\"]}";
    json_t *r;
    for (int i = 0; i < 2; i++) {
        assert_int_equal(http(&h, true, "/api/tables", bots, &r), 201);
        json_decref(r);
    }
    assert_int_equal(http(&h, true, "/api/tables", bots, &r), 503);
    assert_string_equal(json_string_value(json_object_get(json_object_get(r, "error"), "code")), "too_many_bot_tables");
    json_decref(r);
    assert_int_equal(h.tables_in_memory, 2);
    assert_int_equal(hall_bot_tables(&h), 2);
    /* a person's seat (null, or missing from a short list) is no table of bots */
    assert_int_equal(http(&h, true, "/api/tables", "{\"game\":\"psycle\",\"bots\":[\"random\",null]}", &r), 201);
    json_decref(r);
    assert_int_equal(http(&h, true, "/api/tables", "{\"game\":\"psycle\",\"bots\":[\"random\"]}", &r), 201);
    assert_int_equal(json_integer_value(json_object_get(r, "table")), 4); /* the refusal made none */
    json_decref(r);
    close_hall(&h);
    temp_db_remove(db_path);
}

/* Issue 33: POST /api/tables/ID/leave. A left seat is played by the heuristic for good and its token holds
 * nothing; a refusal changes nothing; once no person holds a seat, the table is abandoned: out of the list, and
 * no bot moves there any more (the socket side ends it as an expired table: tests/server/test_leave.py). */
static bool listed(const hall *h, int64_t id)
{
    json_t *page = hall_tables_json(h, 0), *summary;
    size_t i;
    bool found = false;
    json_array_foreach(json_object_get(page, "tables"), i, summary)
        found |= json_integer_value(json_object_get(summary, "table")) == id;
    json_decref(page);
    return found;
}

static void test_a_left_seat_goes_to_the_bot_and_a_table_nobody_holds_is_abandoned(void **unused)
{
    (void)unused;
    temp_db_make(db_path, sizeof db_path, "hall");
    hall h;
    open_hall(&h);
    json_t *r;
    assert_int_equal(http(&h, true, "/api/tables", "{\"game\":\"psycle\",\"players\":2}", &r), 201);
    int64_t id = json_integer_value(json_object_get(r, "table"));
    json_decref(r);
    char path[64], body[128], aki[TOKEN_CHARS + 1], ben[TOKEN_CHARS + 1];
    snprintf(path, sizeof path, "/api/tables/%lld/join", (long long)id);
    assert_int_equal(http(&h, true, path, "{\"name\":\"Aki\"}", &r), 200);
    snprintf(aki, sizeof aki, "%s", json_string_value(json_object_get(r, "token")));
    json_decref(r);
    assert_int_equal(http(&h, true, path, "{\"name\":\"Ben\"}", &r), 200);
    snprintf(ben, sizeof ben, "%s", json_string_value(json_object_get(r, "token")));
    json_decref(r);
    table *t = hall_slot_of(&h, id)->t;
    json_t *before = table_summary(t);

    snprintf(path, sizeof path, "/api/tables/%lld/leave", (long long)id);
    const char *refused[][2] = {{"{}", "bad_request"}, {"{\"token\":1}", "bad_request"},
                                {"{\"token\":\"00000000000000000000000000000000\"}", "bad_token"}, {"[]", "bad_request"}};
    for (size_t k = 0; k < sizeof refused / sizeof *refused; k++) {
        assert_true(http(&h, true, path, refused[k][0], &r) >= 400);
        assert_string_equal(json_string_value(json_object_get(json_object_get(r, "error"), "code")), refused[k][1]);
        json_decref(r);
    }
    json_t *after = table_summary(t);
    assert_true(json_equal(before, after)); /* a refusal changes nothing */
    json_decref(after);
    json_decref(before);

    snprintf(body, sizeof body, "{\"token\":\"%s\"}", aki);
    assert_int_equal(http(&h, true, path, body, &r), 200);
    assert_int_equal(json_integer_value(json_object_get(r, "seat")), 0);
    assert_false(json_is_true(json_object_get(r, "abandoned")));
    json_decref(r);
    assert_true(t->seat[0].handed && t->seat[0].left && !t->abandoned);
    assert_int_equal(table_seat_of_token(t, aki), -1); /* no socket takes it back */
    assert_true(listed(&h, id));
    assert_int_equal(http(&h, true, path, body, &r), 403); /* twice */
    json_decref(r);
    srv_error e; /* a tab still open on the seat acts for it no more */
    assert_int_equal(message(&h, id, 0, "{\"type\":\"act\",\"action\":0}", &e), -1);
    assert_string_equal(e.code, "bad_token");

    snprintf(body, sizeof body, "{\"token\":\"%s\"}", ben);
    assert_int_equal(http(&h, true, path, body, &r), 200);
    assert_true(json_is_true(json_object_get(r, "abandoned")));
    json_decref(r);
    assert_true(t->abandoned);
    assert_false(listed(&h, id));
    table_job jobs[ASOBI_MAX_SEATS];
    assert_int_equal(table_due_jobs(t, 0, 0, jobs, ASOBI_MAX_SEATS), 0); /* nobody to move for */
    assert_int_equal(http(&h, true, path, body, &r), 404);
    json_decref(r);
    close_hall(&h);
    temp_db_remove(db_path);
}

static long long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
}

/* The store at path, opened, with one PSYCLE table in it (*id). */
static store *store_with_one_table(const char *path, int64_t *id)
{
    asobi_error err;
    store *st = store_open(path, &err);
    assert_non_null(st);
    json_t *spec = json_pack("{s:s, s:i}", "game", "psycle", "players", 2);
    assert_int_equal(store_create_table(st, spec, id, &err), ASOBI_OK);
    json_decref(spec);
    return st;
}

/* The store's checkpoints run on a thread of their own (store_sqlite.c),
 * woken by the loop connection's commits once the WAL holds 1000 pages; the
 * loop's connection checkpoints only when the WAL reaches 2000 pages (the
 * thread outrun). Over 12000 commits of a kilobyte each, the pages must
 * reach the database file and the WAL must keep being started over, not
 * grow with every commit. */
static void test_the_wal_is_checkpointed_and_kept_short(void **unused)
{
    (void)unused;
    temp_db_make(db_path, sizeof db_path, "checkpoint");
    char wal[96];
    snprintf(wal, sizeof wal, "%s-wal", db_path);
    asobi_error err;
    int64_t id;
    store *st = store_with_one_table(db_path, &id);
    char action[1001];
    memset(action, 'a', sizeof action - 1);
    action[sizeof action - 1] = '\0';
    long long wal_max = 0;
    for (int i = 0; i < 12000; i++) {
        assert_int_equal(store_add_action(st, id, i, i % 2, action, "human", -1, &err), ASOBI_OK);
        assert_int_equal(store_flush(st, &err), ASOBI_OK);
        long long w = file_size(wal);
        wal_max = w > wal_max ? w : wal_max;
    }
    long long db = file_size(db_path);
    for (int wait = 0; wait < 50 && db < 10000000; wait++) { /* the last checkpoint may still run: up to 5 s */
        struct timespec tick = {0, 100 * 1000000L};
        nanosleep(&tick, NULL);
        db = file_size(db_path);
    }
    assert_true(db >= 10000000); /* the rows (54-56 MB of pages, as it happens) reached the database file */
    /* Started over: the loop's own checkpoint comes at 2000 pages (8 MB), and
     * the WAL grows past that only while the thread's checkpoint runs (seen:
     * 9-14 MB, as much with both cores kept busy by other processes), and at
     * 5000 pages (20.6 MB) the loop waits for that checkpoint, however slow
     * the disk (before that wait: 24-30 MB and failing here with another
     * process's fsyncs in the way, `dd conv=fsync` in a loop); never started
     * over, it would be as long as the database. */
    assert_true(wal_max < 24000000);
    store_close(st);
    temp_db_remove(db_path);
}

/* In a child process (forked before this process opens anything, so that
 * it shares none of SQLite's state), open the store at path once the byte
 * on ready arrives; the child's exit status says what happened: 0 opened,
 * 1 refused as in use by another process and the file read with SQLite
 * all the same, 2 anything else (also: the parent gone before sending the
 * byte). */
static pid_t open_in_another_process(const char *path, int pipes[2][2], int ready)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    for (int i = 0; i < 2; i++) /* all but ready: a parent gone (a failed assert) reads as end of file */
        for (int end = 0; end < 2; end++)
            if (pipes[i][end] != ready)
                close(pipes[i][end]);
    char go;
    if (read(ready, &go, 1) != 1)
        _exit(2);
    asobi_error err;
    store *st = store_open(path, &err);
    if (st) {
        store_close(st);
        _exit(0);
    }
    if (err.code != ASOBI_E_IO || !strstr(err.message, "is in use by another process"))
        _exit(2);
    /* refused: SQLite itself still reads the file (the one table there) */
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    bool readable = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
                    sqlite3_prepare_v2(db, "SELECT count(*) FROM tables", -1, &q, NULL) == SQLITE_OK &&
                    sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 0) == 1;
    sqlite3_finalize(q);
    sqlite3_close(db);
    _exit(readable ? 1 : 2);
}

static int exit_status_of(pid_t pid)
{
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* One store per database file (store_sqlite.c, hold_file): while a store is
 * open, another process's store_open is refused with a clear message, and
 * that process still reads the file through SQLite; once the store is
 * closed, the file opens again. */
static void test_a_database_is_held_by_one_process(void **unused)
{
    (void)unused;
    temp_db_make(db_path, sizeof db_path, "held");
    int pipes[2][2];
    assert_int_equal(pipe(pipes[0]), 0);
    assert_int_equal(pipe(pipes[1]), 0);
    pid_t while_open = open_in_another_process(db_path, pipes, pipes[0][0]);
    pid_t after_close = open_in_another_process(db_path, pipes, pipes[1][0]);
    assert_true(while_open > 0 && after_close > 0);
    asobi_error err;
    int64_t id;
    store *st = store_with_one_table(db_path, &id);
    assert_int_equal(store_flush(st, &err), ASOBI_OK);
    assert_int_equal(write(pipes[0][1], "g", 1), 1);
    assert_int_equal(exit_status_of(while_open), 1);
    store_close(st);
    assert_int_equal(write(pipes[1][1], "g", 1), 1);
    assert_int_equal(exit_status_of(after_close), 0);
    for (int i = 0; i < 2; i++) {
        close(pipes[i][0]);
        close(pipes[i][1]);
    }
    temp_db_remove(db_path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_rematch_keeps_every_person_at_their_seat),
        cmocka_unit_test(test_a_finished_table_replays_step_by_step),
        cmocka_unit_test(test_finished_tables_come_back_a_bounded_number_at_once),
        cmocka_unit_test(test_the_slots_follow_the_tables_in_memory_not_the_ids),
        cmocka_unit_test(test_tables_only_bots_play_are_capped),
        cmocka_unit_test(test_a_left_seat_goes_to_the_bot_and_a_table_nobody_holds_is_abandoned),
        cmocka_unit_test(test_the_wal_is_checkpointed_and_kept_short),
        cmocka_unit_test(test_a_database_is_held_by_one_process),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_table_undo.c — taking back at a table, without sockets: views back byte for byte, refusals change nothing, the journal restores, clocks, bots (issue 44). */
#define _GNU_SOURCE /* mkstemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "server/store.h"
#include "server/table.h"
#include "repetitions.h"
#include "temp_db.h"

static char db_path[64];

static store *open_temp_store(void)
{
    temp_db_make(db_path, sizeof db_path, "undo");
    asobi_error err;
    store *st = store_open(db_path, &err);
    assert_non_null(st);
    return st;
}

/* A table of people only (but for bots, a JSON array or NULL), every seat joined. */
static table *people_table(store *st, const char *game, int players, uint64_t seed, const char *extra)
{
    char json[512];
    snprintf(json, sizeof json, "{\"game\":\"%s\",\"players\":%d,\"seed\":%llu%s}", game, players,
             (unsigned long long)seed, extra ? extra : "");
    json_t *req = json_loads(json, 0, NULL);
    srv_error e;
    table *t = table_create(st, req, 0, &e);
    json_decref(req);
    if (!t)
        fail_msg("%s: %s", json, e.message);
    for (int s = 0; s < players; s++) {
        if (t->seat[s].bot)
            continue;
        char token[TOKEN_CHARS + 1];
        int k;
        json_t *j = json_pack("{s:s, s:i}", "name", "P", "seat", s);
        assert_int_equal(table_join(t, j, 0, &k, token, &e), 0);
        json_decref(j);
    }
    return t;
}

/* What viewer is told of the table now, but for the log and the seats (the
 * parts a take-back adds to, or that connections change): the view, the
 * legal actions, the status, the clock. */
static char *told(const table *t, const asobi_state *state, int viewer, int64_t now)
{
    json_t *u = table_update_of(t, state, viewer, t->log_count, now);
    json_object_del(u, "log");
    json_object_del(u, "seats");
    json_object_del(u, "undo");
    char *text = json_dumps(u, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(u);
    return text;
}

/* The whole of every viewer's update (its log from the start), for "nothing changed". */
static char *everything(const table *t, int64_t now)
{
    size_t cap = 1 << 16, len = 0;
    char *all = malloc(cap);
    for (int v = ASOBI_SPECTATOR; v < t->players; v++) {
        if (v == ASOBI_ALL_SEEING)
            continue;
        size_t n;
        char *text = table_update_text(t, v, 0, now, &n);
        while (len + n + 1 > cap)
            all = realloc(all, cap *= 2);
        memcpy(all + len, text, n);
        len += n;
        all[len++] = '\n';
        free(text);
    }
    all[len] = '\0';
    return all;
}

static void assert_undo_refused(table *t, int seat, int64_t now, const char *code)
{
    asobi_state *state = asobi_state_clone(asobi_match_state(t->match));
    char *before = everything(t, now);
    uint64_t version = t->version;
    int journal = t->journal;
    srv_error e;
    assert_int_not_equal(table_undo(t, seat, now, &e), 0);
    assert_string_equal(e.code, code);
    assert_true(e.message[0] != '\0');
    char *after = everything(t, now);
    assert_string_equal(after, before);
    assert_true(t->version == version && t->journal == journal);
    assert_true(asobi_state_equal(asobi_match_state(t->match), state));
    asobi_state_free(state);
    free(after);
    free(before);
}

/* The same, cheaper (no update of the whole log): the state, the journal,
 * the log and the version stay. For the long games' every refusal. */
static void assert_undo_refused_quickly(table *t, int seat)
{
    asobi_state *state = asobi_state_clone(asobi_match_state(t->match));
    uint64_t version = t->version;
    int journal = t->journal, log_count = t->log_count;
    srv_error e;
    assert_int_not_equal(table_undo(t, seat, 0, &e), 0);
    assert_string_equal(e.code, "undo_not_allowed");
    assert_true(asobi_state_equal(asobi_match_state(t->match), state));
    assert_true(t->version == version && t->journal == journal && t->log_count == log_count);
    asobi_state_free(state);
}

/* The seat to act: the lowest person's seat to move. */
static int seat_to_act(const table *t)
{
    uint32_t to_move = asobi_state_to_move(asobi_match_state(t->match));
    for (int s = 0; s < t->players; s++)
        if ((to_move & (1u << s)) && !t->seat[s].bot)
            return s;
    return -1;
}

static void act_at_random(table *t, int seat, asobi_rng *rng, int64_t now)
{
    json_t *u = table_update(t, seat, 0, now);
    const json_t *legal = json_object_get(u, "legal");
    assert_true(json_array_size(legal) > 0);
    const json_t *pick = json_array_get(legal, asobi_rng_below(rng, (uint32_t)json_array_size(legal)));
    srv_error e;
    if (table_act(t, seat, json_object_get(pick, "id"), now, &e) != 0)
        fail_msg("seat %d: %s", seat, e.message);
    json_decref(u);
}

/* The viewers of a table, k from -1: the spectator, then every seat. */
#define VIEWER(k) ((k) < 0 ? ASOBI_SPECTATOR : (k))

typedef struct undo_counts {
    int taken_back, refused;
} undo_counts;

/* One game of people at random; whenever the mover may take back, it does
 * now and then: every viewer is told again what it was told before the
 * action (view, legal actions, status), byte for byte; the log gains one
 * "undo" entry per viewer, the withdrawn action as that viewer was told it;
 * the update says "undo" exactly when table_undo succeeds. A refusal changes
 * nothing that anyone is told. */
static void play_taking_back(table *t, asobi_rng *rng, int stop_after, undo_counts *c)
{
    int steps = 0;
    asobi_state *before = asobi_state_clone(asobi_match_state(t->match));
    while (t->status == TABLE_PLAYING && (stop_after < 0 || steps < stop_after)) {
        int seat = seat_to_act(t);
        assert_true(seat >= 0);
        asobi_state_copy(before, asobi_match_state(t->match));
        act_at_random(t, seat, rng, 0);
        steps++;
        int entry = t->log_count - 1;
        while (entry > 0 && t->log[entry].undo)
            entry--;
        json_t *mine = table_update(t, seat, t->log_count, 0);
        bool says = json_is_true(json_object_get(mine, "undo"));
        json_decref(mine);
        for (int v = -1; v < t->players; v++) { /* nobody else is offered to take anything back, nor a spectator */
            if (v != seat && v >= 0 && table_may_undo(t, v)) {
                uint32_t to_move = asobi_state_to_move(asobi_match_state(t->match));
                /* PSYCLE: an earlier face-down choice of the same round */
                assert_true(strcmp(asobi_game_name(asobi_state_game(asobi_match_state(t->match))), "psycle") == 0 &&
                            !(to_move & (1u << v)));
            }
        }
        assert_int_equal(says, table_may_undo(t, seat));
        if (!says) {
            if (c->refused++ % 16 == 0) /* every viewer's whole update, now and then */
                assert_undo_refused(t, seat, 0, "undo_not_allowed");
            else
                assert_undo_refused_quickly(t, seat);
        } else if (asobi_rng_below(rng, 3) != 0) {
            int log_count = t->log_count;
            int gone = log_count - 1; /* an index: the take-back's entry may move the log */
            while (t->log[gone].seat != seat || t->log[gone].undo)
                gone--;
            srv_error e;
            if (table_undo(t, seat, 0, &e) != 0)
                fail_msg("the update said undo, and the take-back was refused: %s", e.message);
            c->taken_back++;
            assert_int_equal(t->log_count, log_count + 1);
            const table_event *said = &t->log[log_count];
            assert_true(said->undo && said->seat == seat && strcmp(said->by, "human") == 0 && t->log[gone].taken_back);
            for (int v = -1; v < t->players; v++) {
                char *now = told(t, asobi_match_state(t->match), VIEWER(v), 0), *was = told(t, before, VIEWER(v), 0);
                if (strcmp(now, was) != 0)
                    fail_msg("viewer %d is told another table after the take-back:\n%s\ninstead of\n%s", v, now, was);
                free(now);
                free(was);
                int column = v < 0 ? t->players : v;
                assert_string_equal(said->text[column], t->log[gone].text[column]);
                json_t *u = table_update(t, VIEWER(v), log_count, 0);
                const json_t *entry0 = json_array_get(json_object_get(u, "log"), 0);
                assert_string_equal(json_string_value(json_object_get(entry0, "kind")), "undo");
                assert_int_equal(json_array_size(json_object_get(u, "log")), 1);
                json_decref(u);
            }
        }
    }
    asobi_state_free(before);
}

static void test_every_game_takes_back_and_tells_everyone_what_it_was(void **unused)
{
    (void)unused;
    for (int g = 0; g < asobi_game_count(); g++) {
        const asobi_game_def *def = asobi_game_at(g);
        for (int p = asobi_game_min_players(def); p <= asobi_game_max_players(def); p++) {
            undo_counts c = {0};
            for (int i = 0; i < test_reps(1); i++) {
                store *st = open_temp_store();
                table *t = people_table(st, asobi_game_name(def), p, 900u + 10u * (uint64_t)p + (uint64_t)i, NULL);
                asobi_rng rng;
                asobi_rng_seed(&rng, (uint64_t)(g * 100 + p * 10 + i));
                /* a whole game, but Time Masters' (long: its first 400 moves) */
                bool long_game = strcmp(asobi_game_name(def), "timemasters") == 0;
                play_taking_back(t, &rng, long_game ? 400 : -1, &c);
                if (t->status == TABLE_OVER)
                    assert_undo_refused(t, 0, 0, "undo_not_allowed"); /* the end is final */
                table_free(t);
                store_close(st);
                temp_db_remove(db_path);
            }
            print_message("%s %dp: %d taken back, %d refused\n", asobi_game_name(def), p, c.taken_back, c.refused);
            if (strcmp(asobi_game_name(def), "octal") != 0) /* THE OCTAL: every move ends the turn or draws */
                assert_true(c.taken_back > 0);
        }
    }
}

static int restore_into(void *ctx, int64_t id, const json_t *spec, const json_t *seats, const json_t *actions)
{
    table **out = ctx;
    asobi_error err;
    (void)id;
    *out = table_restore(NULL, id, spec, seats, actions, NULL, 0, &err);
    if (!*out)
        fail_msg("restore: %s", err.message);
    return 0;
}

/* The store's journal holds the take-backs (rows by "undo"): a restored
 * table tells every viewer the same (log, "undo" and all), keeps the same
 * record, with no taken-back action in it, and plays on. */
static void test_take_backs_are_kept_across_a_restart(void **unused)
{
    (void)unused;
    const char *games[] = {"timemasters", "ninja", "psycle"};
    for (int g = 0; g < 3; g++) {
        store *st = open_temp_store();
        table *t = people_table(st, games[g], 3, 77 + (uint64_t)g, ",\"clock\":{\"kind\":\"fischer\",\"base\":600,"
                                "\"increment\":5}");
        asobi_rng rng;
        asobi_rng_seed(&rng, 5 + (uint64_t)g);
        undo_counts c = {0};
        while (c.taken_back < 3)
            play_taking_back(t, &rng, 1, &c);
        assert_int_equal(t->status, TABLE_PLAYING);
        asobi_error err;
        assert_int_equal(store_flush(st, &err), ASOBI_OK);
        store_close(st);
        st = store_open(db_path, &err);
        table *back = NULL;
        assert_int_equal(store_load_unfinished(st, restore_into, &back, &err), ASOBI_OK);
        assert_non_null(back);
        assert_true(asobi_state_equal(asobi_match_state(t->match), asobi_match_state(back->match)));
        assert_int_equal(back->journal, t->journal);
        char *a = asobi_match_record_text(t->match, NULL), *b = asobi_match_record_text(back->match, NULL);
        assert_string_equal(a, b);
        free(a);
        free(b);
        /* the journal: every action made and every take-back; the record: the actions not taken back */
        assert_int_equal(t->journal, t->log_count);
        assert_int_equal(asobi_match_length(back->match), t->log_count - 2 * c.taken_back);
        for (int v = ASOBI_SPECTATOR; v < t->players; v++) {
            if (v == ASOBI_ALL_SEEING)
                continue;
            json_t *x = table_update(t, v, 0, 0), *y = table_update(back, v, 0, 0);
            json_object_del(x, "seats");
            json_object_del(y, "seats");
            json_object_del(x, "clock"); /* a restored clock starts again (docs/server.md) */
            json_object_del(y, "clock");
            assert_true(json_equal(x, y));
            json_decref(x);
            json_decref(y);
        }
        for (int s = 0; s < t->players; s++)
            assert_int_equal(back->seat[s].bank_ms, t->seat[s].bank_ms);
        back->store = st;
        play_taking_back(back, &rng, -1, &c);
        assert_int_equal(back->status, TABLE_OVER);
        table_free(back);
        table_free(t);
        store_close(st);
        temp_db_remove(db_path);
    }
}

/* Play at random (time now) until the mover may take its action back; its
 * seat, and its clock's bank before that action in *bank. */
static int until_undoable(table *t, asobi_rng *rng, int64_t now, int64_t *bank)
{
    for (int i = 0; i < 500; i++) {
        int seat = seat_to_act(t);
        if (bank)
            *bank = t->seat[seat].bank_ms;
        act_at_random(t, seat, rng, now);
        if (table_may_undo(t, seat))
            return seat;
    }
    fail_msg("nothing to take back in 500 moves");
    return -1;
}

static int64_t remaining(const table *t, int seat, int64_t now)
{
    json_t *clock = table_clock_json(t, now);
    int64_t left = json_integer_value(json_array_get(json_object_get(clock, "remaining_ms"), (size_t)seat));
    json_decref(clock);
    return left;
}

/* Acting and taking back never wins time: the mover's clock is put back to
 * where it was before the action and keeps running. A move clock is not
 * started afresh by the withdrawn action; a Fischer increment is returned. */
static void test_taking_back_never_wins_time(void **unused)
{
    (void)unused;
    asobi_rng rng;
    asobi_rng_seed(&rng, 12);
    store *st = open_temp_store();
    table *t = people_table(st, "ninja", 3, 11, ",\"clock\":{\"kind\":\"move\",\"seconds\":30}");
    int seat = until_undoable(t, &rng, 0, NULL);
    int id = asobi_match_action_id(t->match, asobi_match_length(t->match) - 1);
    srv_error e;
    assert_int_equal(table_undo(t, seat, 0, &e), 0);
    /* made again at 5 s (the seat's move clock then starts afresh), taken back at 9 s */
    json_t *again = json_integer(id);
    assert_int_equal(table_act(t, seat, again, 5000, &e), 0);
    json_decref(again);
    assert_int_equal(remaining(t, seat, 9000), 30000 - 4000);
    assert_int_equal(table_undo(t, seat, 9000, &e), 0);
    assert_int_equal(remaining(t, seat, 9000), 30000 - 9000); /* the turn's 9 s count */
    table_free(t);
    store_close(st);
    temp_db_remove(db_path);

    st = open_temp_store();
    t = people_table(st, "ninja", 3, 11, ",\"clock\":{\"kind\":\"fischer\",\"base\":60,\"increment\":10}");
    asobi_rng_seed(&rng, 12);
    int64_t bank;
    seat = until_undoable(t, &rng, 0, &bank);
    assert_int_equal(t->seat[seat].bank_ms, bank + 10000); /* the increment, earned at 0 s */
    assert_int_equal(table_undo(t, seat, 4000, &e), 0);
    assert_int_equal(remaining(t, seat, 4000), bank - 4000); /* returned; the 4 s count */
    table_free(t);
    store_close(st);
    temp_db_remove(db_path);
}

/* Bots never undo, and a person never takes back what a bot or a timeout
 * played for them; a bot's move computed before a take-back is stale after
 * it, even when the history is as long again. */
static void test_bots_moves_are_not_taken_back_and_go_stale(void **unused)
{
    (void)unused;
    asobi_rng rng;
    asobi_rng_seed(&rng, 3);
    store *st = open_temp_store();
    table *t = people_table(st, "ninja", 3, 11, NULL);
    /* a quiet move, taken back, then played for the seat by its timeout: the library would let it be
     * taken back, the table does not */
    int seat = until_undoable(t, &rng, 0, NULL);
    int id = asobi_match_action_id(t->match, asobi_match_length(t->match) - 1);
    srv_error e;
    assert_int_equal(table_undo(t, seat, 0, &e), 0);
    table_job job = {.table = t->id, .seat = seat, .at = asobi_match_length(t->match), .journal = t->journal,
                     .by = "timeout", .id = id};
    assert_int_equal(table_job_done(t, &job, 0, &e), 1);
    assert_true(asobi_match_can_undo(t->match, seat));
    assert_false(table_may_undo(t, seat));
    assert_undo_refused(t, seat, 0, "undo_not_allowed");
    table_free(t);
    store_close(st);
    temp_db_remove(db_path);

    /* PSYCLE with a bot: its move is computed, the person chooses and takes it back meanwhile */
    st = open_temp_store();
    t = people_table(st, "psycle", 2, 8, ",\"bots\":[null,\"random\"]");
    table_job jobs[ASOBI_MAX_SEATS];
    assert_int_equal(table_due_jobs(t, 0, -1, jobs, ASOBI_MAX_SEATS), 1);
    table_job_run(&jobs[0]);
    act_at_random(t, 0, &rng, 0);
    assert_true(table_may_undo(t, 0));
    assert_false(table_may_undo(t, 1));
    assert_int_equal(table_undo(t, 0, 0, &e), 0);
    assert_int_equal(asobi_match_length(t->match), jobs[0].at); /* as long as when the bot was asked */
    assert_int_equal(table_job_done(t, &jobs[0], 0, &e), 0);   /* ... and still stale */
    table_free(t);
    store_close(st);
    temp_db_remove(db_path);
}

/* Who may not: a spectator, before the start, nothing done yet. */
static void test_refusals(void **unused)
{
    (void)unused;
    store *st = open_temp_store();
    json_t *req = json_pack("{s:s, s:i}", "game", "ninja", "players", 3);
    srv_error e;
    table *t = table_create(st, req, 0, &e);
    json_decref(req);
    assert_undo_refused(t, 0, 0, "not_started");
    assert_undo_refused(t, ASOBI_SPECTATOR, 0, "not_seated");
    table_free(t);
    t = people_table(st, "ninja", 3, 11, NULL);
    assert_undo_refused(t, 0, 0, "undo_not_allowed");
    assert_undo_refused(t, 1, 0, "undo_not_allowed");
    table_free(t);
    store_close(st);
    temp_db_remove(db_path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_taking_back_never_wins_time),
        cmocka_unit_test(test_bots_moves_are_not_taken_back_and_go_stale),
        cmocka_unit_test(test_take_backs_are_kept_across_a_restart),
        cmocka_unit_test(test_every_game_takes_back_and_tells_everyone_what_it_was),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

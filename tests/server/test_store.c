/* test_store.c — store.h's contract, against SQLite and (under tests/support/pg_fixture.py) PostgreSQL; PostgreSQL's leases and fencing. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <libpq-fe.h>

#include "server/store.h"
#include "temp_store.h"

static store *open_as(const char *node, int64_t lease_ms)
{
    asobi_error err;
    store_options opt = {.node = node, .public_url = node ? "http://node.example" : NULL, .lease_ms = lease_ms};
    store *st = store_open_with(temp_store_where(), &opt, &err);
    if (!st)
        fail_msg("store_open: %s", err.message);
    return st;
}

/* Count the rows a query returns on PostgreSQL (a connection of the test's own). */
static long pg_count(const char *sql)
{
    PGconn *c = PQconnectdb(temp_store.pg);
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    PGresult *r = PQexec(c, sql);
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    long n = strtol(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    PQfinish(c);
    return n;
}

static void pg_exec(const char *sql)
{
    PGconn *c = PQconnectdb(temp_store.pg);
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    PGresult *r = PQexec(c, sql);
    assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
    PQfinish(c);
}

static int count_unfinished(void *ctx, int64_t id, const json_t *spec, const json_t *seats, const json_t *actions)
{
    (void)spec;
    json_t *seen = ctx;
    json_array_append_new(seen, json_pack("{s:I, s:I, s:I}", "id", (json_int_t)id, "seats",
                                          (json_int_t)json_array_size(seats), "actions",
                                          (json_int_t)json_array_size(actions)));
    return ASOBI_OK;
}

/* The whole life of a table: created, seats (one left for good), actions, flushed; read back
 * after a restart; finished (no longer restored, its record found); a
 * rematch noted; an expired table neither restored nor found. */
static void test_a_table_from_creation_to_record(void **state)
{
    (void)state;
    asobi_error err;
    store *st = open_as("store-a", 0);
    json_t *spec = json_pack("{s:s, s:i, s:i}", "game", "psycle", "players", 2, "created", 1);
    int64_t id = 0, gone = 0;
    assert_int_equal(store_create_table(st, spec, &id, &err), ASOBI_OK);
    assert_true(id > 0);
    assert_int_equal(store_add_seat(st, id, 0, "Aoi", "hash0", &err), ASOBI_OK);
    assert_int_equal(store_add_seat(st, id, 1, "Ben", "hash1", &err), ASOBI_OK);
    assert_int_equal(store_leave_seat(st, id, 1, &err), ASOBI_OK); /* left for good: its hash emptied (issue 39) */
    assert_int_equal(store_add_action(st, id, 0, 0, "play 1", "human", -1, &err), ASOBI_OK);
    assert_int_equal(store_add_action(st, id, 1, 1, "play 2", "bot", 1500, &err), ASOBI_OK);
    assert_int_equal(store_create_table(st, spec, &gone, &err), ASOBI_OK);
    assert_int_not_equal(gone, id);
    assert_int_equal(store_flush(st, &err), ASOBI_OK);
    assert_true(store_settled(st));
    assert_true(store_owns(st, id));
    assert_int_equal(store_expire(st, gone, &err), ASOBI_OK);
    assert_int_equal(store_flush(st, &err), ASOBI_OK);
    store_close(st);

    st = open_as("store-a", 0); /* the same node again: its tables are its own at once */
    json_t *seen = json_array();
    assert_int_equal(store_load_unfinished(st, count_unfinished, seen, &err), ASOBI_OK);
    assert_int_equal(json_array_size(seen), 1);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(seen, 0), "id")), id);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(seen, 0), "seats")), 2);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(seen, 0), "actions")), 2);
    json_decref(seen);
    json_t *s2, *seats, *actions, *summary, *record;
    assert_int_equal(store_load_table(st, id, &s2, &seats, &actions, &summary, &err), ASOBI_OK);
    assert_null(summary);
    assert_string_equal(json_string_value(json_object_get(json_array_get(actions, 1), "action")), "play 2");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(actions, 1), "clock_ms")), 1500);
    assert_string_equal(json_string_value(json_object_get(json_array_get(seats, 0), "token_hash")), "hash0");
    assert_string_equal(json_string_value(json_object_get(json_array_get(seats, 1), "name")), "Ben");
    assert_string_equal(json_string_value(json_object_get(json_array_get(seats, 1), "token_hash")), "");
    json_decref(s2);
    json_decref(seats);
    json_decref(actions);
    assert_int_equal(store_load_table(st, gone, &s2, &seats, &actions, &summary, &err), ASOBI_E_BAD_ARGUMENT);

    assert_int_equal(store_finish(st, id, "{\"table\":1}", "{\"actions\":[]}", &err), ASOBI_OK);
    assert_int_equal(store_flush(st, &err), ASOBI_OK);
    assert_int_equal(store_set_rematch(st, id, 99, &err), ASOBI_OK); /* later, in a batch of its own */
    assert_int_equal(store_flush(st, &err), ASOBI_OK);
    assert_int_equal(store_load_finished(st, id, &summary, &record, &err), ASOBI_OK);
    assert_int_equal(json_integer_value(json_object_get(summary, "rematch")), 99);
    json_decref(summary);
    json_decref(record);
    assert_int_equal(store_load_finished(st, gone, &summary, &record, &err), ASOBI_E_BAD_ARGUMENT);
    store_close(st);

    st = open_as("store-a", 0);
    seen = json_array();
    assert_int_equal(store_load_unfinished(st, count_unfinished, seen, &err), ASOBI_OK);
    assert_int_equal(json_array_size(seen), 0);
    json_decref(seen);
    store_close(st);
    json_decref(spec);
}

/* The loop's way: a commit started, then settled (SQLite at once,
 * PostgreSQL once its thread is done), and what it wrote readable. */
static void test_commit_start_then_settled(void **state)
{
    (void)state;
    asobi_error err;
    store *st = open_as("store-b", 0);
    json_t *spec = json_pack("{s:s, s:i}", "game", "octal", "players", 2);
    int64_t id;
    assert_int_equal(store_create_table(st, spec, &id, &err), ASOBI_OK);
    for (int i = 0; i < 50; i++)
        assert_int_equal(store_add_action(st, id, i, i % 2, "x", "human", -1, &err), ASOBI_OK);
    assert_false(store_settled(st)); /* written, not committed */
    assert_int_equal(store_commit_start(st, &err), ASOBI_OK);
    for (int i = 0; i < 500 && !store_settled(st); i++)
        usleep(10 * 1000);
    assert_true(store_settled(st));
    json_t *s2, *seats, *actions, *summary;
    assert_int_equal(store_load_table(st, id, &s2, &seats, &actions, &summary, &err), ASOBI_OK);
    assert_int_equal(json_array_size(actions), 50);
    json_decref(s2);
    json_decref(seats);
    json_decref(actions);
    store_close(st);
    json_decref(spec);
}

/* Fencing (PostgreSQL): once another node holds a table at a higher epoch,
 * this node's writes to it are dropped in the very transaction that checks
 * the lease, and the table is reported lost; its other tables' writes in
 * the same batch are kept. */
static void test_a_fenced_node_appends_nothing(void **state)
{
    (void)state;
    if (!temp_store.pg)
        skip();
    asobi_error err;
    store *st = open_as("store-c", 0);
    json_t *spec = json_pack("{s:s, s:i}", "game", "octal", "players", 2);
    int64_t taken, kept;
    assert_int_equal(store_create_table(st, spec, &taken, &err), ASOBI_OK);
    assert_int_equal(store_create_table(st, spec, &kept, &err), ASOBI_OK);
    assert_int_equal(store_add_action(st, taken, 0, 0, "a", "human", -1, &err), ASOBI_OK);
    assert_int_equal(store_flush(st, &err), ASOBI_OK);
    /* another node takes the table, as after this one's lease lapsed */
    char sql[256];
    snprintf(sql, sizeof sql, "UPDATE asobi_leases SET node = 'other', epoch = epoch + 1 WHERE table_id = %lld",
             (long long)taken);
    pg_exec(sql);
    store_events ev;
    assert_int_equal(store_collect(st, &ev, &err), ASOBI_OK); /* (the earlier commits, seen) */
    store_events_free(&ev);
    assert_int_equal(store_add_action(st, taken, 1, 1, "late", "human", -1, &err), ASOBI_OK);
    assert_int_equal(store_add_action(st, kept, 0, 0, "fine", "human", -1, &err), ASOBI_OK);
    uint64_t late = store_batch_seq(st);
    assert_int_equal(store_flush(st, &err), ASOBI_OK);
    /* committed, but not as far as the loop knows before it has heard of the lost table: an update of
     * that table must not go out as kept in between */
    assert_true(store_committed_seq(st) < late);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM asobi_actions WHERE table_id = %lld", (long long)taken);
    assert_int_equal(pg_count(sql), 1);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM asobi_actions WHERE table_id = %lld", (long long)kept);
    assert_int_equal(pg_count(sql), 1);
    assert_int_equal(store_collect(st, &ev, &err), ASOBI_OK);
    assert_int_equal(ev.n_lost, 1);
    assert_int_equal(ev.lost[0], taken);
    store_events_free(&ev);
    assert_true(store_committed_seq(st) >= late);
    assert_false(store_owns(st, taken));
    assert_true(store_owns(st, kept));
    store_close(st);
    json_decref(spec);
}

/* Leases (PostgreSQL): a node's tables are renewed by its heartbeat; when
 * a node is gone, a live one takes its tables at a higher epoch once the
 * lease lapsed, and says where the table is now. */
static void test_a_dead_nodes_tables_are_taken(void **state)
{
    (void)state;
    if (!temp_store.pg)
        skip();
    asobi_error err;
    /* leases of 3 s: b must renew within it between taking the table and
     * the checks below (with 600 ms a loaded CI machine once let it lapse) */
    store *a = open_as("store-d", 3000);
    json_t *spec = json_pack("{s:s, s:i}", "game", "octal", "players", 2);
    int64_t id;
    assert_int_equal(store_create_table(a, spec, &id, &err), ASOBI_OK);
    assert_int_equal(store_flush(a, &err), ASOBI_OK);
    char sql[256];
    store *b = open_as("store-e", 3000);
    store_close(a); /* a graceful close ends its leases: its tables are taken at once */
    bool taken = false;
    for (int i = 0; i < 500 && !taken; i++) { /* up to 10 s: a heartbeat is a third of the lease */
        usleep(20 * 1000);
        store_events ev;
        assert_int_equal(store_collect(b, &ev, &err), ASOBI_OK);
        for (size_t k = 0; k < ev.n_claimed; k++)
            taken |= ev.claimed[k].id == id;
        store_events_free(&ev);
    }
    assert_true(taken);
    assert_true(store_owns(b, id));
    snprintf(sql, sizeof sql, "SELECT epoch FROM asobi_leases WHERE table_id = %lld AND node = 'store-e'",
             (long long)id);
    assert_int_equal(pg_count(sql), 2);
    char *url = store_owner_url(b, id);
    assert_non_null(url);
    assert_string_equal(url, "http://node.example");
    free(url);
    store_close(b);
    json_decref(spec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_table_from_creation_to_record),
        cmocka_unit_test(test_commit_start_then_settled),
        cmocka_unit_test(test_a_fenced_node_appends_nothing),
        cmocka_unit_test(test_a_dead_nodes_tables_are_taken),
    };
    return cmocka_run_group_tests(tests, temp_store_make, temp_store_remove);
}

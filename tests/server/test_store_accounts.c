/* test_store_accounts.c — the store's accounts, sessions and seats' accounts (issue 42), against SQLite and (under pg_fixture.py) PostgreSQL, and the migration of a database made before them. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libpq-fe.h>
#include <sqlite3.h>

#include "server/store.h"
#include "server/token.h"
#include "temp_store.h"

static store *open_store(void)
{
    asobi_error err;
    store_options opt = {.node = "accounts-a", .public_url = "http://node.example"};
    store *st = store_open_with(temp_store_where(), &opt, &err);
    if (!st)
        fail_msg("store_open: %s", err.message);
    return st;
}

static store_accounts *open_accounts(void)
{
    asobi_error err;
    store_accounts *sa = store_accounts_open(temp_store_where(), &err);
    if (!sa)
        fail_msg("store_accounts_open: %s", err.message);
    return sa;
}

/* Run a file of SQL (tests/data) on the database, as it is. */
static void run_sql_file(const char *name)
{
    char file[512];
    const char *src = getenv("ASOBI_SOURCE_DIR");
    snprintf(file, sizeof file, "%s/tests/data/%s", src ? src : ".", name);
    FILE *f = fopen(file, "r");
    if (!f)
        fail_msg("cannot read %s", file);
    static char sql[16384];
    size_t n = fread(sql, 1, sizeof sql - 1, f);
    sql[n] = '\0';
    fclose(f);
    if (temp_store.pg) {
        PGconn *c = PQconnectdb(temp_store.pg);
        assert_int_equal(PQstatus(c), CONNECTION_OK);
        PGresult *r = PQexec(c, sql);
        if (PQresultStatus(r) != PGRES_COMMAND_OK)
            fail_msg("%s: %s", name, PQerrorMessage(c));
        PQclear(r);
        PQfinish(c);
    } else {
        sqlite3 *db;
        assert_int_equal(sqlite3_open(temp_store.path, &db), SQLITE_OK);
        char *msg = NULL;
        if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
            fail_msg("%s: %s", name, msg);
        sqlite3_close(db);
    }
}

static void hash_of(const char *token, char out[TOKEN_HASH_CHARS + 1]) { token_hash(token, out); }

/* Issue 42, point 7: a database made by the main of before accounts (its
 * schema verbatim, tests/data) opens, gains the accounts' tables and the
 * seats' columns, keeps its tables, and opens again (the migration is
 * idempotent). First: the other tests make the new schema. */
static void test_a_database_of_before_accounts_is_migrated(void **state)
{
    (void)state;
    asobi_error err;
    run_sql_file(temp_store.pg ? "store_before_accounts_pg.sql" : "store_before_accounts.sql");
    for (int round = 0; round < 2; round++) {
        store *st = open_store();
        json_t *spec, *seats, *actions, *summary;
        assert_int_equal(store_load_table(st, 1, &spec, &seats, &actions, &summary, &err), ASOBI_OK);
        assert_non_null(summary);
        assert_int_equal(json_array_size(seats), 2);
        assert_string_equal(json_string_value(json_object_get(json_array_get(seats, 1), "name")), "Ben");
        /* a guest's, as every seat of before; the first round's claim made it Aoi's */
        json_t *first = json_array_get(seats, 0);
        assert_int_equal(json_integer_value(json_object_get(first, "account")), round ? 1 : 0);
        assert_int_equal(json_is_true(json_object_get(first, "claimed")), round);
        assert_null(json_object_get(json_array_get(seats, 1), "account"));
        json_decref(spec);
        json_decref(seats);
        json_decref(actions);
        json_decref(summary);
        store_close(st);
        store_accounts *sa = open_accounts();
        json_t *list;
        assert_int_equal(store_accounts_list(sa, &list, &err), ASOBI_OK);
        assert_int_equal(json_array_size(list), round); /* the first round makes one */
        json_decref(list);
        if (round == 0) {
            int64_t id;
            assert_int_equal(store_account_create(sa, "Aoi", "$argon2id$x", 1000, &id, &err), ASOBI_OK);
            /* the seat of before (token ...01) joins the new account */
            char h[TOKEN_HASH_CHARS + 1];
            hash_of("00000000000000000000000000000001", h);
            const char *hashes[1] = {h};
            int claimed;
            assert_int_equal(store_claim_seats(sa, id, hashes, 1, &claimed, &err), ASOBI_OK);
            assert_int_equal(claimed, 1);
        }
        store_accounts_close(sa);
    }
}

static void test_accounts_are_unique_ignoring_case_and_closed_ones_stay(void **state)
{
    (void)state;
    asobi_error err;
    store_accounts *sa = open_accounts();
    int64_t id, other;
    assert_int_equal(store_account_create(sa, "Mika_2", "$argon2id$one", 5000, &id, &err), ASOBI_OK);
    assert_true(id > 0);
    assert_int_equal(store_account_create(sa, "mika_2", "$argon2id$two", 5001, &other, &err), ASOBI_E_BAD_ARGUMENT);
    store_account a;
    assert_int_equal(store_account_find(sa, "MIKA_2", &a, &err), ASOBI_OK);
    assert_int_equal(a.id, id);
    assert_string_equal(a.name, "Mika_2"); /* as spelled at sign-up */
    assert_string_equal(a.password, "$argon2id$one");
    assert_int_equal(a.created_ms, 5000);
    assert_int_equal(a.closed_ms, 0);
    assert_int_equal(store_account_find(sa, "nobody", &a, &err), ASOBI_E_BAD_ARGUMENT);
    assert_int_equal(store_account_set_password(sa, id, "$argon2id$three", &err), ASOBI_OK);
    assert_int_equal(store_account_find(sa, "mika_2", &a, &err), ASOBI_OK);
    assert_string_equal(a.password, "$argon2id$three");

    assert_int_equal(store_session_add(sa, "s1", id, 10000, &err), ASOBI_OK);
    assert_int_equal(store_account_close(sa, id, 7000, &err), ASOBI_OK);
    assert_int_equal(store_account_find(sa, "mika_2", &a, &err), ASOBI_OK);
    assert_int_equal(a.closed_ms, 7000);
    assert_string_equal(a.password, ""); /* erased: no sign-in ever again */
    int64_t expires;
    assert_int_equal(store_session_find(sa, "s1", 8000, &a, &expires, &err), ASOBI_E_BAD_ARGUMENT);
    /* the name stays taken: finished games keep naming one person */
    assert_int_equal(store_account_create(sa, "MIKA_2", "$argon2id$four", 9000, &other, &err), ASOBI_E_BAD_ARGUMENT);
    json_t *list;
    assert_int_equal(store_accounts_list(sa, &list, &err), ASOBI_OK);
    json_t *last = json_array_get(list, json_array_size(list) - 1);
    assert_string_equal(json_string_value(json_object_get(last, "name")), "Mika_2");
    assert_int_equal(json_integer_value(json_object_get(last, "closed")), 7000);
    json_decref(list);
    store_accounts_close(sa);
}

static void test_sessions_expire_slide_and_are_revoked(void **state)
{
    (void)state;
    asobi_error err;
    store_accounts *sa = open_accounts();
    int64_t id, expires;
    assert_int_equal(store_account_create(sa, "Sora", "$argon2id$x", 1, &id, &err), ASOBI_OK);
    assert_int_equal(store_session_add(sa, "a", id, 1000, &err), ASOBI_OK);
    assert_int_equal(store_session_add(sa, "b", id, 1000, &err), ASOBI_OK);
    assert_int_equal(store_session_add(sa, "c", id, 1000, &err), ASOBI_OK);
    store_account a;
    assert_int_equal(store_session_find(sa, "a", 999, &a, &expires, &err), ASOBI_OK);
    assert_int_equal(a.id, id);
    assert_string_equal(a.name, "Sora");
    assert_int_equal(expires, 1000);
    assert_int_equal(store_session_find(sa, "a", 1000, &a, &expires, &err), ASOBI_E_BAD_ARGUMENT); /* expired */
    assert_int_equal(store_session_touch(sa, "a", 5000, &err), ASOBI_OK);                          /* sliding */
    assert_int_equal(store_session_find(sa, "a", 1000, &a, &expires, &err), ASOBI_OK);
    assert_int_equal(expires, 5000);
    assert_int_equal(store_session_revoke(sa, "b", &err), ASOBI_OK);
    assert_int_equal(store_session_find(sa, "b", 10, &a, &expires, &err), ASOBI_E_BAD_ARGUMENT);
    /* a password change: every session but the one that changed it */
    assert_int_equal(store_session_add(sa, "d", id, 9000, &err), ASOBI_OK);
    assert_int_equal(store_sessions_revoke(sa, id, "d", &err), ASOBI_OK);
    assert_int_equal(store_session_find(sa, "a", 10, &a, &expires, &err), ASOBI_E_BAD_ARGUMENT);
    assert_int_equal(store_session_find(sa, "c", 10, &a, &expires, &err), ASOBI_E_BAD_ARGUMENT);
    assert_int_equal(store_session_find(sa, "d", 10, &a, &expires, &err), ASOBI_OK);
    assert_int_equal(store_sessions_revoke(sa, id, NULL, &err), ASOBI_OK);
    assert_int_equal(store_session_find(sa, "d", 10, &a, &expires, &err), ASOBI_E_BAD_ARGUMENT);
    store_accounts_close(sa);
}

/* A signed-in person's seat carries the account (in the loop's batch); a
 * guest's seat at a finished table joins an account by its token, once,
 * marked claimed; a seat at an unfinished table is never claimed. */
static void test_seats_carry_accounts_and_guests_claim_finished_ones(void **state)
{
    (void)state;
    asobi_error err;
    store_accounts *sa = open_accounts();
    int64_t aoi, ben;
    assert_int_equal(store_account_create(sa, "Aoi2", "$argon2id$x", 1, &aoi, &err), ASOBI_OK);
    assert_int_equal(store_account_create(sa, "Ben2", "$argon2id$x", 1, &ben, &err), ASOBI_OK);
    store *st = open_store();
    json_t *spec = json_pack("{s:s, s:i, s:i}", "game", "psycle", "players", 2, "created", 1);
    int64_t done, playing;
    char h1[TOKEN_HASH_CHARS + 1], h2[TOKEN_HASH_CHARS + 1], h3[TOKEN_HASH_CHARS + 1];
    hash_of("0000000000000000000000000000aaa1", h1);
    hash_of("0000000000000000000000000000aaa2", h2);
    hash_of("0000000000000000000000000000aaa3", h3);
    assert_int_equal(store_create_table(st, spec, &done, &err), ASOBI_OK);
    assert_int_equal(store_add_seat(st, done, 0, "Aoi2", h1, &err), ASOBI_OK);
    assert_int_equal(store_seat_account(st, done, 0, aoi, &err), ASOBI_OK);
    assert_int_equal(store_add_seat(st, done, 1, "guest", h2, &err), ASOBI_OK);
    assert_int_equal(store_create_table(st, spec, &playing, &err), ASOBI_OK);
    assert_int_equal(store_add_seat(st, playing, 0, "guest", h3, &err), ASOBI_OK);
    assert_int_equal(store_flush(st, &err), ASOBI_OK);
    assert_int_equal(store_finish(st, done, "{\"table\":1}", "{\"actions\":[]}", &err), ASOBI_OK);
    assert_int_equal(store_flush(st, &err), ASOBI_OK);

    const char *hashes[3] = {h1, h2, h3};
    int claimed;
    assert_int_equal(store_claim_seats(sa, ben, hashes, 3, &claimed, &err), ASOBI_OK);
    assert_int_equal(claimed, 1); /* h2 only: h1 is Aoi2's, h3's table plays on */
    assert_int_equal(store_claim_seats(sa, aoi, hashes, 3, &claimed, &err), ASOBI_OK);
    assert_int_equal(claimed, 0); /* once */

    json_t *s2, *seats, *actions, *summary;
    assert_int_equal(store_load_table(st, done, &s2, &seats, &actions, &summary, &err), ASOBI_OK);
    json_t *mine = json_array_get(seats, 0), *theirs = json_array_get(seats, 1);
    assert_int_equal(json_integer_value(json_object_get(mine, "account")), aoi);
    assert_null(json_object_get(mine, "claimed"));
    assert_int_equal(json_integer_value(json_object_get(theirs, "account")), ben);
    assert_true(json_is_true(json_object_get(theirs, "claimed")));
    json_decref(s2);
    json_decref(seats);
    json_decref(actions);
    json_decref(summary);
    assert_int_equal(store_load_table(st, playing, &s2, &seats, &actions, &summary, &err), ASOBI_OK);
    assert_null(json_object_get(json_array_get(seats, 0), "account"));
    json_decref(s2);
    json_decref(seats);
    json_decref(actions);
    json_decref(summary);
    json_decref(spec);
    store_close(st);
    store_accounts_close(sa);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_database_of_before_accounts_is_migrated),
        cmocka_unit_test(test_accounts_are_unique_ignoring_case_and_closed_ones_stay),
        cmocka_unit_test(test_sessions_expire_slide_and_are_revoked),
        cmocka_unit_test(test_seats_carry_accounts_and_guests_claim_finished_ones),
    };
    return cmocka_run_group_tests(tests, temp_store_make, temp_store_remove);
}

/* test_ratings.c — rated tables without sockets (issue 42): who may make and join one, and a finished table's places as the ratings read them. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "server/ratings.h"
#include "temp_db.h"

static char db_path[64];

static table *create(store *st, const char *json, srv_error *e)
{
    json_t *req = json_loads(json, 0, NULL);
    assert_non_null(req);
    table *t = table_create(st, req, 0, e);
    json_decref(req);
    return t;
}

/* "rated": true with a bot seat is refused (400 rated_needs_people), a
 * guest may not ask for one (401 account_required), a person may; the
 * table's summary says "rated", and a table not asked rated is not. */
static void test_who_makes_a_rated_table(void **unused)
{
    (void)unused;
    temp_db_make(db_path, sizeof db_path, "ratings");
    asobi_error err;
    store *st = store_open(db_path, &err);
    srv_error e;
    assert_null(create(st, "{\"game\":\"psycle\",\"players\":3,\"rated\":true,\"bots\":[null,\"random\",null]}", &e));
    assert_int_equal(e.status, 400);
    assert_string_equal(e.code, "rated_needs_people");
    assert_null(create(st, "{\"game\":\"psycle\",\"rated\":\"yes\"}", &e));
    assert_string_equal(e.code, "bad_request");
    json_t *body = json_pack("{s:s, s:b}", "game", "psycle", "rated", 1);
    assert_false(ratings_may_create(body, 0, &e));
    assert_int_equal(e.status, 401);
    assert_string_equal(e.code, "account_required");
    assert_true(ratings_may_create(body, 7, &e));
    json_decref(body);
    table *t = create(st, "{\"game\":\"psycle\",\"players\":3,\"rated\":true}", &e);
    assert_non_null(t);
    assert_true(t->rated);
    json_t *summary = table_summary(t);
    assert_true(json_is_true(json_object_get(summary, "rated")));
    json_decref(summary);
    table_free(t);
    t = create(st, "{\"game\":\"psycle\",\"players\":3}", &e);
    summary = table_summary(t);
    assert_null(json_object_get(summary, "rated"));
    json_decref(summary);
    table_free(t);
    store_close(st);
    temp_db_remove(db_path);
}

/* A rated table's join: a guest is refused (401 account_required), a
 * signed-in person sits under the account's name whatever the body says,
 * and not twice (409 already_seated); an unrated table's body is kept. */
static void test_who_joins_a_rated_table(void **unused)
{
    (void)unused;
    temp_db_make(db_path, sizeof db_path, "ratings");
    asobi_error err;
    store *st = store_open(db_path, &err);
    srv_error e;
    table *t = create(st, "{\"game\":\"psycle\",\"players\":3,\"rated\":true}", &e);
    json_t *body = json_pack("{s:s}", "name", "Mallory");
    assert_null(ratings_join_body(t, body, 0, NULL, &e));
    assert_int_equal(e.status, 401);
    assert_string_equal(e.code, "account_required");
    json_t *as = ratings_join_body(t, body, 5, "Aoi", &e);
    assert_string_equal(json_string_value(json_object_get(as, "name")), "Aoi");
    int seat;
    char token[TOKEN_CHARS + 1];
    assert_int_equal(table_join(t, as, 0, &seat, token, &e), 0);
    json_decref(as);
    assert_int_equal(table_seat_account(t, seat, 5, &e), 0);
    assert_string_equal(t->seat[seat].name, "Aoi");
    assert_null(ratings_join_body(t, body, 5, "Aoi", &e));
    assert_int_equal(e.status, 409);
    assert_string_equal(e.code, "already_seated");
    table_free(t);
    t = create(st, "{\"game\":\"psycle\",\"players\":3}", &e);
    as = ratings_join_body(t, body, 5, "Aoi", &e);
    assert_ptr_equal(as, body); /* as it was */
    json_decref(as);
    json_decref(body);
    table_free(t);
    store_close(st);
    temp_db_remove(db_path);
}

/* A rated game played to its end by the bot for everyone (grace 0: every
 * seat away), one person having left for good halfway: the seats still
 * held keep the game's places, the one left ranks last; its end is
 * stored with a rating history row per account, once. */
static void test_a_finished_rated_tables_places(void **unused)
{
    (void)unused;
    temp_db_make(db_path, sizeof db_path, "ratings");
    asobi_error err;
    store *st = store_open(db_path, &err);
    srv_error e;
    table *t = create(st, "{\"game\":\"psycle\",\"players\":3,\"rated\":true,\"seed\":3}", &e);
    char tokens[3][TOKEN_CHARS + 1];
    const char *names[3] = {"Aoi", "Ben", "Chie"};
    for (int s = 0; s < 3; s++) {
        json_t *body = json_pack("{s:s, s:i}", "name", "ignored", "seat", s);
        json_t *as = ratings_join_body(t, body, 10 + s, names[s], &e);
        int seat;
        assert_int_equal(table_join(t, as, 0, &seat, tokens[s], &e), 0);
        assert_int_equal(table_seat_account(t, seat, 10 + s, &e), 0);
        json_decref(as);
        json_decref(body);
    }
    int64_t now = 0;
    bool left = false;
    for (int turn = 0; t->status == TABLE_PLAYING && turn < 100000; turn++) {
        now += 1000;
        if (turn == 5 && !left) {
            json_t *leave = json_pack("{s:s}", "token", tokens[1]);
            int seat;
            assert_int_equal(table_leave(t, leave, &seat, &e), 0);
            json_decref(leave);
            left = true;
        }
        table_job jobs[ASOBI_MAX_SEATS];
        int n = table_due_jobs(t, now, 0, jobs, ASOBI_MAX_SEATS);
        for (int i = 0; i < n; i++) {
            table_job_run(&jobs[i]);
            assert_true(table_job_done(t, &jobs[i], now, &e) >= 0);
        }
    }
    assert_int_equal(t->status, TABLE_OVER);
    assert_true(left);
    store_result res;
    ratings_result(t, &res);
    asobi_result game;
    asobi_state_result(asobi_match_state(t->match), &game);
    assert_string_equal(res.game, "psycle");
    assert_true(res.rated);
    assert_int_equal(res.seats, 3);
    int worst = game.rank[0] > game.rank[2] ? game.rank[0] : game.rank[2];
    assert_int_equal(res.seat[0].rank, game.rank[0]); /* played by the bot after --grace: counts for its person */
    assert_int_equal(res.seat[2].rank, game.rank[2]);
    assert_int_equal(res.seat[1].rank, worst + 1); /* left for good: last */
    assert_int_equal(res.seat[1].account, 11);
    assert_null(res.seat[0].level);
    assert_int_equal(store_flush(st, &err), ASOBI_OK);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*), max(rank) FROM rating_history WHERE table_id = ?1", -1,
                                        &q, NULL),
                     SQLITE_OK);
    sqlite3_bind_int64(q, 1, t->id);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(q, 0), 3);
    assert_int_equal(sqlite3_column_int(q, 1), worst + 1);
    sqlite3_finalize(q);
    sqlite3_close(db);
    table_free(t);
    store_close(st);
    temp_db_remove(db_path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_who_makes_a_rated_table),
        cmocka_unit_test(test_who_joins_a_rated_table),
        cmocka_unit_test(test_a_finished_rated_tables_places),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

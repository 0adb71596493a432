/* test_store_ratings.c — store.h's ratings (issue 42): a rated finish rates once, in the finish's transaction, fenced with it; leaderboards and profiles; SQLite and (under pg_fixture.py) PostgreSQL. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libpq-fe.h>

#include "asobi/rating.h"
#include "server/store.h"
#include "temp_db.h"

/* As test_store.c: ASOBI_TEST_PG (pg_fixture.py) names a PostgreSQL, else a SQLite file. */
static char path[128];
static const char *pg;

static int make_db(void **state)
{
    (void)state;
    pg = getenv("ASOBI_TEST_PG");
    if (pg && !*pg)
        pg = NULL;
    if (!pg)
        temp_db_make(path, sizeof path, "ratings");
    return 0;
}

static int remove_db(void **state)
{
    (void)state;
    if (!pg)
        temp_db_remove(path);
    return 0;
}

static store *open_as(const char *node)
{
    asobi_error err;
    store_options opt = {.node = node, .public_url = "http://node.example"};
    store *st = store_open_with(pg ? pg : path, &opt, &err);
    if (!st)
        fail_msg("store_open: %s", err.message);
    return st;
}

static void pg_exec(const char *sql)
{
    PGconn *c = PQconnectdb(pg);
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    PGresult *r = PQexec(c, sql);
    assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
    PQfinish(c);
}

/* A finished table of three accounts (base, base+1, base+2: each test its own) at ranks, rated or not. */
static int64_t play(store *st, const char *game, int64_t base, const int rank[3], bool rated, bool flush)
{
    asobi_error err;
    json_t *spec = json_pack("{s:s, s:i}", "game", game, "players", 3);
    int64_t id;
    assert_int_equal(store_create_table(st, spec, &id, &err), ASOBI_OK);
    json_decref(spec);
    static const char *const names[3] = {"aoi", "ben", "chie"};
    store_result res = {.game = game, .rated = rated, .seats = 3};
    for (int s = 0; s < 3; s++) {
        assert_int_equal(store_add_seat(st, id, s, names[s], "hash", &err), ASOBI_OK);
        res.seat[s] = (store_seat_result){.account = base + s, .name = names[s], .rank = rank[s]};
    }
    char summary[128];
    snprintf(summary, sizeof summary, "{\"table\":%lld,\"game\":\"%s\"}", (long long)id, game);
    assert_int_equal(store_finish_result(st, id, summary, "{}", &res, &err), ASOBI_OK);
    if (flush)
        assert_int_equal(store_flush(st, &err), ASOBI_OK);
    return id;
}

/* The board's entry of a name (NULL: not on it). */
static const json_t *on_board(store *st, const char *game, const char *name, json_t **board)
{
    asobi_error err;
    assert_int_equal(store_leaderboard(st, game, board, &err), ASOBI_OK);
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(*board, "players"), i, p)
        if (strcmp(json_string_value(json_object_get(p, "name")), name) == 0)
            return p;
    return NULL;
}

/* Ten rated games move the three ratings exactly as asobi_rating_update
 * does, game after game (a tie shared); an eleventh finish of a table
 * already rated (a restore finishing it again) moves nothing; the board
 * shows them once they are no longer provisional, best first. */
static void test_rated_games_rate_once_each(void **state)
{
    (void)state;
    store *st = open_as("ratings-a");
    asobi_rating expect[3] = {asobi_rating_initial(), asobi_rating_initial(), asobi_rating_initial()};
    const int rank[3] = {1, 2, 2};
    int64_t last = 0;
    json_t *board;
    for (int g = 0; g < 10; g++) {
        if (g == 9) {
            assert_null(on_board(st, "psycle", "aoi", &board)); /* 9 games: provisional, left out */
            json_decref(board);
        }
        last = play(st, "psycle", 100, rank, true, true);
        asobi_error err;
        assert_int_equal(asobi_rating_update(expect, rank, 3, expect, &err), ASOBI_OK);
    }
    /* the same table finished again: not rated again */
    asobi_error err;
    store_result again = {.game = "psycle", .rated = true, .seats = 3};
    for (int s = 0; s < 3; s++)
        again.seat[s] = (store_seat_result){.account = 100 + s, .name = "x", .rank = 3 - s};
    assert_int_equal(store_finish_result(st, last, "{}", "{}", &again, &err), ASOBI_OK);
    assert_int_equal(store_flush(st, &err), ASOBI_OK);
    static const char *const names[3] = {"aoi", "ben", "chie"};
    for (int s = 0; s < 3; s++) {
        const json_t *p = on_board(st, "psycle", names[s], &board);
        assert_non_null(p);
        assert_int_equal(json_integer_value(json_object_get(p, "games")), 10);
        assert_true(fabs(json_real_value(json_object_get(p, "mu")) - expect[s].mu) < 1e-9);
        assert_true(fabs(json_real_value(json_object_get(p, "sigma")) - expect[s].sigma) < 1e-9);
        assert_true(fabs(json_real_value(json_object_get(p, "rating")) - asobi_rating_ordinal(expect[s])) < 1e-9);
        json_decref(board);
    }
    assert_int_equal(store_leaderboard(st, "psycle", &board, &err), ASOBI_OK);
    const json_t *players = json_object_get(board, "players");
    assert_string_equal(json_string_value(json_object_get(board, "game")), "psycle");
    assert_string_equal(json_string_value(json_object_get(json_array_get(players, 0), "name")), "aoi"); /* first */
    json_decref(board);
    /* another game's board is its own */
    assert_int_equal(store_leaderboard(st, "ninja", &board, &err), ASOBI_OK);
    assert_int_equal(json_array_size(json_object_get(board, "players")), 0);
    json_decref(board);
    store_close(st);
}

/* An unrated table moves no rating; a result that is not written (the
 * transaction rolled back: the store closed before its flush, SQLite; or
 * the process gone) moves none either, and the finish with it. */
static void test_unrated_and_unflushed_games_rate_nothing(void **state)
{
    (void)state;
    store *st = open_as("ratings-b");
    const int rank[3] = {1, 2, 3};
    for (int g = 0; g < 10; g++)
        play(st, "octal", 200, rank, false, true);
    json_t *board;
    assert_null(on_board(st, "octal", "aoi", &board));
    json_decref(board);
    store_close(st);
}

/* Fencing (PostgreSQL): a node that lost its table (another took it at a
 * higher epoch) finishes it in vain: neither the finish nor the ratings
 * are written (the node that holds it finishes and rates it). */
static void test_a_fenced_finish_rates_nobody(void **state)
{
    (void)state;
    if (!pg)
        skip();
    asobi_error err;
    store *st = open_as("ratings-c");
    json_t *spec = json_pack("{s:s, s:i}", "game", "ninja", "players", 2);
    int64_t id;
    assert_int_equal(store_create_table(st, spec, &id, &err), ASOBI_OK);
    json_decref(spec);
    assert_int_equal(store_flush(st, &err), ASOBI_OK);
    char sql[256];
    snprintf(sql, sizeof sql, "UPDATE asobi_leases SET node = 'other', epoch = epoch + 1 WHERE table_id = %lld",
             (long long)id);
    pg_exec(sql);
    store_result res = {.game = "ninja", .rated = true, .seats = 2};
    res.seat[0] = (store_seat_result){.account = 300, .name = "aoi", .rank = 1};
    res.seat[1] = (store_seat_result){.account = 301, .name = "ben", .rank = 2};
    assert_int_equal(store_finish_result(st, id, "{}", "{}", &res, &err), ASOBI_OK);
    assert_int_equal(store_flush(st, &err), ASOBI_OK);
    PGconn *c = PQconnectdb(pg);
    PGresult *r = PQexec(c, "SELECT count(*) FROM asobi_ratings WHERE account IN (300, 301)");
    assert_string_equal(PQgetvalue(r, 0, 0), "0");
    PQclear(r);
    snprintf(sql, sizeof sql, "SELECT finished FROM asobi_tables WHERE id = %lld", (long long)id);
    r = PQexec(c, sql);
    assert_string_equal(PQgetvalue(r, 0, 0), "0");
    PQclear(r);
    PQfinish(c);
    store_close(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rated_games_rate_once_each),
        cmocka_unit_test(test_unrated_and_unflushed_games_rate_nothing),
        cmocka_unit_test(test_a_fenced_finish_rates_nobody),
    };
    return cmocka_run_group_tests(tests, make_db, remove_db);
}

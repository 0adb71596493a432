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
#include "temp_store.h"

static store *open_as(const char *node)
{
    asobi_error err;
    store_options opt = {.node = node, .public_url = "http://node.example"};
    store *st = store_open_with(temp_store_where(), &opt, &err);
    if (!st)
        fail_msg("store_open: %s", err.message);
    return st;
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

/* Three accounts of names prefix-aoi, -ben, -chie (each test its own): their ids into ids. */
static void sign_up(const char *prefix, int64_t ids[3])
{
    asobi_error err;
    store_accounts *sa = store_accounts_open(temp_store_where(), &err);
    if (!sa)
        fail_msg("store_accounts_open: %s", err.message);
    static const char *const names[3] = {"aoi", "ben", "chie"};
    for (int s = 0; s < 3; s++) {
        char name[32];
        snprintf(name, sizeof name, "%s%s", prefix, names[s]);
        assert_int_equal(store_account_create(sa, name, "$argon2id$x", 1, &ids[s], &err), ASOBI_OK);
    }
    store_accounts_close(sa);
}

/* A finished table of the three accounts at ranks, rated or not; with a bot
 * (its level) in a fourth seat, ranked last. */
static int64_t play_with(store *st, const char *game, const int64_t ids[3], const int rank[3], bool rated,
                         const char *bot)
{
    asobi_error err;
    json_t *spec = json_pack("{s:s, s:i}", "game", game, "players", bot ? 4 : 3);
    int64_t id;
    assert_int_equal(store_create_table(st, spec, &id, &err), ASOBI_OK);
    json_decref(spec);
    static const char *const names[3] = {"aoi", "ben", "chie"};
    store_result res = {.game = game, .rated = rated, .seats = bot ? 4 : 3};
    for (int s = 0; s < 3; s++) {
        assert_int_equal(store_add_seat(st, id, s, names[s], "hash", &err), ASOBI_OK);
        assert_int_equal(store_seat_account(st, id, s, ids[s], &err), ASOBI_OK);
        res.seat[s] = (store_seat_result){.account = ids[s], .name = names[s], .rank = rank[s]};
    }
    if (bot)
        res.seat[3] = (store_seat_result){.name = "random", .level = bot, .rank = 4};
    char summary[256];
    snprintf(summary, sizeof summary,
             "{\"table\":%lld,\"game\":\"%s\",\"seats\":[{\"name\":\"aoi\",\"rank\":%d},"
             "{\"name\":\"ben\",\"rank\":%d},{\"name\":\"chie\",\"rank\":%d}]}",
             (long long)id, game, rank[0], rank[1], rank[2]);
    assert_int_equal(store_finish_result(st, id, summary, "{}", &res, &err), ASOBI_OK);
    assert_int_equal(store_flush(st, &err), ASOBI_OK);
    return id;
}

static int64_t play(store *st, const char *game, const int64_t ids[3], const int rank[3], bool rated)
{
    return play_with(st, game, ids, rank, rated, NULL);
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
    int64_t ids[3];
    sign_up("a", ids);
    asobi_rating expect[3] = {asobi_rating_initial(), asobi_rating_initial(), asobi_rating_initial()};
    const int rank[3] = {1, 2, 2};
    int64_t last = 0;
    json_t *board;
    for (int g = 0; g < 10; g++) {
        if (g == 9) {
            assert_null(on_board(st, "psycle", "aaoi", &board)); /* 9 games: provisional, left out */
            json_decref(board);
        }
        last = play(st, "psycle", ids, rank, true);
        asobi_error err;
        assert_int_equal(asobi_rating_update(expect, rank, 3, expect, &err), ASOBI_OK);
    }
    /* the same table finished again: not rated again */
    asobi_error err;
    store_result again = {.game = "psycle", .rated = true, .seats = 3};
    for (int s = 0; s < 3; s++)
        again.seat[s] = (store_seat_result){.account = ids[s], .name = "x", .rank = 3 - s};
    assert_int_equal(store_finish_result(st, last, "{}", "{}", &again, &err), ASOBI_OK);
    assert_int_equal(store_flush(st, &err), ASOBI_OK);
    static const char *const names[3] = {"aaoi", "aben", "achie"};
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
    assert_string_equal(json_string_value(json_object_get(json_array_get(players, 0), "name")), "aaoi"); /* first */
    json_decref(board);
    /* another game's board is its own */
    assert_int_equal(store_leaderboard(st, "ninja", &board, &err), ASOBI_OK);
    assert_int_equal(json_array_size(json_object_get(board, "players")), 0);
    json_decref(board);
    store_close(st);
}

/* An unrated table moves no rating. */
static void test_unrated_games_rate_nothing(void **state)
{
    (void)state;
    store *st = open_as("ratings-b");
    int64_t ids[3];
    sign_up("b", ids);
    const int rank[3] = {1, 2, 3};
    for (int g = 0; g < 10; g++)
        play(st, "octal", ids, rank, false);
    json_t *board;
    assert_null(on_board(st, "octal", "baoi", &board));
    json_decref(board);
    store_close(st);
}

/* Fencing (PostgreSQL): a node that lost its table (another took it at a
 * higher epoch) finishes it in vain: neither the finish nor the ratings
 * are written (the node that holds it finishes and rates it). */
static void test_a_fenced_finish_rates_nobody(void **state)
{
    (void)state;
    if (!temp_store.pg)
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
    PGconn *c = PQconnectdb(temp_store.pg);
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

/* A profile: the account's name as spelled at sign-up (asked in any case),
 * its ratings per game, its finished games newest first with places, rated
 * or not, and the rating change, paged by ?before=; its record against
 * each bot strength; its rating history oldest first. An unknown name:
 * ASOBI_E_BAD_ARGUMENT. */
static void test_a_profile(void **state)
{
    (void)state;
    store *st = open_as("ratings-d");
    int64_t ids[3];
    sign_up("D", ids);
    const int rank[3] = {2, 1, 1};
    int64_t rated = play(st, "ninja", ids, rank, true);
    int64_t unrated = play(st, "psycle", ids, rank, false);
    int64_t botted = play_with(st, "psycle", ids, rank, false, "easy");
    asobi_error err;
    json_t *p;
    assert_int_equal(store_player(st, "dben", 0, &p, &err), ASOBI_OK);
    assert_string_equal(json_string_value(json_object_get(p, "name")), "Dben");
    const json_t *r = json_object_get(json_object_get(p, "ratings"), "ninja");
    assert_int_equal(json_integer_value(json_object_get(r, "games")), 1);
    assert_true(json_is_true(json_object_get(r, "provisional")));
    double mu = json_real_value(json_object_get(r, "mu")), sigma = json_real_value(json_object_get(r, "sigma"));
    assert_true(fabs(json_real_value(json_object_get(r, "rating")) - (mu - 3 * sigma)) < 1e-9);
    assert_true(mu > 25.0); /* a winner's */
    assert_null(json_object_get(json_object_get(p, "ratings"), "psycle"));
    const json_t *games = json_object_get(p, "games");
    assert_int_equal(json_array_size(games), 3);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(games, 0), "table")), botted);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(games, 1), "table")), unrated);
    const json_t *g = json_array_get(games, 2);
    assert_int_equal(json_integer_value(json_object_get(g, "table")), rated);
    assert_true(json_is_true(json_object_get(g, "rated")));
    assert_int_equal(json_integer_value(json_object_get(g, "seat")), 1);
    assert_true(json_real_value(json_object_get(json_object_get(g, "change"), "after")) >
                json_real_value(json_object_get(json_object_get(g, "change"), "before")));
    assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(g, "players"), 0), "rank")), 2);
    assert_true(json_is_false(json_object_get(json_array_get(games, 1), "rated")));
    assert_true(json_is_null(json_object_get(json_array_get(games, 1), "change")));
    const json_t *easy = json_object_get(json_object_get(json_object_get(p, "bots"), "psycle"), "easy");
    assert_int_equal(json_integer_value(json_object_get(easy, "wins")), 1);
    assert_int_equal(json_integer_value(json_object_get(easy, "losses")), 0);
    const json_t *history = json_object_get(json_object_get(p, "history"), "ninja");
    assert_int_equal(json_array_size(history), 1);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(history, 0), "table")), rated);
    json_decref(p);
    /* the next page: below the unrated game */
    assert_int_equal(store_player(st, "DBEN", unrated, &p, &err), ASOBI_OK);
    assert_int_equal(json_array_size(json_object_get(p, "games")), 1);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(p, "games"), 0), "table")), rated);
    json_decref(p);
    assert_int_equal(store_player(st, "nobody", 0, &p, &err), ASOBI_E_BAD_ARGUMENT);
    assert_null(p);
    store_close(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rated_games_rate_once_each),
        cmocka_unit_test(test_unrated_games_rate_nothing),
        cmocka_unit_test(test_a_fenced_finish_rates_nobody),
        cmocka_unit_test(test_a_profile),
    };
    return cmocka_run_group_tests(tests, temp_store_make, temp_store_remove);
}

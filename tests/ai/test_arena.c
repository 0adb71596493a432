/* test_arena.c — the round-robin runner: table counts, the JSON shape, pair sums, reproducibility across jobs. */
#include <string.h>

#include "conformance.h"
#include "ai/arena.h"

static int progress_calls;
static void count_progress(int done, int total, void *ctx)
{
    (void)ctx;
    assert_true(done >= 1 && done <= total);
    progress_calls++;
}

static json_t *run(int players, int jobs, int games, const char *const *specs, int n)
{
    asobi_arena_config c = {
        .game = asobi_game_find("psycle"),
        .players = players,
        .specs = specs,
        .spec_count = n,
        .games_per_table = games,
        .jobs = jobs,
        .seed = 11,
        .progress = count_progress,
    };
    asobi_error err;
    json_t *out = asobi_arena_run(&c, &err);
    if (!out)
        fail_msg("arena: %s", err.message);
    assert_int_equal(json_integer_value(json_object_get(out, "games")), asobi_arena_total_games(&c));
    return out;
}

static void test_two_player_round_robin(void **unused)
{
    (void)unused;
    const char *specs[] = {"random", "heuristic", "ismcts:iters=20"};
    progress_calls = 0;
    json_t *a = run(2, 1, 6, specs, 3);
    assert_int_equal(progress_calls, 18); /* 3 pairs x 6 games */
    json_t *bots = json_object_get(a, "bots"), *pairs = json_object_get(a, "pairs");
    assert_int_equal(json_array_size(bots), 3);
    assert_int_equal(json_array_size(pairs), 3);
    size_t i;
    json_t *b;
    json_array_foreach(bots, i, b) {
        assert_string_equal(json_string_value(json_object_get(b, "spec")), specs[i]);
        assert_int_equal(json_integer_value(json_object_get(b, "games")), 12);
        assert_true(json_is_real(json_object_get(b, "elo")));
        assert_true(json_real_value(json_object_get(b, "elo_ci95")) > 0);
        assert_true(json_is_real(json_object_get(b, "avg_score")));
        assert_true(json_is_real(json_object_get(b, "ms_per_move")));
        assert_true(json_integer_value(json_object_get(b, "wins")) <= 12);
    }
    json_array_foreach(pairs, i, b) {
        json_int_t g = json_integer_value(json_object_get(b, "games"));
        assert_int_equal(g, 6);
        assert_int_equal(json_integer_value(json_object_get(b, "a_wins")) +
                             json_integer_value(json_object_get(b, "b_wins")) +
                             json_integer_value(json_object_get(b, "draws")),
                         g);
    }
    /* The same run on two threads gives the same results (iteration budgets
     * only; the times differ). */
    json_t *c = run(2, 2, 6, specs, 3);
    assert_true(json_equal(json_object_get(a, "pairs"), json_object_get(c, "pairs")));
    json_array_foreach(bots, i, b) {
        json_t *o = json_array_get(json_object_get(c, "bots"), i);
        assert_int_equal(json_integer_value(json_object_get(b, "wins")), json_integer_value(json_object_get(o, "wins")));
        assert_true(json_real_value(json_object_get(b, "elo")) == json_real_value(json_object_get(o, "elo")));
    }
    json_decref(a);
    json_decref(c);
}

/* 3 players, 2 specs: the tables (r,r,h) and (r,h,h); every game counts two
 * pairs (r,h) for (r,r,h)-style tables. */
static void test_three_player_tables(void **unused)
{
    (void)unused;
    const char *specs[] = {"random", "heuristic"};
    json_t *a = run(3, 2, 3, specs, 2);
    assert_int_equal(json_integer_value(json_object_get(a, "games")), 6);
    json_t *pair = json_array_get(json_object_get(a, "pairs"), 0);
    assert_int_equal(json_integer_value(json_object_get(pair, "games")), 12);
    json_decref(a);
}

static void test_bad_arena_configs_are_refused(void **unused)
{
    (void)unused;
    const char *specs[] = {"random", "psycle-nash"};
    asobi_arena_config c = {.game = asobi_game_find("psycle"), .players = 3, .specs = specs,
                            .spec_count = 2, .games_per_table = 1, .jobs = 1};
    asobi_error err;
    assert_null(asobi_arena_run(&c, &err)); /* psycle-nash is 2-player only */
    assert_int_equal(err.code, ASOBI_E_BAD_BOT);
    c.players = 9;
    assert_null(asobi_arena_run(&c, &err));
    assert_int_equal(err.code, ASOBI_E_BAD_PLAYERS);
    c.players = 2;
    c.spec_count = 1;
    assert_null(asobi_arena_run(&c, &err));
    assert_int_equal(err.code, ASOBI_E_BAD_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_player_round_robin),
        cmocka_unit_test(test_three_player_tables),
        cmocka_unit_test(test_bad_arena_configs_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

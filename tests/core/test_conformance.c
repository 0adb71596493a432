/* test_conformance.c — every registered game, at every player count, passes the game-agnostic checks. */
#include "conformance.h"
#include "repetitions.h"

static void test_every_game_every_player_count(void **unused)
{
    (void)unused;
    for (int g = 0; g < asobi_game_count(); g++) {
        const asobi_game_def *def = asobi_game_at(g);
        for (int p = asobi_game_min_players(def); p <= asobi_game_max_players(def); p++) {
            conformance_spec spec = {
                .game = asobi_game_name(def),
                .players = p,
                .games = test_reps(20), /* 2 under the sanitizers, deep checks at every action */
                .seed = 1000u * (uint64_t)p + (uint64_t)g,
                .deep_every = 1,
            };
            conformance_run(&spec);
        }
    }
}

static void test_registry_finds_every_game_by_name(void **unused)
{
    (void)unused;
    assert_true(asobi_game_count() >= 1);
    for (int g = 0; g < asobi_game_count(); g++) {
        const asobi_game_def *def = asobi_game_at(g);
        assert_ptr_equal(asobi_game_find(asobi_game_name(def)), def);
        assert_true(asobi_game_min_players(def) >= 1);
        assert_true(asobi_game_max_players(def) <= ASOBI_MAX_SEATS);
        json_t *d = asobi_game_describe(def);
        assert_true(json_is_array(json_object_get(d, "options")));
        json_decref(d);
    }
    assert_null(asobi_game_find("no-such-game"));
    assert_null(asobi_game_find(NULL));
    assert_null(asobi_game_at(-1));
    assert_null(asobi_game_at(asobi_game_count()));
}

static void test_bad_players_and_options_are_refused(void **unused)
{
    (void)unused;
    for (int g = 0; g < asobi_game_count(); g++) {
        const asobi_game_def *def = asobi_game_at(g);
        asobi_error err;
        assert_null(asobi_state_new(def, asobi_game_min_players(def) - 1, NULL, 1, &err));
        assert_int_equal(err.code, ASOBI_E_BAD_PLAYERS);
        assert_null(asobi_state_new(def, asobi_game_max_players(def) + 1, NULL, 1, &err));
        assert_int_equal(err.code, ASOBI_E_BAD_PLAYERS);
        assert_null(asobi_state_new(def, 1000000, NULL, 1, &err));
        assert_int_equal(err.code, ASOBI_E_BAD_PLAYERS);
        json_t *bad = json_pack("{s:i}", "no_such_option", 1);
        assert_null(asobi_state_new(def, asobi_game_min_players(def), bad, 1, &err));
        assert_int_equal(err.code, ASOBI_E_BAD_OPTION);
        json_decref(bad);
        json_t *notobj = json_integer(3);
        assert_null(asobi_state_new(def, asobi_game_min_players(def), notobj, 1, &err));
        assert_int_equal(err.code, ASOBI_E_BAD_OPTION);
        json_decref(notobj);
    }
}

static void test_same_seed_same_game(void **unused)
{
    (void)unused;
    for (int g = 0; g < asobi_game_count(); g++) {
        const asobi_game_def *def = asobi_game_at(g);
        int p = asobi_game_min_players(def);
        asobi_state *a = asobi_state_new(def, p, NULL, 77, NULL);
        asobi_state *b = asobi_state_new(def, p, NULL, 77, NULL);
        assert_true(asobi_state_equal(a, b));
        int ids[asobi_game_max_actions(def)];
        asobi_rng rng;
        asobi_rng_seed(&rng, 5);
        for (int step = 0; step < 200 && !asobi_state_terminal(a); step++) {
            uint32_t m = asobi_state_to_move(a);
            int seat = __builtin_ctz(m);
            int n = asobi_state_legal(a, seat, ids);
            int id = ids[asobi_rng_below(&rng, (uint32_t)n)];
            asobi_state_apply_unchecked(a, seat, id);
            assert_int_equal(asobi_state_apply(b, seat, id, NULL), ASOBI_OK);
            assert_true(asobi_state_equal(a, b));
        }
        asobi_state_free(a);
        asobi_state_free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_finds_every_game_by_name),
        cmocka_unit_test(test_bad_players_and_options_are_refused),
        cmocka_unit_test(test_same_seed_same_game),
        cmocka_unit_test(test_every_game_every_player_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

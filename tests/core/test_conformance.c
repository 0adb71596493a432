/* test_conformance.c — every registered game, at every player count, passes the game-agnostic checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
                .games = test_reps(10), /* 1 under the sanitizers, deep checks at every action */
                .seed = 1000u * (uint64_t)p + (uint64_t)g,
                .deep_every = 1,
            };
            conformance_run(&spec);
        }
    }
}

/* A card set file under tests/, as the JSON text of the options that play
 * it ({"cards": content}), with more options appended (extra: "" or
 * ", \"key\": value"). The caller frees it. */
static char *options_with_card_file(const char *rel, const char *extra)
{
    char path[1024];
    const char *dir = getenv("ASOBI_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/%s", dir ? dir : ".", rel);
    json_t *content;
    asobi_error err;
    if (asobi_read_data_file(path, &content, &err) != ASOBI_OK)
        fail_msg("%s: %s", path, err.message);
    char *set = json_dumps(content, JSON_COMPACT);
    size_t cap = strlen(set) + strlen(extra) + 32;
    char *text = malloc(cap);
    snprintf(text, cap, "{\"cards\": %s%s}", set, extra);
    free(set);
    json_decref(content);
    return text;
}

/* Time Masters' random_action hook counts the actions of each kind (each
 * payable spell on each free timer among them) and builds only the one
 * drawn (timemasters_moves.c): it must pick legal()'s id from the same
 * draws in every state, under every option that changes what it counts:
 * the turn cap (games cut short), and a card set of 64 kinds (the kinds'
 * masks to their last bit), spells of cost 0 to 9 and effects of 9 (costs
 * past either end of the budget), more timers of 1 and 2 slots, with set
 * and discard triggers, in the starting deck. */
static void test_timemasters_random_action_with_options(void **unused)
{
    (void)unused;
    char *stress = options_with_card_file("tests/games/timemasters/cards_stress.json", "");
    char *stress_short = options_with_card_file("tests/games/timemasters/cards_stress.json", ", \"max_turns\": 24");
    const char *options[] = {NULL, "{\"max_turns\": 16}", stress, stress_short};
    const char *names[] = {"no options", "max_turns 16", "the stress set", "the stress set, max_turns 24"};
    for (int p = 2; p <= 4; p++)
        for (int o = 0; o < 4; o++) {
            conformance_spec spec = {
                .game = "timemasters",
                .players = p,
                .options_json = options[o],
                .games = test_reps(150),
                .seed = 7000u + 100u * (uint64_t)p + (uint64_t)o,
            };
            long states = conformance_random_actions(&spec);
            print_message("%dp, %s: %ld states\n", p, names[o], states);
            assert_true(states >= 10L * spec.games);
        }
    free(stress);
    free(stress_short);
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
        cmocka_unit_test(test_timemasters_random_action_with_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_bots.c — every bot on every game: legal actions only, blind to hidden information, reproducible. */
#include <stdio.h>
#include <string.h>

#include "conformance.h"
#include "repetitions.h"

/* Specs tried on every game. Small budgets: these tests check correctness,
 * not strength. psycle-nash has its own tests (test_psycle_nash.c): a whole
 * game would build its full table. A spec a game refuses (heuristic
 * without the game's hook, say) must be listed in refused_by_design below,
 * or the test fails: a refusal skipped in silence would leave that bot
 * untested on that game with every test green (issue 32). */
static const char *const specs[] = {
    "random",
    "heuristic",
    "ismcts:iters=60",
    "ismcts:iters=40,playout=heuristic",
    "ismcts:iters=40,depth=8,c=1.5,gamma=0.3",
    "ismcts:iters=30,nodes=5", /* a pool that fills up */
    "ismcts:iters=40,sim=duct,purify=0.2",
    "ismcts:iters=40,sim=rm+",
    "ismcts:iters=40,baseline=1",
    "ismcts:iters=40,baseline=1,sim=rm+",
    "ismcts:iters=40,worlds=4", /* determinized search: 4 worlds of 10 iterations */
};
#define SPEC_COUNT (sizeof specs / sizeof specs[0])

/* The (game, spec) pairs a game refuses on purpose: none today, every game
 * has a heuristic and every spec above fits every game. */
static const struct {
    const char *game, *spec;
} refused_by_design[] = {{NULL, NULL}};

static bool refusal_expected(const char *spec, const asobi_game_def *g)
{
    for (size_t i = 0; i < sizeof refused_by_design / sizeof refused_by_design[0]; i++)
        if (refused_by_design[i].game && strcmp(refused_by_design[i].game, asobi_game_name(g)) == 0 &&
            strcmp(refused_by_design[i].spec, spec) == 0)
            return true;
    return false;
}

/* Make a bot, or NULL if the game refuses the spec by design (bad_bot);
 * any other refusal fails the test. */
static asobi_bot *make_bot(const char *spec, const asobi_game_def *g, int players, int seat, uint64_t seed)
{
    asobi_error err;
    asobi_bot *b = asobi_bot_new(spec, g, players, seat, seed, &err);
    if (!b) {
        assert_int_equal(err.code, ASOBI_E_BAD_BOT);
        if (!refusal_expected(spec, g))
            fail_msg("%s refuses the bot spec %s (%s): every spec is tried on every game unless listed in "
                     "refused_by_design", asobi_game_name(g), spec, err.message);
    }
    return b;
}

/* Play one game with `spec` at every seat; the whole action sequence goes to
 * log (if not NULL). Every choice goes through the validated apply. */
static int play_game(const asobi_game_def *g, int players, const char *spec, uint64_t seed, int *log,
                     int log_cap, asobi_state **final)
{
    asobi_bot *bots[ASOBI_MAX_SEATS];
    for (int i = 0; i < players; i++) {
        bots[i] = make_bot(spec, g, players, i, seed);
        if (!bots[i]) {
            for (int j = 0; j < i; j++)
                asobi_bot_free(bots[j]);
            return -1;
        }
    }
    asobi_error err;
    asobi_state *s = asobi_state_new(g, players, NULL, seed, &err);
    assert_non_null(s);
    int n = 0;
    for (int step = 0; !asobi_state_terminal(s); step++) {
        assert_true(step < 20000);
        uint32_t m = asobi_state_to_move(s);
        int seat = 0;
        while (!(m & (1u << seat)))
            seat++;
        int id = asobi_bot_choose(bots[seat], s, &err);
        if (id < 0)
            fail_msg("%s (%s) seat %d: %s", spec, asobi_game_name(g), seat, err.message);
        assert_true(asobi_state_is_legal(s, seat, id));
        assert_int_equal(asobi_state_apply(s, seat, id, &err), ASOBI_OK);
        if (log && n < log_cap)
            log[n] = seat * 100000 + id;
        n++;
    }
    for (int i = 0; i < players; i++)
        asobi_bot_free(bots[i]);
    if (final)
        *final = s;
    else
        asobi_state_free(s);
    return n;
}

/* issue 6: "the bots only play legal actions" — whole games, every game,
 * every player count, every spec, one seed (the validated apply would
 * refuse; two seeds doubled the suite's longest C test for no case the
 * random-game tests and the fuzzers do not also reach). Under the
 * sanitizers (repetitions.h) each spec at one player count, rotating, so
 * every spec still plays every game and every player count still meets
 * several specs. */
static void test_bots_play_only_legal_actions(void **unused)
{
    (void)unused;
    int seeds = 1;
    for (int gi = 0; gi < asobi_game_count(); gi++) {
        const asobi_game_def *g = asobi_game_at(gi);
        int min = asobi_game_min_players(g), counts = asobi_game_max_players(g) - min + 1;
        int tried = test_reps(counts), played = 0;
        for (size_t k = 0; k < SPEC_COUNT; k++)
            for (int j = 0; j < tried; j++) {
                int p = min + (int)((k + (size_t)j) % (size_t)counts);
                for (uint64_t seed = 1; seed <= (uint64_t)seeds; seed++)
                    played += play_game(g, p, specs[k], seed * 31 + (uint64_t)p, NULL, 0, NULL) >= 0;
            }
        /* the minimum: every spec, every player count it was given, every seed */
        int refused = 0;
        for (size_t k = 0; k < SPEC_COUNT; k++)
            refused += refusal_expected(specs[k], g);
        assert_int_equal(played, (int)(SPEC_COUNT - (size_t)refused) * tried * seeds);
    }
}

/* issue 6: "equal seeds give equal games" — the same specs and seeds play
 * the same actions to a byte-identical end. Under the sanitizers, two specs
 * per game (a different pair for each game). */
static void test_equal_seeds_give_equal_games(void **unused)
{
    (void)unused;
    enum { CAP = 4096 };
    static int log_a[CAP], log_b[CAP];
    size_t tried = (size_t)test_reps((int)SPEC_COUNT);
    for (int gi = 0; gi < asobi_game_count(); gi++) {
        const asobi_game_def *g = asobi_game_at(gi);
        int p = asobi_game_min_players(g);
        for (size_t j = 0; j < tried; j++) {
            size_t k = (j + (size_t)gi * tried) % SPEC_COUNT;
            asobi_state *fa = NULL, *fb = NULL;
            int na = play_game(g, p, specs[k], 77, log_a, CAP, &fa);
            if (na < 0)
                continue;
            int nb = play_game(g, p, specs[k], 77, log_b, CAP, &fb);
            assert_int_equal(na, nb);
            assert_memory_equal(log_a, log_b, (size_t)(na < CAP ? na : CAP) * sizeof(int));
            assert_true(asobi_state_equal(fa, fb));
            asobi_state_free(fa);
            asobi_state_free(fb);
        }
    }
}

/* issue 6: "a test proves that a bot's choices do not change when the hidden
 * information that its seat cannot see is changed". Along random games
 * (where some seats have already committed simultaneous choices), for a
 * seat to move: the true state and a copy whose hidden information was
 * resampled for that seat (asobi_state_determinize) give the seat the same
 * view; a bot of that seat made with the same seed must choose the same
 * action in both. The test also counts that the hidden parts really
 * differed in most cases, or it would prove nothing. Under the sanitizers
 * (repetitions.h) one game per player count instead of three, two specs per
 * checked step instead of all, rotating through them, and every 6th step
 * checked instead of every 3rd (this test was the sanitizer run's longest). */
static void test_choices_ignore_hidden_information(void **unused)
{
    (void)unused;
    uint64_t games = (uint64_t)test_reps(3);
    size_t specs_per_check = (size_t)test_reps((int)SPEC_COUNT);
    int stride = games < 3 ? 6 : 3; /* the steps checked: every 3rd, every 6th under the sanitizers */
    for (int gi = 0; gi < asobi_game_count(); gi++) {
        const asobi_game_def *g = asobi_game_at(gi);
        for (int p = asobi_game_min_players(g); p <= asobi_game_max_players(g); p++) {
            int checked = 0, differed = 0;
            for (uint64_t gs = 1; gs <= games; gs++) {
                asobi_state *s = new_state(asobi_game_name(g), p, NULL, 500 + gs);
                asobi_rng rng;
                asobi_rng_seed(&rng, gs);
                int ids[512];
                for (int step = 0; !asobi_state_terminal(s) && step < 120; step++) {
                    uint32_t m = asobi_state_to_move(s);
                    /* A random seat among those to move. */
                    int movers[ASOBI_MAX_SEATS], nm = 0;
                    for (int i = 0; i < p; i++)
                        if (m & (1u << i))
                            movers[nm++] = i;
                    int seat = movers[asobi_rng_below(&rng, (uint32_t)nm)];
                    if (step % stride == 0) {
                        asobi_state *other = asobi_state_clone(s);
                        asobi_rng hide;
                        asobi_rng_seed(&hide, 9000 + (uint64_t)step);
                        asobi_state_determinize(other, seat, &hide);
                        json_t *va = asobi_state_view(s, seat), *vb = asobi_state_view(other, seat);
                        assert_true(json_equal(va, vb));
                        json_decref(va);
                        json_decref(vb);
                        differed += !asobi_state_equal(s, other);
                        checked++;
                        for (size_t j = 0; j < specs_per_check; j++) {
                            size_t k = (j + (size_t)checked * specs_per_check) % SPEC_COUNT;
                            asobi_bot *ba = make_bot(specs[k], g, p, seat, 4242);
                            if (!ba)
                                continue;
                            asobi_bot *bb = make_bot(specs[k], g, p, seat, 4242);
                            asobi_error err;
                            int ia = asobi_bot_choose(ba, s, &err);
                            int ib = asobi_bot_choose(bb, other, &err);
                            if (ia != ib)
                                fail_msg("%s on %s (%d players) seat %d step %d: %d with the true hidden "
                                         "information, %d with another",
                                         specs[k], asobi_game_name(g), p, seat, step, ia, ib);
                            asobi_bot_free(ba);
                            asobi_bot_free(bb);
                        }
                        asobi_state_free(other);
                    }
                    int n = asobi_state_legal(s, seat, ids);
                    asobi_error err;
                    assert_int_equal(asobi_state_apply(s, seat, ids[asobi_rng_below(&rng, (uint32_t)n)], &err),
                                     ASOBI_OK);
                }
                asobi_state_free(s);
            }
            assert_true(checked > 0);
            assert_true(2 * differed > checked);
        }
    }
}

/* Spec strings: unknown keys, bad numbers and the wrong mix are refused. */
static void test_bad_specs_are_refused(void **unused)
{
    (void)unused;
    const asobi_game_def *g = asobi_game_at(0);
    const char *bad[] = {"ismcts:iters=0", "ismcts:iters=abc", "ismcts:time=-1", "ismcts:bogus=1",
                         "ismcts:iters=10,time=0.1", "ismcts:playout=smart", "ismcts:iters=2.5",
                         "ismcts:c=x", "ismcts:sim=cfr", "ismcts:worlds=1.5", "ismcts:worlds=-2", "nosuchbot", "psycle-nash:x=1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        asobi_error err;
        assert_int_equal(asobi_bot_check_spec(bad[i], g, &err), ASOBI_E_BAD_BOT);
        assert_true(err.message[0] != '\0');
    }
    asobi_error err;
    assert_int_equal(asobi_bot_check_spec("ismcts:time=0.01", g, &err), ASOBI_OK);
    assert_int_equal(asobi_bot_check_spec("ismcts:iters=2000", g, &err), ASOBI_OK);
    assert_int_equal(asobi_bot_check_spec("ismcts:playout=auto", g, &err), ASOBI_OK);
    assert_non_null(asobi_bot_help("ismcts"));
    bool found = false;
    for (const char *const *n = asobi_bot_names(); *n; n++)
        found |= strcmp(*n, "ismcts") == 0;
    assert_true(found);
}

/* A time budget answers with a legal action too (one move, short budget). */
static void test_ismcts_time_budget_gives_a_legal_action(void **unused)
{
    (void)unused;
    for (int gi = 0; gi < asobi_game_count(); gi++) {
        const asobi_game_def *g = asobi_game_at(gi);
        int p = asobi_game_min_players(g);
        asobi_state *s = new_state(asobi_game_name(g), p, NULL, 3);
        uint32_t m = asobi_state_to_move(s);
        int seat = 0;
        while (!(m & (1u << seat)))
            seat++;
        asobi_error err;
        asobi_bot *b = asobi_bot_new("ismcts:time=0.02", g, p, seat, 1, &err);
        assert_non_null(b);
        int id = asobi_bot_choose(b, s, &err);
        assert_true(asobi_state_is_legal(s, seat, id));
        asobi_bot_free(b);
        asobi_state_free(s);
    }
}

/* playout=auto (the default) takes each game's own policy: heuristic
 * playouts in Time Masters (random ones are aimless there, docs/ai.md) and
 * NINJA SCROLL TRICK (its heuristic knows the shadow's rule), random ones
 * elsewhere. The default bot must play exactly the game of the
 * explicit spec it stands for, and not that of the other policy. */
static void test_ismcts_default_playout_is_the_games_choice(void **unused)
{
    (void)unused;
    enum { CAP = 4096 };
    static int log_auto[CAP], log_same[CAP], log_other[CAP];
    for (int gi = 0; gi < asobi_game_count(); gi++) {
        const asobi_game_def *g = asobi_game_at(gi);
        bool heuristic = strcmp(asobi_game_name(g), "timemasters") == 0 || strcmp(asobi_game_name(g), "ninja") == 0;
        int p = asobi_game_min_players(g);
        int na = play_game(g, p, "ismcts:iters=20", 5, log_auto, CAP, NULL);
        int nx = play_game(g, p, "ismcts:iters=20,playout=auto", 5, log_other, CAP, NULL);
        assert_int_equal(na, nx);
        assert_memory_equal(log_auto, log_other, (size_t)(na < CAP ? na : CAP) * sizeof(int));
        int ns = play_game(g, p, heuristic ? "ismcts:iters=20,playout=heuristic" : "ismcts:iters=20,playout=random",
                           5, log_same, CAP, NULL);
        int no = play_game(g, p, heuristic ? "ismcts:iters=20,playout=random" : "ismcts:iters=20,playout=heuristic",
                           5, log_other, CAP, NULL);
        assert_int_equal(na, ns);
        assert_memory_equal(log_auto, log_same, (size_t)(na < CAP ? na : CAP) * sizeof(int));
        if (no == na && memcmp(log_auto, log_other, (size_t)(na < CAP ? na : CAP) * sizeof(int)) == 0)
            fail_msg("%s: the default playout plays the same game as the other policy", asobi_game_name(g));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bots_play_only_legal_actions),
        cmocka_unit_test(test_equal_seeds_give_equal_games),
        cmocka_unit_test(test_choices_ignore_hidden_information),
        cmocka_unit_test(test_bad_specs_are_refused),
        cmocka_unit_test(test_ismcts_time_budget_gives_a_legal_action),
        cmocka_unit_test(test_ismcts_default_playout_is_the_games_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_bot_deadlines.c — ISMCTS answers within its budget at random positions of every game at every player count (issue 29). */
#define _POSIX_C_SOURCE 200809L
#include "conformance.h"
#include "repetitions.h"

#include <asobi/bot.h>
#include <string.h>
#include <time.h>

static double seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Ask a bot of spec for the move of the lowest seat to move in s; fail
 * unless it answers a legal action having spent at most limit seconds of
 * CPU (what a search that runs past its budget spends; the search is
 * single-threaded) and at most 10 s on the wall clock (a loaded machine
 * may hold the process back for a while: CI saw 0.58 s for a 0.02 s budget
 * at a load of 12, with little of it spent by the search). Returns the CPU time. */
static double ask_within(const char *spec, const asobi_state *s, int players, uint64_t seed, double limit)
{
    int seat = __builtin_ctz(asobi_state_to_move(s));
    asobi_error err;
    asobi_bot *bot = asobi_bot_new(spec, asobi_state_game(s), players, seat, seed, &err);
    if (!bot)
        fail_msg("%s: %s", spec, err.message);
    double start = seconds(CLOCK_MONOTONIC), cpu_start = seconds(CLOCK_PROCESS_CPUTIME_ID);
    int id = asobi_bot_choose(bot, s, &err);
    double took = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu_start, wall = seconds(CLOCK_MONOTONIC) - start;
    if (id < 0 || !asobi_state_is_legal(s, seat, id))
        fail_msg("%s %s: no legal answer (%s)", asobi_game_name(asobi_state_game(s)), spec, err.message);
    if (took > limit || wall > 10.0)
        fail_msg("%s, %d players, seed %llu: %s took %.3f s of CPU (limit %.3f s), %.3f s in all (limit 10 s)",
                 asobi_game_name(asobi_state_game(s)), players, (unsigned long long)seed, spec, took, limit, wall);
    asobi_bot_free(bot);
    return took;
}

/* Random games of game at every player count; at positions drawn along them
 * (a few per game, anywhere from the first action to the last), ismcts with
 * a small iteration budget must answer (a generous bound that only a search
 * that runs away can miss), and now and then ismcts with a time budget must
 * stop within it plus a small margin. */
static void check_game(const char *name)
{
    const asobi_game_def *def = asobi_game_find(name);
    assert_non_null(def);
    int positions = test_reps(120) < 30 ? 30 : test_reps(120);
    for (int players = asobi_game_min_players(def); players <= asobi_game_max_players(def); players++) {
        asobi_rng rng;
        asobi_rng_seed(&rng, (uint64_t)players * 7919u);
        int asked = 0, timed = 0;
        for (uint64_t game = 1; asked < positions; game++) {
            asobi_state *s = new_state(name, players, NULL, game);
            int step = 0;
            while (!asobi_state_terminal(s) && asked < positions) {
                /* about one position in 25, so each game gives several */
                if (asobi_rng_below(&rng, 25) == 0) {
                    ask_within("ismcts:iters=10", s, players, game, 5.0);
                    asked++;
                    if (asked % 10 == 0) {
                        ask_within("ismcts:time=0.02", s, players, game, 0.02 + 0.5);
                        timed++;
                    }
                }
                int seat = __builtin_ctz(asobi_state_to_move(s));
                asobi_state_apply_unchecked(s, seat, asobi_state_random_action(s, seat, &rng));
                step++;
            }
            asobi_state_free(s);
        }
        assert_true(asked >= positions && timed >= positions / 10);
    }
}

static void test_psycle(void **unused) { (void)unused; check_game("psycle"); }
static void test_ninja(void **unused) { (void)unused; check_game("ninja"); }
static void test_octal(void **unused) { (void)unused; check_game("octal"); }
static void test_timemasters(void **unused) { (void)unused; check_game("timemasters"); }

/* Every game in the registry is one of the above: a new game must be added. */
static void test_every_game_is_checked(void **unused)
{
    (void)unused;
    static const char *const checked[] = {"psycle", "ninja", "octal", "timemasters"};
    for (int g = 0; g < asobi_game_count(); g++) {
        bool found = false;
        for (size_t i = 0; i < sizeof checked / sizeof *checked; i++)
            found |= strcmp(asobi_game_name(asobi_game_at(g)), checked[i]) == 0;
        if (!found)
            fail_msg("%s: add it to test_bot_deadlines.c", asobi_game_name(asobi_game_at(g)));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_psycle),
        cmocka_unit_test(test_ninja),
        cmocka_unit_test(test_octal),
        cmocka_unit_test(test_timemasters),
        cmocka_unit_test(test_every_game_is_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

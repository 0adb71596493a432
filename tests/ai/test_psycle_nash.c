/* test_psycle_nash.c — the exact 2-player PSYCLE solver: matrix games, hand-solved rounds, the bot. */
#include <math.h>
#include <string.h>

#include "conformance.h"
#include "ai/psycle_nash.h"
#include "game_def.h"
#include "games/psycle/psycle.h"

#define TOL 1e-9

/* Check that x and y are optimal for m with value v: x guarantees at least
 * v against every column, y concedes at most v against every row. */
static void assert_optimal(const double *m, int rows, int cols, const double *x, const double *y, double v)
{
    double sx = 0, sy = 0;
    for (int i = 0; i < rows; i++) {
        assert_true(x[i] >= -TOL);
        sx += x[i];
    }
    for (int j = 0; j < cols; j++) {
        assert_true(y[j] >= -TOL);
        sy += y[j];
    }
    assert_true(fabs(sx - 1) < TOL && fabs(sy - 1) < TOL);
    for (int j = 0; j < cols; j++) {
        double e = 0;
        for (int i = 0; i < rows; i++)
            e += x[i] * m[i * cols + j];
        assert_true(e >= v - TOL);
    }
    for (int i = 0; i < rows; i++) {
        double e = 0;
        for (int j = 0; j < cols; j++)
            e += m[i * cols + j] * y[j];
        assert_true(e <= v + TOL);
    }
}

static void test_matrix_games_solved_by_hand(void **unused)
{
    (void)unused;
    double x[6], y[6];
    /* Matching pennies: value 0, both 1/2. */
    const double pennies[] = {1, -1, -1, 1};
    assert_true(fabs(psycle_nash_solve_matrix(pennies, 2, 2, x, y)) < TOL);
    assert_true(fabs(x[0] - 0.5) < TOL && fabs(y[0] - 0.5) < TOL);
    /* Rock-paper-scissors: value 0, all 1/3. */
    const double rps[] = {0, -1, 1, 1, 0, -1, -1, 1, 0};
    assert_true(fabs(psycle_nash_solve_matrix(rps, 3, 3, x, y)) < TOL);
    for (int i = 0; i < 3; i++)
        assert_true(fabs(x[i] - 1.0 / 3) < TOL && fabs(y[i] - 1.0 / 3) < TOL);
    /* [[2,-1],[-1,1]]: the row player mixes 2/5, 3/5; value 1/5. */
    const double mixed[] = {2, -1, -1, 1};
    assert_true(fabs(psycle_nash_solve_matrix(mixed, 2, 2, x, y) - 0.2) < TOL);
    assert_true(fabs(x[0] - 0.4) < TOL && fabs(y[0] - 0.4) < TOL);
    /* A saddle point: [[3,1],[4,2]] has value 2 at (row 1, column 1). */
    const double saddle[] = {3, 1, 4, 2};
    assert_true(fabs(psycle_nash_solve_matrix(saddle, 2, 2, x, y) - 2) < TOL);
    assert_true(fabs(x[1] - 1) < TOL && fabs(y[1] - 1) < TOL);
    /* 1x1 and non-square shapes. */
    const double one[] = {-1};
    assert_true(fabs(psycle_nash_solve_matrix(one, 1, 1, x, y) + 1) < TOL);
    const double wide[] = {0, 1, -1, 0.5, 0.25, 0.75};
    double v = psycle_nash_solve_matrix(wide, 1, 6, x, y);
    assert_true(fabs(v + 1) < TOL);
    assert_optimal(wide, 1, 6, x, y, v);
}

/* Random matrices, including the degenerate ones a cycle produces (entries
 * in {-1, 0, 1}, many ties): the strategies returned are optimal. */
static void test_random_matrix_games_are_solved_optimally(void **unused)
{
    (void)unused;
    asobi_rng rng;
    asobi_rng_seed(&rng, 12);
    for (int k = 0; k < 3000; k++) {
        int rows = 1 + (int)asobi_rng_below(&rng, 6), cols = 1 + (int)asobi_rng_below(&rng, 6);
        double m[36], x[6], y[6];
        for (int i = 0; i < rows * cols; i++)
            m[i] = k % 2 ? (double)asobi_rng_below(&rng, 3) - 1.0 : asobi_rng_unit(&rng) * 4 - 2;
        double v = psycle_nash_solve_matrix(m, rows, cols, x, y);
        assert_optimal(m, rows, cols, x, y, v);
    }
}

/* seed 000 §9 "『リソースジェム』1つあたりマイナス1点" with a 2-player tie
 * replayed (value 0): the last round, solved by hand. */
static void test_last_round_positions_solved_by_hand(void **unused)
{
    (void)unused;
    double x[6], y[6];
    /* Nobody holds a gem: both must play 0, nothing changes; the points decide. */
    assert_true(fabs(psycle_nash_round(4, 0, 0, 3, 3, 0, 0, 0, x, y)) < TOL);
    assert_true(fabs(psycle_nash_round(4, 0, 0, 3, 3, 0, 0, 1, x, y) - 1) < TOL);
    assert_true(fabs(psycle_nash_round(4, 0, 0, 3, 3, 0, 0, -2, x, y) + 1) < TOL);
    /* A holds 1 gem, B none, level on points. B must play 0. A's 0 keeps the
     * gem (final -1: loss); A's 1 beats the 0 (§8: 3 stars) and spends the
     * gem: a sure win. Value 1, A plays 1. */
    assert_true(fabs(psycle_nash_round(4, 0, 0, 5, 5, 1, 0, 0, x, y) - 1) < TOL);
    assert_true(fabs(x[1] - 1) < TOL);
    /* Both hold 1 gem, level. (1,1): nobody beats anybody, both empty: tie.
     * (0,0): both keep a gem: tie. (1,0): A scores 3, B's 0 takes 1 gem
     * (§4: the highest card played): A wins. So 1 dominates: value 0, both 1. */
    assert_true(fabs(psycle_nash_round(4, 0, 0, 5, 5, 1, 1, 0, x, y)) < TOL);
    assert_true(fabs(x[1] - 1) < TOL && fabs(y[1] - 1) < TOL);
    /* Same, but A is 4 points behind and the target is 1 with bonus +5:
     * only (1 vs 0) wins for A (3+5 points, B takes a gem: +10), every
     * other pair loses; B plays 1 and wins for sure. Value -1. */
    assert_true(fabs(psycle_nash_round(4, 0, 0, 1, 5, 1, 1, -4, x, y) + 1) < TOL);
    assert_true(fabs(y[1] - 1) < TOL);
    /* The value of the last round before the draw averages the draws: with
     * only target 2 and bonus 4 face down it is that round's value. */
    assert_true(fabs(psycle_nash_value(4, 1u << 1, 1u << 3, 1, 1, 0) -
                     psycle_nash_round(4, 0, 0, 2, 4, 1, 1, 0, NULL, NULL)) < TOL);
    /* After the fifth round the value is the sign of points minus gems. */
    assert_true(fabs(psycle_nash_value(5, 0, 0, 3, 0, 2) + 1) < TOL);
    assert_true(fabs(psycle_nash_value(5, 0, 0, 3, 1, 2)) < TOL);
    assert_true(fabs(psycle_nash_value(5, 0, 0, 0, 1, 0) - 1) < TOL);
}

/* An independent last-round evaluator written straight from the seed (not
 * from the rules engine): for every small position, the solver's matrix
 * value equals the value of the matrix built here. */
static int seed_beats(int a, int b)
{
    /* §4: higher beats lower, but 1 beats 5 and 5 does not beat 1; 0 beats nothing. */
    if (a == 0 || a == b)
        return 0;
    if (a == 1 && b == 5)
        return 1;
    if (a == 5 && b == 1)
        return 0;
    return b < a;
}

static void test_last_round_matches_an_independent_evaluator(void **unused)
{
    (void)unused;
    static const int stars[6] = {0, 3, 3, 2, 1, 1};
    for (int ga = 0; ga <= 7; ga++)
        for (int gb = 0; gb <= 7; gb++)
            for (int d = -12; d <= 12; d += 3)
                for (int t = 1; t <= 5; t++) {
                    int bonus = 6 - t, rows = (ga < 5 ? ga : 5) + 1, cols = (gb < 5 ? gb : 5) + 1;
                    double m[36];
                    for (int a = 0; a < rows; a++)
                        for (int b = 0; b < cols; b++) {
                            int pa = seed_beats(a, b) ? stars[a] + (a == t ? bonus : 0) : 0;
                            int pb = seed_beats(b, a) ? stars[b] + (b == t ? bonus : 0) : 0;
                            int fa = ga - a + (a == 0 ? b : 0), fb = gb - b + (b == 0 ? a : 0);
                            int final = d + pa - pb - fa + fb;
                            m[a * cols + b] = final > 0 ? 1 : final < 0 ? -1 : 0;
                        }
                    double want = psycle_nash_solve_matrix(m, rows, cols, NULL, NULL);
                    double got = psycle_nash_round(4, 0, 0, t, bonus, ga, gb, d, NULL, NULL);
                    assert_true(fabs(want - got) < TOL);
                }
}

/* The exploitability: from positions two rounds before the end, a best
 * response to the equilibrium gains nothing over the equilibrium value. */
static void test_best_response_gains_nothing(void **unused)
{
    (void)unused;
    for (int ga = 0; ga <= 12; ga += 3)
        for (int gb = 0; gb <= 12; gb += 4)
            for (int d = -6; d <= 6; d += 3) {
                unsigned tiles = (1u << 0) | (1u << 3), bonuses = (1u << 1) | (1u << 4);
                double v = psycle_nash_value(3, tiles, bonuses, ga, gb, d);
                double br = psycle_nash_best_response_value(3, tiles, bonuses, ga, gb, d);
                assert_true(br + v < 1e-9); /* B's best gain is at most -v */
                assert_true(br + v > -1e-9);
            }
    /* Symmetry: swapping the seats negates the value. */
    double a = psycle_nash_value(2, 0x7, 0x19, 9, 4, 3), b = psycle_nash_value(2, 0x7, 0x19, 4, 9, -3);
    assert_true(fabs(a + b) < TOL);
}

/* The bot: refuses other games and player counts; from late positions of
 * real games it plays legal cards, and the same view gives the same card. */
static void test_psycle_nash_bot(void **unused)
{
    (void)unused;
    const asobi_game_def *g = asobi_game_find("psycle");
    asobi_error err;
    assert_null(asobi_bot_new("psycle-nash", g, 3, 0, 1, &err));
    assert_int_equal(err.code, ASOBI_E_BAD_BOT);
    for (uint64_t seed = 1; seed <= 6; seed++) {
        asobi_state *s = new_state("psycle", 2, NULL, seed);
        asobi_rng rng;
        asobi_rng_seed(&rng, seed);
        int ids[6];
        /* Random play to the fourth round of the first cycle (the bot's
         * first move there builds only the table of what can follow). */
        while (((const psycle_state *)asobi_state_data_for_ai(s))->round < 3)
            for (int seat = 0; seat < 2; seat++) {
                int n = asobi_state_legal(s, seat, ids);
                asobi_state_apply(s, seat, ids[asobi_rng_below(&rng, (uint32_t)n)], &err);
            }
        for (int seat = 0; seat < 2; seat++) {
            asobi_state *other = asobi_state_clone(s);
            asobi_rng hide;
            asobi_rng_seed(&hide, seed + 100);
            asobi_state_determinize(other, seat, &hide);
            asobi_bot *a = asobi_bot_new("psycle-nash", g, 2, seat, 9, &err);
            asobi_bot *b = asobi_bot_new("psycle-nash", g, 2, seat, 9, &err);
            assert_non_null(a);
            for (int k = 0; k < 5; k++) {
                int ia = asobi_bot_choose(a, s, &err), ib = asobi_bot_choose(b, other, &err);
                assert_true(asobi_state_is_legal(s, seat, ia));
                assert_int_equal(ia, ib);
            }
            asobi_bot_free(a);
            asobi_bot_free(b);
            asobi_state_free(other);
        }
        /* Play the cycle out with the bot on both seats. */
        asobi_bot *bots[2] = {asobi_bot_new("psycle-nash", g, 2, 0, 5, &err),
                              asobi_bot_new("psycle-nash", g, 2, 1, 5, &err)};
        int cycle = ((const psycle_state *)asobi_state_data_for_ai(s))->cycle;
        while (!asobi_state_terminal(s) && ((const psycle_state *)asobi_state_data_for_ai(s))->cycle == cycle) {
            int c[2] = {asobi_bot_choose(bots[0], s, &err), asobi_bot_choose(bots[1], s, &err)};
            assert_int_equal(asobi_state_apply(s, 0, c[0], &err), ASOBI_OK);
            assert_int_equal(asobi_state_apply(s, 1, c[1], &err), ASOBI_OK);
        }
        asobi_bot_free(bots[0]);
        asobi_bot_free(bots[1]);
        asobi_state_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix_games_solved_by_hand),
        cmocka_unit_test(test_random_matrix_games_are_solved_optimally),
        cmocka_unit_test(test_last_round_positions_solved_by_hand),
        cmocka_unit_test(test_last_round_matches_an_independent_evaluator),
        cmocka_unit_test(test_best_response_gains_nothing),
        cmocka_unit_test(test_psycle_nash_bot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

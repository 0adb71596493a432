/* test_octal_random_action.c — THE OCTAL's random_action (overrides counted, not listed) picks legal()'s id from the same draws on crafted hands of 5. */
#include <string.h>

#include "bits.h"
#include "conformance.h"
#include "game_def.h"
#include "games/octal/octal.h"
#include "repetitions.h"

/* test_conformance compares random_action with legal() at every step of
 * random games, but random play seldom holds the hands where counting the
 * overrides is hardest: three or four cards of one number (their orders),
 * both ALLs (only the first may be chosen), an ALL with equal numbers. Here
 * the seat to act gets such hands, on the questions of real positions. */

/* A hand of 5 distinct cards: from few numbers (equal numbers likely), with
 * the ALLs often, or uniformly from all 34. */
static uint64_t crafted_hand(asobi_rng *rng)
{
    uint64_t hand = 0;
    int style = (int)asobi_rng_below(rng, 3);
    int low = 1 + (int)asobi_rng_below(rng, 8), span = 1 + (int)asobi_rng_below(rng, 2);
    while (asobi_popcount64(hand) < OCTAL_HAND_LIMIT) {
        int card = (int)asobi_rng_below(rng, OCTAL_CARDS);
        if (style == 0 && card < OCTAL_NUMBER_CARDS) {
            int number = octal_number(card);
            int d = (number - low + 8) % 8;
            if (d >= span)
                continue;
        }
        if (style == 1 && card < OCTAL_NUMBER_CARDS && asobi_rng_below(rng, 2))
            continue; /* ALLs twice as likely */
        hand |= 1ull << card;
    }
    return hand;
}

/* The pick of random_action against legal()'s list and one draw, for the
 * seat to act, from several generator states. */
static long compare_picks(const octal_state *s, int seat, asobi_rng *rng, long *overrides)
{
    static int ids[OCTAL_MAX_ACTIONS];
    int n = octal_legal(s, seat, ids);
    assert_true(n > 0);
    for (int t = 0; t < 8; t++) {
        asobi_rng a = asobi_rng_split(rng), b = a;
        int got = octal_random_action(s, seat, &a);
        int want = ids[asobi_rng_below(&b, (uint32_t)n)];
        if (got != want || memcmp(&a, &b, sizeof a) != 0)
            fail_msg("random_action gave %d, legal()+rng_below %d (of %d actions; draws %s)", got, want, n,
                     memcmp(&a, &b, sizeof a) ? "differ" : "agree");
        if (want >= OCTAL_ID_OVERRIDE && want < OCTAL_ID_DECLARE)
            ++*overrides;
    }
    return n;
}

static void run(const char *options, int players, int games)
{
    const asobi_game_def *def = asobi_game_find("octal");
    asobi_error err;
    json_t *opts = json_loads(options, 0, NULL);
    asobi_rng rng;
    asobi_rng_seed(&rng, 1234u + (uint64_t)players);
    long positions = 0, overrides = 0, biggest = 0;
    for (int g = 0; g < games; g++) {
        asobi_state *state = asobi_state_new(def, players, opts, (uint64_t)g + 1, &err);
        assert_non_null(state);
        uint32_t to_move;
        int ids[OCTAL_MAX_ACTIONS];
        while ((to_move = asobi_state_to_move(state)) != 0) {
            octal_state *s = asobi_state_data_mut(state);
            if (s->phase == OCTAL_PHASE_PLAY && s->octo_late < 0) {
                /* the real seat's hand, then crafted ones on the same questions */
                octal_state probe = *s;
                long n = compare_picks(&probe, probe.seat, &rng, &overrides);
                for (int h = 0; h < 4; h++) {
                    probe.hand[probe.seat] = crafted_hand(&rng);
                    n = compare_picks(&probe, probe.seat, &rng, &overrides);
                    biggest = n > biggest ? n : biggest;
                }
                positions++;
            }
            int seat = __builtin_ctz(to_move);
            int n = asobi_state_legal(state, seat, ids);
            asobi_state_apply(state, seat, ids[asobi_rng_below(&rng, (uint32_t)n)], &err);
        }
        asobi_state_free(state);
    }
    json_decref(opts);
    print_message("%s %d players: %ld positions, %ld override picks, up to %ld legal actions\n", options, players,
                  positions, overrides, biggest);
    assert_true(overrides > 0);
}

static void test_twin(void **unused)
{
    (void)unused;
    for (int p = 3; p <= 5; p++)
        run("{\"mode\":\"twin\"}", p, test_reps(100));
}

static void test_single(void **unused)
{
    (void)unused;
    for (int p = 3; p <= 6; p++)
        run("{\"mode\":\"single\"}", p, test_reps(100));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_twin),
        cmocka_unit_test(test_single),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

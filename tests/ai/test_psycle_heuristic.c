/* test_psycle_heuristic.c — PSYCLE's rule-of-thumb player follows the rules it was written from. */
#include "conformance.h"
#include "game_def.h"
#include "games/psycle/psycle.h"

/* Play random rounds until the given round of the first cycle. */
static asobi_state *state_at_round(uint64_t seed, int players, int round)
{
    asobi_state *s = new_state("psycle", players, NULL, seed);
    asobi_rng rng;
    asobi_rng_seed(&rng, seed);
    int ids[PSYCLE_CARDS];
    asobi_error err;
    while (((const psycle_state *)asobi_state_data_for_ai(s))->round < round)
        for (int seat = 0; seat < players; seat++) {
            int n = asobi_state_legal(s, seat, ids);
            assert_int_equal(asobi_state_apply(s, seat, ids[asobi_rng_below(&rng, (uint32_t)n)], &err), ASOBI_OK);
        }
    return s;
}

/* seed 000 §6② "カードの数字が、所有している『リソースジェム』の数よりも多い
 * 場合、そのカードは出すことが出来ません": the heuristic only names cards it
 * can afford, whatever its gems. */
static void test_heuristic_plays_affordable_cards(void **unused)
{
    (void)unused;
    for (uint64_t seed = 1; seed <= 40; seed++)
        for (int round = 0; round < PSYCLE_ROUNDS; round++) {
            int players = 2 + (int)(seed % 3);
            asobi_state *s = state_at_round(seed, players, round);
            asobi_rng rng;
            asobi_rng_seed(&rng, seed);
            for (int seat = 0; seat < players; seat++) {
                int card = psycle_heuristic(asobi_state_data_for_ai(s), seat, &rng);
                assert_true(asobi_state_is_legal(s, seat, card));
            }
            asobi_state_free(s);
        }
}

/* seed 000 §9 "所有している『リソースジェム』が残っている場合、『リソース
 * ジェム』1つあたりマイナス1点": on the fifth round a 0 only brings gems
 * that cost points, so the heuristic never plays 0 while it can pay for a
 * card. */
static void test_heuristic_spends_its_gems_on_the_last_round(void **unused)
{
    (void)unused;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        int players = 2 + (int)(seed % 3);
        asobi_state *s = state_at_round(seed, players, PSYCLE_ROUNDS - 1);
        asobi_rng rng;
        asobi_rng_seed(&rng, seed);
        const psycle_state *ps = asobi_state_data_for_ai(s);
        for (int seat = 0; seat < players; seat++) {
            int card = psycle_heuristic(ps, seat, &rng);
            if (ps->gems[seat] > 0)
                assert_true(card > 0);
        }
        asobi_state_free(s);
    }
}

/* §8 with the last round's arithmetic: holding 1 gem against a seat that
 * holds none (it must play 0), the 1 beats the 0 for 3 stars and spends the
 * gem; the heuristic sees it. */
static void test_heuristic_takes_a_sure_win(void **unused)
{
    (void)unused;
    asobi_state *s = state_at_round(5, 2, PSYCLE_ROUNDS - 1);
    psycle_state *ps = asobi_state_data_mut(s);
    ps->gems[0] = 1;
    ps->gems[1] = 0;
    asobi_rng rng;
    asobi_rng_seed(&rng, 1);
    assert_int_equal(psycle_heuristic(ps, 0, &rng), 1);
    asobi_state_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heuristic_plays_affordable_cards),
        cmocka_unit_test(test_heuristic_spends_its_gems_on_the_last_round),
        cmocka_unit_test(test_heuristic_takes_a_sure_win),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

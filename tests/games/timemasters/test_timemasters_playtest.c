/* test_timemasters_playtest.c — bots play our card set: games end in a sensible number of turns, no card dominates. */
#include <stdio.h>

#include "tm_sim.h"

/* The figures of docs/rules/timemasters.md ("Play-testing") come from here;
 * set TM_PLAYTEST_GAMES for a longer run. */

typedef struct card_stats {
    int owned, owned_won; /* player-games that ended owning the card, and of those, won */
} card_stats;

static bool owns(const tm_state *t, int seat, int k)
{
    const tm_player *p = &t->p[seat];
    if (tm_kind_count(p->hand, p->n_hand, k) || tm_kind_count(p->deck, p->n_deck, k) ||
        tm_kind_count(p->discard, p->n_discard, k))
        return true;
    for (int m = 0; m < p->n_timers; m++)
        if (p->timers[m].kind == k || tm_kind_count(p->timers[m].spells, p->timers[m].n_spells, k) ||
            tm_kind_count(p->timers[m].delay, p->timers[m].n_delay, k))
            return true;
    return false;
}

static int games_wanted(int def)
{
    const char *e = getenv("TM_PLAYTEST_GAMES");
    return e ? atoi(e) : def;
}

static void test_heuristic_games_length_and_card_balance(void **unused)
{
    (void)unused;
    int games = games_wanted(300);
    asobi_rng rng;
    asobi_rng_seed(&rng, 2024);
    card_stats cs[TM_MAX_KINDS] = {{0}};
    long turns = 0, points = 0;
    int capped = 0, first_wins = 0, min_turns = 1 << 30, max_turns = 0;
    const tm_table *table = &tm_default_table; /* the games below play our set */
    for (int g = 0; g < games; g++) {
        asobi_state *s = new_state("timemasters", 2, NULL, 10000u + (uint64_t)g);
        int n = tm_play_bots(s, "hh", &rng);
        tm_state *t = tm_of(s);
        turns += n;
        min_turns = n < min_turns ? n : min_turns;
        max_turns = n > max_turns ? n : max_turns;
        capped += t->capped;
        asobi_result r;
        asobi_state_result(s, &r);
        first_wins += (r.winners & 1u) != 0;
        for (int i = 0; i < 2; i++) {
            points += (long)r.score[i];
            for (int k = 0; k < t->table.kinds; k++)
                if (t->table.card[k].level > 0 && owns(t, i, k)) {
                    cs[k].owned++;
                    cs[k].owned_won += (r.winners >> i) & 1u;
                }
        }
        asobi_state_free(s);
    }
    double avg = (double)turns / games;
    print_message("heuristic vs heuristic, %d games: %.1f turns a game (%.1f per player), min %d, max %d, "
                  "%d capped; %.1f points per player; seat 0 won %d\n",
                  games, avg, avg / 2, min_turns, max_turns, capped, (double)points / (2.0 * games), first_wins);
    double worst = 0;
    for (int k = 0; k < table->kinds; k++) {
        if (table->card[k].level == 0)
            continue;
        double rate = cs[k].owned ? (double)cs[k].owned_won / cs[k].owned : 0;
        print_message("  L%d %-18s owned in %4d player-games, won %5.1f%%\n", table->card[k].level,
                      table->card[k].name, cs[k].owned, 100 * rate);
        if (cs[k].owned >= 30 && rate > worst)
            worst = rate;
    }
    assert_true(avg >= 20 && avg <= 120);
    assert_int_equal(capped, 0);
    assert_true(worst <= 0.85); /* no card wins (nearly) every game it is in */
    assert_true(first_wins >= games / 4 && first_wins <= 3 * games / 4);
}

static void test_heuristic_beats_random(void **unused)
{
    (void)unused;
    int games = games_wanted(100);
    asobi_rng rng;
    asobi_rng_seed(&rng, 77);
    int wins = 0;
    long turns = 0;
    for (int g = 0; g < games; g++) {
        asobi_state *s = new_state("timemasters", 2, NULL, 20000u + (uint64_t)g);
        const char *bots = g % 2 ? "hr" : "rh";
        turns += tm_play_bots(s, bots, &rng);
        asobi_result r;
        asobi_state_result(s, &r);
        wins += (r.winners >> (g % 2 ? 0 : 1)) & 1u;
        asobi_state_free(s);
    }
    print_message("heuristic vs random, %d games: heuristic won %d, %.1f turns a game\n", games, wins,
                  (double)turns / games);
    assert_true(wins >= games * 7 / 10);
}

static void test_more_players(void **unused)
{
    (void)unused;
    asobi_rng rng;
    asobi_rng_seed(&rng, 5);
    for (int players = 3; players <= 4; players++) {
        int games = games_wanted(60);
        long turns = 0;
        for (int g = 0; g < games; g++) {
            asobi_state *s = new_state("timemasters", players, NULL, 30000u + (uint64_t)g);
            turns += tm_play_bots(s, players == 3 ? "hhh" : "hhhh", &rng);
            assert_int_equal(tm_of(s)->capped, 0);
            asobi_state_free(s);
        }
        print_message("%d heuristic players: %.1f turns a game\n", players, (double)turns / games);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heuristic_games_length_and_card_balance),
        cmocka_unit_test(test_heuristic_beats_random),
        cmocka_unit_test(test_more_players),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

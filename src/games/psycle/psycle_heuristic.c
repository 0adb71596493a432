/* psycle_heuristic.c — PSYCLE's rule-of-thumb player (the "heuristic" bot and search playouts). */
#include "game_def.h"
#include "psycle.h"

/* How the heuristic thinks
 * ------------------------
 * It scores each card it can afford by what that card is expected to bring
 * this round plus what the gems it leaves are worth, and plays the best.
 *
 * The opponents are modelled as the table would guess them from what is
 * public (their gems and the face-up tiles): each plays any card it can
 * afford, with extra weight on the round's target (the bonus tempts
 * everybody) and on cheap cards (they score the most stars: 1 and 2 score 3,
 * seed 000 §4). Under that guess a card's round value is its stars times the
 * expected number of opponents it beats, plus the bonus when it is the
 * target and beats at least one (§8).
 *
 * Gems: at the end of the cycle every gem left costs a point (§9), so a gem
 * is only worth something while there are rounds left to spend it in. The
 * heuristic values the gems it will hold after the round at
 *   +GEM_VALUE each, up to what it can sensibly spend later (about 3 per
 *     remaining round: the cards that win most cost 1..4),
 *   -1 each beyond what it could possibly spend (5 per remaining round),
 * and 0 in between. On the last round every gem left is -1, so it empties
 * its purse with the best card it can afford and never plays 0 (a 0 there
 * takes gems that are then lost as points).
 *
 * A 0 takes as many gems as the highest card played (§4): worth it early
 * when the purse is low, never late. */

#define GEM_VALUE 0.5
#define USEFUL_GEMS_PER_ROUND 3
#define MAX_GEMS_PER_ROUND 5

/* The public guess of how likely an opponent holding `gems` is to play each card. */
static void opponent_model(int gems, int target, double *p)
{
    double total = 0;
    for (int c = 0; c < PSYCLE_CARDS; c++) {
        double w = 0;
        if (c <= gems) {
            w = 1.0;
            if (c == target)
                w += 1.0;
            if (c == 1 || c == 2)
                w += 0.5;
        }
        p[c] = w;
        total += w;
    }
    for (int c = 0; c < PSYCLE_CARDS; c++)
        p[c] /= total;
}

/* What holding `gems` after this round is worth, with `later` rounds left. */
static double gem_worth(double gems, int later)
{
    double useful = USEFUL_GEMS_PER_ROUND * later, spendable = MAX_GEMS_PER_ROUND * later;
    double v = GEM_VALUE * (gems < useful ? gems : useful);
    if (gems > spendable)
        v -= gems - spendable;
    return v;
}

int psycle_heuristic(const void *st, int seat, asobi_rng *rng)
{
    const psycle_state *s = st;
    int target = s->targets[s->round], bonus = s->bonuses[s->round];
    int later = PSYCLE_ROUNDS - 1 - s->round;
    double model[PSYCLE_MAX_PLAYERS][PSYCLE_CARDS];
    double expected_highest = 0; /* what a 0 would take, under the model */
    for (int j = 0; j < s->players; j++) {
        if (j == seat)
            continue;
        opponent_model(s->gems[j], target, model[j]);
    }
    /* E[max of the others' cards] = sum over k of P(max >= k). */
    for (int k = 1; k < PSYCLE_CARDS; k++) {
        double all_below = 1.0;
        for (int j = 0; j < s->players; j++) {
            if (j == seat)
                continue;
            double below = 0;
            for (int c = 0; c < k; c++)
                below += model[j][c];
            all_below *= below;
        }
        expected_highest += 1.0 - all_below;
    }

    double best = -1e9;
    int best_card = 0, ties = 0;
    for (int card = 0; card <= s->gems[seat] && card < PSYCLE_CARDS; card++) {
        double beaten = 0, none_beaten = 1.0;
        for (int j = 0; j < s->players; j++) {
            if (j == seat)
                continue;
            double p = 0;
            for (int c = 0; c < PSYCLE_CARDS; c++)
                if (psycle_beats(card, c))
                    p += model[j][c];
            beaten += p;
            none_beaten *= 1.0 - p;
        }
        double value = psycle_table.stars[card] * beaten;
        if (card == target)
            value += bonus * (1.0 - none_beaten);
        double after = s->gems[seat] - card + (card == 0 ? expected_highest : 0);
        value += gem_worth(after, later);
        /* Ties are broken at random so the player is not a fixed pattern. */
        if (value > best + 1e-9) {
            best = value;
            best_card = card;
            ties = 1;
        } else if (value > best - 1e-9 && asobi_rng_below(rng, (uint32_t)++ties) == 0) {
            best_card = card;
        }
    }
    return best_card;
}

/* octal_heuristic.c — THE OCTAL's rule-of-thumb player: shed cards, keep the ALLs, leave hard questions. */
#include <string.h>

#include "bits.h"
#include "game_def.h"
#include "octal.h"

/* How many of the 48 (condition, reference) questions a number allows: a
 * card that answers few questions is hard to get rid of. */
static int flexibility(int card)
{
    if (octal_is_all(card))
        return 1000;
    int n = 0;
    for (int c = 0; c < OCTAL_CONDITIONS; c++)
        for (int r = 1; r <= 8; r++)
            n += octal_condition_allows(c, r, octal_number(card));
    return n;
}

/* How many numbers the questions allow after a move: fewer is harder for the
 * next players (an ALL on top allows all 8). */
static int openness(const octal_state *s)
{
    int n = 0;
    for (int q = 0; q < s->questions; q++) {
        int condition, reference;
        octal_question(s, q, &condition, &reference);
        n += reference ? asobi_popcount32(octal_table.allows[condition][reference]) : 8;
    }
    return n;
}

static int score_move(const octal_state *s, int seat, int id)
{
    octal_action a;
    octal_decode(id, &a);
    int before = octal_hand_size(s, seat);
    /* The bots always declare Octo! with the placing (issue 3; issue 11: on
     * time, never counting on the late declaration): never leave it out. */
    if (!a.octo && a.event != OCTAL_EV_PASS && a.event != OCTAL_EV_DISCARD) {
        int placed = a.event == OCTAL_EV_OVERRIDE ? asobi_popcount32(a.mask) : 1;
        if (before - placed == 1)
            return -100000;
    }
    octal_state after;
    memcpy(&after, s, sizeof after);
    octal_apply(&after, seat, id);
    if (after.finished_rank[seat])
        return 100000;
    int score = -100 * octal_hand_size(&after, seat) - 3 * openness(&after);
    uint64_t used = s->hand[seat] & ~after.hand[seat];
    if (used >> OCTAL_ALL & 3u)
        score -= 150; /* an ALL is worth keeping for a question nobody can answer */
    for (int c = 0; c < OCTAL_NUMBER_CARDS; c++)
        if (used >> c & 1u)
            score += 40 - flexibility(c); /* shed the awkward cards first */
    return score;
}

int octal_heuristic(const void *st, int seat, asobi_rng *rng)
{
    const octal_state *s = st;
    int ids[OCTAL_MAX_ACTIONS];
    int n = octal_legal(s, seat, ids);
    /* Out of turn the only action is the late Octo! (§⑦), and a seat whose
     * own turn comes with the window still open (everybody else passed:
     * ruling 12) declares it first. The heuristic itself never needs it: it
     * declares with the placing (score_move). */
    if (seat != s->seat || seat == s->octo_late)
        return OCTAL_ID_DECLARE;
    if (s->phase == OCTAL_PHASE_DISCARD) {
        int best = ids[0], worst = 1 << 30;
        for (int i = 0; i < n; i++) {
            octal_action a;
            octal_decode(ids[i], &a);
            int f = flexibility(a.kind);
            if (f < worst) {
                worst = f;
                best = ids[i];
            }
        }
        return best;
    }
    int best = ids[0], best_score = -(1 << 30), ties = 0;
    for (int i = 0; i < n; i++) {
        int sc = score_move(s, seat, ids[i]);
        if (sc > best_score) {
            best_score = sc;
            best = ids[i];
            ties = 1;
        } else if (sc == best_score && asobi_rng_below(rng, (uint32_t)++ties) == 0) {
            best = ids[i];
        }
    }
    return best;
}

/* timemasters_bot.c — Time Masters' rule-of-thumb player: a "big money" floor that plays out its hand and buys high. */
#include <string.h>

#include "timemasters.h"

/* The plan, in the order of the checks below:
 *  - choices: throw away (remove, discard, delay) the weakest card: level 0
 *    first, timers before focuses before spells; take back the best card;
 *    pay with gold first, ephemeral Kè only where the cap would waste it;
 *  - timer phase: activate every full timer (its spells are free this turn);
 *    after a pass: drop full timers (keeps the hand full);
 *  - main phase: play released spells; pass at once when even its focuses
 *    could not pay for its cheapest spell; otherwise focuses when a Kè is
 *    grey, then the cheapest affordable spell (the most spells = the most
 *    access points), but no remove spell that would have to remove cards
 *    worth points; then timers (out of the hand, so the refill draws);
 *    then recover Kè with the two weakest cards; then, if no spell was
 *    played this turn, a remove spell after all, or a focus even with no
 *    grey Kè (both cycle a hand that would otherwise stall the game); then
 *    done;
 *  - sphere access: the top card of the highest sphere it can afford, again
 *    while points remain; never the hidden second card. */

static int weakness(const tm_table *t, int k)
{
    const tm_card *c = &t->card[k];
    int type_rank = c->type == TM_TIMER ? 0 : c->type == TM_FOCUS ? 1 : 2;
    return c->level * 10 + type_rank * 3 + c->cost;
}

/* How many ephemeral Kè to pay with (ruling 10): gold first (it comes back
 * gold on a pass, and the Kè tie-break counts grey tokens), but as much
 * ephemeral Kè as the effect waiting for the payment would otherwise lose
 * to the cap of 4 (a spell or an on-set timer that gives ephemeral Kè). */
static int pay_choice(const tm_state *s, int seat)
{
    const tm_player *p = &s->p[seat];
    int lo = tm_pay_eph_lo(p, s->choice_left), hi = tm_pay_eph_hi(p, s->choice_left), gain = 0;
    if (s->prog_kind != TM_NOCARD) {
        const tm_card *c = &s->table.card[s->prog_kind];
        for (int e = 0; e < c->n_effects; e++)
            gain += c->fx[e][0] == TM_FX_EPHEMERAL ? c->fx[e][1] : 0;
    }
    int eph = p->ke_eph + gain - TM_MAX_EPHEMERAL;
    return eph < lo ? lo : eph > hi ? hi : eph;
}

static bool legal_has(const int *ids, int n, int id)
{
    for (int i = 0; i < n; i++)
        if (ids[i] == id)
            return true;
    return false;
}

/* Would casting spell k force it to remove cards worth points from the game
 * (a remove effect with fewer level-0 cards than that left in hand)? */
static bool removes_points(const tm_state *s, int seat, int k)
{
    const tm_card *c = &s->table.card[k];
    const tm_player *p = &s->p[seat];
    int remove = 0, zero = 0;
    for (int e = 0; e < c->n_effects; e++)
        remove += c->fx[e][0] == TM_FX_REMOVE ? c->fx[e][1] : 0;
    if (remove == 0)
        return false;
    for (int h = 0; h < p->n_hand; h++)
        zero += s->table.card[p->hand[h]].level == 0;
    zero -= c->level == 0; /* the spell itself leaves the hand */
    return zero < remove;
}

int tm_heuristic(const void *st, int seat, asobi_rng *rng)
{
    const tm_state *s = st;
    const tm_table *t = &s->table;
    const tm_player *p = &s->p[seat];
    int ids[TM_ACTIONS];
    /* In the main phase every rule below reads only the ids below
     * TM_ID_SET (pass, done, recover, play, release): listing the set ids
     * too (every affordable spell on every free timer) was most of a
     * heuristic playout. The full list only if that part is empty. */
    bool main = s->choice == TM_CH_NONE && s->phase == TM_PH_MAIN;
    int n = main ? tm_main_legal_head(s, ids) : tm_legal(s, seat, ids);
    (void)rng;

    if (s->choice == TM_CH_PAY)
        return TM_ID_PAY + pay_choice(s, seat);
    if (s->choice != TM_CH_NONE) {
        bool take_best = s->choice == TM_CH_FOCUS_BACK;
        int best = ids[0], best_w = take_best ? -1 : 1 << 30;
        for (int i = 0; i < n; i++) {
            int w = weakness(t, ids[i] - TM_ID_PICK);
            if (take_best ? w > best_w : w < best_w)
                best = ids[i], best_w = w;
        }
        return best;
    }
    if (s->phase == TM_PH_TIMER) {
        for (int i = 0; i < n; i++)
            if (ids[i] >= TM_ID_ACTIVATE && ids[i] < TM_ID_DELAY)
                return ids[i];
        return ids[0];
    }
    if (s->phase == TM_PH_PASS) {
        for (int i = 0; i < n; i++)
            if (ids[i] >= TM_ID_DROP && ids[i] < TM_ID_PICK)
                return ids[i];
        return ids[0];
    }
    if (s->phase == TM_PH_ACCESS) {
        for (int l = TM_LEVELS; l >= 1; l--)
            if (legal_has(ids, n, TM_ID_TAKE + l - 1))
                return TM_ID_TAKE + l - 1;
        return TM_ID_DONE;
    }
    /* main phase */
    for (int i = 0; i < n; i++)
        if (ids[i] >= TM_ID_RELEASE && ids[i] < TM_ID_SET)
            return ids[i];
    int spells = 0, focuses = 0, cheapest = 1 << 30;
    for (int h = 0; h < p->n_hand; h++) {
        int k = p->hand[h];
        if (t->card[k].type == TM_SPELL) {
            spells++;
            int c = tm_effective_cost(s, seat, k);
            cheapest = c < cheapest ? c : cheapest;
        }
        focuses += t->card[k].type == TM_FOCUS;
    }
    int avail = p->ke_ready + p->ke_eph;
    int refocus = focuses < p->ke_spent ? focuses : p->ke_spent;
    /* nothing to cast with what it holds: pass, all grey Kè turns gold */
    if (legal_has(ids, n, TM_ID_PASS) && p->ke_spent > 0 && spells > 0 && cheapest > avail + refocus)
        return TM_ID_PASS;
    if (p->ke_spent > 0)
        for (int i = 0; i < n; i++)
            if (ids[i] >= TM_ID_PLAY && ids[i] < TM_ID_RELEASE && t->card[ids[i] - TM_ID_PLAY].type == TM_FOCUS)
                return ids[i];
    int best = -1, best_cost = 1 << 30, remover = -1, remover_cost = 1 << 30;
    for (int i = 0; i < n; i++) {
        if (ids[i] < TM_ID_PLAY || ids[i] >= TM_ID_RELEASE)
            continue;
        int k = ids[i] - TM_ID_PLAY;
        if (t->card[k].type != TM_SPELL)
            continue;
        int c = tm_effective_cost(s, seat, k) * 16 - t->card[k].level;
        if (removes_points(s, seat, k)) {
            if (c < remover_cost)
                remover = ids[i], remover_cost = c;
            continue;
        }
        if (c < best_cost)
            best = ids[i], best_cost = c;
    }
    if (best >= 0)
        return best;
    /* timers leave the hand (so the refill brings new cards) */
    for (int i = 0; i < n; i++)
        if (ids[i] >= TM_ID_PLAY && ids[i] < TM_ID_RELEASE && t->card[ids[i] - TM_ID_PLAY].type == TM_TIMER)
            return ids[i];
    /* one Kè for two dead cards: it also cycles the deck */
    if (legal_has(ids, n, TM_ID_RECOVER))
        return TM_ID_RECOVER;
    /* A hand of remove spells only, kept turn after turn (a full hand draws
     * nothing), would stall the game: when the turn would otherwise earn no
     * access point at all, cast one and lose the points rather than stall. */
    if (remover >= 0 && s->n_zone == 0)
        return remover;
    /* Likewise a full hand of spells it cannot pay, with all its Kè gold
     * (no recover, no pass that helps): a focus played for nothing still
     * leaves the hand, so the refill brings new cards. A few such plays a
     * turn at most: a focus that draws can draw itself back from its own
     * reshuffled discard, and would be played again and again for nothing. */
    if (s->n_zone == 0 && s->turn_plays < TM_HAND_SIZE)
        for (int i = 0; i < n; i++)
            if (ids[i] >= TM_ID_PLAY && ids[i] < TM_ID_RELEASE && t->card[ids[i] - TM_ID_PLAY].type == TM_FOCUS)
                return ids[i];
    if (legal_has(ids, n, TM_ID_DONE))
        return TM_ID_DONE;
    if (n == 0)
        tm_legal(s, seat, ids);
    return ids[0];
}

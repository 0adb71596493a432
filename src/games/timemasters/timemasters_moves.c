/* timemasters_moves.c — Time Masters' legal actions as runs of ids: legal() lists them, random_action counts them and builds only the one drawn. */
#include "bits.h"
#include "rng_inline.h"
#include "timemasters.h"

/* Why runs
 * --------
 * A random playout asks for one uniformly random legal action at every step
 * (core: ids[asobi_rng_below(rng, n)] over legal()'s list). A list costs a
 * step per action, and the actions multiply in the main phase, where each
 * payable spell may be set on each free timer; a count costs a step per kind
 * of action. So each phase says which actions are legal once, as a few runs
 * of ids (below), and two readers walk the same runs in the same order:
 *  - legal() writes every id of every run, in order;
 *  - random_action adds up the runs' sizes (bit counts, and one product),
 *    makes the same single draw r over that total and returns the r-th id of
 *    the walk, built from the run it falls in without listing the others.
 * Since both read one description in one order, the r-th id random_action
 * builds is ids[r] of legal()'s list, and the generator advances alike:
 * every seeded game, test and search plays exactly as with the list.
 * tm_is_legal (timemasters_rules.c) stays the statement of the rules id by
 * id; test_timemasters_random checks legal() against it, test_conformance
 * and test_timemasters_random_action check random_action against legal(). */

/* A run: the ids base + a * stride + b for each bit a of what and each bit b
 * of where, in this order: a ascending, and for each a, b ascending. With
 * b < stride the ids ascend along the run. Most runs are plain (one id per
 * bit of what: where = 1, timer 0 only, stride 1); the set actions are the
 * one product: each affordable spell kind (what) on each free timer (where),
 * TM_ID_SET + kind * TM_MAX_TIMERS + timer. size is the number of its ids. */
typedef struct tm_run {
    uint64_t what;
    uint32_t where;
    int base, stride, size;
} tm_run;

/* A phase's legal actions: its runs that hold any, each one's ids above the
 * previous one's, so the runs one after the other are legal()'s ascending
 * list. */
enum { TM_MAX_RUNS = 5 };
typedef struct tm_moves {
    int n;
    tm_run run[TM_MAX_RUNS];
} tm_moves;

/* The bits set in x, one step per bit: a run's masks hold a few (a hand's
 * kinds, three basic actions, the timers held), where the SWAR count of
 * bits.h costs a dozen steps whatever x is. (GCC 12 keeps this loop; a
 * compiler that turned it into __builtin_popcount would count alike, only
 * through libgcc's call on a CPU without POPCNT, as bits.h explains.) */
static inline int few_bits(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* Add a run, unless it is empty (most are: no timer free, nothing released). */
static inline void add_run(tm_moves *mv, uint64_t what, uint32_t where, int base, int stride)
{
    if (what == 0 || where == 0)
        return;
    tm_run *r = &mv->run[mv->n++];
    r->what = what;
    r->where = where;
    r->base = base;
    r->stride = stride;
    r->size = few_bits(what) * (where == 1 ? 1 : few_bits(where));
}

static inline void add_plain(tm_moves *mv, uint64_t what, int base) { add_run(mv, what, 1, base, 1); }

/* ---------------------------------------------------------------- which actions */

/* The kinds among n cards (legal() generates ids from the kinds at hand,
 * not by trying all TM_ACTIONS ids). */
static uint64_t kinds_mask(const uint8_t *cards, int n)
{
    uint64_t m = 0;
    for (int i = 0; i < n; i++)
        m |= 1ull << cards[i];
    return m;
}

/* The spells p (the seat to move) can pay now. A spell costs max(0, cost +
 * cost_mod) (tm_effective_cost), payable when that is at most the budget B
 * (can_pay, tm_ke_budget). For B >= 0 the max(0, ...) changes nothing
 * (0 <= B holds anyway), so the test is cost <= B - cost_mod: the spells of
 * printed cost up to that cap, all of them from TM_MAX_COST up, none below
 * 0 (and none for B < 0). */
static uint64_t payable_spells(const tm_state *s, const tm_player *p)
{
    int budget = tm_ke_budget(p), cap = budget - p->cost_mod;
    if (budget < 0 || cap < 0)
        return 0;
    return s->kinds.spell_up_to[cap < TM_MAX_COST ? cap : TM_MAX_COST];
}

/* Of the focuses in mask, those ruling 25 refuses now (tm_loop_refused):
 * the position's hash made once for all of them. */
static uint64_t refused_focuses(const tm_state *s, uint64_t mask)
{
    if (!mask)
        return 0;
    uint64_t print = tm_loop_print(s), refused = 0;
    for (; mask; mask &= mask - 1) {
        int k = __builtin_ctzll(mask);
        if (tm_loop_seen(s, print, TM_ID_PLAY + k))
            refused |= 1ull << k;
    }
    return refused;
}

/* The main phase, no choice pending, its ids below TM_ID_SET: pass, done
 * and recover (ids 0-2), the plays (tm_is_legal's rule: the focuses, the
 * timers while one more fits, the spells that can be paid), the releases.
 * All that the heuristic reads (tm_main_legal_head); returns the payable
 * spells of the hand, for the sets. */
static inline __attribute__((always_inline)) uint64_t main_head(const tm_state *s, tm_moves *mv)
{
    const tm_player *p = &s->p[s->seat];
    uint64_t basic = 0;
    if (!s->main_acted && p->n_released == 0)
        basic |= 1u << TM_ID_PASS;
    if (p->n_released == 0)
        basic |= 1u << TM_ID_DONE;
    if (p->n_hand >= 2 && p->ke_spent >= 1)
        basic |= 1u << TM_ID_RECOVER;
    uint64_t hand = kinds_mask(p->hand, p->n_hand), affordable = hand & payable_spells(s, p);
    uint64_t others = s->kinds.focus | (p->n_timers < TM_MAX_TIMERS ? s->kinds.timer : 0);
    if (!tm_may_play_more(s)) { /* ruling 25's backstop: only releases and the end of the phase are left */
        basic &= ~(1u << TM_ID_RECOVER);
        hand = affordable = 0;
    }
    if (s->n_loop > 0) /* ruling 25: a returning focus played from this very position before */
        others &= ~refused_focuses(s, hand & s->kinds.loop_focus);
    add_plain(mv, basic, 0);
    add_plain(mv, (hand & others) | affordable, TM_ID_PLAY);
    add_plain(mv, kinds_mask(p->released, p->n_released), TM_ID_RELEASE);
    return affordable;
}

/* The whole main phase: its head, then the sets (each payable spell on
 * each free timer) and the activations. Inlined into its callers (as are
 * main_head and moves_of): the calls and the reloads of the state around
 * them were 3% of a random playout's instructions. */
static inline __attribute__((always_inline)) void main_moves(const tm_state *s, tm_moves *mv)
{
    const tm_player *p = &s->p[s->seat];
    uint64_t affordable = main_head(s, mv);
    uint32_t free_timers = 0, activatable = 0;
    for (int tm = 0; tm < p->n_timers; tm++) {
        const tm_timer *x = &p->timers[tm];
        if (!tm_timer_full(s, x))
            free_timers |= 1u << tm;
        if (tm_may_play_more(s) && (x->n_spells > 0 || s->table.card[x->kind].trigger == TM_TRIG_DISCARD) &&
            p->n_released + x->n_spells <= TM_MAX_RELEASED &&
            !(s->n_loop > 0 && tm_loop_refused(s, TM_ID_ACTIVATE + tm)))
            activatable |= 1u << tm;
    }
    add_run(mv, affordable, free_timers, TM_ID_SET, TM_MAX_TIMERS);
    add_plain(mv, activatable, TM_ID_ACTIVATE);
}

/* A choice pending: pick a kind of the hand, or for focus_back (take a
 * focus back from the discard) a kind of the focuses there; or how a spell
 * is paid (TM_CH_PAY). */
static void pick_moves(const tm_state *s, tm_moves *mv)
{
    const tm_player *p = &s->p[s->seat];
    uint64_t m;
    if (s->choice == TM_CH_PAY) { /* how many ephemeral Kè pay: lo..hi (ruling 10) */
        int lo = tm_pay_eph_lo(p, s->choice_left), hi = tm_pay_eph_hi(p, s->choice_left);
        add_plain(mv, ((1ull << (hi + 1)) - 1) & ~((1ull << lo) - 1), TM_ID_PAY);
        return;
    }
    if (s->choice == TM_CH_FOCUS_BACK) {
        m = 0;
        for (int i = 0; i < p->n_discard; i++)
            if (s->table.card[p->discard[i]].type == TM_FOCUS)
                m |= 1ull << p->discard[i];
    } else {
        m = kinds_mask(p->hand, p->n_hand);
    }
    add_plain(mv, m, TM_ID_PICK);
}

/* The levels 1..l as bits 0..l-1 (none for l <= 0, all five from 5 up). */
static uint32_t levels_up_to(int l) { return l <= 0 ? 0 : l >= TM_LEVELS ? (1u << TM_LEVELS) - 1 : (1u << l) - 1; }

/* Sphere access: done, then take and take second (TM_ID_TAKE2 follows
 * TM_ID_TAKE's five ids: bit second * TM_LEVELS + level - 1). tm_is_legal's
 * rule, a level at a time: not taken from this turn, 1 + second cards in
 * its sphere, level + second access points. */
static void access_moves(const tm_state *s, tm_moves *mv)
{
    uint32_t one = 0, two = 0; /* the spheres holding a card, two cards */
    for (int l = 0; l < TM_LEVELS; l++) {
        one |= (uint32_t)(s->n_sphere[l] >= 1) << l;
        two |= (uint32_t)(s->n_sphere[l] >= 2) << l;
    }
    uint32_t open = ~(uint32_t)s->taken;
    uint32_t take = open & one & levels_up_to(s->access), second = open & two & levels_up_to(s->access - 1);
    add_plain(mv, 1u << TM_ID_DONE, 0);
    add_plain(mv, take | second << TM_LEVELS, TM_ID_TAKE);
}

/* The timer phase and after a pass: activate, delay or drop a timer held
 * (three blocks of TM_MAX_TIMERS ids, a run each; only the timers in play
 * asked, tm_is_legal the statement of the rule). */
static void timer_moves(const tm_state *s, tm_moves *mv)
{
    for (int block = 0; block < 3; block++) {
        uint64_t m = 0;
        for (int tmr = 0; tmr < s->p[s->seat].n_timers; tmr++)
            if (tm_is_legal(s, TM_ID_ACTIVATE + block * TM_MAX_TIMERS + tmr))
                m |= 1ull << tmr;
        add_plain(mv, m, TM_ID_ACTIVATE + block * TM_MAX_TIMERS);
    }
}

/* The legal actions of the seat to move, whatever the phase. */
static inline __attribute__((always_inline)) void moves_of(const tm_state *s, tm_moves *mv)
{
    mv->n = 0;
    if (s->over)
        return;
    if (s->choice != TM_CH_NONE)
        pick_moves(s, mv);
    else if (s->phase == TM_PH_MAIN)
        main_moves(s, mv);
    else if (s->phase == TM_PH_ACCESS)
        access_moves(s, mv);
    else
        timer_moves(s, mv);
}

/* ---------------------------------------------------------------- the two readers */

/* The i-th id of a run (i < r->size), in run_list's order without the
 * list: the ids of one a are |where| consecutive ones, so a is the
 * (i / |where|)-th bit of what and b the (i % |where|)-th bit of where. */
static int run_nth(const tm_run *r, int i)
{
    if (r->where == 1) /* one b, 0: a plain run, or the sets with timer 0 free alone */
        return r->base + asobi_nth_bit(r->what, i) * r->stride;
    int per = few_bits(r->where);
    return r->base + asobi_nth_bit(r->what, i / per) * r->stride + asobi_nth_bit(r->where, i % per);
}

/* Every id of a run, in the order above. */
static inline int run_list(const tm_run *r, int *ids)
{
    int n = 0;
    if (r->where == 1) /* one b, 0 (as in run_nth) */
        for (uint64_t a = r->what; a; a &= a - 1)
            ids[n++] = r->base + __builtin_ctzll(a) * r->stride;
    else
        for (uint64_t a = r->what; a; a &= a - 1)
            for (uint32_t b = r->where; b; b &= b - 1)
                ids[n++] = r->base + __builtin_ctzll(a) * r->stride + __builtin_ctz(b);
    return n;
}

static int moves_list(const tm_moves *mv, int *ids)
{
    int n = 0;
    for (int i = 0; i < mv->n; i++)
        n += run_list(&mv->run[i], ids + n);
    return n;
}

int tm_legal(const void *st, int seat, int *ids)
{
    tm_moves mv;
    (void)seat;
    moves_of(st, &mv);
    return moves_list(&mv, ids);
}

/* The random_action hook: the r-th id of the walk, for the r that
 * asobi_rng_below(rng, n) draws over legal()'s count n; no draw and -1 when
 * there is none, as core does. */
int tm_random_action(const void *st, int seat, asobi_rng *rng)
{
    tm_moves mv;
    (void)seat;
    moves_of(st, &mv);
    int n = 0;
    for (int i = 0; i < mv.n; i++)
        n += mv.run[i].size;
    if (n == 0)
        return -1;
    int r = (int)asobi_rng_below_inline(rng, (uint32_t)n);
    int i = 0;
    for (; r >= mv.run[i].size; i++)
        r -= mv.run[i].size;
    return run_nth(&mv.run[i], r);
}

/* The main phase's runs below TM_ID_SET (pass, done, recover, plays,
 * releases): all that the heuristic reads of legal() there
 * (timemasters_bot.c). */
int tm_main_legal_head(const tm_state *s, int *ids)
{
    tm_moves mv;
    mv.n = 0;
    main_head(s, &mv);
    return moves_list(&mv, ids);
}

/* timemasters_rules.c — Time Masters' rules: set-up, the four phases, effects, what is legal id by id, and the actions' application. */
#include <string.h>

#include "timemasters.h"

/* ---------------------------------------------------------------- zones */

int tm_kind_count(const uint8_t *cards, int n, int kind)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += cards[i] == kind;
    return c;
}

/* Take one card of kind out of a zone (the last one, keeping the others in
 * place). Returns false if the zone holds none. The cards after it move down
 * one by one: a hand holds a few, and a call to memmove cost more than the
 * move (a twentieth of a random playout went to take_kind). */
static bool take_kind(uint8_t *cards, uint8_t *n, int kind)
{
    for (int i = *n - 1; i >= 0; i--)
        if (cards[i] == kind) {
            for (int j = i + 1; j < *n; j++)
                cards[j - 1] = cards[j];
            (*n)--;
            return true;
        }
    return false;
}

static void put(uint8_t *cards, uint8_t *n, int kind)
{
    cards[(*n)++] = (uint8_t)kind;
}

/* "デッキが尽きたら自分の捨て札をシャッフルし、新たなデッキとします". */
static void discard_to_deck(tm_state *s, tm_player *p)
{
    memcpy(p->deck, p->discard, p->n_discard);
    p->n_deck = p->n_discard;
    p->n_discard = 0;
    asobi_rng_shuffle(&s->rng, p->deck, p->n_deck, 1);
}

/* Draw the top card of seat's deck, the discard shuffled in first when the
 * deck is out; false when both are. (Inline: the end of every turn draws up
 * to five, and the call was as costly as the draw.) */
static inline bool draw_one(tm_state *s, int seat)
{
    tm_player *p = &s->p[seat];
    if (p->n_deck == 0) {
        if (p->n_discard == 0)
            return false;
        discard_to_deck(s, p);
    }
    put(p->hand, &p->n_hand, p->deck[--p->n_deck]);
    return true;
}

int tm_delay_cards(const tm_player *p)
{
    int n = 0;
    for (int t = 0; t < p->n_timers; t++)
        n += p->timers[t].n_delay;
    return n;
}

/* Timers are numbered for people (activate 2) and keep their number while in
 * play, though the array closes up when one leaves: a new timer takes the
 * smallest free number. */
int tm_free_timer_number(const tm_player *p)
{
    for (int number = 1;; number++)
        if (tm_timer_index(p, number) < 0)
            return number;
}

int tm_timer_index(const tm_player *p, int number)
{
    for (int t = 0; t < p->n_timers; t++)
        if (p->timers[t].number == number)
            return t;
    return -1;
}

int tm_timer_number(const tm_player *p, int t)
{
    return t >= 0 && t < p->n_timers ? p->timers[t].number : t + 1;
}

/* Discard a timer with everything on and under it (its spells too). */
static void discard_timer(tm_state *s, int seat, int t, bool with_spells)
{
    tm_player *p = &s->p[seat];
    tm_timer *tm = &p->timers[t];
    put(p->discard, &p->n_discard, tm->kind);
    for (int i = 0; i < tm->n_delay; i++)
        put(p->discard, &p->n_discard, tm->delay[i]);
    for (int i = 0; i < tm->n_spells; i++)
        if (with_spells)
            put(p->discard, &p->n_discard, tm->spells[i]);
        else
            put(p->released, &p->n_released, tm->spells[i]);
    memmove(p->timers + t, p->timers + t + 1, (size_t)(p->n_timers - t - 1) * sizeof *tm);
    p->n_timers--;
    memset(&p->timers[p->n_timers], 0, sizeof *tm);
}

/* ---------------------------------------------------------------- scoring */

static int sum_zone(const tm_state *s, const uint8_t *cards, int n, bool level5_only)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        int lv = s->table.card[cards[i]].level;
        v += level5_only ? lv == TM_LEVELS : lv;
    }
    return v;
}

/* Everything a player owns: all zones but the removed cards. */
static int owned_sum(const tm_state *s, int seat, bool level5_only)
{
    const tm_player *p = &s->p[seat];
    int v = sum_zone(s, p->hand, p->n_hand, level5_only) + sum_zone(s, p->deck, p->n_deck, level5_only) +
            sum_zone(s, p->discard, p->n_discard, level5_only) +
            sum_zone(s, p->released, p->n_released, level5_only);
    for (int t = 0; t < p->n_timers; t++) {
        const tm_timer *tm = &p->timers[t];
        v += sum_zone(s, &tm->kind, 1, level5_only) + sum_zone(s, tm->spells, tm->n_spells, level5_only) +
             sum_zone(s, tm->delay, tm->n_delay, level5_only);
    }
    if (seat == s->seat)
        v += sum_zone(s, s->zone, s->n_zone, level5_only);
    return v;
}

int tm_points(const tm_state *s, int seat) { return owned_sum(s, seat, false); }
int tm_level5(const tm_state *s, int seat) { return owned_sum(s, seat, true); }
int tm_total_ke(const tm_player *p) { return p->ke_ready + p->ke_spent + p->ke_eph; }

int tm_empty_spheres(const tm_state *s)
{
    int n = 0;
    for (int l = 0; l < TM_LEVELS; l++)
        n += s->n_sphere[l] == 0;
    return n;
}

/* ---------------------------------------------------------------- set-up */

/* The table's kinds as masks (tm_kinds), for legal() and random_action. */
static void sort_kinds(const tm_table *t, tm_kinds *out)
{
    *out = (tm_kinds){0};
    for (int k = 0; k < t->kinds; k++) {
        const tm_card *c = &t->card[k];
        if (c->type == TM_FOCUS)
            out->focus |= 1ull << k;
        else if (c->type == TM_TIMER)
            out->timer |= 1ull << k;
        else
            for (int cost = c->cost; cost <= TM_MAX_COST; cost++)
                out->spell_up_to[cost] |= 1ull << k;
        bool returning = false;
        for (int e = 0; e < c->n_effects; e++)
            returning |= c->fx[e][0] == TM_FX_DRAW || c->fx[e][0] == TM_FX_FOCUS_BACK;
        if (returning && c->type == TM_FOCUS)
            out->loop_focus |= 1ull << k;
        if (returning && c->type == TM_TIMER && c->trigger == TM_TRIG_DISCARD)
            out->loop_timer |= 1ull << k;
    }
}

void tm_setup(tm_state *s, uint64_t seed)
{
    const tm_table *t = &s->table;
    sort_kinds(t, &s->kinds);
    asobi_rng_seed(&s->rng, seed);
    /* Spheres: of the cards of each level, sphere_size drawn at random form
     * the pile, the rest are set aside unseen ("ランダムに10枚を引きます"). */
    for (int l = 1; l <= TM_LEVELS; l++) {
        uint8_t pool[TM_MAX_LEVEL_CARDS];
        int n = 0;
        for (int k = 0; k < t->kinds; k++)
            if (t->card[k].level == l)
                for (int c = 0; c < t->card[k].copies; c++)
                    pool[n++] = (uint8_t)k;
        asobi_rng_shuffle(&s->rng, pool, (size_t)n, 1);
        int size = n < t->sphere_size ? n : t->sphere_size;
        memcpy(s->sphere[l - 1], pool, (size_t)size);
        s->n_sphere[l - 1] = (uint8_t)size;
        memcpy(s->aside[l - 1], pool + size, (size_t)(n - size));
        s->n_aside[l - 1] = (uint8_t)(n - size);
    }
    /* Each player: the same 10 level-0 cards, shuffled, 5 drawn; 4 gold Kè. */
    for (int i = 0; i < s->players; i++) {
        tm_player *p = &s->p[i];
        for (int k = 0; k < t->kinds; k++)
            if (t->card[k].level == 0)
                for (int c = 0; c < t->card[k].copies; c++)
                    put(p->deck, &p->n_deck, k);
        asobi_rng_shuffle(&s->rng, p->deck, p->n_deck, 1);
        for (int c = 0; c < TM_HAND_SIZE; c++)
            draw_one(s, i);
        p->ke_ready = TM_START_KE;
    }
    s->prog_kind = TM_NOCARD;
    s->seat = 0;
    s->turn = 1;
    /* "ゲーム開始直後の最初の手番ではフェイズ1はスキップされます". */
    s->phase = TM_PH_MAIN;
}

/* ---------------------------------------------------------------- Kè */

/* The cost of a spell now: its printed cost plus the reminder tokens (+1
 * Time Heaviness, -1 lightness; they cancel), never below 0. */
int tm_effective_cost(const tm_state *s, int seat, int kind)
{
    int c = s->table.card[kind].cost + s->p[seat].cost_mod;
    return c < 0 ? 0 : c;
}

static bool can_pay(const tm_state *s, int seat, int cost) { return cost <= tm_ke_budget(&s->p[seat]); }

/* Pay cost with eph ephemeral Kè and the rest gold recurrent Kè (which
 * turns grey). "コストとして使用できるKeは金色の循環のKeか一時的なKeです" */
static void pay_mix(tm_state *s, int seat, int cost, int eph)
{
    tm_player *p = &s->p[seat];
    p->ke_ready = (uint8_t)(p->ke_ready - (cost - eph));
    p->ke_spent = (uint8_t)(p->ke_spent + (cost - eph));
    p->ke_eph = (uint8_t)(p->ke_eph - eph);
    p->spent_turn = (uint16_t)(p->spent_turn + cost);
}

/* A spell is paid for (spell zone or timer slot): the reminder tokens are
 * used up by it, and the cost is paid at once when only one mix of gold and
 * ephemeral Kè can pay it; when several can, the player chooses (the
 * choice TM_CH_PAY, ids TM_ID_PAY + ephemeral used: ruling 10) before the
 * effect resolves. */
static void begin_payment(tm_state *s, int seat, int kind)
{
    tm_player *p = &s->p[seat];
    int cost = tm_effective_cost(s, seat, kind);
    p->cost_mod = 0;
    int lo = tm_pay_eph_lo(p, cost), hi = tm_pay_eph_hi(p, cost);
    if (lo >= hi) {
        pay_mix(s, seat, cost, lo);
        return;
    }
    s->choice = TM_CH_PAY;
    s->choice_left = (uint8_t)cost;
    s->choice_timer = 0;
    s->pay_kind = (uint8_t)kind;
}

static void ready_ke(tm_player *p, int n)
{
    if (n > p->ke_spent)
        n = p->ke_spent;
    p->ke_spent = (uint8_t)(p->ke_spent - n);
    p->ke_ready = (uint8_t)(p->ke_ready + n);
}

/* ---------------------------------------------------------------- effects */

static bool choice_has_option(const tm_state *s)
{
    const tm_player *p = &s->p[s->seat];
    switch (s->choice) {
    case TM_CH_RECOVER:
    case TM_CH_REMOVE:
    case TM_CH_DELAY: return p->n_hand > 0;
    case TM_CH_FOCUS_BACK:
        for (int i = 0; i < p->n_discard; i++)
            if (s->table.card[p->discard[i]].type == TM_FOCUS)
                return true;
        return false;
    case TM_CH_PAY: return true;
    default: return false;
    }
}

static void start_choice(tm_state *s, int choice, int count, int timer)
{
    s->choice = (uint8_t)choice;
    s->choice_left = (uint8_t)count;
    s->choice_timer = (uint8_t)timer;
}

static void apply_fx(tm_state *s, int op, int n)
{
    tm_player *p = &s->p[s->seat];
    switch (op) {
    case TM_FX_EPHEMERAL: {
        /* "「一時的なKe」は4つまでしか保持することができません": the rest is lost,
         * and the events say so (lost_eph) */
        int room = TM_MAX_EPHEMERAL - p->ke_eph, got = n < room ? n : room;
        p->ke_eph = (uint8_t)(p->ke_eph + got);
        s->lost_eph = (uint8_t)(s->lost_eph + n - got);
        break;
    }
    case TM_FX_READY: ready_ke(p, n); break;
    case TM_FX_NEW_KE: {
        /* no limit in the seed; ours (ruling 14) is never reached in play,
         * and were it reached the loss is told like the ephemeral one */
        int room = TM_MAX_RECURRENT - p->ke_ready - p->ke_spent, got = n < room ? n : room;
        p->ke_ready = (uint8_t)(p->ke_ready + got);
        s->lost_rec = (uint8_t)(s->lost_rec + n - got);
        break;
    }
    case TM_FX_DRAW:
        for (int i = 0; i < n; i++)
            draw_one(s, s->seat);
        break;
    case TM_FX_REMOVE: start_choice(s, TM_CH_REMOVE, n, 0); break;
    case TM_FX_FOCUS_BACK: start_choice(s, TM_CH_FOCUS_BACK, n, 0); break;
    case TM_FX_HEAVY:
    case TM_FX_SLOW:
        for (int i = 0; i < s->players; i++) {
            if (i == s->seat)
                continue;
            tm_player *o = &s->p[i];
            if (op == TM_FX_HEAVY)
                o->cost_mod = (int8_t)(o->cost_mod + n > 9 ? 9 : o->cost_mod + n);
            else if (o->slow_next == 0 || n < o->slow_next)
                o->slow_next = (uint8_t)n;
        }
        break;
    case TM_FX_LIGHT: p->cost_mod = (int8_t)(p->cost_mod - n < -9 ? -9 : p->cost_mod - n); break;
    default: break;
    }
}

/* Resolve the current card's effect list from prog_pc on, stopping at a
 * choice (the player's picks resume it). */
static void run_program(tm_state *s)
{
    while (s->prog_kind != TM_NOCARD && s->choice == TM_CH_NONE) {
        const tm_card *c = &s->table.card[s->prog_kind];
        if (s->prog_pc >= c->n_effects) {
            s->prog_kind = TM_NOCARD;
            s->prog_pc = 0;
            break;
        }
        int pc = s->prog_pc++;
        apply_fx(s, c->fx[pc][0], c->fx[pc][1]);
        /* a choice with nothing to choose from is over at once */
        if (s->choice != TM_CH_NONE && !choice_has_option(s))
            s->choice = TM_CH_NONE;
    }
}

static void start_program(tm_state *s, int kind)
{
    s->prog_kind = (uint8_t)kind;
    s->prog_pc = 0;
    run_program(s);
}

/* ---------------------------------------------------------------- turns */

static void start_turn(tm_state *s)
{
    s->seat = (uint8_t)((s->seat + 1) % s->players);
    s->turn++;
    tm_player *p = &s->p[s->seat];
    p->ke_limit = p->slow_next;
    p->slow_next = 0;
    p->spent_turn = 0;
    s->access = 0;
    s->taken = 0;
    s->main_acted = 0;
    s->turn_plays = 0;
    s->n_loop = s->loop_next = 0;
    for (int t = 0; t < p->n_timers; t++)
        p->timers[t].handled = 0;
    s->phase = TM_PH_MAIN;
    for (int t = 0; t < p->n_timers; t++)
        if (tm_timer_full(s, &p->timers[t]))
            s->phase = TM_PH_TIMER;
}

/* 4. End phase: played spells to the discard, refill the hand to 5 minus the
 * delay cards (a larger hand is kept), then the turn cap's end of the game
 * or the next player's turn. (The spheres end the game at the take that
 * empties the second one, before any end phase: tm_apply.) */
static void end_turn(tm_state *s)
{
    tm_player *p = &s->p[s->seat];
    for (int i = 0; i < s->n_zone; i++)
        put(p->discard, &p->n_discard, s->zone[i]);
    s->n_zone = 0;
    int target = TM_HAND_SIZE - tm_delay_cards(p);
    while (p->n_hand < target && draw_one(s, s->seat))
        ;
    p->ke_limit = 0;
    p->spent_turn = 0;
    s->access = 0;
    s->taken = 0;
    if (s->turn >= s->max_turns) {
        s->over = 1;
        s->capped = 1;
        s->phase = TM_PH_OVER;
    } else {
        start_turn(s);
    }
}

static bool any_unhandled_full(const tm_state *s)
{
    const tm_player *p = &s->p[s->seat];
    for (int t = 0; t < p->n_timers; t++)
        if (!p->timers[t].handled && tm_timer_full(s, &p->timers[t]))
            return true;
    return false;
}

static bool any_take(const tm_state *s)
{
    for (int l = 1; l <= TM_LEVELS; l++)
        if (!(s->taken & (1u << (l - 1))) && s->n_sphere[l - 1] >= 1 && s->access >= l)
            return true;
    return false;
}

/* The automatic steps between the players' choices. */
static void advance(tm_state *s)
{
    for (;;) {
        if (s->over || s->choice != TM_CH_NONE || s->prog_kind != TM_NOCARD)
            return;
        if (s->phase == TM_PH_TIMER && !any_unhandled_full(s))
            s->phase = TM_PH_MAIN;
        else if (s->phase == TM_PH_PASS && !any_unhandled_full(s))
            end_turn(s);
        else if (s->phase == TM_PH_ACCESS && !any_take(s))
            end_turn(s);
        else
            return;
    }
}

uint32_t tm_to_move(const void *st)
{
    const tm_state *s = st;
    return s->over ? 0 : 1u << s->seat;
}

/* ---------------------------------------------------------------- ruling 25 */

/* A 64-bit word per card kind (splitmix64's finalizer of k + 1, worked out
 * by the compiler): a zone's multiset hash is the sum of its cards' words,
 * which does not depend on their order; one load and one add a card. */
#define TM_MIX1(z) (((z) ^ ((z) >> 30)) * 0xbf58476d1ce4e5b9ull)
#define TM_MIX2(z) (((z) ^ ((z) >> 27)) * 0x94d049bb133111ebull)
#define TM_WORD(k) (TM_MIX2(TM_MIX1(((uint64_t)(k) + 1) * 0x9e3779b97f4a7c15ull)) ^ \
                    (TM_MIX2(TM_MIX1(((uint64_t)(k) + 1) * 0x9e3779b97f4a7c15ull)) >> 31))
#define TM_WORDS8(k) TM_WORD(k), TM_WORD(k + 1), TM_WORD(k + 2), TM_WORD(k + 3), TM_WORD(k + 4), TM_WORD(k + 5), \
                     TM_WORD(k + 6), TM_WORD(k + 7)
static const uint64_t card_words[TM_MAX_KINDS] = {TM_WORDS8(0),  TM_WORDS8(8),  TM_WORDS8(16), TM_WORDS8(24),
                                                  TM_WORDS8(32), TM_WORDS8(40), TM_WORDS8(48), TM_WORDS8(56)};

/* A zone's multiset hash, told apart from the other zones' by zone. */
static uint64_t zone_print(int zone, const uint8_t *cards, int n)
{
    uint64_t h = 0;
    for (int i = 0; i < n; i++)
        h += card_words[cards[i]];
    return tm_loop_key(h, zone);
}

/* The position of the seat to move that ruling 25 compares, as a 64-bit
 * hash: its hand, deck (order aside), discard, removed and released cards as
 * multisets; its timers with their spells and delay cards; its Kè and
 * reminders; the turn's access points and spell zone; the others' reminders
 * (a focus of a card file may add to them). Two positions that differ get
 * the same hash with odds of about 2^-64 per pair. */
uint64_t tm_loop_print(const tm_state *s)
{
    const tm_player *p = &s->p[s->seat];
    uint64_t h = zone_print(0, p->hand, p->n_hand) + zone_print(1, p->deck, p->n_deck) +
                 zone_print(2, p->discard, p->n_discard) + zone_print(3, p->removed, p->n_removed) +
                 zone_print(4, p->released, p->n_released) + zone_print(5, s->zone, s->n_zone);
    uint64_t x = 0;
    for (int t = 0; t < p->n_timers; t++) {
        const tm_timer *tm = &p->timers[t];
        x = tm_loop_key(x, tm->kind << 8 | tm->number);
        for (int i = 0; i < tm->n_spells; i++)
            x = tm_loop_key(x, 0x10000 + tm->spells[i]);
        x = tm_loop_key(x, 0x20000 + (int)zone_print(6, tm->delay, tm->n_delay));
    }
    x = tm_loop_key(x, p->ke_ready | p->ke_spent << 8 | p->ke_eph << 16);
    x = tm_loop_key(x, (uint8_t)p->cost_mod | p->ke_limit << 8 | p->slow_next << 16);
    x = tm_loop_key(x, p->spent_turn | s->access << 16);
    for (int i = 0; i < s->players; i++)
        x = tm_loop_key(x, (uint8_t)s->p[i].cost_mod | s->p[i].slow_next << 8 | i << 16);
    return h ^ x;
}

/* A play ruling 25 watches: a focus or a main-phase activation of an
 * on-discard timer whose effect brings cards back to the hand. */
static inline bool is_returning_play(const tm_state *s, int id)
{
    if (id >= TM_ID_PLAY && id < TM_ID_RELEASE)
        return s->kinds.loop_focus >> (id - TM_ID_PLAY) & 1;
    if (id >= TM_ID_ACTIVATE && id < TM_ID_DELAY && s->phase == TM_PH_MAIN) {
        const tm_player *p = &s->p[s->seat];
        int t = id - TM_ID_ACTIVATE;
        return t < p->n_timers && (s->kinds.loop_timer >> p->timers[t].kind & 1);
    }
    return false;
}

bool tm_loop_refused(const tm_state *s, int id)
{
    return s->n_loop > 0 && is_returning_play(s, id) && tm_loop_seen(s, tm_loop_print(s), id);
}

/* ---------------------------------------------------------------- legality */

static bool hand_has(const tm_player *p, int kind) { return tm_kind_count(p->hand, p->n_hand, kind) > 0; }

static bool pick_legal(const tm_state *s, int kind)
{
    const tm_player *p = &s->p[s->seat];
    switch (s->choice) {
    case TM_CH_RECOVER:
    case TM_CH_REMOVE:
    case TM_CH_DELAY: return hand_has(p, kind);
    case TM_CH_FOCUS_BACK:
        return s->table.card[kind].type == TM_FOCUS && tm_kind_count(p->discard, p->n_discard, kind) > 0;
    default: return false;
    }
}

static bool spell_affordable(const tm_state *s, int kind)
{
    return s->table.card[kind].type == TM_SPELL && can_pay(s, s->seat, tm_effective_cost(s, s->seat, kind));
}

/* The single source of what is allowed (core asks it before every apply). */
bool tm_is_legal(const tm_state *s, int id)
{
    if (s->over || id < 0 || id >= TM_ACTIONS)
        return false;
    const tm_player *p = &s->p[s->seat];
    const tm_table *t = &s->table;
    if (s->choice == TM_CH_PAY) {
        int e = id - TM_ID_PAY;
        return id >= TM_ID_PAY && e >= tm_pay_eph_lo(p, s->choice_left) && e <= tm_pay_eph_hi(p, s->choice_left);
    }
    if (s->choice != TM_CH_NONE)
        return id >= TM_ID_PICK && id < TM_ID_PICK + t->kinds && pick_legal(s, id - TM_ID_PICK);
    if (id >= TM_ID_ACTIVATE && id < TM_ID_PICK) {
        int tmr = (id - TM_ID_ACTIVATE) % TM_MAX_TIMERS;
        int what = id < TM_ID_DELAY ? 0 : id < TM_ID_DROP ? 1 : 2; /* activate, delay, drop */
        if (tmr >= p->n_timers)
            return false;
        const tm_timer *tm = &p->timers[tmr];
        bool full = tm_timer_full(s, tm);
        bool can_delay = p->n_hand > 0 && tm->n_delay < TM_MAX_DELAY;
        switch (s->phase) {
        case TM_PH_TIMER: return !tm->handled && full && (what == 0 || (what == 1 && can_delay));
        case TM_PH_PASS: return !tm->handled && full && (what == 2 || (what == 1 && can_delay));
        case TM_PH_MAIN:
            return what == 0 && tm_may_play_more(s) && (tm->n_spells > 0 || t->card[tm->kind].trigger == TM_TRIG_DISCARD) &&
                   p->n_released + tm->n_spells <= TM_MAX_RELEASED && !tm_loop_refused(s, id);
        default: return false;
        }
    }
    if (id >= TM_ID_PAY)
        return false; /* only while a payment is being chosen */
    if (s->phase == TM_PH_ACCESS) {
        if (id == TM_ID_DONE)
            return true;
        if (id < TM_ID_TAKE)
            return false;
        int second = id >= TM_ID_TAKE2;
        int l = id - (second ? TM_ID_TAKE2 : TM_ID_TAKE) + 1;
        return !(s->taken & (1u << (l - 1))) && s->n_sphere[l - 1] >= 1 + second && s->access >= l + second;
    }
    if (s->phase != TM_PH_MAIN)
        return false;
    if (id == TM_ID_PASS)
        return !s->main_acted && p->n_released == 0;
    if (id == TM_ID_DONE)
        return p->n_released == 0;
    if (id == TM_ID_RECOVER)
        return p->n_hand >= 2 && p->ke_spent >= 1 && tm_may_play_more(s);
    if (id >= TM_ID_PLAY && id < TM_ID_RELEASE) {
        int k = id - TM_ID_PLAY;
        if (k >= t->kinds || !hand_has(p, k) || !tm_may_play_more(s))
            return false;
        if (t->card[k].type == TM_TIMER)
            return p->n_timers < TM_MAX_TIMERS;
        if (t->card[k].type == TM_FOCUS)
            return !tm_loop_refused(s, id);
        return spell_affordable(s, k);
    }
    if (id >= TM_ID_RELEASE && id < TM_ID_SET) {
        int k = id - TM_ID_RELEASE;
        return k < t->kinds && tm_kind_count(p->released, p->n_released, k) > 0;
    }
    if (id >= TM_ID_SET && id < TM_ID_ACTIVATE) {
        int k = (id - TM_ID_SET) / TM_MAX_TIMERS, tmr = (id - TM_ID_SET) % TM_MAX_TIMERS;
        return k < t->kinds && tmr < p->n_timers && !tm_timer_full(s, &p->timers[tmr]) && hand_has(p, k) &&
               spell_affordable(s, k) && tm_may_play_more(s);
    }
    return false;
}

/* ---------------------------------------------------------------- application */

static void finish_choice(tm_state *s)
{
    tm_player *p = &s->p[s->seat];
    int was = s->choice;
    s->choice = TM_CH_NONE;
    /* "手札のカード2枚を捨てて、Keを1回復します". */
    if (was == TM_CH_RECOVER)
        ready_ke(p, 1);
    if (was == TM_CH_DELAY)
        p->timers[s->choice_timer].handled = 1;
    run_program(s);
}

static void apply_pick(tm_state *s, int kind)
{
    tm_player *p = &s->p[s->seat];
    switch (s->choice) {
    case TM_CH_RECOVER:
        take_kind(p->hand, &p->n_hand, kind);
        put(p->discard, &p->n_discard, kind);
        break;
    case TM_CH_REMOVE:
        take_kind(p->hand, &p->n_hand, kind);
        put(p->removed, &p->n_removed, kind);
        break;
    case TM_CH_DELAY: {
        tm_timer *tm = &p->timers[s->choice_timer];
        take_kind(p->hand, &p->n_hand, kind);
        tm->delay[tm->n_delay++] = (uint8_t)kind;
        break;
    }
    case TM_CH_FOCUS_BACK:
        take_kind(p->discard, &p->n_discard, kind);
        put(p->hand, &p->n_hand, kind);
        break;
    default: break;
    }
    s->choice_left--;
    if (s->choice_left == 0 || !choice_has_option(s))
        finish_choice(s);
}

/* Ruling 25: a returning play is remembered with the position it was made
 * from (the ring keeps the last TM_LOOP_MEMORY); a spell played into the
 * spell zone makes every later position new (one access point more), so the
 * ring starts afresh. */
static void remember_play(tm_state *s, int id)
{
    if (!is_returning_play(s, id))
        return;
    s->loop[s->loop_next] = tm_loop_key(tm_loop_print(s), id);
    s->loop_next = (uint8_t)((s->loop_next + 1) % TM_LOOP_MEMORY);
    if (s->n_loop < TM_LOOP_MEMORY)
        s->n_loop++;
}

static void forget_plays(tm_state *s) { s->n_loop = s->loop_next = 0; }

void tm_apply(void *st, int seat, int id)
{
    tm_state *s = st;
    tm_player *p = &s->p[seat];
    const tm_table *t = &s->table;
    s->lost_eph = s->lost_rec = 0;
    if (s->choice == TM_CH_NONE && s->phase == TM_PH_MAIN)
        remember_play(s, id);
    if (s->choice == TM_CH_PAY) {
        /* the mix chosen; then the effect the payment was waiting for */
        pay_mix(s, seat, s->choice_left, id - TM_ID_PAY);
        s->choice = TM_CH_NONE;
        s->choice_left = 0;
        s->pay_kind = 0;
        run_program(s);
    } else if (s->choice != TM_CH_NONE) {
        apply_pick(s, id - TM_ID_PICK);
    } else if (id == TM_ID_PASS) {
        /* "循環のKeが全て回復します ... 即座に手番が終了します"; then each
         * full timer not yet dealt with this turn takes one card from hand
         * face down or is discarded. A timer delayed in this turn's timer
         * phase keeps its `handled` mark: it has paid its one card for this
         * turn and needs nothing more (issue 11, point 10). */
        ready_ke(p, p->ke_spent);
        s->main_acted = 1;
        s->phase = TM_PH_PASS;
    } else if (id == TM_ID_DONE) {
        if (s->phase == TM_PH_MAIN)
            s->phase = TM_PH_ACCESS;
        else
            end_turn(s);
    } else if (id == TM_ID_RECOVER) {
        s->main_acted = 1;
        s->turn_plays++;
        start_choice(s, TM_CH_RECOVER, 2, 0);
    } else if (id >= TM_ID_PLAY && id < TM_ID_RELEASE) {
        int k = id - TM_ID_PLAY;
        s->main_acted = 1;
        s->turn_plays++;
        take_kind(p->hand, &p->n_hand, k);
        if (t->card[k].type == TM_TIMER) {
            memset(&p->timers[p->n_timers], 0, sizeof p->timers[0]);
            p->timers[p->n_timers].number = (uint8_t)tm_free_timer_number(p);
            p->timers[p->n_timers++].kind = (uint8_t)k;
        } else if (t->card[k].type == TM_FOCUS) {
            put(p->discard, &p->n_discard, k);
            start_program(s, k);
        } else {
            put(s->zone, &s->n_zone, k);
            s->access++;
            forget_plays(s);
            begin_payment(s, seat, k);
            start_program(s, k); /* waits while the payment is chosen */
        }
    } else if (id >= TM_ID_RELEASE && id < TM_ID_SET) {
        /* A released spell is played into the spell zone at no cost: it
         * resolves and earns its access point like any spell played there. */
        int k = id - TM_ID_RELEASE;
        s->main_acted = 1;
        take_kind(p->released, &p->n_released, k);
        put(s->zone, &s->n_zone, k);
        s->access++;
        forget_plays(s);
        start_program(s, k);
    } else if (id >= TM_ID_SET && id < TM_ID_ACTIVATE) {
        int k = (id - TM_ID_SET) / TM_MAX_TIMERS, tmr = (id - TM_ID_SET) % TM_MAX_TIMERS;
        tm_timer *tm = &p->timers[tmr];
        s->main_acted = 1;
        s->turn_plays++;
        take_kind(p->hand, &p->n_hand, k);
        tm->spells[tm->n_spells++] = (uint8_t)k;
        begin_payment(s, seat, k);
        /* "可能な限りタイマーの効果は即座に解決されます" (once paid). */
        if (t->card[tm->kind].trigger == TM_TRIG_SET)
            start_program(s, tm->kind);
    } else if (id >= TM_ID_ACTIVATE && id < TM_ID_DELAY) {
        int tmr = id - TM_ID_ACTIVATE;
        int kind = p->timers[tmr].kind;
        if (s->phase == TM_PH_TIMER) {
            /* The timer phase's activation: spells released, no discard effect. */
            discard_timer(s, seat, tmr, false);
        } else {
            s->main_acted = 1;
            s->turn_plays++;
            if (t->card[kind].trigger == TM_TRIG_DISCARD) {
                discard_timer(s, seat, tmr, true);
                start_program(s, kind);
            } else {
                discard_timer(s, seat, tmr, false);
            }
        }
    } else if (id >= TM_ID_DELAY && id < TM_ID_DROP) {
        start_choice(s, TM_CH_DELAY, 1, id - TM_ID_DELAY);
    } else if (id >= TM_ID_DROP && id < TM_ID_PICK) {
        discard_timer(s, seat, id - TM_ID_DROP, true);
    } else if (id >= TM_ID_TAKE) {
        int second = id >= TM_ID_TAKE2;
        int l = id - (second ? TM_ID_TAKE2 : TM_ID_TAKE) + 1;
        uint8_t *pile = s->sphere[l - 1];
        int at = s->n_sphere[l - 1] - 1 - second;
        put(p->hand, &p->n_hand, pile[at]);
        if (second)
            p->took_unseen[l - 1]++;
        else
            p->took_seen[pile[at]]++;
        memmove(pile + at, pile + at + 1, (size_t)(s->n_sphere[l - 1] - at - 1));
        s->n_sphere[l - 1]--;
        s->access = (uint8_t)(s->access - l - second);
        s->taken |= (uint8_t)(1u << (l - 1));
        /* "少なくとも2つ以上(2つも含む)の意識スフィアの山札が尽きたらゲームは即座に終了します":
         * the take that empties a second sphere ends the game there and
         * then (ruling 1): nothing more is taken, no end phase runs (the
         * spell zone's cards are still this player's and count). */
        if (tm_empty_spheres(s) >= 2) {
            s->over = 1;
            s->phase = TM_PH_OVER;
            return;
        }
    }
    advance(s);
}

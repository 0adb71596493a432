/* octal_rules.c — THE OCTAL's rules: set-up, questions, what is legal, and what each action does (seed 004). */
#include <string.h>

#include "bits.h"
#include "game_def.h"
#include "octal.h"
#include "rng_inline.h"

/* The passages quoted below are from seed 004 (§ = its headings). */

static int order_key(int card) { return (octal_is_all(card) ? 9 : octal_number(card)) * 64 + card; }

/* Hand order as a permutation of the 34 cards, built at load: a hand is put
 * in order by moving its bits to their ranks and reading them back, not by
 * sorting (hand order was a tenth of a random playout's overrides). */
static uint8_t order_rank[OCTAL_CARDS], card_at_rank[OCTAL_CARDS];

__attribute__((constructor)) static void octal_order_tables(void)
{
    for (int c = 0; c < OCTAL_CARDS; c++) {
        int rank = 0;
        for (int d = 0; d < OCTAL_CARDS; d++)
            rank += order_key(d) < order_key(c);
        order_rank[c] = (uint8_t)rank;
        card_at_rank[rank] = (uint8_t)c;
    }
}

int octal_hand_order(uint64_t hand, uint8_t *out)
{
    uint64_t ranks = 0;
    for (; hand; hand &= hand - 1)
        ranks |= 1ull << order_rank[__builtin_ctzll(hand)];
    int n = 0;
    for (; ranks; ranks &= ranks - 1)
        out[n++] = card_at_rank[__builtin_ctzll(ranks)];
    return n;
}

/* §④ with §①'s cycle at the ends; the table in octal_data.c says which
 * numbers each (condition, reference) allows. */
bool octal_condition_allows(int condition, int reference, int m)
{
    if (condition < 0 || condition >= OCTAL_CONDITIONS || reference < 1 || reference > 8 || m < 1 || m > 8)
        return false;
    return (octal_table.allows[condition][reference] >> m) & 1u;
}

/* A question is the condition printed on the card the top card points at,
 * and the top card's number (§ゲームの準備 ③ "『4より大きい数』が条件").
 * An ALL on top has no number: "次の手番プレイヤーはすきな数値カードをALL
 * カードの上にぴったり重ねて配置します" (§③), so the reference is 0, "any". */
void octal_question(const octal_state *s, int q, int *condition, int *reference)
{
    const octal_stack *st = &s->stack[q];
    const octal_entry *top = &st->e[st->size - 1];
    *condition = octal_table.cards[st->e[top->cond_from].card].condition;
    *reference = octal_number(top->card);
}

bool octal_satisfies(const octal_state *s, int q, int card)
{
    if (octal_is_all(card)) /* §③ "どのような条件であっても配置出来る" */
        return true;
    int condition, reference;
    octal_question(s, q, &condition, &reference);
    if (reference == 0)
        return true;
    return octal_condition_allows(condition, reference, octal_number(card));
}

int octal_active_players(const octal_state *s)
{
    return s->players - s->finished_count;
}

/* §⑧ "二巡しても全てのプレイヤーがカードを配置出来なかった場合に限り、最後に
 * カードを配置したプレイヤーは自分が最後に置いたカードの上に好きな数値カード
 * を重ねて置くことが出来ます". Two rounds in which nobody placed = every other
 * active player passed twice since that card was placed; at the placer's
 * turn that is 2 x (active - 1) passes of the others plus its own one pass in
 * between (3 players: 5 passes; docs ruling 9, issue 11). */
int octal_lay_passes_needed(const octal_state *s) { return 2 * octal_active_players(s) - 1; }

/* §③ "次の手番プレイヤーはすきな数値カードをALLカードの上にぴったり重ねて配置
 * します": an ALL on top waits for a number card (docs ruling 5). */
int octal_open_all(const octal_state *s)
{
    for (int q = 0; q < s->questions; q++)
        if (octal_is_all(s->stack[q].e[s->stack[q].size - 1].card))
            return q;
    return -1;
}

/* One rule for every exactly-stacked card (docs ruling 6): a ↕ may point at
 * the card beneath the top only if its condition can be seen, that is, the
 * top does not lie exactly on it (a lay, an override's upper cards, a card
 * on an ALL), the top is not an ALL (the next card lies exactly on it), and
 * the card beneath is not an ALL (it bears no condition). */
bool octal_may_point_below(const octal_state *s, int q)
{
    const octal_stack *st = &s->stack[q];
    const octal_entry *top = &st->e[st->size - 1];
    return !top->exact && !octal_is_all(top->card) && !octal_is_all(st->e[st->size - 2].card);
}

/* On an ALL the next card is placed anyway (ruling 5), so the lay is offered
 * only on a number card. */
bool octal_lay_allowed(const octal_state *s, int seat)
{
    if (s->phase != OCTAL_PHASE_PLAY || s->last_placer != seat || s->seat != seat)
        return false;
    if (s->passes_in_a_row < octal_lay_passes_needed(s) || octal_open_all(s) >= 0)
        return false;
    const octal_stack *st = &s->stack[s->last_question];
    return !octal_is_all(st->e[st->size - 1].card);
}

static const int factorial[5] = {1, 1, 2, 6, 24};

int octal_override_cards(const octal_state *s, int seat, int mask, int perm, uint8_t *placed)
{
    uint8_t hand[OCTAL_CARDS], chosen[OCTAL_OVERRIDE_MAX];
    int n = octal_hand_order(s->hand[seat], hand), k = 0;
    for (int i = 0; i < n && i < 8; i++)
        if (mask >> i & 1) {
            if (k == OCTAL_OVERRIDE_MAX)
                return 0;
            chosen[k++] = hand[i];
        }
    if (mask >> n != 0 || k == 0 || perm >= factorial[k])
        return 0;
    /* perm is a Lehmer code: digit i picks among the cards not yet placed. */
    uint8_t avail[OCTAL_OVERRIDE_MAX];
    memcpy(avail, chosen, (size_t)k);
    int left = k;
    for (int i = 0; i < k; i++) {
        int f = factorial[k - 1 - i], d = perm / f;
        perm %= f;
        placed[i] = avail[d];
        memmove(avail + d, avail + d + 1, (size_t)(left - d - 1));
        left--;
    }
    return k;
}

/* The card an action names: a number card is itself; "an ALL" is the first
 * ALL the seat holds (the two are alike). -1 if the seat holds none. */
static int held_card(const octal_state *s, int seat, int kind)
{
    if (kind < OCTAL_NUMBER_CARDS)
        return (s->hand[seat] >> kind & 1u) ? kind : -1;
    for (int c = OCTAL_ALL; c < OCTAL_CARDS; c++)
        if (s->hand[seat] >> c & 1u)
            return c;
    return -1;
}

/* Octo! (§⑦): declared exactly when the placing leaves one card. */
static bool octo_ok(int left, int octo, char *buf, size_t cap)
{
    if (octo && left != 1) {
        if (buf)
            snprintf(buf, cap, "Octo! is declared only by a placing that leaves exactly one card in hand "
                               "(this one leaves %d)", left);
        return false;
    }
    return true;
}

#define WHY(...) (buf ? (void)snprintf(buf, cap, __VA_ARGS__) : (void)0)

static void question_text(const octal_state *s, int q, char *out, size_t cap)
{
    int condition, reference;
    octal_question(s, q, &condition, &reference);
    if (reference == 0)
        snprintf(out, cap, "an ALL lies on question %d: any number card", q + 1);
    else
        snprintf(out, cap, "question %d asks %s%d", q + 1, octal_condition_letter[condition], reference);
}

static bool check_play(const octal_state *s, int seat, const octal_action *a, char *buf, size_t cap)
{
    char name[16] = "", qt[64] = "";
    int card = held_card(s, seat, a->kind);
    if (buf)
        octal_card_text(a->kind, name, sizeof name);
    if (card < 0)
        return WHY("you do not hold %s", name), false;
    int left = octal_hand_size(s, seat) - 1;
    const octal_stack *st = &s->stack[a->question];
    int top = st->size - 1;
    int open = octal_open_all(s);
    if (open >= 0 && octal_is_all(card))
        return WHY("an ALL lies on question %d: the next card placed is a number card laid exactly on it, "
                   "never another ALL (seed §③ 次の手番プレイヤーはすきな数値カードをALLカードの上に"
                   "ぴったり重ねて配置します)", open + 1),
               false;
    if (open >= 0 && a->question != open)
        return WHY("an ALL lies on question %d: place a number card exactly on it there, or pass "
                   "(seed §③)", open + 1),
               false;
    if (octal_is_all(card)) {
        if (left == 0) /* §③ "最後の1枚として配置することは出来ません" */
            return WHY("an ALL may never be your last card (seed §③)"), false;
        if (a->below)
            return WHY("an ALL has no arrow: it shows the condition of the card it covers"), false;
        return octo_ok(left, a->octo, buf, cap);
    }
    if (!octal_satisfies(s, a->question, card)) {
        if (buf)
            question_text(s, a->question, qt, sizeof qt);
        return WHY("%s does not answer: %s", name, qt), false;
    }
    if (a->below) {
        if (octal_table.cards[card].arrow != OCTAL_BOTH)
            return WHY("%s has the arrow ↑: it must point at the top card (seed §②)", name), false;
        if (octal_is_all(st->e[top].card))
            return WHY("a card laid on an ALL lies exactly on it and points nowhere else (seed §③)"), false;
        if (st->e[top].exact)
            return WHY("the top of question %d lies exactly on the card beneath it: that card's condition "
                       "cannot be seen, so a ↕ points at the top (ruling 6)", a->question + 1),
                   false;
        if (octal_is_all(st->e[top - 1].card))
            return WHY("the card beneath the top of question %d is an ALL: it bears no condition",
                       a->question + 1),
                   false;
    }
    return octo_ok(left, a->octo, buf, cap);
}

static bool check_lay(const octal_state *s, int seat, const octal_action *a, char *buf, size_t cap)
{
    char name[16] = "";
    if (buf)
        octal_card_text(a->kind, name, sizeof name);
    if (!octal_lay_allowed(s, seat)) {
        if (s->last_placer != seat)
            return WHY("only the last player who placed a card may lay a card on it (seed §⑧)"), false;
        if (s->passes_in_a_row < octal_lay_passes_needed(s))
            return WHY("laying on your last card needs every other player to pass twice since you placed "
                       "it (%d of %d passes so far; seed §⑧ 二巡しても…)", s->passes_in_a_row,
                       octal_lay_passes_needed(s)),
                   false;
        return WHY("your last card is an ALL: play any number card on it instead"), false;
    }
    if (a->question != s->last_question)
        return WHY("your last card lies on question %d", s->last_question + 1), false;
    if (held_card(s, seat, a->kind) < 0)
        return WHY("you do not hold %s", name), false;
    return octo_ok(octal_hand_size(s, seat) - 1, a->octo, buf, cap);
}

static bool check_override(const octal_state *s, int seat, const octal_action *a, char *buf, size_t cap)
{
    int n = octal_hand_size(s, seat);
    int open = octal_open_all(s);
    if (open >= 0)
        return WHY("an ALL lies on question %d: the next card placed is one number card laid exactly on it "
                   "(seed §③)", open + 1),
               false;
    if (n != OCTAL_HAND_LIMIT) /* §⑨ "手札が5枚になった場合に限り" */
        return WHY("an override needs exactly 5 cards in hand; you hold %d (seed §⑨)", n), false;
    int k = asobi_popcount32(a->mask);
    if (k < OCTAL_OVERRIDE_MIN || k > OCTAL_OVERRIDE_MAX)
        return WHY("an override places 2 to 4 cards, not %d", k), false;
    uint8_t placed[OCTAL_OVERRIDE_MAX];
    if (octal_override_cards(s, seat, a->mask, a->perm, placed) != k)
        return WHY("that override does not name cards of your hand"), false;
    char name[16] = "", qt[64] = "";
    for (int i = 0; i < k; i++) {
        if (!octal_satisfies(s, a->question, placed[i])) {
            if (buf)
                octal_card_text(placed[i], name, sizeof name);
            if (buf)
                question_text(s, a->question, qt, sizeof qt);
            return WHY("%s does not answer: %s", name, qt), false;
        }
        if (i > 0) {
            int hi = octal_is_all(placed[i - 1]) ? 9 : octal_number(placed[i - 1]);
            int lo = octal_is_all(placed[i]) ? 9 : octal_number(placed[i]);
            if (lo > hi) /* §⑨ "値の大きい順に…一番小さい数が一番上" */
                return WHY("an override is placed from the highest number down (ALL counts highest), "
                           "the smallest on top (seed §⑨)"),
                       false;
            if (hi == 9 && lo == 9) /* each card lies exactly on the one before */
                return WHY("an ALL may not lie on an ALL: the card on an ALL is a number card (seed §③ "
                           "すきな数値カードをALLカードの上にぴったり重ねて), so an override places one ALL at most"),
                       false;
        }
    }
    /* With both ALLs in hand, "one ALL" is always the first of them. */
    bool two_alls = (s->hand[seat] >> OCTAL_ALL & 1u) && (s->hand[seat] >> (OCTAL_ALL + 1) & 1u);
    if (two_alls && (a->mask >> 3 & 1u) == 0 && (a->mask >> 4 & 1u))
        return WHY("two ALLs are alike: the override names the first"), false;
    return octo_ok(n - k, a->octo, buf, cap);
}

static bool check(const octal_state *s, int seat, const octal_action *a, char *buf, size_t cap)
{
    if (buf && cap)
        buf[0] = '\0';
    if (seat != s->seat) {
        /* §⑦ "（次のプレイヤーがカードを出すまでに宣言すればOK）": the only
         * action open out of turn is the late declaration. */
        if (seat != s->octo_late)
            return WHY("it is seat %d's turn", s->seat), false;
        if (a->event != OCTAL_EV_DECLARE)
            return WHY("it is seat %d's turn; you may still declare Octo! before it acts (seed §⑦)", s->seat),
                   false;
        return true;
    }
    if (a->event == OCTAL_EV_DECLARE) {
        /* Everybody else may have passed since: the forgetful seat's own
         * turn is still in the window, until it acts (docs ruling 12). */
        if (seat == s->octo_late)
            return true;
        return WHY("a late Octo! is for a player who placed leaving one card without declaring it, until "
                   "another player puts out a card or that player acts again (seed §⑦)"),
               false;
    }
    if (s->phase == OCTAL_PHASE_DISCARD) {
        if (a->event != OCTAL_EV_DISCARD)
            return WHY("you hold %d cards: discard one first (seed §⑤ 上限を超えた場合は即座に…捨てる)",
                       octal_hand_size(s, seat)),
                   false;
        if (held_card(s, seat, a->kind) < 0) {
            char name[16];
            octal_card_text(a->kind, name, sizeof name);
            return WHY("you do not hold %s", name), false;
        }
        return true;
    }
    if (a->event == OCTAL_EV_PASS)
        return true;
    if (a->event == OCTAL_EV_DISCARD)
        return WHY("a card is discarded only when a hand holds more than 5 (seed §⑤)"), false;
    if (a->question >= s->questions)
        return WHY("single mode has only question 1"), false;
    switch (a->event) {
    case OCTAL_EV_PLAY: return check_play(s, seat, a, buf, cap);
    case OCTAL_EV_LAY: return check_lay(s, seat, a, buf, cap);
    case OCTAL_EV_OVERRIDE: return check_override(s, seat, a, buf, cap);
    default: return WHY("no such action"), false;
    }
}

void octal_why_illegal(const octal_state *s, int seat, const octal_action *a, char *buf, size_t cap)
{
    if (check(s, seat, a, buf, cap))
        buf[0] = '\0';
}

/* lehmer[k][perm]: the indices (into the chosen cards, hand order) of an
 * override's cards as placed, bottom first; generated from the Lehmer code. */
static const uint8_t lehmer[5][OCTAL_PERMS][OCTAL_OVERRIDE_MAX] = {
    {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}},
    {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}},
    {{0, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}},
    {{0, 1, 2, 0}, {0, 2, 1, 0}, {1, 0, 2, 0}, {1, 2, 0, 0}, {2, 0, 1, 0}, {2, 1, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}},
    {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1}, {1, 0, 2, 3}, {1, 0, 3, 2}, {1, 2, 0, 3}, {1, 2, 3, 0}, {1, 3, 0, 2}, {1, 3, 2, 0}, {2, 0, 1, 3}, {2, 0, 3, 1}, {2, 1, 0, 3}, {2, 1, 3, 0}, {2, 3, 0, 1}, {2, 3, 1, 0}, {3, 0, 1, 2}, {3, 0, 2, 1}, {3, 1, 0, 2}, {3, 1, 2, 0}, {3, 2, 0, 1}, {3, 2, 1, 0}},
};

/* An override's cards are placed going down (§⑨): ALL counts as 9. */
static int down_key(int card) { return octal_is_all(card) ? 9 : octal_number(card); }

/* The Lehmer codes (bit perm) of the orders that place k cards whose
 * down_keys, ascending, are keys going down: equal numbers in any order. (Two
 * ALLs, the one pair of equal keys that would have to keep its order, are
 * never chosen together: an ALL may not lie on an ALL.) */
static uint32_t downward_perms(int k, const int *keys)
{
    uint32_t perms = 0;
    for (int perm = 0; perm < factorial[k]; perm++) {
        const uint8_t *seq = lehmer[k][perm];
        bool ok = true;
        for (int i = 1; i < k && ok; i++)
            ok = keys[seq[i]] <= keys[seq[i - 1]];
        if (ok)
            perms |= 1u << perm;
    }
    return perms;
}

/* The overrides of a hand of 5 depend on the hand only through which
 * neighbours in hand order have the same number (4 bits, "eq": bit i when
 * positions i and i+1 are equal) and which positions answer each question.
 * Three tables over (eq, mask of hand positions), computed once at load from
 * downward_perms (the rule itself), let random_action count a hand's
 * overrides with two reads instead of listing them (often over a hundred for
 * one random pick: a third of a random playout), and unrank the one drawn:
 *   override_perms[eq][mask]  the Lehmer codes that place mask's cards going down;
 *   override_ids[eq][mask]    the ids of mask on one question: those orders,
 *                             twice when the override leaves one card (with
 *                             and without Octo!), 0 unless mask has 2-4 cards;
 *   override_total[eq][set]   override_ids summed over the masks inside set. */
enum { OVERRIDE_HAND = OCTAL_HAND_LIMIT, OVERRIDE_EQ = 1 << (OVERRIDE_HAND - 1), OVERRIDE_MASKS = 1 << OVERRIDE_HAND };
static uint32_t override_perms[OVERRIDE_EQ][OVERRIDE_MASKS];
static uint8_t override_ids[OVERRIDE_EQ][OVERRIDE_MASKS];
static uint16_t override_total[OVERRIDE_EQ][OVERRIDE_MASKS];

/* At load (a constructor: no lazy initialization for threads to race on). */
__attribute__((constructor)) static void octal_override_tables(void)
{
    for (int eq = 0; eq < OVERRIDE_EQ; eq++) {
        int key[OVERRIDE_HAND] = {1};
        for (int i = 1; i < OVERRIDE_HAND; i++)
            key[i] = key[i - 1] + !(eq >> (i - 1) & 1);
        for (int mask = 0; mask < OVERRIDE_MASKS; mask++) {
            int k = 0, keys[OVERRIDE_HAND];
            for (int i = 0; i < OVERRIDE_HAND; i++)
                if (mask >> i & 1)
                    keys[k++] = key[i];
            if (k < OCTAL_OVERRIDE_MIN || k > OCTAL_OVERRIDE_MAX)
                continue;
            override_perms[eq][mask] = downward_perms(k, keys);
            override_ids[eq][mask] = (uint8_t)(asobi_popcount32(override_perms[eq][mask]) *
                                               (OVERRIDE_HAND - k == 1 ? 2 : 1));
        }
        for (int set = 0; set < OVERRIDE_MASKS; set++)
            for (int mask = set; mask; mask = (mask - 1) & set)
                override_total[eq][set] = (uint16_t)(override_total[eq][set] + override_ids[eq][mask]);
    }
}

/* A hand of 5 as its overrides see it: the cards in hand order, eq (above),
 * and the positions that answer each question (sat). With both ALLs in hand
 * the second (position 4) is left out of sat: "one ALL" is always the first,
 * and never both (ALL on ALL, ruling 5). */
typedef struct override_hand {
    uint8_t hand[OCTAL_CARDS];
    int eq;
    unsigned sat[OCTAL_MAX_QUESTIONS];
} override_hand;

static void override_hand_of(const octal_state *s, int seat, override_hand *h)
{
    octal_hand_order(s->hand[seat], h->hand);
    int key[OVERRIDE_HAND];
    h->eq = 0;
    for (int i = 0; i < OVERRIDE_HAND; i++) {
        key[i] = down_key(h->hand[i]);
        if (i > 0 && key[i] == key[i - 1])
            h->eq |= 1 << (i - 1);
    }
    unsigned usable = key[3] == 9 ? 0xFu : 0x1Fu; /* hand[3] an ALL: so is hand[4] */
    h->sat[0] = h->sat[1] = 0;
    for (int q = 0; q < s->questions; q++) {
        unsigned numbers = s->q_numbers[q]; /* octal_satisfies, with the question read once */
        for (int i = 0; i < OVERRIDE_HAND; i++)
            if (key[i] == 9 || (numbers >> key[i] & 1u))
                h->sat[q] |= 1u << i;
        h->sat[q] &= usable;
    }
}

static int override_id(int mask, int perm, int q, int silent)
{
    return OCTAL_ID_OVERRIDE + ((mask * OCTAL_PERMS + perm) * 2 + q) * 2 + silent;
}

/* The overrides of a hand of 5, generated directly (legal() runs often: the
 * notation checks call it for every action), by mask, order, question and
 * Octo! ascending: ascending ids. This must agree with check_override;
 * test_octal_random compares the two on random states. */
static int legal_overrides(const octal_state *s, int seat, int *ids)
{
    override_hand h;
    override_hand_of(s, seat, &h);
    int count = 0;
    for (int mask = 0; mask < OVERRIDE_MASKS; mask++) {
        if (!override_ids[h.eq][mask])
            continue;
        bool octo = OVERRIDE_HAND - asobi_popcount32((unsigned)mask) == 1;
        for (uint32_t perms = override_perms[h.eq][mask]; perms; perms &= perms - 1) {
            int perm = __builtin_ctz(perms);
            for (int q = 0; q < s->questions; q++) {
                if ((h.sat[q] & (unsigned)mask) != (unsigned)mask)
                    continue;
                if (octo) /* with Octo! first (octal.h: the silent bit) */
                    ids[count++] = override_id(mask, perm, q, 0);
                ids[count++] = override_id(mask, perm, q, 1);
            }
        }
    }
    return count;
}

/* How many ids legal_overrides would list: the ids of the masks inside each
 * question's answering set. */
static int count_overrides(const override_hand *h)
{
    return override_total[h->eq][h->sat[0]] + override_total[h->eq][h->sat[1]];
}

/* The r-th id legal_overrides would list (r < count_overrides), found by
 * counting whole masks, then whole orders, without listing them. */
static int nth_override(const override_hand *h, int r)
{
    for (int mask = 0; mask < OVERRIDE_MASKS; mask++) {
        int per = override_ids[h->eq][mask];
        bool in0 = (h->sat[0] & (unsigned)mask) == (unsigned)mask;
        bool in1 = (h->sat[1] & (unsigned)mask) == (unsigned)mask;
        int here = per * (in0 + in1);
        if (r >= here) {
            r -= here;
            continue;
        }
        int w = OVERRIDE_HAND - asobi_popcount32((unsigned)mask) == 1 ? 2 : 1; /* ids per order and question */
        int block = w * (in0 + in1);                                        /* ids per order */
        int perm = asobi_nth_bit(override_perms[h->eq][mask], r / block);
        int j = r % block;
        int q = in0 && j < w ? 0 : 1;
        return override_id(mask, perm, q, w == 2 ? j % 2 : 1);
    }
    return -1; /* not reached: r < count_overrides */
}

/* The late Octo! (seat not the one to act) and a discard: the lists when
 * seat is not placing. */
static int legal_not_placing(const octal_state *s, int seat, int *ids)
{
    int n = 0;
    uint64_t hand = s->hand[seat];
    if (seat != s->seat) { /* the late Octo! (§⑦), the only action out of turn */
        if (seat == s->octo_late)
            ids[n++] = OCTAL_ID_DECLARE;
        return n;
    }
    /* the kinds held, ascending: the number cards, then "an ALL" */
    for (uint64_t kinds = (hand & ((1ULL << OCTAL_NUMBER_CARDS) - 1)) | ((uint64_t)(((hand >> OCTAL_ALL) & 3u) != 0) << OCTAL_ALL);
         kinds; kinds &= kinds - 1)
        ids[n++] = OCTAL_ID_DISCARD + __builtin_ctzll(kinds);
    return n;
}

/* What the single plays of the seat to act depend on: the hand, and each
 * question as octal_refresh_questions keeps it in the state (octal_open_all,
 * octal_question and octal_may_point_below, read every step, were a fifth of
 * a random playout). They must agree with check_play. */
typedef struct placing {
    uint64_t hand;
    int size, left, open;
    bool all_playable; /* an ALL held, not the last card, none waiting to be covered */
    unsigned allowed[OCTAL_MAX_QUESTIONS]; /* the numbers a number card may show on question q */
    bool may_point_below[OCTAL_MAX_QUESTIONS];
} placing;

/* Question q (a stack of two cards at least). */
static void refresh_question(octal_state *s, int q)
{
    int condition, reference;
    octal_question(s, q, &condition, &reference);
    s->q_numbers[q] = reference ? octal_table.allows[condition][reference] : 0x1FEu;
    s->q_all_on_top[q] = reference == 0;
    s->q_below[q] = octal_may_point_below(s, q);
}

void octal_refresh_questions(octal_state *s)
{
    for (int q = 0; q < s->questions; q++)
        refresh_question(s, q);
}

static void placing_of(const octal_state *s, int seat, placing *p)
{
    p->hand = s->hand[seat];
    p->size = asobi_popcount64(p->hand);
    p->left = p->size - 1;
    p->open = s->q_all_on_top[0] ? 0 : s->questions > 1 && s->q_all_on_top[1] ? 1 : -1;
    p->allowed[0] = p->allowed[1] = 0;
    p->may_point_below[0] = p->may_point_below[1] = false;
    for (int q = 0; q < s->questions; q++) {
        p->allowed[q] = p->open >= 0 && q != p->open ? 0 : s->q_numbers[q];
        p->may_point_below[q] = s->q_below[q];
    }
    /* never the last card, never on an ALL */
    p->all_playable = ((p->hand >> OCTAL_ALL) & 3u) && p->left > 0 && p->open < 0;
}

/* The kinds whose single plays are listed, ascending: the number cards
 * held, then "an ALL". */
static uint64_t playable_kinds(const placing *p)
{
    return (p->hand & ((1ULL << OCTAL_NUMBER_CARDS) - 1)) | ((uint64_t)p->all_playable << OCTAL_ALL);
}

/* How many ids kind has on question q (0 when it may not go there): one, or
 * two for a ↕ that may point below; each twice when the play leaves one card
 * (with and without Octo!). */
static int play_ids(const placing *p, int kind, int q, int *below)
{
    bool all = kind == OCTAL_ALL;
    if (!all && !(p->allowed[q] >> octal_number(kind) & 1u))
        return 0;
    *below = !all && octal_table.cards[kind].arrow == OCTAL_BOTH && p->may_point_below[q];
    return (1 + *below) * (p->left == 1 ? 2 : 1);
}

static int play_id(int kind, int q, int below, int silent)
{
    return OCTAL_ID_PLAY + ((kind * 2 + q) * 2 + below) * 2 + silent;
}

/* The lays of §⑧, generated directly (they must agree with check_lay): any
 * number card held, on the question of the seat's last card, with Octo!
 * first when it leaves one card. */
static int legal_lays(const octal_state *s, int seat, const placing *p, int *ids)
{
    int n = 0;
    if (!octal_lay_allowed(s, seat))
        return 0;
    for (uint64_t cards = p->hand & ((1ULL << OCTAL_NUMBER_CARDS) - 1); cards; cards &= cards - 1) {
        int id = OCTAL_ID_LAY + (__builtin_ctzll(cards) * 2 + s->last_question) * 2;
        if (p->left == 1) /* with Octo! first (octal.h: the silent bit) */
            ids[n++] = id;
        ids[n++] = id + 1;
    }
    return n;
}

/* Pass, the single plays and the lays of the seat to act in the play phase:
 * every legal id below the overrides. */
static int legal_placings(const octal_state *s, int seat, const placing *p, int *ids)
{
    int n = 0;
    ids[n++] = OCTAL_ID_PASS;
    for (uint64_t kinds = playable_kinds(p); kinds; kinds &= kinds - 1) {
        int kind = __builtin_ctzll(kinds);
        for (int q = 0; q < s->questions; q++) {
            int below;
            if (!play_ids(p, kind, q, &below))
                continue;
            for (int b = 0; b <= below; b++) {
                if (p->left == 1) /* with Octo! first (octal.h: the silent bit) */
                    ids[n++] = play_id(kind, q, b, 0);
                ids[n++] = play_id(kind, q, b, 1);
            }
        }
    }
    return n + legal_lays(s, seat, p, ids + n);
}

/* Overrides need a hand of 5 and no ALL waiting to be covered (§⑨, §③). */
static bool may_override(const placing *p) { return p->size == OCTAL_HAND_LIMIT && p->open < 0; }

int octal_legal(const void *st, int seat, int *ids)
{
    const octal_state *s = st;
    if (seat != s->seat || s->phase == OCTAL_PHASE_DISCARD)
        return legal_not_placing(s, seat, ids);
    placing p;
    placing_of(s, seat, &p);
    int n = legal_placings(s, seat, &p, ids);
    if (may_override(&p))
        n += legal_overrides(s, seat, ids + n);
    if (seat == s->octo_late) /* its own turn came with the window still open (ruling 12): the highest id */
        ids[n++] = OCTAL_ID_DECLARE;
    return n;
}

/* The number cards whose numbers are in a set (bits 1..8), built at load:
 * the single plays are counted by popcounts over the hand. */
static uint64_t cards_of_numbers[256], both_arrow_cards;

__attribute__((constructor)) static void octal_play_tables(void)
{
    for (int c = 0; c < OCTAL_NUMBER_CARDS; c++) {
        for (int set = 0; set < 256; set++)
            if (set >> (octal_number(c) - 1) & 1)
                cards_of_numbers[set] |= 1ull << c;
        if (octal_table.cards[c].arrow == OCTAL_BOTH)
            both_arrow_cards |= 1ull << c;
    }
}

/* How many ids legal_placings lists for the single plays (play_ids summed):
 * the number cards that answer each question, with the ↕ ones that may
 * point below counted twice; the two questions side by side in one word
 * (number cards are bits 0-31), so two popcounts in all. */
static int count_plays(const octal_state *s, const placing *p)
{
    uint64_t numbers = p->hand & ((1ULL << OCTAL_NUMBER_CARDS) - 1), fit = 0, below = 0;
    for (int q = 0; q < s->questions; q++) {
        uint64_t here = numbers & cards_of_numbers[p->allowed[q] >> 1 & 0xFFu];
        fit |= here << (32 * q);
        if (p->may_point_below[q])
            below |= (here & both_arrow_cards) << (32 * q);
    }
    int n = asobi_popcount64(fit) + asobi_popcount64(below) + (p->all_playable ? s->questions : 0);
    return n * (p->left == 1 ? 2 : 1);
}

/* The r-th single play legal_placings lists (r < count_plays). */
static int nth_play(const octal_state *s, const placing *p, int r)
{
    int w = p->left == 1 ? 2 : 1; /* ids per placing: with and without Octo! */
    for (uint64_t kinds = playable_kinds(p); kinds; kinds &= kinds - 1) {
        int kind = __builtin_ctzll(kinds);
        for (int q = 0; q < s->questions; q++) {
            int below, here = play_ids(p, kind, q, &below);
            if (r < here)
                return play_id(kind, q, r / w, w == 2 ? r % 2 : 1);
            r -= here;
        }
    }
    return -1; /* not reached */
}

/* The random_action hook: legal()'s pick ids[asobi_rng_below(rng, n)] from the
 * same draw, with the single plays and the overrides counted, and only the
 * one drawn built. */
int octal_random_action(const void *st, int seat, asobi_rng *rng)
{
    const octal_state *s = st;
    int ids[OCTAL_NUMBER_CARDS * 4]; /* the lays, or the late Octo! or the discards */
    if (seat != s->seat || s->phase == OCTAL_PHASE_DISCARD) {
        int n = legal_not_placing(s, seat, ids);
        return n > 0 ? ids[asobi_rng_below_inline(rng, (uint32_t)n)] : -1;
    }
    placing p;
    placing_of(s, seat, &p);
    int plays = count_plays(s, &p), lays = legal_lays(s, seat, &p, ids), overrides = 0;
    override_hand h;
    if (may_override(&p)) {
        override_hand_of(s, seat, &h);
        overrides = count_overrides(&h);
    }
    int late = seat == s->octo_late; /* the late Octo!, last in legal()'s list */
    int r = (int)asobi_rng_below_inline(rng, (uint32_t)(1 + plays + lays + overrides + late));
    if (r == 0)
        return OCTAL_ID_PASS;
    if (late && r == plays + lays + overrides + 1)
        return OCTAL_ID_DECLARE;
    if ((r -= 1) < plays)
        return nth_play(s, &p, r);
    if ((r -= plays) < lays)
        return ids[r];
    return nth_override(&h, r - lays);
}

/* ---- what actions do ----------------------------------------------------- */

/* The cards of question q that a refill may take: every card below the
 * lowest one still in use. In use are the cards from the top down to the one
 * whose condition is in force, and the card beneath the top (a ↕ may point
 * at it). */
static int unused_below(const octal_stack *st)
{
    int top = st->size - 1;
    int keep = st->e[top].cond_from < top - 1 ? st->e[top].cond_from : top - 1;
    return keep > 0 ? keep : 0;
}

static int discard_total(const octal_state *s)
{
    int n = 0;
    for (int i = 0; i < s->players; i++)
        n += asobi_popcount64(s->discarded[i]);
    return n;
}

/* §⑥ "山札が少なくなり、残り1枚になった段階で『捨て札』と『竜の問い掛け』使用
 * カード以外を回収し、リシャッフルして山札の下に加え、補充します": the
 * discards (§⑤ keeps them in one place for this) and the question cards no
 * longer in use are collected, shuffled and put under the deck (docs ruling 8). */
static void refill(octal_state *s)
{
    uint8_t pool[OCTAL_CARDS];
    int n = 0;
    for (int q = 0; q < s->questions; q++) {
        octal_stack *st = &s->stack[q];
        int keep = unused_below(st);
        if (keep == 0)
            continue;
        for (int i = 0; i < keep; i++)
            pool[n++] = st->e[i].card;
        for (int i = keep; i < st->size; i++) {
            st->e[i - keep] = st->e[i];
            st->e[i - keep].cond_from = (uint8_t)(st->e[i].cond_from >= keep ? st->e[i].cond_from - keep : 0);
        }
        for (int i = st->size - keep; i < st->size; i++)
            memset(&st->e[i], 0, sizeof st->e[i]);
        st->size = (uint8_t)(st->size - keep);
    }
    int discards = 0;
    for (int i = 0; i < s->players; i++) {
        for (uint64_t cards = s->discarded[i]; cards; cards &= cards - 1) { /* ascending, as before */
            pool[n++] = (uint8_t)__builtin_ctzll(cards);
            discards++;
        }
        s->discarded[i] = 0;
    }
    if (n == 0)
        return;
    asobi_rng_shuffle(&s->rng, pool, (size_t)n, 1);
    memmove(s->deck + n, s->deck, s->deck_size);
    memcpy(s->deck, pool, (size_t)n);
    s->deck_size = (uint8_t)(s->deck_size + n);
    octal_refresh_questions(s); /* the tops stay, but cond_from moved */
    s->last.refilled = (uint8_t)(s->last.refilled + n);
    s->last.refilled_discards = (uint8_t)(s->last.refilled_discards + discards);
}

/* One card from the top of the deck into seat's hand. The refill happens the
 * moment the deck is down to one card, and is tried again before drawing
 * from a deck of one or none; with nothing to draw, a draw does nothing. */
static bool draw_one(octal_state *s, int seat)
{
    if (s->deck_size <= 1)
        refill(s);
    if (s->deck_size == 0)
        return false;
    int card = s->deck[--s->deck_size];
    s->deck[s->deck_size] = 0;
    s->hand[seat] |= 1ull << card;
    if (s->deck_size == 1)
        refill(s);
    return true;
}

static int next_active(const octal_state *s, int seat)
{
    for (int i = 1, t = seat; i <= s->players; i++) {
        if (++t == s->players) /* (seat + i) % players, without a division every turn */
            t = 0;
        if (!s->finished_rank[t])
            return t;
    }
    return seat;
}

/* Cards a refill would collect now (see refill). */
static int refillable(const octal_state *s)
{
    int n = discard_total(s);
    for (int q = 0; q < s->questions; q++)
        n += unused_below(&s->stack[q]);
    return n;
}

/* A game that can never change again (docs ruling 14): nothing to draw, no
 * cards to refill the deck with (no discards, no unused question cards:
 * every card is in a hand or in use on a question), and no active seat holds
 * a card it could place, not even with the lay of §⑧. Passing would go on
 * for ever. */
bool octal_blocked(const octal_state *s)
{
    if (s->deck_size > 0 || refillable(s) > 0)
        return false;
    octal_state probe;
    memcpy(&probe, s, sizeof probe);
    probe.phase = OCTAL_PHASE_PLAY;
    probe.octo_late = -1;
    probe.passes_in_a_row = 60000; /* as if everybody had passed long enough for the lay */
    int ids[OCTAL_MAX_ACTIONS];
    for (int i = 0; i < s->players; i++) {
        probe.seat = (uint8_t)i;
        if (!s->finished_rank[i] && octal_legal(&probe, i, ids) > 1)
            return false;
    }
    return true;
}

/* The turn is over: next active seat clockwise ("時計回り"), unless the game
 * ended, can never change again, or the safety cap is reached (docs rulings
 * 14, 15). */
static void end_turn(octal_state *s)
{
    s->turns++;
    if (s->over)
        return;
    if (octal_blocked(s)) {
        s->over = 1;
        s->blocked = 1;
        return;
    }
    if (s->turns >= s->max_turns) {
        s->over = 1;
        s->capped = 1;
        return;
    }
    s->seat = (uint8_t)next_active(s, s->seat);
}

/* After any drawing: §⑤ "上限を超えた場合は即座に手札から1枚を選択し…捨てる札".
 * The seat must discard before the turn moves on. */
static void after_draws(octal_state *s, int seat)
{
    if (octal_hand_size(s, seat) > OCTAL_HAND_LIMIT) {
        s->phase = OCTAL_PHASE_DISCARD;
        return;
    }
    s->phase = OCTAL_PHASE_PLAY;
    end_turn(s);
}

static void push(octal_state *s, int q, int card, int cond_from, bool exact)
{
    octal_stack *st = &s->stack[q];
    st->e[st->size].card = (uint8_t)card;
    st->e[st->size].cond_from = (uint8_t)cond_from;
    st->e[st->size].exact = exact;
    st->size++;
    if (st->size >= 2) /* a question (the set-up pushes one card first) */
        refresh_question(s, q);
}

/* Common to every placing: who placed last, an emptied hand (§遊び方 ③),
 * Octo! (§⑦). A placing that leaves one card without the declaration opens
 * the window "（次のプレイヤーがカードを出すまでに宣言すればOK）": the seat may
 * still declare until a card is put out; the penalty "山札からカードを2枚
 * 引き" falls when another player places, overrides or lays, or when the
 * forgetful seat acts again without declaring (docs ruling 12). */
static void after_placing(octal_state *s, int seat, int q, bool octo)
{
    s->last_placer = (int8_t)seat;
    s->last_question = (uint8_t)q;
    s->passes_in_a_row = 0;
    s->last.octo = octo;
    int left = octal_hand_size(s, seat);
    if (left == 0) {
        s->finished_rank[seat] = ++s->finished_count;
        if (s->finished_count >= s->ranks_wanted || octal_active_players(s) < 2)
            s->over = 1;
        end_turn(s);
        return;
    }
    if (left == 1 && !octo)
        s->octo_late = (int8_t)seat;
    after_draws(s, seat);
}

/* Does this action close the late declaration's window (docs ruling 12)?
 * "次のプレイヤーがカードを出すまで": a card put out by another player (a
 * play, an override, a lay) closes it; a pass or a discard puts none out and
 * leaves it open. The forgetful seat's own next action closes it too: that
 * is the last moment it could have declared. */
static bool closes_octo_window(const octal_state *s, int seat, int event)
{
    return s->octo_late >= 0 && (seat == s->octo_late || event == OCTAL_EV_PLAY || event == OCTAL_EV_LAY ||
                                 event == OCTAL_EV_OVERRIDE);
}

/* The window closes: the seat that forgot draws its 2 cards now, before the
 * action that closed it takes effect. */
static void close_octo_window(octal_state *s)
{
    int late = s->octo_late;
    if (late < 0)
        return;
    s->octo_late = -1;
    s->last.penalty_seat = (int8_t)late;
    for (int i = 0; i < OCTAL_OCTO_PENALTY; i++)
        if (draw_one(s, late))
            s->last.penalty++;
}

void octal_apply(void *st, int seat, int id)
{
    octal_state *s = st;
    octal_action a;
    octal_decode(id, &a);
    memset(&s->last, 0, sizeof s->last);
    s->last.seat = (int8_t)seat;
    s->last.event = a.event;
    s->last.penalty_seat = -1;
    if (a.event == OCTAL_EV_DECLARE) {
        /* §⑦ in time: no penalty; the player to move is still to move. */
        s->last.octo = 1;
        s->octo_late = -1;
        return;
    }
    if (closes_octo_window(s, seat, a.event))
        close_octo_window(s);
    if (a.event == OCTAL_EV_DISCARD) {
        /* §⑤ face down, to the discards: a discard keeps no card to show. */
        int card = held_card(s, seat, a.kind);
        s->hand[seat] &= ~(1ull << card);
        s->discarded[seat] |= 1ull << card;
        after_draws(s, seat);
        return;
    }
    if (a.event == OCTAL_EV_PASS) {
        /* §⑧ "『パス』をする場合は山札の一番上からカードを1枚引き". */
        s->last.drew = draw_one(s, seat);
        s->passes_in_a_row++;
        after_draws(s, seat);
        return;
    }
    int q = a.question;
    s->last.question = (uint8_t)q;
    octal_stack *stk = &s->stack[q];
    int top = stk->size - 1;
    bool top_all = octal_is_all(stk->e[top].card);
    /* What a card covering the top shows when it does not choose: an ALL
     * shows the top card's condition (§③ "一番上にあるカードの条件を見える
     * ように配置"); a card laid exactly on another keeps its condition. */
    int shows_top = top_all ? stk->e[top].cond_from : top;
    if (a.event == OCTAL_EV_OVERRIDE) {
        /* §⑨: highest first, the smallest on top, pointing at the condition
         * of the card that was on top before ("条件はカードを配置する前に一番
         * 上にあったカードの条件を指し示す"): each card after the first lies
         * exactly on the one before. */
        uint8_t placed[OCTAL_OVERRIDE_MAX];
        int k = octal_override_cards(s, seat, a.mask, a.perm, placed);
        for (int i = 0; i < k; i++) {
            s->hand[seat] &= ~(1ull << placed[i]);
            push(s, q, placed[i], shows_top, i > 0);
            s->last.cards[i] = placed[i];
        }
        s->last.ncards = (uint8_t)k;
        after_placing(s, seat, q, a.octo);
        return;
    }
    int card = held_card(s, seat, a.kind);
    s->hand[seat] &= ~(1ull << card);
    int cond_from;
    bool exact = false;
    if (a.event == OCTAL_EV_LAY) {
        cond_from = stk->e[top].cond_from; /* §⑧ "指し示す条件は先に指し示していた条件と同じ" */
        exact = true;                      /* "ぴったりと重ねて置く" */
    } else if (top_all) {
        cond_from = shows_top; /* §③ "ALLカードの上にぴったり重ねて" */
        exact = true;
    } else if (octal_is_all(card)) {
        cond_from = shows_top;
    } else {
        cond_from = a.below ? top - 1 : top; /* §② ↑: the top; ↕: the top or the one beneath */
    }
    push(s, q, card, cond_from, exact);
    s->last.cards[0] = (uint8_t)card;
    s->last.ncards = 1;
    s->last.below = a.below;
    after_placing(s, seat, q, a.octo);
}

/* §ゲームの準備 ③: a number card from the top of the deck; "ALLカードが出た
 * 場合には、ALLカードを山札の一番下に入れ、新しいカードを山札から引きます". */
static int draw_number_card(octal_state *s)
{
    for (;;) {
        int card = s->deck[--s->deck_size];
        s->deck[s->deck_size] = 0;
        if (!octal_is_all(card))
            return card;
        memmove(s->deck + 1, s->deck, s->deck_size);
        s->deck[0] = (uint8_t)card;
        s->deck_size++;
    }
}

/* Two questions are the same condition when both the letter and the number
 * are: "書かれた文字と②数値と合わせて条件が決定する" (§カードの説明 ③). */
static bool same_question(const octal_state *s)
{
    const octal_entry *a = s->stack[0].e, *b = s->stack[1].e;
    return octal_table.cards[a[0].card].condition == octal_table.cards[b[0].card].condition &&
           octal_number(a[1].card) == octal_number(b[1].card);
}

/* §ゲームの準備 ② and ③, §モードの選択. Seat 0 starts (docs ruling 1). */
void octal_setup(octal_state *s, bool exchange)
{
    for (int c = 0; c < OCTAL_CARDS; c++)
        s->deck[c] = (uint8_t)c;
    s->deck_size = OCTAL_CARDS;
    asobi_rng_shuffle(&s->rng, s->deck, OCTAL_CARDS, 1);
    for (int round = 0; round < OCTAL_DEAL; round++)
        for (int p = 0; p < s->players; p++) {
            int card = s->deck[--s->deck_size];
            s->deck[s->deck_size] = 0;
            s->hand[p] |= 1ull << card;
        }
    /* The condition cards first, then the pointers ("条件となる数値カードを
     * 2枚選び…さらに条件を指し示す数値カードを2枚選び"). */
    for (int q = 0; q < s->questions; q++)
        push(s, q, draw_number_card(s), 0, false);
    for (int q = 0; q < s->questions; q++)
        push(s, q, draw_number_card(s), 0, false);
    /* Twin mode, "もし2ヶ所とも同じ条件になった場合はプレイヤー間で相談し、
     * 一方を交換することもできます": a choice of the table (option
     * twin_same_condition). Exchanging puts question 2's condition card
     * under the deck and the next number card replaces it, until the two
     * questions differ (docs ruling 3). */
    if (s->questions == 2 && exchange) {
        for (int guard = 0; guard < 64 && same_question(s); guard++) {
            int old = s->stack[1].e[0].card;
            s->stack[1].e[0].card = (uint8_t)draw_number_card(s);
            memmove(s->deck + 1, s->deck, s->deck_size);
            s->deck[0] = (uint8_t)old;
            s->deck_size++;
        }
    }
    octal_refresh_questions(s); /* after the exchange, which changes a stack without push */
    s->seat = 0;
    s->phase = OCTAL_PHASE_PLAY;
    s->last_placer = -1;
    s->octo_late = -1;
    s->last.seat = -1;
    s->last.penalty_seat = -1;
}

/* The seat to move; during the late-declaration window also the seat that
 * may still declare Octo! (§⑦): two seats at once, either may act first. */
uint32_t octal_to_move(const void *st)
{
    const octal_state *s = st;
    if (s->over)
        return 0;
    return (1u << s->seat) | (s->octo_late >= 0 ? 1u << s->octo_late : 0u);
}

/* The late Octo! is a race the forgetful seat may win or not: the turn is
 * the next seat's alone (asobi_state_turn). */
uint32_t octal_turn(const void *st)
{
    const octal_state *s = st;
    return s->over ? 0u : 1u << s->seat;
}

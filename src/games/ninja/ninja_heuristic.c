/* ninja_heuristic.c — NINJA SCROLL TRICK's rule-of-thumb player (the "heuristic" bot and search playouts). */
#include "bits.h"
#include "game_def.h"
#include "ninja.h"

/* It reads a state determinized for its seat, but values only what that seat
 * knows: a face-down tile it did not lay counts as +1, about the mean of the
 * box's tiles (the mean of the 45 is about +1.6; the starting +3 +1 -1 is +1). */
#define HIDDEN_TILE_GUESS 1

/* How likely a card is to take a trick: a trump beats every other kind. */
static int strength(const ninja_state *s, int card)
{
    return ninja_value(card) + (ninja_kind(card) == s->trump ? 10 : 0);
}

static int tile_worth(const ninja_state *s, int card, int owner, int seat)
{
    int v = s->scroll_on[card];
    if (!v)
        return 0;
    return (s->scroll_up[card] || owner == seat) ? v : HIDDEN_TILE_GUESS;
}

/* The best id by score, ties broken at random. */
static int pick(const int *ids, const int *score, int n, asobi_rng *rng)
{
    int best = score[0], count = 0, choice = ids[0];
    for (int i = 0; i < n; i++) {
        if (score[i] > best) {
            best = score[i];
            count = 0;
        }
        if (score[i] == best && asobi_rng_below(rng, (uint32_t)++count) == 0)
            choice = ids[i];
    }
    return choice;
}

/* Whether card is the highest of its kind still out: every higher card of
 * the kind is in seat's hand or already played this round. */
static bool top_of_kind(const ninja_state *s, int seat, int card)
{
    for (int v = ninja_value(card) + 1; v <= NINJA_VALUES; v++) {
        uint64_t b = 1ull << ninja_card(ninja_kind(card), v);
        if (!((s->hand[seat] | s->discard) & b))
            return false;
    }
    return true;
}

/* Whether the shadow has still to play in the current trick. */
static bool shadow_to_play(const ninja_state *s)
{
    if (!ninja_has_shadow(s))
        return false;
    for (int i = 0; i < s->trick_n; i++)
        if (s->trick_pos[i] == NINJA_SHADOW)
            return false;
    return true;
}

/* A card's worth in the trick. The shadow (2 players) plays by a public rule,
 * so its answer to the led kind is known and counted: the heuristic sees the
 * tile it carries and whether it takes the trick. Tiles the shadow takes
 * count against the seat even when they would not have been its own: the
 * shadow ahead of both players at a round's end beats them both (2人で遊ぶ
 * 場合, ラウンドとゲームの終了). */
static int battle_score(const ninja_state *s, int seat, int card)
{
    int mine = tile_worth(s, card, seat, seat);
    uint8_t pos[NINJA_POSITIONS], cards[NINJA_POSITIONS];
    int n = 0, value = 0;
    for (int i = 0; i < s->trick_n; i++) {
        pos[n] = s->trick_pos[i];
        cards[n] = s->trick_card[i];
        value += tile_worth(s, cards[n], pos[n], seat);
        n++;
    }
    pos[n] = (uint8_t)seat;
    cards[n++] = (uint8_t)card;
    value += mine;
    /* Seats still to play that hold open cards of the led kind must play one
     * of them (勝負フェーズ: "同じ種類のカードが開いた中にある場合は開かれたカード
     * から出さなければなりません"), which everyone sees: count the highest, the
     * one that threatens most, with the tile it carries. */
    uint64_t led_kind = ((1ull << NINJA_VALUES) - 1) << (ninja_kind(cards[0]) * NINJA_VALUES);
    for (int q = (seat + 1) % s->positions; q != s->leader; q = (q + 1) % s->positions) {
        uint64_t forced = q < s->players ? s->open[q] & s->hand[q] & led_kind : 0;
        if (!forced)
            continue;
        pos[n] = (uint8_t)q;
        cards[n] = (uint8_t)(63 - __builtin_clzll(forced));
        value += tile_worth(s, cards[n], q, seat);
        n++;
    }
    if (shadow_to_play(s)) {
        int sc = ninja_shadow_choice(s, ninja_kind(cards[0]));
        if (sc >= 0) {
            pos[n] = NINJA_SHADOW;
            cards[n++] = (uint8_t)sc;
            value += tile_worth(s, sc, NINJA_SHADOW, seat);
        }
    }
    int winner = ninja_trick_winner(pos, cards, n, s->trump);
    if (ninja_has_shadow(s) && winner == NINJA_SHADOW)
        /* feeding the shadow: the fewer points it gets the better; a weak
         * card is the cheaper loss */
        return -10 * value - strength(s, card) - 1000 * (value > 0);
    if (s->trick_n == 0) {
        /* Leading: a strong card (a high trump, or the highest of its kind
         * still out) takes the trick's tiles home; a weak one is lost. */
        bool strong = winner == seat &&
                      (strength(s, card) >= (s->trump >= 0 ? 14 : 7) || top_of_kind(s, seat, card));
        return strong ? 10 * value + strength(s, card) : -10 * mine - strength(s, card);
    }
    if (winner == seat)
        return value > 0 ? 100 + 10 * value - strength(s, card) : 10 * value - strength(s, card);
    /* Losing: give away negative tiles, keep positive ones and strong cards. */
    return -10 * mine - strength(s, card);
}

int ninja_heuristic(const void *st, int seat, asobi_rng *rng)
{
    const ninja_state *s = st;
    int ids[NINJA_MAX_ACTIONS], score[NINJA_MAX_ACTIONS];
    int n = ninja_legal(s, seat, ids);
    for (int i = 0; i < n; i++) {
        int id = ids[i];
        switch (s->phase) {
        case NINJA_PHASE_TRUMP: {
            /* the kind with the most, and the highest, cards */
            int k = id - NINJA_ID_TRUMP, sum = 0;
            for (int v = 1; v <= NINJA_VALUES; v++)
                if (s->hand[seat] & (1ull << ninja_card(k, v)))
                    sum += 4 + v;
            score[i] = sum;
            break;
        }
        case NINJA_PHASE_OPEN: {
            /* open the strongest card, then the weakest, then the next strongest:
             * the best tile will ride on a winner, the worst on a loser */
            int c = id - NINJA_ID_OPEN;
            int opened = asobi_popcount64(s->open[seat]);
            score[i] = opened == 1 ? -strength(s, c) : strength(s, c);
            break;
        }
        case NINJA_PHASE_SCROLL: {
            /* the highest tile on the strongest card */
            int t = (id - NINJA_ID_SCROLL) / NINJA_CARDS, c = (id - NINJA_ID_SCROLL) % NINJA_CARDS;
            score[i] = 100 * ninja_table.scroll_values[t] + strength(s, c);
            break;
        }
        case NINJA_PHASE_FLIP:
            /* show the tile on the strongest card: it is likely to come home anyway */
            score[i] = strength(s, id - NINJA_ID_FLIP);
            break;
        default:
            score[i] = battle_score(s, seat, id - NINJA_ID_PLAY);
            break;
        }
    }
    return pick(ids, score, n, rng);
}

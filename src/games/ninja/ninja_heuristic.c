/* ninja_heuristic.c — NINJA SCROLL TRICK's rule-of-thumb player (the "heuristic" bot and search playouts). */
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

static int battle_score(const ninja_state *s, int seat, int card)
{
    int mine = tile_worth(s, card, seat, seat);
    if (s->trick_n == 0) {
        /* Leading: a strong card takes its own tile home; a weak one is lost. */
        bool strong = strength(s, card) >= (s->trump >= 0 ? 14 : 7);
        return strong ? 10 * mine + strength(s, card) : -10 * mine - strength(s, card);
    }
    uint8_t pos[NINJA_POSITIONS], cards[NINJA_POSITIONS];
    int value = mine;
    for (int i = 0; i < s->trick_n; i++) {
        pos[i] = s->trick_pos[i];
        cards[i] = s->trick_card[i];
        value += tile_worth(s, cards[i], pos[i], seat);
    }
    pos[s->trick_n] = (uint8_t)seat;
    cards[s->trick_n] = (uint8_t)card;
    bool wins = ninja_trick_winner(pos, cards, s->trick_n + 1, s->trump) == seat;
    if (wins)
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
            int opened = __builtin_popcountll(s->open[seat]);
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

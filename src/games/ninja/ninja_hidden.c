/* ninja_hidden.c — NINJA SCROLL TRICK's hidden information: resampling it for a seat (determinization). */
#include <string.h>

#include "bits.h"
#include "game_def.h"
#include "hash.h"
#include "ninja.h"

/* What a seat cannot see, and what it knows about it
 * -------------------------------------------------
 * Cards: the other seats' closed cards, the leftovers and the face-down part
 * of the shadow's row. The viewer knows how many lie in each place, and that a
 * seat which did not follow a kind holds none of it (void_kinds, public). The
 * unknown cards are collected in card order, shuffled, and dealt back to those
 * places so that every count and every void is respected (a Hall-condition
 * check keeps the deal completable; see deal_unknown_cards).
 *
 * Tiles: the other seats' tiles in hand, the face-down tiles on the others'
 * open cards (in hand or in the trick), the shadow's face-down tiles, and the
 * pile. Tiles are exchangeable only within what the viewer cannot tell apart:
 *  - in round 1 each seat's three tiles are its starting +3 +1 -1 (everyone
 *    saw them taken), and so are the shadow's first three: each such group is
 *    resampled among itself (what is left of it face down);
 *  - every other unseen tile was drawn at random from the pile and is
 *    exchangeable with the pile: one common group.
 * The multiset of each group is fixed by public information, so collecting
 * the actual values, sorting them and shuffling them leaks nothing. */

#define GROUPS (1 + NINJA_POSITIONS) /* 0: the pile's group; 1 + p: p's starting tiles */

typedef struct holder {
    int cap;        /* cards still to place */
    uint8_t accept; /* kinds it may receive */
} holder;

/* Hall's condition for the rest of the deal: every set S of kinds has no more
 * cards left than the room of the holders accepting some kind of S. Called
 * right after a card of placed_kind went to the holder placed_at, in a deal
 * that was completable before: a set holding that kind lost one card and one
 * place (the holder takes it), so it still holds; only a set without the
 * kind that the holder accepts lost room
 * without losing cards, and only those are checked (determinization is most
 * of a NINJA search iteration, and this check most of that). */
static bool deal_completable(const int *left, const holder *h, int nh, int placed_kind, int placed_at)
{
    for (int set = 1; set < (1 << NINJA_KINDS); set++) {
        if ((set & (1 << placed_kind)) || !(set & h[placed_at].accept))
            continue;
        int need = 0, room = 0;
        for (int k = 0; k < NINJA_KINDS; k++)
            if (set & (1 << k))
                need += left[k];
        for (int i = 0; i < nh; i++)
            if (h[i].accept & set)
                room += h[i].cap;
        if (need > room)
            return false;
    }
    return true;
}

/* Deal n shuffled cards to the holders; out[i] is the holder of cards[i]. */
static void deal_unknown_cards(const uint8_t *cards, int n, holder *h, int nh, int *out, asobi_rng *rng)
{
    int left[NINJA_KINDS] = {0};
    bool restricted = false;
    for (int i = 0; i < n; i++)
        left[ninja_kind(cards[i])]++;
    for (int i = 0; i < nh; i++)
        restricted |= h[i].accept != (1u << NINJA_KINDS) - 1;
    for (int i = 0; i < n; i++) {
        int k = ninja_kind(cards[i]);
        left[k]--;
        bool tried[NINJA_POSITIONS + 2] = {false};
        for (;;) {
            int room = 0;
            for (int j = 0; j < nh; j++)
                if (!tried[j] && h[j].cap > 0 && (h[j].accept & (1u << k)))
                    room += h[j].cap;
            /* room > 0 always: the deal so far is completable (the real one is).
             * hidden field: drawn with determinize_cards's shuffle (the holder of each shuffled card) */
            int r = (int)asobi_rng_below(rng, (uint32_t)(room > 0 ? room : 1)), j = 0;
            for (;; j++)
                if (!tried[j] && h[j].cap > 0 && (h[j].accept & (1u << k))) {
                    if (r < h[j].cap)
                        break;
                    r -= h[j].cap;
                }
            h[j].cap--;
            if (!restricted || deal_completable(left, h, nh, k, j)) {
                out[i] = j;
                break;
            }
            h[j].cap++;
            tried[j] = true;
        }
    }
}

static void determinize_cards(ninja_state *s, int viewer, asobi_rng *rng)
{
    holder h[NINJA_POSITIONS + 2];
    int who[NINJA_POSITIONS + 2]; /* a seat, or -1 the leftovers, -2 the shadow's row */
    int nh = 0;
    uint64_t unknown = 0;
    for (int p = 0; p < s->players; p++)
        if (p != viewer) {
            uint64_t closed = s->hand[p] & ~s->open[p];
            unknown |= closed;
            h[nh] = (holder){asobi_popcount64(closed), (uint8_t)(~s->void_kinds[p] & 31u)};
            who[nh++] = p;
            s->hand[p] &= s->open[p];
        }
    unknown |= s->leftover;
    h[nh] = (holder){asobi_popcount64(s->leftover), 31};
    who[nh++] = -1;
    s->leftover = 0;
    if (ninja_has_shadow(s)) {
        for (int i = s->row_opened; i < NINJA_ROW; i++)
            unknown |= 1ull << s->row[i];
        h[nh] = (holder){NINJA_ROW - s->row_opened, 31};
        who[nh++] = -2;
    }
    uint8_t cards[NINJA_CARDS];
    int n = 0;
    for (int c = 0; c < NINJA_CARDS; c++)
        if (unknown & (1ull << c))
            cards[n++] = (uint8_t)c;
    /* hidden field: "another seat's closed cards", "the cards dealt to nobody", "the shadow's face-down cards" */
    asobi_rng_shuffle(rng, cards, (size_t)n, 1);
    int out[NINJA_CARDS];
    deal_unknown_cards(cards, n, h, nh, out, rng);
    int row_at = s->row_opened;
    for (int i = 0; i < n; i++) {
        int w = who[out[i]];
        if (w >= 0)
            s->hand[w] |= 1ull << cards[i];
        else if (w == -1)
            s->leftover |= 1ull << cards[i];
        else
            s->row[row_at++] = cards[i];
    }
}

/* The row index of a card in the shadow's row, -1 if none. */
static int row_index(const ninja_state *s, int card)
{
    for (int i = 0; i < NINJA_ROW; i++)
        if (s->row[i] == card)
            return i;
    return -1;
}

/* Which pool a face-down tile on owner's card is dealt from again (0: the
 * common pool): in the first round a position's tiles stay its own, but for
 * the shadow's cards beyond its open row. Shared by the determinization and
 * info_hash, which must group the tiles alike. */
static int scroll_group(const ninja_state *s, int card, int owner, bool first)
{
    if (!first)
        return 0;
    bool shadow = ninja_has_shadow(s) && owner == NINJA_SHADOW;
    return !shadow || row_index(s, card) < NINJA_OPEN ? 1 + owner : 0;
}

static void determinize_scrolls(ninja_state *s, int viewer, asobi_rng *rng)
{
    int8_t *slot[NINJA_SCROLLS];
    uint8_t group[NINJA_SCROLLS];
    int n = 0;
    bool first = s->round == 1;
    for (int p = 0; p < s->positions; p++)
        if (p != viewer)
            for (int i = 0; i < s->held_n[p]; i++) {
                slot[n] = &s->held[p][i];
                group[n++] = (uint8_t)(first ? 1 + p : 0);
            }
    for (int c = 0; c < NINJA_CARDS; c++) {
        if (!s->scroll_on[c] || s->scroll_up[c])
            continue;
        int owner = ninja_owner(s, c);
        if (owner == viewer)
            continue;
        slot[n] = &s->scroll_on[c];
        group[n++] = (uint8_t)scroll_group(s, c, owner, first);
    }
    for (int i = 0; i < s->pile_n; i++) {
        slot[n] = &s->pile[i];
        group[n++] = 0;
    }
    for (int g = 0; g < GROUPS; g++) {
        int8_t values[NINJA_SCROLLS];
        int m = 0;
        for (int i = 0; i < n; i++)
            if (group[i] == g)
                values[m++] = *slot[i];
        if (m == 0)
            continue;
        /* sort (a canonical order), then shuffle */
        for (int i = 1; i < m; i++)
            for (int j = i; j > 0 && values[j] < values[j - 1]; j--) {
                int8_t x = values[j];
                values[j] = values[j - 1];
                values[j - 1] = x;
            }
        /* hidden field: "the tiles face down on another seat's cards in its hand", "the tiles face down on
         * another seat's cards in the trick", "another seat's tiles in hand", "the face-down pile (its order)" */
        asobi_rng_shuffle(rng, values, (size_t)m, 1);
        for (int i = 0, k = 0; i < n; i++)
            if (group[i] == g)
                *slot[i] = values[k++];
    }
    /* tiles in hand are kept sorted, highest first */
    for (int p = 0; p < s->positions; p++)
        for (int i = 1; i < s->held_n[p]; i++)
            for (int j = i; j > 0 && s->held[p][j] > s->held[p][j - 1]; j--) {
                int8_t x = s->held[p][j];
                s->held[p][j] = s->held[p][j - 1];
                s->held[p][j - 1] = x;
            }
}

void ninja_determinize(void *st, int viewer, asobi_rng *rng)
{
    ninja_state *s = st;
    if (viewer < 0)
        return; /* the all-seeing view hides nothing */
    determinize_cards(s, viewer, rng);
    determinize_scrolls(s, viewer, rng);
}

/* The viewer's information set, for search (game_def.h, info_hash): the
 * state with every place that ninja_determinize deals again blanked (the
 * others' closed cards, the leftovers, the shadow's face-down row, the
 * unseen tiles), plus what that deal depends on: how many cards each place
 * holds, which cards are unknown and, per group of exchangeable tiles, the
 * multiset of their values. Everything else, stale bytes included, is hashed
 * as it is and the generator left out, so two states share the hash
 * exactly when their determinizations would be byte-identical; without a
 * determinization (and its Hall checks) at every step of a search. */
uint64_t ninja_info_hash(const void *st, int viewer)
{
    const ninja_state *s = st;
    ninja_state c;
    memcpy(&c, s, sizeof c); /* padding too, as search's generic fingerprint hashes it */
    memset(&c.rng, 0, sizeof c.rng);
    if (viewer < 0)
        return asobi_hash_bytes(&c, sizeof c, 0);
    uint64_t extra[3 + NINJA_POSITIONS + GROUPS] = {0};
    uint64_t unknown = s->leftover;
    for (int p = 0; p < s->players; p++)
        if (p != viewer) {
            uint64_t closed = s->hand[p] & ~s->open[p];
            unknown |= closed;
            extra[3 + p] = (uint64_t)asobi_popcount64(closed);
            c.hand[p] &= s->open[p];
        }
    extra[1] = (uint64_t)asobi_popcount64(s->leftover);
    c.leftover = 0;
    if (ninja_has_shadow(s))
        for (int i = s->row_opened; i < NINJA_ROW; i++) {
            unknown |= 1ull << s->row[i];
            c.row[i] = 0xFF;
        }
    extra[0] = unknown;
    /* the tiles: the same places and groups as determinize_scrolls; a
     * group's values summed through a mixing function name its multiset */
    bool first = s->round == 1;
    uint64_t *group = extra + 3 + NINJA_POSITIONS;
#define TILE(g, v) (group[g] += asobi_hash_round(0x27d4eb2f165667c5ULL, (uint64_t)(uint8_t)(v)))
    for (int p = 0; p < s->positions; p++)
        if (p != viewer)
            for (int i = 0; i < s->held_n[p]; i++) {
                TILE(first ? 1 + p : 0, s->held[p][i]);
                c.held[p][i] = 0;
            }
    for (int k = 0; k < NINJA_CARDS; k++) {
        if (!s->scroll_on[k] || s->scroll_up[k])
            continue;
        int owner = ninja_owner(s, k);
        if (owner == viewer)
            continue;
        TILE(scroll_group(s, k, owner, first), s->scroll_on[k]);
        c.scroll_on[k] = 0x7F;
    }
    for (int i = 0; i < s->pile_n; i++) {
        TILE(0, s->pile[i]);
        c.pile[i] = 0;
    }
#undef TILE
    uint64_t h = asobi_hash_bytes(&c, sizeof c, (uint64_t)viewer);
    return asobi_hash_bytes(extra, sizeof extra, h);
}

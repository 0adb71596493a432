/* psycle_rules.c — PSYCLE's rules: choosing, revealing, paying, scoring, cycles and the end (seed 000). */
#include <string.h>

#include "game_def.h"
#include "psycle.h"
#include "rng_inline.h"

bool psycle_beats(int card, int other)
{
    return (psycle_table.beats[card] >> other) & 1u;
}

/* The cards played, counted: one nibble per card value (at most 4 of one). */
static uint32_t card_counts(const int8_t *cards, int players)
{
    uint32_t counts = 0;
    for (int j = 0; j < players; j++)
        counts += 1u << (4 * cards[j]);
    return counts;
}

/* The nibbles (card_counts) of the cards each card beats, built at load from
 * the beats table: a card's victims are one mask. */
static uint32_t beaten_nibbles[PSYCLE_CARDS];

__attribute__((constructor)) static void psycle_nibble_table(void)
{
    for (int card = 0; card < PSYCLE_CARDS; card++)
        for (int other = 0; other < PSYCLE_CARDS; other++)
            if (psycle_beats(card, other))
                beaten_nibbles[card] |= 0xFu << (4 * other);
}

/* §8: "負かしたプレイヤーの人数分だけ自分が出したカードに書かれた★の数の得点",
 * plus the bonus tile's points when the card equals the target. We read the
 * bonus as earned only by a card that beat somebody ("勝利した場合"), and
 * once, however many it beat (docs/rules/psycle.md, ruling 3).
 * others: the cards of the other players, counted (card_counts). The nibbles
 * of the cards it beats are added by one multiplication: a round resolution
 * was a quarter of a PSYCLE playout with a loop per pair of players. */
static inline int points_against(int card, uint32_t others, int target, int bonus, int *beaten)
{
    int n = (int)(((others & beaten_nibbles[card]) * 0x111111u) >> 20 & 0xFu);
    if (beaten)
        *beaten = n;
    if (n == 0)
        return 0;
    return psycle_table.stars[card] * n + (card == target ? bonus : 0);
}

int psycle_round_points(int card, const int8_t *cards, int players, int self, int target, int bonus,
                        int *beaten)
{
    uint32_t others = card_counts(cards, players) - (1u << (4 * cards[self]));
    return points_against(card, others, target, bonus, beaten);
}

/* §4/§7.1: a 0-player takes from the supply as many gems as the highest card
 * the others played. The supply is finite (50 gems): when the 0-players want
 * more than it holds, they share it equally and the remainder stays
 * (reconstructions.md; ruling 5). Payments reach the supply first (§7.1 lists
 * paying before taking). */
int psycle_zero_gain(const int8_t *cards, int players, int supply_after_payments, int zero_players)
{
    int highest = 0;
    for (int j = 0; j < players; j++)
        if (cards[j] > highest)
            highest = cards[j];
    if (zero_players == 0 || highest == 0)
        return 0;
    if (highest * zero_players <= supply_after_payments)
        return highest;
    return supply_after_payments / zero_players;
}

/* asobi_rng_shuffle(rng, tiles, PSYCLE_ROUNDS, 1) written out for the five
 * tiles: the same draws and the same swaps (Fisher-Yates from the top),
 * without the call and the general loop (two shuffles per cycle were a tenth
 * of a 2-player playout). test_view_text's hashes of the views of 798f94c
 * show every tile order. */
static inline void shuffle_tiles(asobi_rng *rng, uint8_t *tiles)
{
    for (uint32_t i = PSYCLE_ROUNDS - 1; i > 0; i--) {
        uint32_t j = asobi_rng_below_inline(rng, i + 1);
        uint8_t t = tiles[i];
        tiles[i] = tiles[j];
        tiles[j] = t;
    }
}

/* §3.2 and §10: shuffle the target and bonus tiles into two face-down piles,
 * reset the points to 0 and every player's gems to 10. */
void psycle_setup_cycle(psycle_state *s)
{
    memcpy(s->targets, psycle_table.targets, sizeof s->targets);
    memcpy(s->bonuses, psycle_table.bonuses, sizeof s->bonuses);
    shuffle_tiles(&s->rng, s->targets);
    shuffle_tiles(&s->rng, s->bonuses);
    int held = 0;
    for (int i = 0; i < s->players; i++) {
        s->gems[i] = PSYCLE_START_GEMS;
        s->points[i] = 0;
        s->pending[i] = -1;
        held += PSYCLE_START_GEMS;
    }
    s->supply = (uint8_t)(psycle_table.gem_supply - held);
    s->round = 0;
    s->cycle++;
    psycle_set_choosing(s);
}

/* §9, §11: after the 5th round, -1 point per gem left; the highest final score
 * takes a victory tile. 2 players tied: no tile, the cycle is played again.
 * 3-4 players: every tied leader takes one. Two tiles end the game, shared
 * if several reach two at once. */
static void end_cycle(psycle_state *s)
{
    int best = -32768;
    for (int i = 0; i < s->players; i++) {
        s->last_cycle_score[i] = (int16_t)(s->points[i] - s->gems[i]);
        if (s->last_cycle_score[i] > best)
            best = s->last_cycle_score[i];
    }
    uint8_t leaders = 0;
    int nleaders = 0;
    for (int i = 0; i < s->players; i++)
        if (s->last_cycle_score[i] == best) {
            leaders |= (uint8_t)(1u << i);
            nleaders++;
        }
    s->cycles_done++;
    s->last_cycle_replayed = s->players == 2 && nleaders > 1;
    s->last_cycle_winners = s->last_cycle_replayed ? 0 : leaders;
    uint8_t finished = 0;
    for (int i = 0; i < s->players; i++) {
        if (s->last_cycle_winners & (1u << i))
            s->victory[i]++;
        if (s->victory[i] >= PSYCLE_TILES_TO_WIN)
            finished |= (uint8_t)(1u << i);
    }
    if (finished) {
        s->over = 1;
        s->choosing = 0;
        s->winners = finished;
        return;
    }
    /* The safety cap (ruling 7): a 2-player game whose cycles keep tying
     * would never end. After max_cycles cycles the game stops and the seats
     * holding the most victory tiles share the victory. */
    if (s->cycle >= s->max_cycles) {
        int most = 0;
        for (int i = 0; i < s->players; i++)
            if (s->victory[i] > most)
                most = s->victory[i];
        s->over = 1;
        s->choosing = 0;
        s->capped = 1;
        s->winners = 0;
        for (int i = 0; i < s->players; i++)
            if (s->victory[i] == most)
                s->winners |= (uint8_t)(1u << i);
        return;
    }
    psycle_setup_cycle(s);
}

/* §6.3 and §7: everyone has chosen; reveal, pay, 0-players take gems, score,
 * cards go back to hand, next round (or the cycle ends). One pass reveals,
 * pays and counts (the highest card and the 0-players: psycle_zero_gain's
 * rule, without its loop), one pays the 0-players and scores. */
static inline __attribute__((always_inline)) void resolve_round(psycle_state *s, const int players)
{
    int target = s->targets[s->round], bonus = s->bonuses[s->round];
    int zeros = 0, highest = 0, paid = 0;
    uint32_t counts = 0;
    /* played = pending and pending = -1 for the seats in play, as 4-byte
     * words: byte loops here became calls to memcpy and memset (GCC's loop
     * idioms), a sixth of a round. */
    uint32_t pending, played, seats = players >= 4 ? 0xFFFFFFFFu : (1u << (8 * players)) - 1;
    memcpy(&pending, s->pending, sizeof pending);
    memcpy(&played, s->played, sizeof played);
    played = (played & ~seats) | (pending & seats);
    pending |= seats;
    memcpy(s->played, &played, sizeof played);
    memcpy(s->pending, &pending, sizeof pending);
    s->choosing = (uint8_t)((1u << players) - 1); /* not over: over is set only at a cycle's end below */
    for (int i = 0; i < players; i++) {
        int card = s->played[i];
        s->gems[i] = (uint8_t)(s->gems[i] - card);
        s->last_gems[i] = (int8_t)-card;
        paid += card;
        zeros += card == 0;
        highest = card > highest ? card : highest;
        counts += 1u << (4 * card);
    }
    int supply = s->supply + paid, gain = 0;
    if (zeros > 0 && highest > 0)
        gain = highest * zeros <= supply ? highest : supply / zeros;
    s->supply = (uint8_t)(supply - gain * zeros);
    for (int i = 0; i < players; i++) {
        int card = s->played[i];
        if (card == 0) {
            s->gems[i] = (uint8_t)(s->gems[i] + gain);
            s->last_gems[i] = (int8_t)gain;
        }
        s->last_points[i] = (int16_t)points_against(card, counts - (1u << (4 * card)), target, bonus, NULL);
        s->points[i] = (int16_t)(s->points[i] + s->last_points[i]);
    }
    s->last_target = (uint8_t)target;
    s->last_bonus = (uint8_t)bonus;
    if (++s->round == PSYCLE_ROUNDS)
        end_cycle(s);
}

/* One copy of the round per player count, with its loops unrolled (the
 * count is a constant in each). */
void psycle_resolve_round(psycle_state *s)
{
    switch (s->players) {
    case 2: resolve_round(s, 2); break;
    case 3: resolve_round(s, 3); break;
    default: resolve_round(s, 4); break;
    }
}

uint32_t psycle_to_move(const void *st) { return ((const psycle_state *)st)->choosing; }

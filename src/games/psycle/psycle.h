/* psycle.h — PSYCLE's state, its reconstructed data table and the rule helpers shared by its files. */
#ifndef ASOBI_PSYCLE_H
#define ASOBI_PSYCLE_H

#include <stdbool.h>
#include <stdint.h>

#include <stdio.h>
#include <string.h>

#include "asobi/game.h"
#include "asobi/rng.h"
#include "view_writer.h"

#define PSYCLE_MIN_PLAYERS 2
#define PSYCLE_MAX_PLAYERS 4
#define PSYCLE_CARDS 6           /* 0..5 in every hand (seed 000, §2) */
#define PSYCLE_ROUNDS 5          /* a cycle is 5 rounds (§5) */
#define PSYCLE_START_GEMS 10     /* gems held at the start of every cycle (§3.3, §10) */
#define PSYCLE_TILES_TO_WIN 2    /* victory tiles that end the game (§11) */
#define PSYCLE_DEFAULT_MAX_CYCLES 100

/* The data the seed's pictures carried, reconstructed (../shared/reconstructions.md).
 * Anyone holding the physical game corrects it here and nowhere else. */
typedef struct psycle_data {
    uint8_t beats[PSYCLE_CARDS];     /* bitmask of the cards each card beats */
    uint8_t stars[PSYCLE_CARDS];     /* points per beaten opponent */
    uint8_t targets[PSYCLE_ROUNDS];  /* target tiles in the box: the card numbers */
    uint8_t bonuses[PSYCLE_ROUNDS];  /* bonus tiles in the box: the bonus points */
    uint8_t gem_supply;              /* resource gems in the box */
} psycle_data;

extern const psycle_data psycle_table;

/* The whole game in one flat struct (copied with memcpy by search). */
typedef struct psycle_state {
    asobi_rng rng;
    uint8_t players;
    uint8_t over;
    uint8_t capped;                 /* 1 if the game ended by the max_cycles cap */
    uint8_t round;                  /* 0..4: the round being played in this cycle */
    uint8_t choosing;               /* the seats still to choose (to_move): the seats whose pending
                                     * is -1, 0 once over; kept with pending, so that to_move, asked
                                     * twice per decision of a playout, is one load */
    uint16_t cycle;                 /* 1-based count of cycles played, replays included */
    uint16_t max_cycles;            /* the safety cap (option max_cycles) */
    uint8_t targets[PSYCLE_ROUNDS]; /* this cycle's tile order; 0..round are face up */
    uint8_t bonuses[PSYCLE_ROUNDS];
    uint8_t supply;                 /* gems in the supply: always gem_supply - sum(gems) */
    uint8_t gems[PSYCLE_MAX_PLAYERS];
    uint8_t victory[PSYCLE_MAX_PLAYERS];
    int8_t pending[PSYCLE_MAX_PLAYERS]; /* the face-down choice of this round, -1: none yet */
    int16_t points[PSYCLE_MAX_PLAYERS]; /* points of the current cycle */
    /* What the last resolved round did (public once revealed). */
    int8_t played[PSYCLE_MAX_PLAYERS];  /* -1 before the first round of a game */
    int8_t last_gems[PSYCLE_MAX_PLAYERS];    /* gems gained (+) or paid (-) */
    int16_t last_points[PSYCLE_MAX_PLAYERS]; /* points gained */
    uint8_t last_target, last_bonus;
    /* What the last finished cycle did. */
    uint8_t cycles_done;
    uint8_t last_cycle_replayed;        /* 2 players tied: nobody took a tile */
    uint8_t last_cycle_winners;         /* bitmask of seats that took a tile */
    int16_t last_cycle_score[PSYCLE_MAX_PLAYERS];
    uint8_t winners;                    /* bitmask, once over */
} psycle_state;

/* Rules (psycle_rules.c). */
bool psycle_beats(int card, int other);
/* Points card scores against the cards of the others, and how many it beat. */
int psycle_round_points(int card, const int8_t *cards, int players, int self, int target, int bonus,
                        int *beaten);
/* Gems each 0-player takes: the highest card played, shared out of a finite
 * supply (after the round's payments reached it). */
int psycle_zero_gain(const int8_t *cards, int players, int supply_after_payments, int zero_players);
void psycle_setup_cycle(psycle_state *s);
void psycle_resolve_round(psycle_state *s);
uint32_t psycle_to_move(const void *st);

/* The seats still to choose this round, from pending and over: what
 * choosing holds (psycle_set_choosing puts it there; the tests compare the
 * two after every action). */
static inline uint32_t psycle_seats_to_choose(const psycle_state *s)
{
    if (s->over)
        return 0;
    /* the sign bits of the four pending bytes, gathered into bits 0-3 */
    uint32_t w;
    memcpy(&w, s->pending, sizeof w);
    uint64_t signs = (w >> 7) & 0x01010101u;
    uint32_t m = (uint32_t)((signs * 0x204081u) >> 21) & 0xFu;
    return m & ((1u << s->players) - 1);
}

static inline void psycle_set_choosing(psycle_state *s) { s->choosing = (uint8_t)psycle_seats_to_choose(s); }

/* The rule-of-thumb player (psycle_heuristic.c), the game's heuristic hook. */
int psycle_heuristic(const void *st, int seat, asobi_rng *rng);

/* Events (psycle_events.c): the game's events and over_text hooks. */
void psycle_events(const void *before, int seat, int id, const void *after, int viewer, json_t *events);
void psycle_over_text(const void *st, char *buf, size_t cap);

/* Taking back (psycle_take_back.c): the game's quiet hook. */
bool psycle_quiet(const void *before, int seat, int id, const void *after);

/* Views (psycle_view.c). */
void psycle_view(const void *st, int seat, asobi_vw *w);
void psycle_render(const void *st, int seat, FILE *out);

#endif

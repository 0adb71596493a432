/* ninja.h — NINJA SCROLL TRICK's state, its reconstructed data table and the helpers shared by its files. */
#ifndef ASOBI_NINJA_H
#define ASOBI_NINJA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "asobi/game.h"
#include "asobi/rng.h"
#include "view_writer.h"

#define NINJA_MIN_PLAYERS 2
#define NINJA_MAX_PLAYERS 5
#define NINJA_KINDS 5          /* 忍者カード 35枚（5種各7枚） */
#define NINJA_VALUES 7
#define NINJA_CARDS 35
#define NINJA_SCROLL_TYPES 8   /* +1 +3 +5 +7 +10 -1 -3 -5 */
#define NINJA_SCROLLS 45       /* 巻物タイル 45枚 */
#define NINJA_ROUNDS 3         /* ゲームは3ラウンド行われ */
#define NINJA_HAND 7           /* 各プレイヤーに7枚ずつ配ります */
#define NINJA_OPEN 3           /* 全員が3枚のカードを開くまで */
#define NINJA_TRICKS 7         /* seven cards each: seven tricks a round */
#define NINJA_POSITIONS 5      /* places at the table: the seats, or 2 seats + the shadow */
#define NINJA_SHADOW 2         /* the shadow's place in 2-player games (after seat 1) */
#define NINJA_ROW 7            /* the shadow's row of 7 cards */

/* A card is an id 0..34: kind * 7 + (value - 1). */
static inline int ninja_kind(int card) { return card / NINJA_VALUES; }
static inline int ninja_value(int card) { return card % NINJA_VALUES + 1; }
static inline int ninja_card(int kind, int value) { return kind * NINJA_VALUES + value - 1; }

/* The data the seed's pictures carried, reconstructed (../shared/reconstructions.md).
 * Anyone holding the physical game corrects it here and nowhere else. */
typedef struct ninja_data {
    const char *kind_names[NINJA_KINDS];         /* our neutral names, not the printed ones */
    int8_t scroll_values[NINJA_SCROLL_TYPES];    /* the points of each kind of tile */
    uint8_t scroll_copies[NINJA_SCROLL_TYPES];   /* how many of each are in the box (sum 45) */
    int8_t starting[3];                          /* each player's (and the shadow's) first tiles */
} ninja_data;

extern const ninja_data ninja_table;

/* The type index of a tile value (its place in ninja_table.scroll_values),
 * -1 if none. Asked for each tile held at every laying and each tile won, so
 * it compares the value with all eight types at once instead of looping over
 * them: the eight values are the eight bytes of one word, XOR with the value
 * repeated zeroes the bytes equal to it, and the exact zero-byte test (no
 * carry crosses a byte: the high bit is kept out of the addition) marks them. */
static inline int ninja_scroll_type(int value)
{
    _Static_assert(NINJA_SCROLL_TYPES == 8, "one byte per type in a 64-bit word");
    if (value < INT8_MIN || value > INT8_MAX)
        return -1;
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
    uint64_t x;
    memcpy(&x, ninja_table.scroll_values, sizeof x);
    x ^= (uint64_t)(uint8_t)value * 0x0101010101010101ULL;
    uint64_t zero = ~(((x & low7) + low7) | x | low7); /* 0x80 in each byte that was equal */
    if (!zero)
        return -1;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return __builtin_clzll(zero) / 8;
#else
    return __builtin_ctzll(zero) / 8;
#endif
}

/* Action ids (dense, naming the thing chosen, never a hand position). */
#define NINJA_ID_TRUMP 0                                          /* + kind */
#define NINJA_ID_OPEN (NINJA_ID_TRUMP + NINJA_KINDS)              /* + card */
#define NINJA_ID_SCROLL (NINJA_ID_OPEN + NINJA_CARDS)             /* + type * 35 + card */
#define NINJA_ID_FLIP (NINJA_ID_SCROLL + NINJA_SCROLL_TYPES * NINJA_CARDS) /* + card */
#define NINJA_ID_PLAY (NINJA_ID_FLIP + NINJA_CARDS)               /* + card */
#define NINJA_MAX_ACTIONS (NINJA_ID_PLAY + NINJA_CARDS)

typedef enum ninja_phase {
    NINJA_PHASE_TRUMP,  /* the start player picks the trump kind */
    NINJA_PHASE_OPEN,   /* in turn, each opens one card, until 3 each */
    NINJA_PHASE_SCROLL, /* in turn, each lays its 3 tiles face down on its open cards */
    NINJA_PHASE_FLIP,   /* rounds 2-3: the leaders turn some of their tiles face up */
    NINJA_PHASE_BATTLE, /* 7 tricks */
    NINJA_PHASE_OVER
} ninja_phase;

/* The whole game in one flat struct (copied with memcpy by search).
 * "Positions" are the places at the table in clockwise order: the seats,
 * and in 2-player games the shadow at position 2. Arrays by position are
 * NINJA_POSITIONS long. Scroll tiles are stored by their value (never 0):
 * tiles of equal value are indistinguishable, so a value is a tile. */
typedef struct ninja_state {
    asobi_rng rng;
    uint8_t players;   /* seats: 2..5 */
    uint8_t positions; /* players, or 3 with the shadow */
    uint8_t phase;     /* ninja_phase */
    uint8_t round;     /* 1..3 */
    int8_t trump;      /* kind, -1 before it is chosen */
    uint8_t start;     /* the start player (a seat) */
    uint8_t turn;      /* the position to act */
    uint8_t leader;    /* the position that led the current trick */
    uint8_t tricks_done;
    uint8_t shadow_won; /* the game ended with the shadow ahead: everybody lost */
    uint8_t winners;    /* seats, once over */
    uint8_t void_kinds[NINJA_POSITIONS]; /* kinds a seat showed it lacks this round (public) */
    uint64_t hand[NINJA_POSITIONS];      /* a seat's cards, closed and open (the shadow: 0) */
    uint64_t open[NINJA_POSITIONS];      /* the open ones among them */
    uint64_t leftover;                   /* dealt to nobody, face down, out of play */
    uint64_t discard;                    /* played in this round's finished tricks */
    int8_t scroll_on[NINJA_CARDS];       /* the tile lying on a card, 0: none */
    uint8_t scroll_up[NINJA_CARDS];      /* 1 if that tile is face up */
    int8_t held[NINJA_POSITIONS][NINJA_OPEN]; /* tiles in hand, not yet laid, sorted */
    uint8_t held_n[NINJA_POSITIONS];
    uint8_t won[NINJA_POSITIONS][NINJA_SCROLL_TYPES]; /* won tiles, counted by type */
    uint8_t flips_left[NINJA_POSITIONS];
    int8_t pile[NINJA_SCROLLS];          /* face-down pile; draws take pile[pile_n - 1] */
    uint8_t pile_n;
    /* The shadow (2 players): its row, left to right; cards left of
     * row_opened are face up (or played), the rest face down. */
    uint8_t row[NINJA_ROW];
    uint8_t row_opened;
    uint8_t row_played; /* bit i: row[i] has been played */
    /* The trick being played, in order. */
    uint8_t trick_n;
    uint8_t trick_pos[NINJA_POSITIONS];
    uint8_t trick_card[NINJA_POSITIONS];
    /* The last finished trick (public, for views). */
    uint8_t last_n;
    uint8_t last_winner;
    uint8_t last_pos[NINJA_POSITIONS];
    uint8_t last_card[NINJA_POSITIONS];
    int8_t last_scroll[NINJA_POSITIONS];
} ninja_state;

/* Rules (ninja_rules.c). */
void ninja_setup(ninja_state *s, int players, int start);
uint32_t ninja_to_move(const void *st);
int ninja_legal(const void *st, int seat, int *ids);
int ninja_random_action(const void *st, int seat, asobi_rng *rng);
/* The cards a seat may play now in the battle (勝負フェーズ: the led kind, open cards first). */
uint64_t ninja_playable(const ninja_state *s, int seat);
void ninja_apply(void *st, int seat, int id);
/* The position whose card wins a trick (cards[i] played by pos[i], cards[0] led). */
int ninja_trick_winner(const uint8_t *pos, const uint8_t *cards, int n, int trump);
int ninja_points(const ninja_state *s, int pos);
int ninja_scroll_count(const ninja_state *s, int pos);
int ninja_positive_count(const ninja_state *s, int pos);
/* Final order: 1 if a is ahead of b, -1 if behind, 0 if tied (points, then
 * scrolls won, then positive scrolls won). */
int ninja_compare_final(const ninja_state *s, int a, int b);
/* 2 players: whether the shadow ranks first, alone or tied, by that order
 * (which ends the game at a round's end: both players lose). */
bool ninja_shadow_ranks_first(const ninja_state *s);
/* The shadow's open cards, left to right; returns the count. */
int ninja_shadow_open(const ninja_state *s, int *cards);
/* The card the shadow plays by its rule when kind led was led (-1: it leads):
 * its leftmost face-up card of that kind, else its leftmost; -1 if none. */
int ninja_shadow_choice(const ninja_state *s, int led);
/* The position that owns a card lying in hand, in the shadow's row or in the
 * trick; -1 if it is elsewhere. */
int ninja_owner(const ninja_state *s, int card);
static inline bool ninja_has_shadow(const ninja_state *s) { return s->players == 2; }

/* Text (ninja_text.c). */
int ninja_card_text(int card, char *buf, size_t cap);
int ninja_action_text(const void *st, int seat, int id, char *buf, size_t cap);
int ninja_parse_action(const void *st, int seat, const char *text, int *id, asobi_error *err);
int ninja_public_text(const void *st, int seat, int id, int viewer, char *buf, size_t cap);
void ninja_explain_illegal(const void *st, int seat, int id, char *buf, size_t cap);

/* Events (ninja_events.c): the game's events and over_text hooks. */
void ninja_events(const void *before, int seat, int id, const void *after, int viewer, json_t *events);
void ninja_over_text(const void *st, char *buf, size_t cap);

/* Taking back (ninja_take_back.c): the game's quiet hook. */
bool ninja_quiet(const void *before, int seat, int id, const void *after);

/* Views (ninja_view.c). */
void ninja_view(const void *st, int seat, asobi_vw *w);
void ninja_render(const void *st, int seat, FILE *out);

/* Hidden information and the rule-of-thumb player (ninja_hidden.c, ninja_heuristic.c). */
void ninja_determinize(void *st, int viewer, asobi_rng *rng);
/* A hash of viewer's information set (game_def.h, info_hash). */
uint64_t ninja_info_hash(const void *st, int viewer);
int ninja_heuristic(const void *st, int seat, asobi_rng *rng);

#endif

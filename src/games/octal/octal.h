/* octal.h — THE OCTAL's state, its reconstructed data table, its action ids and the helpers its files share. */
#ifndef ASOBI_OCTAL_H
#define ASOBI_OCTAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "asobi/game.h"
#include "asobi/rng.h"
#include "bits.h"
#include "view_writer.h"

#define OCTAL_MIN_PLAYERS 3
#define OCTAL_MAX_PLAYERS 6       /* single mode; twin mode is for 3 to 5 (seed §モードの選択) */
#define OCTAL_TWIN_MAX_PLAYERS 5
#define OCTAL_CARDS 34            /* 32 number cards and 2 ALL cards (seed §内容物) */
#define OCTAL_NUMBER_CARDS 32
#define OCTAL_ALL 32              /* the first ALL card; 33 is the second */
#define OCTAL_KINDS 33            /* what an action can name: 32 number cards, or "an ALL" */
#define OCTAL_DEAL 4              /* cards dealt to each player (§ゲームの準備 ②) */
#define OCTAL_HAND_LIMIT 5        /* §ゲームのルール ⑤ */
#define OCTAL_OVERRIDE_MIN 2
#define OCTAL_OVERRIDE_MAX 4      /* §⑨ "4枚まで" */
#define OCTAL_OCTO_PENALTY 2      /* §⑦ */
#define OCTAL_MAX_QUESTIONS 2
#define OCTAL_DEFAULT_MAX_TURNS 1000

/* The six conditions, in the order the reconstruction cycles through them. */
enum octal_condition {
    OCTAL_GREATER,  /* 大 */
    OCTAL_LESS,     /* 小 */
    OCTAL_SAME,     /* 同 */
    OCTAL_DIFFERENT,/* 異 */
    OCTAL_MULTIPLE, /* 倍 */
    OCTAL_DIVISOR,  /* 約 */
    OCTAL_CONDITIONS
};

enum octal_arrow { OCTAL_UP, OCTAL_BOTH }; /* ↑ and ↕ */

typedef struct octal_card {
    uint8_t number;    /* 1..8; 0 for ALL */
    uint8_t condition; /* enum octal_condition; unused for ALL */
    uint8_t arrow;     /* enum octal_arrow; unused for ALL */
} octal_card;

/* Everything the seed's lost pictures carried, reconstructed in one place
 * (../shared/reconstructions.md): the printed face of every card, and which
 * numbers each condition allows on each reference number. */
typedef struct octal_data {
    octal_card cards[OCTAL_CARDS];
    /* allows[c][n]: bit m set when a card of number m satisfies condition c
     * pointed at by a card of number n (bits 1..8; index n = 1..8). */
    uint16_t allows[OCTAL_CONDITIONS][9];
} octal_data;

extern const octal_data octal_table;

/* The names of the conditions: the printed letter and the ASCII alias. */
extern const char *const octal_condition_letter[OCTAL_CONDITIONS]; /* "大" ... */
extern const char octal_condition_ascii[OCTAL_CONDITIONS];         /* 'G' ... */

/* One card of a question stack. cond_from is the index (in the same stack)
 * of the number card whose printed condition is in force while this card
 * lies on top: the card its arrow points at, or, for a card laid exactly on
 * another, the card that one showed. Only the top entry's value is used. */
typedef struct octal_entry {
    uint8_t card;
    uint8_t cond_from;
    uint8_t exact; /* laid exactly on the card beneath, covering it fully (docs ruling 6) */
} octal_entry;

typedef struct octal_stack {
    uint8_t size;
    octal_entry e[OCTAL_CARDS];
} octal_stack;

enum octal_phase { OCTAL_PHASE_PLAY, OCTAL_PHASE_DISCARD };

enum octal_event {
    OCTAL_EV_NONE,
    OCTAL_EV_PLAY,
    OCTAL_EV_LAY,
    OCTAL_EV_OVERRIDE,
    OCTAL_EV_PASS,
    OCTAL_EV_DISCARD,
    OCTAL_EV_DECLARE /* a late Octo! (§⑦ "次のプレイヤーがカードを出すまでに宣言すればOK") */
};

/* The last action, as everybody saw it (a discard is face down: no card). */
typedef struct octal_last {
    int8_t seat;        /* -1: nothing yet */
    uint8_t event;      /* enum octal_event */
    uint8_t question;   /* 0 or 1 */
    uint8_t below;      /* a ↕ card pointed at the card beneath the top */
    uint8_t octo;       /* Octo! was declared */
    uint8_t penalty;    /* cards drawn as the Octo! penalty during this action ... */
    int8_t penalty_seat; /* ... by this seat (the one that forgot it; -1: none) */
    uint8_t drew;       /* a pass drew a card (0 when the deck was empty) */
    uint8_t ncards;
    uint8_t cards[OCTAL_OVERRIDE_MAX]; /* as placed, bottom first */
    uint8_t refilled;   /* cards put under the deck by this action (discards included) */
    uint8_t refilled_discards; /* of which discards */
} octal_last;

/* The whole game in one flat struct (copied with memcpy by search). Hands and
 * discards are bitmasks of card indices, so they have one canonical form. */
typedef struct octal_state {
    asobi_rng rng;
    uint64_t hand[OCTAL_MAX_PLAYERS];
    uint64_t discarded[OCTAL_MAX_PLAYERS]; /* face-down discards, by who discarded them */
    uint8_t players;
    uint8_t questions;       /* 2: twin mode, 1: single mode */
    uint8_t ranks_wanted;    /* option ranks: play on until this many have emptied their hands */
    uint8_t phase;           /* enum octal_phase */
    uint8_t seat;            /* the seat to act */
    uint8_t over;
    uint8_t capped;          /* the game ended by the max_turns cap */
    uint8_t blocked;         /* the game ended because it could never change again */
    int8_t last_placer;      /* the last seat that placed a card, -1: nobody yet */
    int8_t octo_late;        /* the seat that placed leaving one card without Octo! and may
                              * still declare while the seat to move has not acted; -1: none */
    uint8_t last_question;   /* where it placed it */
    uint8_t finished_count;
    uint8_t finished_rank[OCTAL_MAX_PLAYERS]; /* 0: still playing */
    uint8_t deck_size;
    uint8_t deck[OCTAL_CARDS]; /* deck[0] is the bottom, deck[deck_size-1] the top */
    uint16_t passes_in_a_row;
    uint16_t turns;          /* completed turns */
    uint16_t max_turns;      /* the safety cap (option max_turns) */
    octal_stack stack[OCTAL_MAX_QUESTIONS];
    octal_last last;
    /* Each question as the single plays see it, derived from its stack and
     * kept by octal_refresh_questions whenever a stack changes (a placing, a
     * refill, the set-up): random_action reads these instead of walking the
     * stacks every step (that walk was a fifth of a random playout). */
    uint16_t q_numbers[OCTAL_MAX_QUESTIONS]; /* the numbers a number card may show there (octal_satisfies) */
    uint8_t q_all_on_top[OCTAL_MAX_QUESTIONS]; /* an ALL on top, waiting to be covered */
    uint8_t q_below[OCTAL_MAX_QUESTIONS];      /* octal_may_point_below */
} octal_state;

/* ---- action ids (octal_actions.c) -----------------------------------------
 *   0                    pass
 *   1 + kind             discard kind (kind 0..31 a number card, 32 an ALL)
 *   PLAY + ((kind*2 + q)*2 + below)*2 + silent
 *   LAY + (card*2 + q)*2 + silent        (card 0..31: the two-rounds lay)
 *   OVERRIDE + ((mask*24 + perm)*2 + q)*2 + silent
 *   DECLARE              a late Octo!
 * silent = 1 - octo: a placing with Octo! has the lower id, so that every
 * list of legal actions (menus) offers it before the same placing without
 * the declaration (issue 11). A placing that does not leave one card has
 * octo = 0, silent = 1.
 * An override names its cards by a mask over the seat's own hand in hand
 * order (octal_hand_order) and the order they are placed in by a
 * permutation index: naming up to 4 cards by identity would need ~10^6 ids. */
#define OCTAL_ID_PASS 0
#define OCTAL_ID_DISCARD 1
#define OCTAL_ID_PLAY (OCTAL_ID_DISCARD + OCTAL_KINDS)
#define OCTAL_ID_LAY (OCTAL_ID_PLAY + OCTAL_KINDS * 8)
#define OCTAL_ID_OVERRIDE (OCTAL_ID_LAY + OCTAL_NUMBER_CARDS * 4)
#define OCTAL_PERMS 24
#define OCTAL_ID_DECLARE (OCTAL_ID_OVERRIDE + 32 * OCTAL_PERMS * 4)
#define OCTAL_MAX_ACTIONS (OCTAL_ID_DECLARE + 1)

/* A decoded action. */
typedef struct octal_action {
    uint8_t event;      /* enum octal_event */
    uint8_t kind;       /* play, lay, discard: the card kind (32: an ALL) */
    uint8_t question;
    uint8_t below;
    uint8_t octo;
    uint8_t mask;       /* override: the hand positions */
    uint8_t perm;       /* override: the placing order */
} octal_action;

void octal_decode(int id, octal_action *a);
int octal_encode(const octal_action *a);

/* ---- rules (octal_rules.c) ------------------------------------------------ */
static inline int octal_number(int card) { return octal_table.cards[card].number; }
static inline bool octal_is_all(int card) { return octal_table.cards[card].number == 0; }
/* inline: apply and legal ask it several times a step */
static inline int octal_hand_size(const octal_state *s, int seat) { return asobi_popcount64(s->hand[seat]); }
/* The cards of a hand in hand order (number, then card index; ALLs last). */
int octal_hand_order(uint64_t hand, uint8_t *out);
/* Does a card of number m satisfy condition c on reference n? */
bool octal_condition_allows(int condition, int reference, int m);
/* The question of stack q: the condition in force and the reference number
 * (0 when an ALL lies on top: then any number card may be laid on it). */
void octal_question(const octal_state *s, int q, int *condition, int *reference);
bool octal_satisfies(const octal_state *s, int q, int card);
/* May seat lay any number card exactly on its last card (§⑧)? */
bool octal_lay_allowed(const octal_state *s, int seat);
/* Passes in a row that open the lay to the last placer: every other active
 * player passed twice since its placing (docs ruling 9). */
int octal_lay_passes_needed(const octal_state *s);
/* The question with an ALL on top, that the next card must cover (§③), or -1. */
int octal_open_all(const octal_state *s);
/* May a ↕ card played on question q point at the card beneath the top? */
bool octal_may_point_below(const octal_state *s, int q);
bool octal_blocked(const octal_state *s);
/* Recompute q_numbers, q_all_on_top and q_below from the stacks (after any
 * change to them; the tests that build positions by hand call it too). */
void octal_refresh_questions(octal_state *s);
int octal_active_players(const octal_state *s);
/* The override placing order: the k cards of the mask in hand order, as
 * placed (bottom first). Returns k, or 0 if perm is out of range. */
int octal_override_cards(const octal_state *s, int seat, int mask, int perm, uint8_t *placed);
/* Why an action is not legal now ("" if it is). */
void octal_why_illegal(const octal_state *s, int seat, const octal_action *a, char *buf, size_t cap);
int octal_legal(const void *st, int seat, int *ids);
/* legal()'s pick ids[asobi_rng_below(rng, n)], from the same draws, without listing the overrides. */
int octal_random_action(const void *st, int seat, asobi_rng *rng);
void octal_apply(void *st, int seat, int id);
/* exchange: twin mode exchanges a question equal to the other (option twin_same_condition). */
void octal_setup(octal_state *s, bool exchange);
uint32_t octal_to_move(const void *st);
/* The seat whose turn it is: to_move without the late Octo!'s seat. */
uint32_t octal_turn(const void *st);
void octal_result(const void *st, asobi_result *out);

/* ---- text (octal_actions.c) ----------------------------------------------- */
/* "4大↑", "ALL". */
int octal_card_text(int card, char *buf, size_t cap);
int octal_card_ascii(int card, char *buf, size_t cap);
int octal_action_text(const void *st, int seat, int id, char *buf, size_t cap);
int octal_public_text(const void *st, int seat, int id, int viewer, char *buf, size_t cap);
int octal_parse_action(const void *st, int seat, const char *text, int *id, asobi_error *err);
void octal_explain_illegal(const void *st, int seat, int id, char *buf, size_t cap);

/* ---- events (octal_events.c): the game's events and over_text hooks ---- */
void octal_events(const void *before, int seat, int id, const void *after, int viewer, json_t *events);
void octal_over_text(const void *st, char *buf, size_t cap);
/* ---- views (octal_view.c) ------------------------------------------------- */
void octal_view(const void *st, int seat, asobi_vw *w);
void octal_render(const void *st, int seat, FILE *out);

/* ---- taking back (octal_take_back.c): the game's quiet hook --------------- */
bool octal_quiet(const void *before, int seat, int id, const void *after);

/* ---- the rule-of-thumb player (octal_heuristic.c) ------------------------- */
int octal_heuristic(const void *st, int seat, asobi_rng *rng);

#endif

/* timemasters.h — Time Masters' state, its card-table format and the rule helpers shared by its files. */
#ifndef ASOBI_TIMEMASTERS_H
#define ASOBI_TIMEMASTERS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "asobi/game.h"
#include "asobi/rng.h"
#include "view_writer.h"

/* Fixed sizes. The whole game, card table included, lives in one flat struct
 * so that a state is copied with memcpy; these bound what a card file may
 * describe (docs/rules/timemasters.md, "The card-file format"). */
#define TM_MIN_PLAYERS 2
#define TM_MAX_PLAYERS 4
#define TM_MAX_KINDS 64      /* card kinds in a table (legal() keeps kinds in 64-bit masks) */
#define TM_NAME_MAX 24       /* a card name, NUL included */
#define TM_MAX_EFFECTS 4     /* effect primitives per card */
#define TM_LEVELS 5          /* the five consciousness spheres */
#define TM_MAX_LEVEL_CARDS 40 /* cards of one level in a table (the seed: 20) */
#define TM_MAX_SPHERE 20     /* cards drawn into one sphere (the seed: 10) */
#define TM_MAX_START 20      /* cards of a starting deck (the seed: 10) */
#define TM_ZONE 128          /* room in one zone of one player (>= start + 5 spheres) */
/* Timers in play per player: the most a player could ever own, so a bound no
 * game meets (issue 40). A card set is refused when a player could own more
 * (its starting timers plus, per level, the timers its sphere could hold:
 * tm_table_check); ours allows 17. 32 keeps a player's timers in one uint32_t
 * mask (timemasters_moves.c) and the set ids at 64 kinds x 32 timers. */
#define TM_MAX_TIMERS 32
#define TM_MAX_SLOTS 2       /* slots on a timer (the seed: 1 or 2) */
#define TM_MAX_DELAY 32      /* delay cards under one timer: a bound no real game reaches (a timer is delayed at
                              * most once a round; docs/rules/timemasters.md, ruling 9) */
#define TM_MAX_RELEASED (TM_MAX_TIMERS * TM_MAX_SLOTS) /* every spell of every timer: never met */
#define TM_MAX_TURN_PLAYS 1000 /* ruling 25's backstop: plays, sets, activations and recoveries in one main phase */
#define TM_LOOP_MEMORY 32      /* ruling 25: the returning plays of a main phase remembered (a ring) */
#define TM_HAND_SIZE 5       /* the hand refilled at the end of a turn */
#define TM_START_KE 4        /* gold recurrent Kè at the start */
#define TM_MAX_EPHEMERAL 4   /* "一時的なKe」は4つまでしか保持することができません" */
/* Recurrent Kè tokens (gold + grey) a player holds. The seed gives no limit
 * ("スペルの中には循環のKeを増やすものもあります"); the counters are bytes, and no
 * game comes near this (ruling 14 gives the measured most). Were it reached,
 * the gain beyond is lost and told (event ke_lost). */
#define TM_MAX_RECURRENT 250
#define TM_NOCARD 0xFF

typedef enum tm_type { TM_SPELL, TM_FOCUS, TM_TIMER } tm_type;

/* When a timer's own effect fires (spells and focuses always resolve on play). */
typedef enum tm_trigger {
    TM_TRIG_NONE,    /* a plain timer */
    TM_TRIG_SET,     /* each time a spell is set on it */
    TM_TRIG_DISCARD, /* when discarded by the main-phase activation (its spells go with it) */
} tm_trigger;

/* The effect primitives the engine interprets. A card's effect is a short
 * list of (primitive, amount), resolved in order. */
typedef enum tm_fx {
    TM_FX_NONE,
    TM_FX_EPHEMERAL, /* gain n ephemeral Kè (at most 4 held) */
    TM_FX_READY,     /* turn n spent recurrent Kè back to ready */
    TM_FX_NEW_KE,    /* gain n new recurrent Kè, ready (at most TM_MAX_RECURRENT) */
    TM_FX_DRAW,      /* draw n cards */
    TM_FX_REMOVE,    /* remove n cards of your hand from the game (your choice) */
    TM_FX_FOCUS_BACK,/* take n focus cards from your discard back to your hand */
    TM_FX_HEAVY,     /* each opponent: +n reminder, their next spell costs n more */
    TM_FX_SLOW,      /* each opponent: may spend at most n Kè during their next turn */
    TM_FX_LIGHT,     /* yourself: -n reminder, your next spell costs n less */
    TM_FX_COUNT
} tm_fx;

typedef struct tm_card {
    char name[TM_NAME_MAX];
    uint8_t type;    /* tm_type */
    uint8_t level;   /* 0 = starting card; 1..5 = sphere level = victory points */
    uint8_t cost;    /* Kè, spells only */
    uint8_t copies;  /* level 0: per player's starting deck; 1..5: in the box */
    uint8_t slots;   /* timers only: 1 or 2 */
    uint8_t trigger; /* timers only: tm_trigger */
    uint8_t n_effects;
    uint8_t fx[TM_MAX_EFFECTS][2]; /* (tm_fx, amount) */
} tm_card;

typedef struct tm_table {
    char title[64]; /* the set's title, cut to 63 bytes at a character boundary */
    uint8_t kinds;
    uint8_t sphere_size; /* cards drawn into each sphere (the seed: 10 of 20) */
    tm_card card[TM_MAX_KINDS];
} tm_table;

/* Our own card set (timemasters_cards.c), and the loader for card files. */
extern const tm_table tm_default_table;
const char *tm_fx_name(int fx);
int tm_fx_from_name(const char *name);
/* Check a table against the limits above; 0 if good, else -1 and a message. */
int tm_table_check(const tm_table *t, char *msg, size_t cap);
/* A table from a card set's JSON content (docs/rules/timemasters.md, "Card
 * sets"); ASOBI_OK, or bad_option with a message naming the field. */
int tm_table_from_json(const json_t *set, tm_table *out, asobi_error *err);
/* The canonical JSON content of a table (every field, one order). */
json_t *tm_table_to_json(const tm_table *t);
/* The option `cards`: null for our set, else the set in canonical form with
 * its "name" and "hash" (a given hash must match); NULL and err if refused. */
json_t *tm_cards_option(const json_t *value, asobi_error *err);

typedef struct tm_timer {
    uint8_t kind;
    uint8_t n_spells;
    uint8_t spells[TM_MAX_SLOTS];
    uint8_t n_delay;
    uint8_t delay[TM_MAX_DELAY]; /* face down: seen by the owner only */
    uint8_t handled;             /* this turn's timer phase / pass already dealt with it */
    uint8_t number;              /* its number for people, 1..TM_MAX_TIMERS, kept while it is in play */
} tm_timer;

typedef struct tm_player {
    uint8_t n_hand, n_deck, n_discard, n_removed;
    uint8_t hand[TM_ZONE];
    uint8_t deck[TM_ZONE]; /* deck[n_deck-1] is the top */
    uint8_t discard[TM_ZONE];
    uint8_t removed[TM_ZONE]; /* removed from the game (Cerebral Cleaning): public, no points */
    uint8_t n_timers, n_released;
    tm_timer timers[TM_MAX_TIMERS];
    uint8_t released[TM_MAX_RELEASED]; /* spells of activated timers, to be played this turn */
    uint8_t ke_ready, ke_spent, ke_eph;
    int8_t cost_mod;     /* reminder tokens on the next spell: +n heavier, -n lighter */
    uint8_t slow_next;   /* reminder: Kè limit of the next turn (0 = none) */
    uint8_t ke_limit;    /* the limit in force this turn (0 = none) */
    uint16_t spent_turn; /* Kè spent this turn (counts against ke_limit) */
    /* What it took from the spheres (public: the face-up cards by kind, the
     * unseen second cards by level only); determinization needs it. */
    uint8_t took_unseen[TM_LEVELS];
    uint8_t took_seen[TM_MAX_KINDS];
} tm_player;

/* The table's kinds as masks (bit k: kind k), derived from it once by
 * tm_setup: legal() and random_action sort the kinds of a hand with a few
 * ANDs instead of reading every card (timemasters_moves.c). Like the table,
 * the same in every state of a game. */
#define TM_MAX_COST 9 /* a spell's printed cost is 0..9 (tm_table_check) */
typedef struct tm_kinds {
    uint64_t focus, timer;
    uint64_t spell_up_to[TM_MAX_COST + 1]; /* the spells of printed cost 0..c */
    /* Ruling 25's returning plays (tm_loop_refused): the focuses, and the
     * timers with an on-discard effect, whose effect brings cards back to
     * the hand (draw, focus_back). */
    uint64_t loop_focus, loop_timer;
} tm_kinds;

typedef enum tm_phase {
    TM_PH_TIMER,  /* 1. timer phase: each full timer is activated or delayed */
    TM_PH_MAIN,   /* 2. main phase */
    TM_PH_PASS,   /* the pass: each full timer takes a delay card or is dropped */
    TM_PH_ACCESS, /* 3. sphere access */
    TM_PH_OVER,
} tm_phase;

/* A pending choice of cards, one "pick" at a time. */
typedef enum tm_choice {
    TM_CH_NONE,
    TM_CH_RECOVER,    /* discard cards from hand to recover 1 Kè */
    TM_CH_REMOVE,     /* remove cards of hand from the game */
    TM_CH_DELAY,      /* put a card from hand under timer choice_timer */
    TM_CH_FOCUS_BACK, /* take a focus from discard to hand */
    TM_CH_PAY,        /* how to pay choice_left Kè for spell pay_kind: how many ephemeral (ruling 10) */
} tm_choice;

typedef struct tm_state {
    asobi_rng rng;
    uint8_t players;
    uint8_t seat;      /* whose turn */
    uint8_t phase;     /* tm_phase */
    uint8_t over, capped;
    uint8_t main_acted;   /* an action was taken this main phase (no pass any more) */
    uint16_t turn_plays;  /* plays, sets, activations, recoveries this main phase (TM_MAX_TURN_PLAYS) */
    uint8_t lost_eph, lost_rec; /* Kè the action being applied lost to the caps (told as events) */
    uint8_t n_loop, loop_next;  /* ruling 25: how many of loop[] hold plays, and the next one to write */
    uint64_t loop[TM_LOOP_MEMORY]; /* the returning plays of this main phase: tm_loop_key of each */
    uint16_t turn;        /* 1-based count of turns, all players together */
    uint16_t max_turns;   /* the safety cap (option max_turns) */
    uint8_t access;       /* access points this turn */
    uint8_t taken;        /* bitmask of spheres (bit L-1) taken from this turn */
    uint8_t choice, choice_left, choice_timer;
    uint8_t pay_kind;           /* TM_CH_PAY: the spell being paid for */
    uint8_t prog_kind, prog_pc; /* the effect list being resolved (TM_NOCARD: none) */
    uint8_t n_zone;
    uint8_t zone[TM_ZONE];      /* the spell zone of this turn */
    uint8_t n_sphere[TM_LEVELS];
    uint8_t sphere[TM_LEVELS][TM_MAX_SPHERE];    /* [n-1] is the visible top */
    uint8_t n_aside[TM_LEVELS];
    uint8_t aside[TM_LEVELS][TM_MAX_LEVEL_CARDS]; /* not used this game, face down */
    tm_player p[TM_MAX_PLAYERS];
    tm_table table;
    tm_kinds kinds; /* derived from table by tm_setup */
} tm_state;

/* Action ids: they name cards (by kind) and timers (by place), not hand positions. */
enum {
    TM_ID_PASS = 0,
    TM_ID_DONE = 1,
    TM_ID_RECOVER = 2,
    TM_ID_PLAY = 3,                                    /* + kind: play from hand */
    TM_ID_RELEASE = TM_ID_PLAY + TM_MAX_KINDS,         /* + kind: play a released spell */
    TM_ID_SET = TM_ID_RELEASE + TM_MAX_KINDS,          /* + kind*TM_MAX_TIMERS + timer */
    TM_ID_ACTIVATE = TM_ID_SET + TM_MAX_KINDS * TM_MAX_TIMERS, /* + timer */
    TM_ID_DELAY = TM_ID_ACTIVATE + TM_MAX_TIMERS,      /* + timer */
    TM_ID_DROP = TM_ID_DELAY + TM_MAX_TIMERS,          /* + timer */
    TM_ID_PICK = TM_ID_DROP + TM_MAX_TIMERS,           /* + kind */
    TM_ID_TAKE = TM_ID_PICK + TM_MAX_KINDS,            /* + level-1: the top card */
    TM_ID_TAKE2 = TM_ID_TAKE + TM_LEVELS,              /* + level-1: the hidden second card */
    TM_ID_PAY = TM_ID_TAKE2 + TM_LEVELS,               /* + e: pay with e ephemeral Kè, the rest gold (ruling 10) */
    TM_ACTIONS = TM_ID_PAY + TM_MAX_EPHEMERAL + 1
};

/* The ephemeral Kè a payment of cost may use: from what gold cannot cover
 * (cost - gold) to all of it the ephemeral tokens can (ruling 10: the
 * player chooses the mix; asked only when lo < hi). */
static inline int tm_pay_eph_lo(const tm_player *p, int cost) { return cost > p->ke_ready ? cost - p->ke_ready : 0; }
static inline int tm_pay_eph_hi(const tm_player *p, int cost) { return cost < p->ke_eph ? cost : p->ke_eph; }

/* The Kè p may spend now: its gold recurrent and ephemeral Kè, and under
 * Slow Down no more than the turn's limit leaves ("次ターンは3Keまでしか使えなく
 * なります"). A cost can be paid exactly when it is at most this. */
static inline int tm_ke_budget(const tm_player *p)
{
    int held = p->ke_ready + p->ke_eph;
    if (p->ke_limit == 0)
        return held;
    int left = p->ke_limit - p->spent_turn;
    return left < held ? left : held;
}

/* Rules (timemasters_rules.c). */
void tm_setup(tm_state *s, uint64_t seed);
uint32_t tm_to_move(const void *st);
/* The rules id by id: the statement of what is allowed that legal() and
 * random_action must agree with (a test compares them along random games). */
bool tm_is_legal(const tm_state *s, int id);
void tm_apply(void *st, int seat, int id);
int tm_effective_cost(const tm_state *s, int seat, int kind);
/* A timer is full when its slots all hold a spell (then the timer phase must deal with it). */
/* Ruling 25 (docs/rules/timemasters.md). A free card that draws (a focus,
 * an on-discard timer) can draw itself back from its own reshuffled discard
 * and be played again for ever (issue 29: a search that never answered).
 * Such a loop changes nothing but the deck's order, so the rule refuses
 * exactly a repeat: a returning play (a focus or an on-discard timer whose
 * effect draws or takes focuses back) the seat already made from this very
 * position in this main phase (its own cards as multisets, the deck's order
 * aside, its timers, Kè, reminders, access points and spell zone, and the
 * others' reminders). Any path back to a position holds a returning play:
 * every other play lowers twice the cards in hand plus the timers in play
 * and the spells on them (a timer or a spell set: 2 less, 1 more; a focus:
 * 2 less; a recovery: 4; an activation: 1 and its spells), or plays a spell
 * into the spell zone (an access point more, for good). loop[] keeps the
 * last TM_LOOP_MEMORY returning plays; a longer loop meets the backstop:
 * TM_MAX_TURN_PLAYS plays, sets, activations and recoveries, far above any
 * real turn. Releases and picks stay legal past it, so the turn can always
 * be finished. */
uint64_t tm_loop_print(const tm_state *s);
static inline uint64_t tm_loop_key(uint64_t print, int id)
{
    uint64_t z = print + 0x9e3779b97f4a7c15ull * (uint64_t)(id + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline bool tm_loop_seen(const tm_state *s, uint64_t print, int id)
{
    uint64_t key = tm_loop_key(print, id);
    for (int i = 0; i < s->n_loop; i++)
        if (s->loop[i] == key)
            return true;
    return false;
}
/* Is id (a legal play otherwise) a repeat that ruling 25 refuses? */
bool tm_loop_refused(const tm_state *s, int id);
static inline bool tm_may_play_more(const tm_state *s) { return s->turn_plays < TM_MAX_TURN_PLAYS; }

static inline bool tm_timer_full(const tm_state *s, const tm_timer *t)
{
    return t->n_spells >= s->table.card[t->kind].slots;
}
int tm_delay_cards(const tm_player *p);
/* The number people call timer t (an index) by, and the index of number; -1 if none. */
int tm_timer_number(const tm_player *p, int t);
int tm_timer_index(const tm_player *p, int number);
int tm_free_timer_number(const tm_player *p);
int tm_points(const tm_state *s, int seat);
int tm_level5(const tm_state *s, int seat);
int tm_total_ke(const tm_player *p);
int tm_empty_spheres(const tm_state *s);
int tm_kind_count(const uint8_t *cards, int n, int kind);

/* Legal actions (timemasters_moves.c): legal()'s ascending list; the pick of
 * ids[asobi_rng_below(rng, n)] from it, with the same draw, without the list;
 * and in the main phase with no choice pending, the legal ids below
 * TM_ID_SET (what tm_legal lists first), without the set and activate ids. */
int tm_legal(const void *st, int seat, int *ids);
int tm_random_action(const void *st, int seat, asobi_rng *rng);
int tm_main_legal_head(const tm_state *s, int *ids);

/* Notation (timemasters_game.c). */
int tm_action_text(const void *st, int seat, int id, char *buf, size_t cap);
void tm_card_text(const tm_table *t, int kind, char *buf, size_t cap);

/* Events (timemasters_events.c): the game's events hook. */
void tm_events(const void *before, int seat, int id, const void *after, int viewer, json_t *events);
/* Taking back (timemasters_take_back.c): the game's quiet hook. */
bool tm_quiet(const void *before, int seat, int id, const void *after);

/* Views (timemasters_view.c). */
void tm_view(const void *st, int seat, asobi_vw *w);
void tm_render(const void *st, int seat, FILE *out);

/* The heuristic player (timemasters_bot.c). */
int tm_heuristic(const void *st, int seat, asobi_rng *rng);

#endif

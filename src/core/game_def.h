/* game_def.h — the table of functions a game fills in to join libasobi (internal: games and core). */
#ifndef ASOBI_GAME_DEF_H
#define ASOBI_GAME_DEF_H

#include <stdio.h>

#include "asobi/game.h"
#include "view_writer.h"

/* How a game joins the library
 * ----------------------------
 * A game lives in src/games/<name>/ and defines exactly one object
 *
 *     const asobi_game_def asobi_game_<name> = { ... };
 *
 * The build finds every folder under src/games/ and registers it (see
 * cmake/registry.cmake), so adding a game touches no shared file.
 *
 * The game's state is one plain struct of fixed size (state_size) with no
 * pointers into the heap: core copies it with memcpy and compares it with
 * memcmp. core zeroes it before init, so padding is always zero and two
 * states reached by the same seed and actions are byte-identical. All
 * randomness comes from the asobi_rng stored inside the struct at rng_offset.
 *
 * Core does all validation: seat range, "is this seat to move", "is this id
 * among legal(seat)". apply() is only ever called with a legal action, so
 * a game writes its rules once, in legal(), and apply() may assume them.
 * That is also why a refused action leaves the state byte-for-byte unchanged:
 * nothing is touched before the checks pass.
 *
 * Action ids are dense integers in [0, max_actions). Prefer ids that name the
 * thing done ("play the card 5", "play card #17 of the deck") over ids that
 * name a position ("the 3rd card of the hand"): search compares actions
 * across determinizations, where positions of hidden things change. */

typedef enum asobi_option_type {
    ASOBI_OPT_INT,
    ASOBI_OPT_BOOL,
    ASOBI_OPT_ENUM,  /* one of choices (a NULL-terminated list of strings) */
    ASOBI_OPT_STRING, /* free text */
    ASOBI_OPT_DATA    /* JSON content (an object; null: none), checked and put in canonical form by
                         normalize(). Never a path: only a command line reads it from a file, for the
                         person running it (asobi_game_options_read_files). Records carry the content. */
} asobi_option_type;

typedef struct asobi_option_def {
    const char *name;
    asobi_option_type type;
    int min, max;                /* INT: the inclusive range */
    const char *const *choices;  /* ENUM: NULL-terminated */
    const char *default_json;    /* JSON text of the default: "0", "true", "\"twin\"" */
    const char *help;
    /* DATA: the value as the options keep it (a new reference), or NULL with
     * err set when refused. Called for every value, the default included. */
    json_t *(*normalize)(const json_t *value, asobi_error *err);
} asobi_option_def;

struct asobi_game_def {
    const char *name;  /* lower-case id used everywhere: "psycle" */
    const char *title; /* for people: "PSYCLE" */
    int min_players, max_players;
    size_t state_size; /* sizeof the game's state struct */
    size_t rng_offset; /* offsetof(state struct, its asobi_rng) */
    int max_actions;   /* ids are 0..max_actions-1 for every player count */
    const asobi_option_def *options;
    int option_count;

    /* Set up a new game in zeroed memory. options is an object holding every
     * declared option with a valid value (core checked types and ranges).
     * Return ASOBI_OK, or an error such as bad_players for a count that the
     * chosen options forbid. Seed the rng at rng_offset from seed. */
    int (*init)(void *st, int players, const json_t *options, uint64_t seed, asobi_error *err);

    /* Seats that must act now, as a bitmask; 0 when the game is over. */
    uint32_t (*to_move)(const void *st);

    /* Optional: the seats of to_move whose turn it is, without those that
     * may act but need not (asobi_state_turn); NULL: all of to_move. */
    uint32_t (*turn)(const void *st);

    /* Legal ids of seat, ascending, into ids; return the count. Called only for
     * a seat in to_move. */
    int (*legal)(const void *st, int seat, int *ids);

    /* Optional fast path for random playouts (most of what search does): a
     * uniformly random legal action of seat, exactly the one that legal()
     * followed by ids[asobi_rng_below(rng, n)] picks, with the same draws, so
     * bots and search play the same games with it or without it
     * (test_conformance compares the two on random states). Called only for
     * a seat in to_move. When NULL, core does just that. */
    int (*random_action)(const void *st, int seat, asobi_rng *rng);

    /* Optional fast path for whole random playouts, for games whose
     * decisions are so cheap that the calls through this table are a large
     * share of them (PSYCLE: a decision is a bounded draw and, every few, a
     * round's scoring). Play from st to the end exactly as core's loop in
     * asobi_state_random_playout does (the lowest seat to move takes its
     * random_action, which is applied, until nobody is to move): the same
     * draws, the same final state; return the number of actions applied.
     * test_conformance compares the two from states along random games.
     * Search plays its uniformly random playouts with it (when uncapped) in
     * games that declare choices_independent (below): there its joint picks
     * of a simultaneous step, all made before any is applied, draw what this
     * seat-by-seat loop draws. */
    long (*random_playout)(void *st, asobi_rng *rng);

    /* Apply a legal action (core has checked it). */
    void (*apply)(void *st, int seat, int id);

    /* The text of a legal action, snprintf-style; return the length. */
    int (*action_text)(const void *st, int seat, int id, char *buf, size_t cap);

    /* Optional. Parse text to an id in [0, max_actions) (need not be legal:
     * core checks legality next and asks explain_illegal for the reason).
     * Return ASOBI_OK or ASOBI_E_ILLEGAL_ACTION with a message saying what is
     * wrong with the text. When NULL, core matches the text against the
     * texts of the legal actions (ignoring case and surrounding spaces). */
    int (*parse_action)(const void *st, int seat, const char *text, int *id, asobi_error *err);

    /* Optional. The action as another seat (viewer, or ASOBI_ALL_SEEING)
     * sees it happen, for announcing it: "seat 2 discards a card face down"
     * rather than which card. Called with the state before the action. When
     * NULL, the action's text is public, except in a simultaneous step
     * (several seats to move), where only "has chosen" is shown. */
    int (*public_text)(const void *st, int seat, int id, int viewer, char *buf, size_t cap);

    /* Optional. The events of seat's action id, taken in before and giving
     * after, as viewer (a seat, ASOBI_SPECTATOR or ASOBI_ALL_SEEING) may know
     * them: append them to events with asobi_event_add, in the order they
     * happened (docs/protocol.md, "Events"). Read them off the two states
     * (apply records nothing for it: playouts must not pay for events).
     * Core adds "game_over" itself. test_conformance checks that viewer's
     * events are the same in every state viewer cannot tell apart. */
    void (*events)(const void *before, int seat, int id, const void *after, int viewer, json_t *events);

    /* Optional. Why the (parsed) action id is illegal for seat, in a sentence
     * for a person ("5 costs 5 gems and you hold 3"). */
    void (*explain_illegal)(const void *st, int seat, int id, char *buf, size_t cap);

    /* Optional. Once terminal: how the game ended, naming the rule ("the
     * second sphere ran out: ...", ruling 1), so that an action refused
     * because the game is over says why it is over. */
    void (*over_text)(const void *st, char *buf, size_t cap);

    /* Scores now; ranks and winners once terminal. core fills terminal and
     * players before calling. */
    void (*result)(const void *st, asobi_result *out);

    /* Write the game's fields of seat's view with the vw_ calls of
     * view_writer.h, in their order, each key once (core already wrote
     * "game", "seat", "spectator" for a spectator, "to_move", "terminal";
     * w is inside that root object). seat is ASOBI_ALL_SEEING,
     * ASOBI_SPECTATOR or a seat number: show a seat's private fields only to
     * that seat and to ASOBI_ALL_SEEING. The same calls make both the text
     * (asobi_state_view_text) and the jansson tree (asobi_state_view). */
    void (*view)(const void *st, int seat, asobi_vw *w);

    /* Write a text rendering of seat's view for the terminal. */
    void (*render)(const void *st, int seat, FILE *out);

    /* Resample everything viewer cannot see, consistently with viewer's view,
     * using rng. Must depend only on what viewer sees and rng: collect
     * unknown things in a canonical (sorted) order before shuffling them.
     * core reseeds the state's own generator afterwards. */
    void (*determinize)(void *st, int viewer, asobi_rng *rng);

    /* Simultaneous games: true when one seat's choice in a simultaneous
     * step never changes what another seat to move may choose (PSYCLE: a
     * seat's cards depend on its own gems only). Search then applies a joint
     * action without checking each pick again; test_conformance checks the
     * claim on every simultaneous step it meets. */
    bool choices_independent;

    /* Optional, for search: a 64-bit hash of viewer's information set in st
     * (everything viewer knows there), equal for two states of one game
     * exactly when determinizing each for viewer with the same generator
     * and then retract_unseen give byte-identical states, apart from the
     * state's own generator (up to hash collisions). ISMCTS names its
     * decision nodes by it; when NULL, search does just that: determinizes
     * a copy with a fixed seed and hashes it, which costs a determinization
     * at every step of every iteration. A game that fills it hashes what the
     * viewer sees and skips what determinize would resample (keeping what
     * the resampling depends on). test_conformance checks the equivalence on
     * states along random games, their determinizations and the states
     * after their actions. */
    uint64_t (*info_hash)(const void *st, int viewer);

    /* Optional (simultaneous games only): withdraw the committed choices that
     * viewer cannot see, so those seats are to move again. */
    void (*retract_unseen)(void *st, int viewer);

    /* Optional: the game's rule-of-thumb player, used by the "heuristic"
     * bot and as a playout policy by search. It receives a state already
     * determinized for seat (so it cannot cheat) and returns a legal id. */
    int (*heuristic)(const void *st, int seat, asobi_rng *rng);

    /* Whether search should play its playouts with the heuristic rather than
     * uniformly at random when a bot spec does not say (ismcts playout=auto,
     * the default). Set it where the heuristic's playouts are measured to
     * make the search stronger at equal iterations: a deck-builder whose
     * random playouts wander for hundreds of actions tells search nothing
     * (docs/ai.md gives the figures). */
    bool heuristic_playouts;

    /* Optional: which actions may be taken back (docs/protocol.md, "Taking
     * back"). True when seat's legal action id, taken in before and giving
     * after, made nothing known to anyone beyond the action itself: no card
     * drawn, turned or moved out of a hidden place, no face-down thing
     * shown. Core asks only about an action that passed the game-agnostic
     * half of the rule (asobi_take_back_kind below: no draw from the
     * state's generator, the game not over, the mover still to move, or its
     * choice one of a simultaneous step still open); the hook adds what only
     * the game knows. NULL: no action of the game can be taken back.
     * test_conformance checks it against determinizations: an action after
     * which some viewer's view differs from what the same announced action
     * gives in another deal that viewer could not tell apart has made
     * something known, and must be refused. */
    bool (*quiet)(const void *before, int seat, int id, const void *after);
};

/* The game's own struct inside a state, for code that knows the game (a
 * game's heuristic, its tests). Tools and bots outside src/games/ must not
 * use it on a state that was not determinized for their seat. */
const void *asobi_state_data_for_ai(const asobi_state *state);
/* For search inside the library, which knows that seat is to move: the
 * checked asobi_state_legal and asobi_state_random_action without the check
 * (one call of to_move fewer per step of a playout). */
int asobi_state_legal_unchecked(const asobi_state *state, int seat, int *ids);
int asobi_state_random_action_unchecked(const asobi_state *state, int seat, asobi_rng *rng);
void *asobi_state_data_mut(asobi_state *state);

/* Taking back, the game-agnostic half of the rule (take_back.c): what seat's
 * legal action id, taken in before and giving after, allows. FINAL: it may
 * never be taken back (the reason in *why when why is not NULL: a sentence
 * fragment, "it ended the turn"). STAYS: the mover is still the one to move
 * and nothing became known; it may be taken back while it is the last
 * action. SIMULTANEOUS: a face-down choice in a simultaneous step of a game
 * whose choices are independent (PSYCLE), the step still open; it may be
 * taken back until the step's last seat has chosen, even after another
 * seat's choice of the same step (those were made without seeing it). */
typedef enum asobi_take_back { ASOBI_TB_FINAL, ASOBI_TB_STAYS, ASOBI_TB_SIMULTANEOUS } asobi_take_back;
asobi_take_back asobi_take_back_kind(const asobi_state *before, int seat, int id, const asobi_state *after,
                                     const char **why);

/* Append an event {"type": type, "text": printf(fmt, ...)} to events and
 * return it (borrowed) for its fields; helpers set them in one line each. */
json_t *asobi_event_add(json_t *events, const char *type, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void asobi_event_int(json_t *event, const char *key, long long value);
void asobi_event_str(json_t *event, const char *key, const char *value);
void asobi_event_bool(json_t *event, const char *key, bool value);
void asobi_event_null(json_t *event, const char *key);
/* Does viewer see what seat holds (seat itself, or the all-seeing viewer)? */
static inline bool asobi_event_sees(int viewer, int seat) { return viewer == seat || viewer == ASOBI_ALL_SEEING; }

/* Option helpers for init(): read a validated option (present after checks). */
int asobi_option_int(const json_t *options, const char *name);
bool asobi_option_bool(const json_t *options, const char *name);
const char *asobi_option_string(const json_t *options, const char *name);

/* Rank seats by score (higher is better; equal scores share a rank) and set
 * winners to the seats ranked 1. A helper for result() hooks. */
void asobi_rank_by_score(asobi_result *out);

#endif

/* game.h — the game-agnostic interface: the registry of games and the flat, copyable game state. */
#ifndef ASOBI_GAME_H
#define ASOBI_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "asobi/error.h"
#include "asobi/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many seats in any game (seat sets are bitmasks of uint32_t). */
#define ASOBI_MAX_SEATS 8

/* The seat number that asks for the all-seeing view (replays, debugging). */
#define ASOBI_ALL_SEEING (-1)
/* The viewer that sees only what is public to everyone at the table (a
 * spectator, `asobi serve`'s watchers): no hand, no face-down choice, no
 * hidden tile of any seat. Views, renderings and public texts accept it
 * wherever they accept a seat; it never acts. */
#define ASOBI_SPECTATOR (-2)

/* ---------------------------------------------------------------------------
 * The registry. A game is described by an asobi_game_def; the tools never
 * look inside it, they only call the functions below.
 * ------------------------------------------------------------------------- */
typedef struct asobi_game_def asobi_game_def;

int asobi_game_count(void);
const asobi_game_def *asobi_game_at(int index);
const asobi_game_def *asobi_game_find(const char *name); /* NULL if unknown */

const char *asobi_game_name(const asobi_game_def *game);  /* "psycle" */
const char *asobi_game_title(const asobi_game_def *game); /* "PSYCLE" */
int asobi_game_min_players(const asobi_game_def *game);
int asobi_game_max_players(const asobi_game_def *game);
/* Action ids of this game are dense integers in [0, max_actions). A buffer of
 * this many ints always holds a seat's legal actions. */
int asobi_game_max_actions(const asobi_game_def *game);
/* {"name","title","min_players","max_players","max_actions",
 *  "options":[{"name","type","default","min","max","choices","help"}]}; caller owns it. */
json_t *asobi_game_describe(const asobi_game_def *game);

/* Check an options object against the game's declared options and return a
 * new object with every option present (defaults filled in). NULL options
 * means "all defaults". Returns NULL and fills err on a bad option. */
json_t *asobi_game_options(const asobi_game_def *game, const json_t *options, asobi_error *err);

/* For command lines only: options whose value is JSON content (type "data",
 * e.g. Time Masters' "cards") may be given as a file name; read each such
 * file (regular files only, at most ASOBI_DATA_FILE_MAX bytes) and put its
 * content in place. A server never calls this: a client never names a path. */
#define ASOBI_DATA_FILE_MAX (1u << 20)
int asobi_game_options_read_files(const asobi_game_def *game, json_t *options, asobi_error *err);
/* One such file: a JSON object, named after the file ("ours.json": "ours")
 * unless it holds a "name". */
int asobi_read_data_file(const char *path, json_t **content, asobi_error *err);

/* Named sets for "data" options (Time Masters' card sets), loaded by the
 * person running a command from a folder (`--card-sets DIR`): every regular
 * file DIR/NAME.json, checked against every data option it could fill (a
 * file that fits none is refused, naming it and the field). Then an
 * option's value may be a set's name (a string), from a client too: the
 * set's content takes its place, so records still carry the content. */
typedef struct asobi_data_sets asobi_data_sets;
asobi_data_sets *asobi_data_sets_load(const char *dir, asobi_error *err);
void asobi_data_sets_free(asobi_data_sets *sets);
/* [{"game","option","name","hash","title"?}...] (a new array). */
json_t *asobi_data_sets_list(const asobi_data_sets *sets);
/* Replace every data option given as a string by its content: a set's
 * name among sets (may be NULL), else, when paths is true (a command line
 * only), a file to read. A name that is no set's (with paths false) is
 * refused with bad_option, listing the names there are. */
int asobi_game_options_resolve(const asobi_game_def *game, json_t *options, const asobi_data_sets *sets,
                               bool paths, asobi_error *err);

/* Read a whole regular file of at most max bytes (FIFOs, devices and folders
 * are refused without blocking); *text is malloc'd and NUL-terminated. */
int asobi_read_regular_file(const char *path, size_t max, char **text, size_t *len, asobi_error *err);

/* ---------------------------------------------------------------------------
 * The state: one flat block of memory with no pointers to the heap inside, so
 * asobi_state_copy is a memcpy and search can clone millions of states.
 * ------------------------------------------------------------------------- */
typedef struct asobi_state asobi_state;

/* A new game. options may be NULL (defaults). Errors: bad_players, bad_option. */
asobi_state *asobi_state_new(const asobi_game_def *game, int players, const json_t *options,
                             uint64_t seed, asobi_error *err);
asobi_state *asobi_state_clone(const asobi_state *state);
/* dst and src must be states of the same game (the same size). */
void asobi_state_copy(asobi_state *dst, const asobi_state *src);
void asobi_state_free(asobi_state *state);
/* The size in bytes of the whole block, and byte equality of two states. */
size_t asobi_state_size(const asobi_state *state);
bool asobi_state_equal(const asobi_state *a, const asobi_state *b);

const asobi_game_def *asobi_state_game(const asobi_state *state);
int asobi_state_players(const asobi_state *state);

/* Who must act now: a bitmask of seats (several at once for simultaneous
 * choices). 0 exactly when the game is over. */
uint32_t asobi_state_to_move(const asobi_state *state);
bool asobi_state_terminal(const asobi_state *state);

/* The seats whose turn it is: to_move without those that may act now but
 * need not (THE OCTAL's late Octo!, a race open to the seat that forgot
 * while the next seat plays). A loop that plays for these seats only, one
 * after the other, plays every game; the others' optional actions stay in
 * their legal lists. Equal to to_move in every other game. */
uint32_t asobi_state_turn(const asobi_state *state);

/* ASOBI_OK if seat may act now; otherwise bad_seat, game_over or
 * not_your_turn, with a message. */
int asobi_state_may_act(const asobi_state *state, int seat, asobi_error *err);

/* The legal action ids of seat, ascending, written to ids (room for
 * asobi_game_max_actions ints). Returns the count; 0 if the seat may not act. */
int asobi_state_legal(const asobi_state *state, int seat, int *ids);
bool asobi_state_is_legal(const asobi_state *state, int seat, int id);
/* A legal action of seat drawn uniformly at random, for random playouts:
 * the same id, from the same draws of rng, as
 * ids[asobi_rng_below(rng, asobi_state_legal(state, seat, ids))], but
 * without building the list where the game knows a shorter way. -1 if the
 * seat may not act. */
int asobi_state_random_action(const asobi_state *state, int seat, asobi_rng *rng);
/* Play state to its end with random actions: while any seat is to move, the
 * lowest such seat plays asobi_state_random_action's pick, which is applied.
 * Returns the number of actions applied. Games whose decisions are a few
 * table look-ups run it as one loop of their own, with the same draws and
 * the same end (the fastest random playout there is, as search uses). */
long asobi_state_random_playout(asobi_state *state, asobi_rng *rng);

/* The text notation of a legal action ("play 3"). Returns the length written
 * (always NUL-terminated, truncated to cap). */
int asobi_state_action_text(const asobi_state *state, int seat, int id, char *buf, size_t cap);
/* The legal action (seat, id) as viewer (a seat or ASOBI_ALL_SEEING) sees
 * it happen: the full text for the actor and the all-seeing viewer; for
 * others whatever the table shows ("chooses a card face down"). Call it
 * before applying the action. */
int asobi_state_public_text(const asobi_state *state, int seat, int id, int viewer, char *buf, size_t cap);

/* What happened because of seat's legal action id, taken in before and
 * giving after (asobi_state_apply's result), as viewer (a seat,
 * ASOBI_SPECTATOR or ASOBI_ALL_SEEING) may know it: a JSON array, possibly
 * empty, of events in the order they happened, each an object
 * {"type": "<snake_case>", "text": "<an English sentence>", ...fields}
 * holding 0-based seat numbers, cards, points (docs/protocol.md, "Events",
 * lists every type). Never more than viewer may know: a seat learns the
 * cards it drew, the others how many. Caller owns the array; NULL for a
 * viewer that is none of these or when before and after are not of one
 * game. Computed from the two states: applying an action costs nothing
 * more for it. */
json_t *asobi_state_events(const asobi_state *before, int seat, int id, const asobi_state *after, int viewer);

/* Parse text back to the id of a legal action of seat. Errors: bad_seat,
 * not_your_turn, game_over, illegal_action (with the reason). */
int asobi_state_parse_action(const asobi_state *state, int seat, const char *text, int *id,
                             asobi_error *err);

/* Apply seat's action. Validated: on any error the state is left byte-for-byte
 * unchanged and the error says why. */
int asobi_state_apply(asobi_state *state, int seat, int id, asobi_error *err);
/* The fast path for search: the caller guarantees the action is legal. */
void asobi_state_apply_unchecked(asobi_state *state, int seat, int id);

/* Results. Meaningful scores while the game runs; ranks and winners are final
 * once terminal. rank 1 is best; tied seats share a rank; winners may hold
 * several seats (shared victory) or none (everybody lost). */
typedef struct asobi_result {
    bool terminal;
    int players;
    double score[ASOBI_MAX_SEATS];
    int rank[ASOBI_MAX_SEATS];
    uint32_t winners;
} asobi_result;
void asobi_state_result(const asobi_state *state, asobi_result *out);

/* The view of seat (or ASOBI_ALL_SEEING, or ASOBI_SPECTATOR): a JSON object
 * holding only what that viewer may see. Always has "game", "seat" (null when
 * all-seeing or a spectator), "to_move" and "terminal"; a spectator's view
 * also has "spectator": true. The game adds its own fields. Caller owns the
 * object; NULL for a viewer that is none of these. */
json_t *asobi_state_view(const asobi_state *state, int seat);
/* The same view as compact JSON text, byte for byte what
 * json_dumps(asobi_state_view(state, seat), JSON_COMPACT) returns, written
 * straight from the game's state without building the tree (~10x faster:
 * for servers and engines that send views as text). malloc'd and
 * NUL-terminated, caller frees; its length in *len when len is not NULL.
 * NULL for a viewer that is none of the above, or when out of memory. */
char *asobi_state_view_text(const asobi_state *state, int seat, size_t *len);
/* A JSON array of the seats in a mask: 0b101 -> [0,2]. */
json_t *asobi_json_seats(uint32_t mask);
/* A text rendering of that view for the terminal (malloc'd; caller frees). */
char *asobi_state_render(const asobi_state *state, int seat);

/* Determinization for information-set search: replace everything viewer
 * cannot see (hidden cards, deck order, the generator that decides future
 * shuffles) by a random assignment consistent with viewer's view. The result
 * depends only on what viewer can see and on rng: two states with the same
 * view give byte-identical determinizations for the same rng. */
void asobi_state_determinize(asobi_state *state, int viewer, asobi_rng *rng);

/* Samples (docs/protocol.md, "Samples"): a whole state as one line of text,
 * S1.GAME.PLAYERS.DATA.MAC, signed with HMAC-SHA256 under key (at least 16
 * characters; `asobi arena` makes one per run and passes it to its external
 * bots as ASOBI_SAMPLE_KEY). asobi_state_sample: the text (malloc'd), NULL
 * if key is too short or memory ran out. asobi_state_from_sample: the state
 * it holds, or NULL with bad_sample when the text was changed in any way,
 * made up, written under another key or by another build: its bytes are
 * used only once the MAC matched. The state has no record (no seed). */
char *asobi_state_sample(const asobi_state *state, const char *key);
asobi_state *asobi_state_from_sample(const char *text, size_t len, const char *key, asobi_error *err);

/* Simultaneous choices (PSYCLE): a choice that other seats have committed but
 * viewer cannot see is, to viewer, the same as a choice not yet made. This
 * withdraws every such choice, so those seats are to move again. Search calls
 * it on determinized copies; sequential games do nothing. */
void asobi_state_retract_unseen(asobi_state *state, int viewer);

#ifdef __cplusplus
}
#endif
#endif

/* conformance.h — the checks every game must pass, run over many random games (test support). */
#ifndef ASOBI_CONFORMANCE_H
#define ASOBI_CONFORMANCE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "asobi/asobi.h"

/* What to play. Every action of every game is checked for:
 *  - refusals: a wrong seat, a seat not to move, an illegal id and a
 *    nonsense text are refused with the right code, state byte-identical;
 *  - notation: the text of every legal action parses back to its id;
 *  - views: every seat's view and the all-seeing view build; determinizing
 *    for a seat leaves that seat's view and legal actions unchanged (so the
 *    view shows nothing the determinization resamples), and the
 *    determinization depends only on that view (two different hidden states
 *    with the same view give byte-identical determinizations);
 *  - log lines: what each seat is told of another seat's action (the public
 *    text) is the same for any two actions it cannot tell apart, in this
 *    state or another deal it cannot tell from this one;
 *  - events: what each viewer (every seat, the spectator) is told an
 *    action made happen (asobi_state_events) is the same in another deal
 *    it cannot tell from this one, for an action announced alike that
 *    leaves it the same view; every event's type and fields are among those
 *    docs/protocol.md lists (event_schema.h), its text not empty;
 *  - records: at the end, the record survives a JSON text round trip and
 *    replays to the byte-identical state;
 * plus the game's own invariant and step checks. The view and determinize
 * checks run every deep_every actions (1 = every action). */
typedef struct conformance_spec {
    const char *game;
    int players;
    const char *options_json; /* NULL: defaults */
    int games;
    uint64_t seed;
    int deep_every;
    int max_actions_per_game; /* a game longer than this fails the test; 0: 100000 */
    /* Called after every action with the new state. */
    void (*invariant)(const asobi_state *state, void *ctx);
    /* Called for every action with the states before and after. */
    void (*on_step)(const asobi_state *before, int seat, int id, const asobi_state *after, void *ctx);
    /* Called once per finished game. */
    void (*on_end)(const asobi_state *state, void *ctx);
    void *ctx;
} conformance_spec;

/* Play spec->games random games (uniform random legal actions, the acting
 * seat chosen at random among those to move) and check everything above. */
void conformance_run(const conformance_spec *spec);

/* Only the random_action check of conformance_run (asobi_state_random_action
 * picks legal[asobi_rng_below(rng, n)] with the same draws, -1 for a seat
 * not to move), at every step of spec->games random games with
 * spec->options_json: without the views, refusals and records it reaches
 * many more states in the same time. It reads game, players, options_json,
 * games, seed and max_actions_per_game; deep_every and the callbacks are
 * not used. Returns the number of states checked. */
long conformance_random_actions(const conformance_spec *spec);

/* Assert that applying (seat, id) is refused with code and changes nothing. */
void assert_refused(asobi_state *state, int seat, int id, int code);
/* Assert that the text is refused with code and changes nothing. */
void assert_text_refused(asobi_state *state, int seat, const char *text, int code);
/* Apply an action by its text; fails the test with the error if refused. */
void apply_text(asobi_state *state, int seat, const char *text);

/* Another deal viewer cannot tell from s: the library's determinization for
 * a seat; for the spectator, one for every seat in turn. */
void determinize_for_viewer(asobi_state *s, int viewer, asobi_rng *rng);

/* A new state from a game name, a player count, options as JSON text (or NULL). */
asobi_state *new_state(const char *game, int players, const char *options_json, uint64_t seed);

#endif

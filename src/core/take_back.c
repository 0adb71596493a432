/* take_back.c — which actions may be taken back: the game-agnostic half of the rule, then the game's quiet hook. */
#include <string.h>

#include "bits.h"
#include "game_def.h"

/* The rule (issue 44; docs/protocol.md, "Taking back"): a seat may take back
 * its own last action when nobody else has acted since, it is still to move,
 * and the action made nothing known to anyone beyond the action itself. The
 * match (record.c) keeps the actions since the last final one and says who
 * may take back which; this file judges one action when it is made.
 *
 * What core can judge without the game:
 *  - chance: the state's own generator moved (a shuffle, a random tile):
 *    final, whatever the game says, since every draw is news to someone and
 *    a take-back must never become a way to draw again;
 *  - the end of the game: final;
 *  - "still to move": the seats to move are the same after as before and
 *    the mover among them (a step inside a turn: a payment, a scroll tile);
 *  - the one exception, a simultaneous step (several seats to move) of a
 *    game whose choices are independent (game_def.h, choices_independent:
 *    PSYCLE): there the mover leaves the seats to move and the others stay,
 *    face down. Game sites let a player change their mind until the last
 *    one has chosen, and so do we. "Nobody else has acted since" is read as
 *    "nobody has acted on it": the others' choices of the same step were
 *    made without seeing it and stand whether it is withdrawn or not, and
 *    the order in which a step's choices came is no part of the game (the
 *    state is the same either way, so the record without the withdrawn
 *    choice replays to it). The last choice resolves the step: final.
 * What only the game knows, whether a card was drawn from a deck already
 * shuffled, a tile turned or a hidden card put where all see it, is the
 * game's quiet hook; a game without one has nothing to take back. */

static bool same_generator(const asobi_state *before, const asobi_state *after)
{
    const asobi_game_def *def = asobi_state_game(before);
    const unsigned char *a = asobi_state_data_for_ai(before), *b = asobi_state_data_for_ai(after);
    return memcmp(a + def->rng_offset, b + def->rng_offset, sizeof(asobi_rng)) == 0;
}

asobi_take_back asobi_take_back_kind(const asobi_state *before, int seat, int id, const asobi_state *after,
                                     const char **why)
{
    const asobi_game_def *def = asobi_state_game(before);
    uint32_t was = asobi_state_to_move(before), now = asobi_state_to_move(after), me = 1u << seat;
    const char *reason = NULL;
    asobi_take_back kind = ASOBI_TB_FINAL;
    if (now == 0)
        reason = "it ended the game";
    else if (!same_generator(before, after))
        reason = "chance decided something (a shuffle or a draw)";
    else if (now == was && (now & me))
        kind = ASOBI_TB_STAYS;
    else if (def->choices_independent && asobi_popcount32(was) > 1 && (was & me) && now == (was & ~me))
        kind = ASOBI_TB_SIMULTANEOUS;
    else
        reason = "it ended the turn";
    if (kind != ASOBI_TB_FINAL &&
        !(def->quiet && def->quiet(asobi_state_data_for_ai(before), seat, id, asobi_state_data_for_ai(after)))) {
        kind = ASOBI_TB_FINAL;
        reason = def->quiet ? "it made something known (a card drawn, turned or shown)"
                            : "no action of this game can be taken back";
    }
    if (why)
        *why = reason;
    return kind;
}

/* record.h — a match: a game state plus its history, saved and replayed as a JSON record. */
#ifndef ASOBI_RECORD_H
#define ASOBI_RECORD_H

#include "asobi/game.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A match owns a state and remembers how it was made and every action taken,
 * so that it can be written as a record:
 *   {"game":"psycle","players":3,"options":{...},"seed":42,
 *    "actions":[{"seat":0,"action":"play 3"}, ...]}
 * Loading a record replays it to the byte-identical state. */
typedef struct asobi_match asobi_match;

asobi_match *asobi_match_new(const char *game, int players, const json_t *options, uint64_t seed,
                             asobi_error *err);
void asobi_match_free(asobi_match *match);

const asobi_state *asobi_match_state(const asobi_match *match);
uint64_t asobi_match_seed(const asobi_match *match);
/* The full options object (defaults filled in); owned by the match. */
const json_t *asobi_match_options(const asobi_match *match);

/* Act by id or by text; validated, the match is unchanged on error. */
int asobi_match_act(asobi_match *match, int seat, int id, asobi_error *err);
int asobi_match_act_text(asobi_match *match, int seat, const char *text, asobi_error *err);

/* The history: how many actions, and the seat and text of action i. */
int asobi_match_length(const asobi_match *match);
int asobi_match_action_seat(const asobi_match *match, int index);
const char *asobi_match_action_text(const asobi_match *match, int index);

/* The id of action i (as asobi_state_legal lists it); -1 outside the history. */
int asobi_match_action_id(const asobi_match *match, int index);

/* Taking back (docs/protocol.md, "Taking back"). A seat may take back its
 * own last action when nobody else has acted since, it is still to move,
 * and the action made nothing known beyond itself (no card drawn or turned,
 * no chance, no hidden choice shown); in a simultaneous step (PSYCLE) a
 * face-down choice may be withdrawn until the last seat has chosen. A
 * take-back removes the action from the history, so the record stays one
 * that replays to the game, and every viewer's view is again what it was
 * before the action (in a simultaneous step: what the other seats' choices
 * alone make it). Several in a row take back several actions of one turn.
 * asobi_match_undo_index: the index in the history of the action seat would
 * take back, -1 when none. asobi_match_undo: take it back; otherwise
 * undo_not_allowed with the reason, and the match is unchanged. */
int asobi_match_undo_index(const asobi_match *match, int seat);
bool asobi_match_can_undo(const asobi_match *match, int seat);
int asobi_match_undo(asobi_match *match, int seat, asobi_error *err);

/* The record as a new JSON object (caller owns it). */
json_t *asobi_match_record(const asobi_match *match);
/* The record as compact JSON text, written straight from the match (no tree:
 * several times faster), byte for byte json_dumps(asobi_match_record(match),
 * JSON_COMPACT). malloc'd and NUL-terminated, its length in *len (len may be
 * NULL); NULL when out of memory. */
char *asobi_match_record_text(const asobi_match *match, size_t *len);
/* Load a record: the match after replaying all of its actions. Errors:
 * bad_record (with the index of the action that failed), or those of new. */
asobi_match *asobi_match_load(const json_t *record, asobi_error *err);
/* The same, stopping after the first `count` actions (count < 0: all). */
asobi_match *asobi_match_load_prefix(const json_t *record, int count, asobi_error *err);
/* Load a record from its JSON text (len bytes), reading and replaying one
 * action at a time: memory is the text plus the match, whatever the number
 * of actions (asobi_match_load needs the whole JSON tree first, about 17
 * times the text). The same checks and errors as asobi_match_load. */
asobi_match *asobi_match_read(const char *text, size_t len, asobi_error *err);
/* A new match replaying the first count actions of match (count < 0 or
 * beyond its length: all), from the same game, options and seed. */
asobi_match *asobi_match_prefix(const asobi_match *match, int count, asobi_error *err);

#ifdef __cplusplus
}
#endif
#endif

/* bot.h — bots named by spec strings ("random", "ismcts:iters=2000"), which only ever see what their seat sees. */
#ifndef ASOBI_BOT_H
#define ASOBI_BOT_H

#include "asobi/game.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A bot plays one seat of one game. It is made from a spec string:
 *   NAME                 e.g. "random", "heuristic"
 *   NAME:KEY=VALUE,...   e.g. "ismcts:iters=2000", "ismcts:time=0.5"
 * asobi_bot_names lists the names; asobi_bot_help describes their keys. */
typedef struct asobi_bot asobi_bot;

asobi_bot *asobi_bot_new(const char *spec, const asobi_game_def *game, int players, int seat,
                         uint64_t seed, asobi_error *err);
void asobi_bot_free(asobi_bot *bot);
const char *asobi_bot_spec(const asobi_bot *bot);
int asobi_bot_seat(const asobi_bot *bot);

/* Choose the bot's action in state (its seat must be to move). The bot's own
 * code never receives state itself: it receives a copy determinized for its
 * seat (asobi_state_determinize, then asobi_state_retract_unseen), so
 * it cannot read what its seat may not see. Returns a legal id, or -1 with
 * err filled. */
int asobi_bot_choose(asobi_bot *bot, const asobi_state *state, asobi_error *err);

/* Check a spec without making a bot (for option parsing). */
int asobi_bot_check_spec(const char *spec, const asobi_game_def *game, asobi_error *err);

/* The bot names, NULL-terminated, and a help text for each. */
const char *const *asobi_bot_names(void);
const char *asobi_bot_help(const char *name);

#ifdef __cplusplus
}
#endif
#endif

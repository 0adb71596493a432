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

/* A bot's strength in words people understand, from its spec (docs/server.md,
 * "level"): "easy" for random moves, "strong" for a search (ismcts, whatever
 * its budget), "medium" for every other bot; never the spec itself. */
const char *asobi_bot_level(const char *spec);
int asobi_bot_seat(const asobi_bot *bot);

/* Choose the bot's action in state (its seat must be to move). The bot's own
 * code never receives state itself: it receives a copy determinized for its
 * seat (asobi_state_determinize, then asobi_state_retract_unseen), so
 * it cannot read what its seat may not see. Returns a legal id, or -1 with
 * err filled. */
int asobi_bot_choose(asobi_bot *bot, const asobi_state *state, asobi_error *err);

/* Weigh the legal actions of the bot's seat in state (which must be to
 * move), through the same wall as asobi_bot_choose: the bot searches from a
 * copy determinized for its seat, so the weights depend only on what the
 * seat sees. Writes the legal ids (ascending) to ids, and for each the
 * bot's estimate of the seat's result after it in values (a search bot's
 * reward, in [0,1]: ismcts's share of the win) and how many of the search's
 * playouts began with it in visits (values[i] is -1 when none did); *best is
 * the most visited (the bot's pick). All three buffers have room for
 * asobi_game_max_actions. Returns the count, or -1 with err filled (bad_bot
 * for a bot that cannot weigh moves, as random and heuristic cannot). */
int asobi_bot_weigh(asobi_bot *bot, const asobi_state *state, int *ids, double *values, double *visits,
                    int *best, asobi_error *err);

/* Check a spec without making a bot (for option parsing). */
int asobi_bot_check_spec(const char *spec, const asobi_game_def *game, asobi_error *err);

/* Budgets have limits, checked when a spec is parsed: a request must not be
 * able to reserve gigabytes or hold the engine for an hour. A limit of 0
 * means "no such key allowed above 0". Every bot made by asobi_bot_new obeys
 * asobi_bot_default_limits; a server checks its clients' specs against the
 * tighter asobi_bot_server_limits (or its own) with asobi_bot_check_spec_within.
 * The figures are documented in docs/protocol.md ("Limits"). */
typedef struct asobi_bot_limits {
    double iters;   /* ismcts iters= (search iterations per move) */
    double seconds; /* time= (seconds per move) */
    double nodes;   /* nodes= (search tree size) */
    double worlds;  /* worlds= (determinizations per move) */
    double depth;   /* depth= (tree depth) */
} asobi_bot_limits;
extern const asobi_bot_limits asobi_bot_default_limits;
extern const asobi_bot_limits asobi_bot_server_limits;

/* asobi_bot_new with the spec's budgets held to limits as well. */
asobi_bot *asobi_bot_new_within(const char *spec, const asobi_game_def *game, int players, int seat,
                                uint64_t seed, const asobi_bot_limits *limits, asobi_error *err);
/* asobi_bot_check_spec, and the spec's budgets within limits (bad_bot, with
 * the key and the limit in the message, when above). */
int asobi_bot_check_spec_within(const char *spec, const asobi_game_def *game, const asobi_bot_limits *limits,
                                asobi_error *err);

/* The bot names, NULL-terminated, and a help text for each. */
const char *const *asobi_bot_names(void);
const char *asobi_bot_help(const char *name);

#ifdef __cplusplus
}
#endif
#endif

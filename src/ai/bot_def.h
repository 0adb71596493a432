/* bot_def.h — the table of functions a bot fills in (internal to src/ai/). */
#ifndef ASOBI_BOT_DEF_H
#define ASOBI_BOT_DEF_H

#include "asobi/bot.h"
#include "game_def.h"

/* A bot kind. create() gets the spec's KEY=VALUE parameters as a JSON object
 * of strings (e.g. {"iters":"2000"}) and refuses unknown keys with bad_bot.
 * choose() gets a state already determinized for seat: it may clone it,
 * determinize copies again, search them; it must return a legal id. */
typedef struct asobi_bot_def {
    const char *name;
    const char *help;
    void *(*create)(const asobi_game_def *game, int players, int seat, const json_t *params,
                    asobi_error *err);
    void (*destroy)(void *bot);
    int (*choose)(void *bot, const asobi_state *state, int seat, asobi_rng *rng);
    /* Optional (NULL: the bot cannot weigh moves): choose as choose() does,
     * from the same draws, and add to sum[id] and count[id] (max_actions
     * each, zeroed by the caller) the seat's reward and the number of the
     * search's playouts that began with the seat's action id. */
    int (*weigh)(void *bot, const asobi_state *state, int seat, asobi_rng *rng, double *sum, double *count);
} asobi_bot_def;

/* Parameter helpers for create(): read a number, refusing text that is not one. */
int asobi_bot_param_double(const json_t *params, const char *key, double def, double min, double max,
                           double *out, asobi_error *err);
/* Refuse any key of params not in the NULL-terminated list. */
int asobi_bot_params_only(const json_t *params, const char *const *keys, const char *bot,
                          asobi_error *err);

#endif

/* bot_heuristic.c — the "heuristic" bot: each game's own rule-of-thumb player (its heuristic hook). */
#include <stdlib.h>

#include "bot_def.h"

typedef struct heuristic_bot {
    int (*play)(const void *st, int seat, asobi_rng *rng);
} heuristic_bot;

static void *heuristic_create(const asobi_game_def *game, int players, int seat, const json_t *params,
                              asobi_error *err)
{
    (void)players;
    (void)seat;
    static const char *const keys[] = {NULL};
    if (asobi_bot_params_only(params, keys, "heuristic", err) != ASOBI_OK)
        return NULL;
    if (!game->heuristic) {
        asobi_fail(err, ASOBI_E_BAD_BOT, "%s has no heuristic bot yet", game->title);
        return NULL;
    }
    heuristic_bot *b = malloc(sizeof *b);
    b->play = game->heuristic;
    return b;
}

static void heuristic_destroy(void *bot) { free(bot); }

static int heuristic_choose(void *bot, const asobi_state *state, int seat, asobi_rng *rng)
{
    heuristic_bot *b = bot;
    /* The heuristic reads the game's own struct, but only of this state,
     * which asobi_bot_choose determinized for the seat. */
    return b->play(asobi_state_data_for_ai(state), seat, rng);
}

const asobi_bot_def asobi_bot_heuristic = {
    .name = "heuristic",
    .help = "the game's rule-of-thumb player, written from its rules (no parameters)",
    .create = heuristic_create,
    .destroy = heuristic_destroy,
    .choose = heuristic_choose,
};

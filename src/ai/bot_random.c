/* bot_random.c — the "random" bot: a uniformly random legal action. */
#include <stdlib.h>

#include "bot_def.h"

typedef struct random_bot {
    int *ids;
} random_bot;

static void *random_create(const asobi_game_def *game, int players, int seat, const json_t *params,
                           asobi_error *err)
{
    (void)players;
    (void)seat;
    static const char *const keys[] = {NULL};
    if (asobi_bot_params_only(params, keys, "random", err) != ASOBI_OK)
        return NULL;
    random_bot *b = malloc(sizeof *b);
    b->ids = malloc((size_t)asobi_game_max_actions(game) * sizeof(int));
    return b;
}

static void random_destroy(void *bot)
{
    random_bot *b = bot;
    if (b) {
        free(b->ids);
        free(b);
    }
}

static int random_choose(void *bot, const asobi_state *state, int seat, asobi_rng *rng)
{
    random_bot *b = bot;
    int n = asobi_state_legal(state, seat, b->ids);
    return n > 0 ? b->ids[asobi_rng_below(rng, (uint32_t)n)] : -1;
}

const asobi_bot_def asobi_bot_random = {
    .name = "random",
    .help = "a uniformly random legal action (no parameters)",
    .create = random_create,
    .destroy = random_destroy,
    .choose = random_choose,
};

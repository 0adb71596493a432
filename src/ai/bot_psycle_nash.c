/* bot_psycle_nash.c — "psycle-nash": 2-player PSYCLE's exact cycle equilibrium, played as a mixed strategy. */
#include <stdlib.h>
#include <string.h>

#include "bot_def.h"
#include "games/psycle/psycle.h"
#include "psycle_nash.h"

/* The bot reads only the public part of its determinized copy: the round,
 * the tiles face up (hence those still face down), both seats' gems and
 * points. It never reads the face-down order or the other seat's choice
 * (asobi_bot_choose has withdrawn that anyway). It solves the round's
 * matrix game from its own side (the game is symmetric, so the table's
 * "seat A" is always the bot) and samples its card from the optimal mix. */

typedef struct nash_bot {
    int seat;
} nash_bot;

static void *nash_create(const asobi_game_def *game, int players, int seat, const json_t *params,
                         asobi_error *err)
{
    static const char *const keys[] = {NULL};
    if (asobi_bot_params_only(params, keys, "psycle-nash", err) != ASOBI_OK)
        return NULL;
    if (strcmp(game->name, "psycle") != 0 || players != 2) {
        asobi_fail(err, ASOBI_E_BAD_BOT, "psycle-nash plays 2-player PSYCLE only (not %s with %d players)",
                   game->title, players);
        return NULL;
    }
    nash_bot *b = malloc(sizeof *b);
    b->seat = seat;
    return b;
}

static void nash_destroy(void *bot) { free(bot); }

/* The values still face down in a pile whose first face_up entries are shown. */
static unsigned face_down(const uint8_t *pile, int face_up)
{
    unsigned m = (1u << PSYCLE_ROUNDS) - 1;
    for (int r = 0; r < face_up; r++)
        m &= ~(1u << (pile[r] - 1));
    return m;
}

static int nash_choose(void *bot, const asobi_state *state, int seat, asobi_rng *rng)
{
    (void)bot;
    const psycle_state *s = asobi_state_data_for_ai(state);
    int other = 1 - seat, r = s->round;
    double x[PSYCLE_NASH_MAX];
    psycle_nash_round(r, face_down(s->targets, r + 1), face_down(s->bonuses, r + 1), s->targets[r],
                      s->bonuses[r], s->gems[seat], s->gems[other], s->points[seat] - s->points[other], x,
                      NULL);
    int cards = (s->gems[seat] < PSYCLE_CARDS - 1 ? s->gems[seat] : PSYCLE_CARDS - 1) + 1;
    double u = asobi_rng_unit(rng), acc = 0;
    int last = 0;
    for (int c = 0; c < cards; c++) {
        if (x[c] <= 0)
            continue;
        last = c;
        acc += x[c];
        if (u < acc)
            return c;
    }
    return last;
}

const asobi_bot_def asobi_bot_psycle_nash = {
    .name = "psycle-nash",
    .help = "2-player PSYCLE only: the exact equilibrium of a cycle (solved on first use), played as a "
            "mixed strategy (no parameters)",
    .create = nash_create,
    .destroy = nash_destroy,
    .choose = nash_choose,
};

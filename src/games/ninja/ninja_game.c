/* ninja_game.c — NINJA SCROLL TRICK behind the game-agnostic interface: options, set-up, results, the def. */
#include <stddef.h>

#include "game_def.h"
#include "ninja.h"

static int ninja_init(void *st, int players, const json_t *options, uint64_t seed, asobi_error *err)
{
    ninja_state *s = st;
    int start = asobi_option_int(options, "start_player");
    if (start >= players)
        return asobi_fail(err, ASOBI_E_BAD_OPTION,
                          "start_player %d does not exist: seats are 0 to %d (or -1: drawn)", start,
                          players - 1);
    asobi_rng_seed(&s->rng, seed);
    ninja_setup(s, players, start);
    return ASOBI_OK;
}

/* Scores are points (won tiles). Once over: the final order of ゲームの終了
 * (points, then tiles won, then positive tiles won; still tied: shared). With
 * the shadow ahead both seats lost: nobody wins and both share the last rank
 * (the shadow, not a seat, holds the first; ruling 14). */
static void ninja_result(const void *st, asobi_result *out)
{
    const ninja_state *s = st;
    for (int p = 0; p < s->players; p++)
        out->score[p] = ninja_points(s, p);
    if (s->phase != NINJA_PHASE_OVER) {
        asobi_rank_by_score(out);
        return;
    }
    for (int p = 0; p < s->players; p++) {
        int rank = 1;
        for (int q = 0; q < s->players; q++)
            if (ninja_compare_final(s, q, p) > 0)
                rank++;
        out->rank[p] = s->shadow_won ? s->players : rank;
    }
    out->winners = s->winners;
}

static const asobi_option_def ninja_options[] = {
    {.name = "start_player",
     .type = ASOBI_OPT_INT,
     .min = -1,
     .max = NINJA_MAX_PLAYERS - 1,
     .default_json = "-1",
     .help = "the start player of round 1 (a seat); -1: drawn from the game's seed (the sheet "
             "picks whoever most recently watched or read a ninja story)"},
};

const asobi_game_def asobi_game_ninja = {
    .name = "ninja",
    .title = "NINJA SCROLL TRICK",
    .min_players = NINJA_MIN_PLAYERS,
    .max_players = NINJA_MAX_PLAYERS,
    .state_size = sizeof(ninja_state),
    .rng_offset = offsetof(ninja_state, rng),
    .max_actions = NINJA_MAX_ACTIONS,
    .options = ninja_options,
    .option_count = 1,
    .init = ninja_init,
    .to_move = ninja_to_move,
    .legal = ninja_legal,
    .random_action = ninja_random_action,
    .apply = ninja_apply,
    .action_text = ninja_action_text,
    .parse_action = ninja_parse_action,
    .public_text = ninja_public_text,
    .explain_illegal = ninja_explain_illegal,
    .over_text = ninja_over_text,
    .events = ninja_events,
    .result = ninja_result,
    .view = ninja_view,
    .render = ninja_render,
    .determinize = ninja_determinize,
    .info_hash = ninja_info_hash,
    .heuristic = ninja_heuristic,
    .heuristic_playouts = true, /* its playouts know the shadow's rule: docs/ai.md, Figures */
    .quiet = ninja_quiet,
};

/* arena.h — round-robin tournaments between bot specs: Elo with confidence intervals, pair stats, JSON. */
#ifndef ASOBI_ARENA_H
#define ASOBI_ARENA_H

#include "asobi/asobi.h"

/* What to play. The bots are seated at every "table": every combination of
 * `players` specs from the list (repetition allowed, a table of one spec
 * only is skipped); for 2 players that is every unordered pair. Each table
 * plays games_per_table games, the seating rotated one seat per game so no
 * spec keeps a seat's advantage (use a multiple of players). Game k of the
 * whole run uses game seed seed + k and bot seeds derived from it, so a run
 * is reproducible whatever jobs is (time= budgets aside). */
typedef struct asobi_arena_config {
    const asobi_game_def *game;
    int players;
    const json_t *options; /* game options, NULL: defaults */
    const char *const *specs;
    int spec_count;
    int games_per_table;
    int jobs; /* worker threads, >= 1 */
    uint64_t seed;
    /* Called after every finished game (from a worker thread, one call at a
     * time), e.g. for a progress bar. May be NULL. */
    void (*progress)(int done, int total, void *ctx);
    void *ctx;
} asobi_arena_config;

/* The number of games a run will play (for a progress bar). */
int asobi_arena_total_games(const asobi_arena_config *config);

/* Play the tournament and return its summary (caller owns it):
 *   {"game", "players", "games",
 *    "bots":  [{"spec", "elo", "elo_ci95", "wins", "games", "avg_score", "ms_per_move"}],
 *    "pairs": [{"a", "b", "games", "a_wins", "b_wins", "draws"}]}
 * wins: games in which the bot was among the winners; avg_score: its mean
 * final score (asobi_result); ms_per_move: mean time of asobi_bot_choose.
 * A pair counts every game in which a and b both sat (different specs): a
 * "win" of a over b means a finished ahead of b (a better rank), a draw an
 * equal rank. Elo: the Bradley-Terry maximum-likelihood fit of those pair
 * results (draws count half), with one virtual draw per pair so that a
 * clean sweep stays finite, centred on a mean of 1500; elo_ci95 is 1.96
 * standard errors from the fit's curvature. NULL with err on a bad spec or
 * a bot failure. */
json_t *asobi_arena_run(const asobi_arena_config *config, asobi_error *err);

#endif

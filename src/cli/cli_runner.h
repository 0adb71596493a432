/* cli_runner.h — playing many bot-only games, in parallel threads, for sim, arena and bench. */
#ifndef ASOBI_CLI_RUNNER_H
#define ASOBI_CLI_RUNNER_H

#include "cli.h"

/* What one finished game reports. */
typedef struct cli_game_report {
    long index;
    asobi_result result;
    long actions;
    double seconds[ASOBI_MAX_SEATS]; /* time each seat's bot spent choosing */
    long moves[ASOBI_MAX_SEATS];     /* how many choices it made */
    bool external[ASOBI_MAX_SEATS];  /* the seat was an external program ("exec:") */
    long forfeits[ASOBI_MAX_SEATS];  /* its decisions a random move made instead (cli_exec_bot.h) */
    long stray[ASOBI_MAX_SEATS];     /* lines it wrote that answered no request (skipped) */
} cli_game_report;

/* External programs started with reuse=1 that finished a game and wait for
 * the next one: one pool per runner thread, so a program plays one game at
 * a time. */
struct cli_exec_bot;
typedef struct cli_program_pool {
    struct cli_exec_bot *idle[2 * ASOBI_MAX_SEATS];
    int count;
} cli_program_pool;

/* Stop every program of the pool. */
void cli_program_pool_drain(cli_program_pool *pool);

typedef struct cli_batch {
    const asobi_game_def *game;
    int players;
    const json_t *options;
    uint64_t seed; /* game i is played with seed + i: results do not depend on jobs */
    long games;
    int jobs;
    /* the bot spec for a seat of game i (an "exec:" spec starts a program) */
    const char *(*spec_of)(long game, int seat, void *ctx);
    /* called once per finished game, one call at a time (under a lock) */
    void (*done)(const cli_game_report *report, void *ctx);
    /* optional, called under the same lock before each game starts: true
     * when no more games should start (a sequential test has decided) */
    bool (*stop)(void *ctx);
    void *ctx;
} cli_batch;

/* Play one game between bots; false with err on a bot failure. Programs
 * started with reuse=1 are taken from pool and put back there (pool may be
 * NULL: every program plays this game only). */
bool cli_play_bot_game(const cli_batch *batch, long index, cli_program_pool *pool, cli_game_report *out,
                       asobi_error *err);

/* Play batch->games games on batch->jobs threads; false (after printing why)
 * if a game failed. Shows a progress bar on a terminal. */
bool cli_run_batch(const cli_batch *batch);

/* The 95% Wilson score interval of a proportion of k successes in n. */
void cli_wilson95(double k, double n, double *low, double *high);

/* The number of cores to use by default. */
int cli_default_jobs(void);

#endif

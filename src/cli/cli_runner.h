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
} cli_game_report;

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
    void *ctx;
} cli_batch;

/* Play one game between bots; false with err on a bot failure. */
bool cli_play_bot_game(const cli_batch *batch, long index, cli_game_report *out, asobi_error *err);

/* Play batch->games games on batch->jobs threads; false (after printing why)
 * if a game failed. Shows a progress bar on a terminal. */
bool cli_run_batch(const cli_batch *batch);

/* The 95% Wilson score interval of a proportion of k successes in n. */
void cli_wilson95(double k, double n, double *low, double *high);

/* The number of cores to use by default. */
int cli_default_jobs(void);

#endif

/* cli_runner.c — bot-only games played in parallel: the engine behind sim, arena and bench --bot. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_exec_bot.h"
#include "cli_runner.h"

/* A program for spec: an idle one of the pool, or a new one. */
static cli_exec_bot *take_program(cli_program_pool *pool, const char *spec, asobi_error *err)
{
    for (int i = 0; pool && i < pool->count; i++)
        if (strcmp(cli_exec_bot_spec(pool->idle[i]), spec) == 0) {
            cli_exec_bot *bot = pool->idle[i];
            pool->idle[i] = pool->idle[--pool->count];
            return bot;
        }
    return cli_exec_bot_start(spec, err);
}

/* Keep a program that may play again, else end it. */
static void return_program(cli_program_pool *pool, cli_exec_bot *bot)
{
    int cap = (int)(sizeof pool->idle / sizeof pool->idle[0]);
    if (pool && cli_exec_bot_reusable(bot) && pool->count < cap)
        pool->idle[pool->count++] = bot;
    else
        cli_exec_bot_free(bot);
}

void cli_program_pool_drain(cli_program_pool *pool)
{
    while (pool->count > 0)
        cli_exec_bot_free(pool->idle[--pool->count]);
}

bool cli_play_bot_game(const cli_batch *b, long index, cli_program_pool *pool, cli_game_report *out,
                       asobi_error *err)
{
    uint64_t seed = b->seed + (uint64_t)index;
    asobi_bot *bots[ASOBI_MAX_SEATS] = {0};
    cli_exec_bot *programs[ASOBI_MAX_SEATS] = {0}; /* the seats held by external programs */
    asobi_state *s = asobi_state_new(b->game, b->players, b->options, seed, err);
    bool ok = s != NULL;
    for (int i = 0; ok && i < b->players; i++) {
        const char *spec = b->spec_of(index, i, b->ctx);
        uint64_t bot_seed = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)i;
        if (cli_is_exec_spec(spec)) {
            ok = (programs[i] = take_program(pool, spec, err)) != NULL;
            if (ok)
                cli_exec_bot_begin(programs[i], index, b->players, i, bot_seed);
        } else
            ok = (bots[i] = asobi_bot_new(spec, b->game, b->players, i, bot_seed, err)) != NULL;
    }
    *out = (cli_game_report){.index = index};
    while (ok && !asobi_state_terminal(s)) {
        uint32_t to_move = asobi_state_to_move(s);
        int seat = __builtin_ctz(to_move);
        double t0 = cli_now();
        int id = programs[seat] ? cli_exec_bot_choose(programs[seat], s) : asobi_bot_choose(bots[seat], s, err);
        out->seconds[seat] += cli_now() - t0;
        out->moves[seat]++;
        /* each program hears of every action as its seat sees it happen */
        for (int i = 0; id >= 0 && i < b->players; i++)
            if (programs[i])
                cli_exec_bot_observe(programs[i], s, seat, id);
        ok = id >= 0 && asobi_state_apply(s, seat, id, err) == ASOBI_OK;
        out->actions++;
    }
    if (ok)
        asobi_state_result(s, &out->result);
    for (int i = 0; i < ASOBI_MAX_SEATS; i++) {
        asobi_bot_free(bots[i]);
        if (programs[i]) {
            out->external[i] = true;
            cli_exec_bot_take_counts(programs[i], &out->forfeits[i], &out->stray[i]);
            cli_exec_bot_end(programs[i], ok ? s : NULL);
            return_program(pool, programs[i]);
        }
    }
    asobi_state_free(s);
    return ok;
}

typedef struct batch_run {
    const cli_batch *batch;
    pthread_mutex_t lock;
    long next, finished;
    bool failed;
    asobi_error error;
    double start;
} batch_run;

static void *batch_worker(void *arg)
{
    batch_run *run = arg;
    cli_program_pool pool = {0};
    for (;;) {
        pthread_mutex_lock(&run->lock);
        bool stop = run->failed || (run->batch->stop && run->batch->stop(run->batch->ctx));
        long index = stop ? run->batch->games : run->next++;
        pthread_mutex_unlock(&run->lock);
        if (index >= run->batch->games) {
            cli_program_pool_drain(&pool);
            return NULL;
        }
        cli_game_report report;
        asobi_error err;
        bool ok = cli_play_bot_game(run->batch, index, &pool, &report, &err);
        pthread_mutex_lock(&run->lock);
        if (!ok && !run->failed) {
            run->failed = true;
            run->error = err;
        } else if (ok) {
            if (run->batch->done)
                run->batch->done(&report, run->batch->ctx);
            run->finished++;
            cli_progress(run->finished, run->batch->games, cli_now() - run->start);
        }
        pthread_mutex_unlock(&run->lock);
    }
}

bool cli_run_batch(const cli_batch *batch)
{
    batch_run run = {.batch = batch, .start = cli_now()};
    pthread_mutex_init(&run.lock, NULL);
    int jobs = batch->jobs < 1 ? 1 : batch->jobs > 64 ? 64 : batch->jobs;
    pthread_t threads[64];
    int started = 0;
    for (int i = 0; i < jobs; i++)
        if (pthread_create(&threads[started], NULL, batch_worker, &run) == 0)
            started++;
    if (started == 0)
        batch_worker(&run);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    pthread_mutex_destroy(&run.lock);
    if (run.failed)
        fprintf(stderr, "\nasobi: a game failed: %s\n", run.error.message);
    return !run.failed;
}

void cli_wilson95(double k, double n, double *low, double *high)
{
    if (n <= 0) {
        *low = 0;
        *high = 1;
        return;
    }
    const double z = 1.959963984540054;
    double p = k / n, z2 = z * z;
    double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
    double half = z * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
    *low = centre - half < 0 ? 0 : centre - half;
    *high = centre + half > 1 ? 1 : centre + half;
}

int cli_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

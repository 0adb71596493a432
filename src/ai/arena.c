/* arena.c — round-robin tournaments between bot specs, played on worker threads; Elo fit and JSON summary. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"

/* One seat of one finished game. */
typedef struct seat_record {
    int spec;
    int rank;
    bool won;
    double score;
    double seconds;
    long moves;
} seat_record;

typedef struct arena_run {
    const asobi_arena_config *cfg;
    int *tables; /* table_count x players spec indices */
    int table_count, total;
    seat_record *seats; /* total x players */
    pthread_mutex_t lock;
    int next, done;
    bool failed;
    asobi_error error;
} arena_run;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Every multiset of `players` spec indices (non-decreasing), skipping those of one spec. */
static int make_tables(int specs, int players, int *out)
{
    int idx[ASOBI_MAX_SEATS] = {0}, n = 0;
    for (;;) {
        bool mixed = false;
        for (int i = 1; i < players; i++)
            mixed |= idx[i] != idx[0];
        if (mixed) {
            if (out)
                memcpy(out + n * players, idx, (size_t)players * sizeof(int));
            n++;
        }
        int k = players - 1;
        while (k >= 0 && idx[k] == specs - 1)
            k--;
        if (k < 0)
            return n;
        idx[k]++;
        for (int i = k + 1; i < players; i++)
            idx[i] = idx[k];
    }
}

int asobi_arena_total_games(const asobi_arena_config *c)
{
    if (c->spec_count < 2 || c->players < 1 || c->players > ASOBI_MAX_SEATS)
        return 0;
    return make_tables(c->spec_count, c->players, NULL) * c->games_per_table;
}

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Play game k: table k / games_per_table, seating rotated by k. */
static int play_one(arena_run *run, int k, asobi_error *err)
{
    const asobi_arena_config *c = run->cfg;
    int p = c->players, g = k % c->games_per_table;
    const int *table = run->tables + (k / c->games_per_table) * p;
    seat_record *rec = run->seats + (size_t)k * (size_t)p;
    uint64_t game_seed = c->seed + (uint64_t)k;
    asobi_state *s = asobi_state_new(c->game, p, c->options, game_seed, err);
    if (!s)
        return -1;
    asobi_bot *bots[ASOBI_MAX_SEATS] = {0};
    int rc = 0;
    for (int seat = 0; seat < p; seat++) {
        rec[seat] = (seat_record){.spec = table[(seat + g) % p]};
        bots[seat] = asobi_bot_new(c->specs[rec[seat].spec], c->game, p, seat, mix64(game_seed), err);
        if (!bots[seat])
            rc = -1;
    }
    while (rc == 0 && !asobi_state_terminal(s)) {
        uint32_t mask = asobi_state_to_move(s);
        int ids[ASOBI_MAX_SEATS];
        /* Every seat to move chooses from the same state (simultaneous
         * choices stay blind: the bots withdraw what they cannot see). */
        for (int seat = 0; seat < p && rc == 0; seat++)
            if (mask & (1u << seat)) {
                double t0 = now_seconds();
                ids[seat] = asobi_bot_choose(bots[seat], s, err);
                rec[seat].seconds += now_seconds() - t0;
                rec[seat].moves++;
                if (ids[seat] < 0)
                    rc = -1;
            }
        for (int seat = 0; seat < p && rc == 0; seat++)
            if ((mask & (1u << seat)) && asobi_state_apply(s, seat, ids[seat], err) != ASOBI_OK)
                rc = -1;
    }
    if (rc == 0) {
        asobi_result r;
        asobi_state_result(s, &r);
        for (int seat = 0; seat < p; seat++) {
            rec[seat].rank = r.rank[seat];
            rec[seat].won = (r.winners >> seat) & 1u;
            rec[seat].score = r.score[seat];
        }
    }
    for (int seat = 0; seat < p; seat++)
        asobi_bot_free(bots[seat]);
    asobi_state_free(s);
    return rc;
}

static void *worker(void *arg)
{
    arena_run *run = arg;
    for (;;) {
        pthread_mutex_lock(&run->lock);
        int k = run->failed ? run->total : run->next++;
        pthread_mutex_unlock(&run->lock);
        if (k >= run->total)
            return NULL;
        asobi_error err;
        asobi_error_clear(&err);
        int rc = play_one(run, k, &err);
        pthread_mutex_lock(&run->lock);
        if (rc != 0 && !run->failed) {
            run->failed = true;
            run->error = err;
        }
        run->done++;
        if (run->cfg->progress && rc == 0)
            run->cfg->progress(run->done, run->total, run->cfg->ctx);
        pthread_mutex_unlock(&run->lock);
    }
}

/* Bradley-Terry / Elo by the MM algorithm (Hunter 2004) on strengths
 * gamma = 10^(elo/400): gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j),
 * W_i the score of i (wins + draws/2) plus the virtual draws. */
static void fit_elo(int n, const double *games, const double *score, double *elo, double *ci)
{
    double gamma[n];
    for (int i = 0; i < n; i++)
        gamma[i] = 1.0;
    for (int it = 0; it < 10000; it++) {
        double change = 0;
        for (int i = 0; i < n; i++) {
            double w = 0, d = 0;
            for (int j = 0; j < n; j++) {
                if (j == i)
                    continue;
                double nij = games[i * n + j] + 1.0; /* + one virtual game, a draw */
                w += score[i * n + j] + 0.5;
                d += nij / (gamma[i] + gamma[j]);
            }
            double g = d > 0 ? w / d : gamma[i];
            change = fmax(change, fabs(log(g / gamma[i])));
            gamma[i] = g;
        }
        double mean = 0;
        for (int i = 0; i < n; i++)
            mean += log(gamma[i]);
        mean /= n;
        for (int i = 0; i < n; i++)
            gamma[i] = exp(log(gamma[i]) - mean);
        if (change < 1e-12)
            break;
    }
    const double k = log(10.0) / 400.0;
    for (int i = 0; i < n; i++) {
        elo[i] = 1500.0 + log(gamma[i]) / k;
        /* Fisher information of elo_i with the others held fixed. */
        double info = 0;
        for (int j = 0; j < n; j++) {
            if (j == i)
                continue;
            double p = gamma[i] / (gamma[i] + gamma[j]);
            info += (games[i * n + j] + 1.0) * p * (1 - p) * k * k;
        }
        ci[i] = info > 0 ? 1.96 / sqrt(info) : INFINITY;
    }
}

static json_t *summarize(const arena_run *run)
{
    const asobi_arena_config *c = run->cfg;
    int n = c->spec_count, p = c->players;
    double *games = calloc((size_t)n * (size_t)n, sizeof *games);
    double *score = calloc((size_t)n * (size_t)n, sizeof *score);
    long *wins_ab = calloc((size_t)n * (size_t)n, sizeof *wins_ab);
    long *draws_ab = calloc((size_t)n * (size_t)n, sizeof *draws_ab);
    long *pair_games = calloc((size_t)n * (size_t)n, sizeof *pair_games);
    long *bot_wins = calloc((size_t)n, sizeof *bot_wins), *bot_games = calloc((size_t)n, sizeof *bot_games);
    long *bot_moves = calloc((size_t)n, sizeof *bot_moves);
    double *bot_score = calloc((size_t)n, sizeof *bot_score), *bot_time = calloc((size_t)n, sizeof *bot_time);
    for (int k = 0; k < run->total; k++) {
        const seat_record *rec = run->seats + (size_t)k * (size_t)p;
        for (int a = 0; a < p; a++) {
            int i = rec[a].spec;
            bot_games[i]++;
            bot_wins[i] += rec[a].won;
            bot_score[i] += rec[a].score;
            bot_time[i] += rec[a].seconds;
            bot_moves[i] += rec[a].moves;
            for (int b = 0; b < p; b++) {
                int j = rec[b].spec;
                if (b == a || j == i)
                    continue;
                games[i * n + j] += 1;
                score[i * n + j] += rec[a].rank < rec[b].rank ? 1.0 : rec[a].rank == rec[b].rank ? 0.5 : 0.0;
                /* Pair stats once per seat pair, from the smaller spec index. */
                if (i < j) {
                    pair_games[i * n + j]++;
                    if (rec[a].rank < rec[b].rank)
                        wins_ab[i * n + j]++;
                    else if (rec[a].rank > rec[b].rank)
                        wins_ab[j * n + i]++;
                    else
                        draws_ab[i * n + j]++;
                }
            }
        }
    }
    double elo[n], ci[n];
    fit_elo(n, games, score, elo, ci);
    json_t *bots = json_array(), *pairs = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(
            bots, json_pack("{s:s, s:f, s:f, s:I, s:I, s:f, s:f}", "spec", c->specs[i], "elo", elo[i], "elo_ci95",
                            ci[i], "wins", (json_int_t)bot_wins[i], "games", (json_int_t)bot_games[i],
                            "avg_score", bot_games[i] ? bot_score[i] / bot_games[i] : 0.0, "ms_per_move",
                            bot_moves[i] ? 1e3 * bot_time[i] / bot_moves[i] : 0.0));
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (pair_games[i * n + j])
                json_array_append_new(pairs, json_pack("{s:s, s:s, s:I, s:I, s:I, s:I}", "a", c->specs[i], "b",
                                                       c->specs[j], "games", (json_int_t)pair_games[i * n + j],
                                                       "a_wins", (json_int_t)wins_ab[i * n + j], "b_wins",
                                                       (json_int_t)wins_ab[j * n + i], "draws",
                                                       (json_int_t)draws_ab[i * n + j]));
    free(games);
    free(score);
    free(wins_ab);
    free(draws_ab);
    free(pair_games);
    free(bot_wins);
    free(bot_games);
    free(bot_moves);
    free(bot_score);
    free(bot_time);
    return json_pack("{s:s, s:i, s:i, s:o, s:o}", "game", asobi_game_name(c->game), "players", p, "games",
                     run->total, "bots", bots, "pairs", pairs);
}

json_t *asobi_arena_run(const asobi_arena_config *c, asobi_error *err)
{
    if (!c || !c->game || c->spec_count < 2 || !c->specs || c->games_per_table < 1 || c->jobs < 1) {
        asobi_fail(err, ASOBI_E_BAD_ARGUMENT, "an arena needs a game, two or more bot specs, games >= 1, jobs >= 1");
        return NULL;
    }
    if (c->players < asobi_game_min_players(c->game) || c->players > asobi_game_max_players(c->game)) {
        asobi_fail(err, ASOBI_E_BAD_PLAYERS, "%s is for %d to %d players, not %d", asobi_game_title(c->game),
                   asobi_game_min_players(c->game), asobi_game_max_players(c->game), c->players);
        return NULL;
    }
    for (int i = 0; i < c->spec_count; i++) {
        asobi_bot *b = asobi_bot_new(c->specs[i], c->game, c->players, 0, 0, err);
        if (!b)
            return NULL;
        asobi_bot_free(b);
    }
    arena_run run = {.cfg = c};
    run.table_count = make_tables(c->spec_count, c->players, NULL);
    run.tables = malloc((size_t)run.table_count * (size_t)c->players * sizeof(int));
    make_tables(c->spec_count, c->players, run.tables);
    run.total = run.table_count * c->games_per_table;
    run.seats = calloc((size_t)run.total * (size_t)c->players, sizeof *run.seats);
    pthread_mutex_init(&run.lock, NULL);
    int jobs = c->jobs < run.total ? c->jobs : run.total;
    pthread_t threads[jobs > 0 ? jobs : 1];
    int started = 0;
    for (; started < jobs; started++)
        if (pthread_create(&threads[started], NULL, worker, &run) != 0)
            break;
    if (started == 0)
        worker(&run);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    pthread_mutex_destroy(&run.lock);
    json_t *out = NULL;
    if (run.failed) {
        if (err)
            *err = run.error;
    } else {
        out = summarize(&run);
        asobi_error_clear(err);
    }
    free(run.tables);
    free(run.seats);
    return out;
}

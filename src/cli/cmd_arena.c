/* cmd_arena.c — `asobi arena`: a round-robin between bots, seats rotated, with Elo ratings and pair records. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_exec_bot.h"
#include "cli_runner.h"

#define ARENA_MAX_BOTS 16
#define ARENA_MAX_TABLES 4096
#define ARENA_BOOTSTRAP 200

/* How the games are laid out
 * --------------------------
 * A "table" is a choice of which bots sit down together: with 2 players,
 * every pair of bots; with P players and at least P bots, every combination
 * of P of them; with n bots, fewer than the P seats, n tables where seat s
 * holds bot (s + t) mod n at table t, so each bot is the one with the extra
 * seats as often as any other (2 bots, 3 seats: ABA and BAB). Game g is
 * played at table g mod T, rotated by (g / T) mod P seats, so over P*T games
 * every bot sits in every seat of every table equally often: nobody keeps
 * the first player's advantage (or disadvantage), nor a majority.
 *
 * How a game counts
 * -----------------
 * For every two seats held by different bots, the one ranked better (a
 * lower rank) beat the other; equal ranks are a draw. With 2 players that is
 * simply the winner; with 3+ it is "finished ahead of". These pairwise
 * results feed both the pair table and the ratings. */
/* A sequential probability ratio test of "bot 0 is stronger than bot 1"
 * (--sprt elo0,elo1,alpha,beta), as engine testers run them: H0, bot 0 is
 * elo0 Elo stronger; H1, elo1. After each game (in game order, so that the
 * decision does not depend on --jobs) the log-likelihood ratio of the
 * scores so far, by the normal approximation of the generalized SPRT, is
 * compared with log(beta/(1-alpha)) and log((1-beta)/alpha); the arena
 * stops starting games once it crosses one, and reports the games up to
 * that one only. */
typedef struct arena_sprt {
    bool on;
    double elo0, elo1, alpha, beta;
    double lower, upper; /* the LLR's bounds */
    long games;          /* the games counted so far: 0..games-1 all finished */
    long played;         /* the games finished, the test's decision or not */
    double sum, sum2;    /* of bot 0's per-game scores over them */
    double llr;
    int result;          /* 0 undecided, 1 H1 accepted, -1 H0 accepted */
    bool *finished;      /* per game */
    cli_game_report *reports; /* per game: counted once the test decided */
} arena_sprt;

typedef struct arena {
    int nbots, players;
    char *items[ARENA_MAX_BOTS];  /* as listed: LABEL=SPEC or SPEC */
    char *labels[ARENA_MAX_BOTS]; /* what the tables show */
    const char *specs[ARENA_MAX_BOTS];
    int gauntlet; /* the bot every table holds (--gauntlet), or -1 */
    arena_sprt sprt;
    int ntables;
    int tables[ARENA_MAX_TABLES][ASOBI_MAX_SEATS];
    long games;
    /* per game: the bot at each seat and its rank (for the bootstrap) */
    signed char (*seat_bot)[ASOBI_MAX_SEATS];
    signed char (*seat_rank)[ASOBI_MAX_SEATS];
    double wins[ARENA_MAX_BOTS], score[ARENA_MAX_BOTS], seconds[ARENA_MAX_BOTS];
    long seats_played[ARENA_MAX_BOTS], moves[ARENA_MAX_BOTS];
    long forfeits[ARENA_MAX_BOTS]; /* an external program's decisions played at random for it */
    long stray[ARENA_MAX_BOTS];    /* its lines that answered no request */
} arena;

static int arena_bot_at(const arena *a, long game, int seat)
{
    int t = (int)(game % a->ntables);
    int rotation = (int)((game / a->ntables) % a->players);
    return a->tables[t][(seat + rotation) % a->players];
}

static const char *arena_spec(long game, int seat, void *ctx)
{
    arena *a = ctx;
    return a->specs[arena_bot_at(a, game, seat)];
}

/* Bot 0's score in game g against bot 1: its pairwise results over the
 * seats they held, averaged (1 win, 1/2 draw, 0 loss). */
static double sprt_score(const arena *a, const cli_game_report *r)
{
    double sum = 0;
    int pairs = 0;
    for (int i = 0; i < a->players; i++)
        for (int j = 0; j < a->players; j++) {
            if (arena_bot_at(a, r->index, i) != 0 || arena_bot_at(a, r->index, j) != 1)
                continue;
            sum += r->result.rank[i] < r->result.rank[j] ? 1 : r->result.rank[i] == r->result.rank[j] ? 0.5 : 0;
            pairs++;
        }
    return pairs ? sum / pairs : 0.5;
}

/* The Elo difference's expected score. */
static double elo_score(double elo) { return 1 / (1 + pow(10, -elo / 400)); }

/* Count the finished games that follow the counted ones, until decided. */
static void sprt_advance(arena *a)
{
    arena_sprt *t = &a->sprt;
    double s0 = elo_score(t->elo0), s1 = elo_score(t->elo1);
    while (!t->result && t->games < a->games && t->finished[t->games]) {
        double x = sprt_score(a, &t->reports[t->games++]);
        t->sum += x;
        t->sum2 += x * x;
        /* the variance with one won and one lost game more, so that a run
         * of equal results does not make it zero (and decide at once) */
        double n = (double)t->games, m = (t->sum + 1) / (n + 2), var = (t->sum2 + 1) / (n + 2) - m * m;
        t->llr = (s1 - s0) * (2 * t->sum - n * (s0 + s1)) / (2 * var);
        t->result = t->llr >= t->upper ? 1 : t->llr <= t->lower ? -1 : 0;
    }
}

static bool arena_stop(void *ctx)
{
    const arena *a = ctx;
    return a->sprt.on && a->sprt.result != 0;
}

static void arena_count(arena *a, const cli_game_report *r)
{
    for (int seat = 0; seat < a->players; seat++) {
        int b = arena_bot_at(a, r->index, seat);
        a->seat_bot[r->index][seat] = (signed char)b;
        a->seat_rank[r->index][seat] = (signed char)r->result.rank[seat];
        if (r->result.winners & (1u << seat))
            a->wins[b] += 1;
        a->score[b] += r->result.score[seat];
        a->seconds[b] += r->seconds[seat];
        a->moves[b] += r->moves[seat];
        a->forfeits[b] += r->forfeits[seat];
        a->stray[b] += r->stray[seat];
        a->seats_played[b]++;
    }
}

static void arena_done(const cli_game_report *r, void *ctx)
{
    arena *a = ctx;
    if (!a->sprt.on) {
        arena_count(a, r);
        return;
    }
    a->sprt.played++;
    a->sprt.reports[r->index] = *r;
    a->sprt.finished[r->index] = true;
    sprt_advance(a);
}

/* All combinations of k of the n bots, in lexicographic order; with fewer
 * bots than seats, the n cyclic shifts of "every bot, repeated". */
static void make_tables(arena *a)
{
    int k = a->players, n = a->nbots;
    a->ntables = 0;
    if (n < k) {
        for (int t = 0; t < n; t++)
            for (int seat = 0; seat < k; seat++)
                a->tables[t][seat] = (seat + t) % n;
        a->ntables = n;
        return;
    }
    int pick[ASOBI_MAX_SEATS];
    for (int i = 0; i < k; i++)
        pick[i] = i;
    while (a->ntables < ARENA_MAX_TABLES) {
        bool holds = a->gauntlet < 0; /* a gauntlet's tables all hold its bot */
        for (int i = 0; i < k; i++)
            holds = holds || pick[i] == a->gauntlet;
        if (holds)
            memcpy(a->tables[a->ntables++], pick, sizeof pick);
        int i = k - 1;
        while (i >= 0 && pick[i] == n - k + i)
            i--;
        if (i < 0)
            break;
        pick[i]++;
        for (int j = i + 1; j < k; j++)
            pick[j] = pick[j - 1] + 1;
    }
}

/* Pairwise results of the games listed in picks (a bootstrap resample, or
 * every game once): wins[a][b] counts a's wins over b, a draw half each. */
static void count_pairs(const arena *a, const long *picks, long count, double wins[][ARENA_MAX_BOTS],
                        double draws[][ARENA_MAX_BOTS])
{
    memset(wins, 0, sizeof(double) * ARENA_MAX_BOTS * ARENA_MAX_BOTS);
    if (draws)
        memset(draws, 0, sizeof(double) * ARENA_MAX_BOTS * ARENA_MAX_BOTS);
    for (long k = 0; k < count; k++) {
        long g = picks ? picks[k] : k;
        for (int i = 0; i < a->players; i++)
            for (int j = i + 1; j < a->players; j++) {
                int bi = a->seat_bot[g][i], bj = a->seat_bot[g][j];
                int ri = a->seat_rank[g][i], rj = a->seat_rank[g][j];
                if (bi == bj)
                    continue;
                if (ri < rj)
                    wins[bi][bj] += 1;
                else if (rj < ri)
                    wins[bj][bi] += 1;
                else {
                    wins[bi][bj] += 0.5;
                    wins[bj][bi] += 0.5;
                    if (draws) {
                        draws[bi][bj] += 1;
                        draws[bj][bi] += 1;
                    }
                }
            }
    }
}

/* Bradley-Terry ratings by the minorization-maximization iteration (Hunter
 * 2004), in Elo points (400 log10 strength), centred on a mean of 0. A prior
 * of one drawn game between every two bots keeps a bot that never lost (or
 * never won) at a finite rating. */
static void elo_ratings(int n, double wins[][ARENA_MAX_BOTS], double *elo)
{
    double r[ARENA_MAX_BOTS], w[ARENA_MAX_BOTS] = {0}, games[ARENA_MAX_BOTS][ARENA_MAX_BOTS];
    for (int i = 0; i < n; i++) {
        r[i] = 1;
        for (int j = 0; j < n; j++) {
            games[i][j] = i == j ? 0 : wins[i][j] + wins[j][i] + 1;
            if (i != j)
                w[i] += wins[i][j] + 0.5;
        }
    }
    for (int iter = 0; iter < 10000; iter++) {
        double change = 0, log_mean = 0;
        for (int i = 0; i < n; i++) {
            double denom = 0;
            for (int j = 0; j < n; j++)
                if (j != i)
                    denom += games[i][j] / (r[i] + r[j]);
            double next = denom > 0 ? w[i] / denom : r[i];
            change = fmax(change, fabs(log(next) - log(r[i])));
            r[i] = next;
        }
        for (int i = 0; i < n; i++)
            log_mean += log(r[i]) / n;
        for (int i = 0; i < n; i++)
            r[i] /= exp(log_mean);
        if (change < 1e-10)
            break;
    }
    for (int i = 0; i < n; i++)
        elo[i] = 400.0 * log10(r[i]);
}

static int compare_doubles(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Elo points of an expected score p in (0, 1). */
static double elo_of_score(double p) { return 400 * log10(p / (1 - p)); }

/* 95% intervals of the ratings: the 2.5th and 97.5th percentiles over
 * bootstrap resamples of the games (a fixed seed: the same arena always
 * reports the same intervals), widened to hold each bot's Wilson interval
 * of its score against the others, put in Elo around its rating. The
 * bootstrap alone gives a zero-width interval to a bot that won (or lost)
 * every game: every resample is that same sweep. The Wilson interval,
 * on the score with the ratings' prior of one drawn game, is never zero
 * wide: 20 wins of 20 between two bots are +323 [+115, +480]. */
static void elo_intervals(const arena *a, double low[], double high[])
{
    long *picks = malloc((size_t)a->games * sizeof *picks);
    double(*samples)[ARENA_BOOTSTRAP] = malloc(sizeof(double[ARENA_MAX_BOTS][ARENA_BOOTSTRAP]));
    double wins[ARENA_MAX_BOTS][ARENA_MAX_BOTS], elo[ARENA_MAX_BOTS];
    asobi_rng rng;
    asobi_rng_seed(&rng, 2024);
    for (int b = 0; b < ARENA_BOOTSTRAP; b++) {
        for (long k = 0; k < a->games; k++)
            picks[k] = (long)asobi_rng_below(&rng, (uint32_t)a->games);
        count_pairs(a, picks, a->games, wins, NULL);
        elo_ratings(a->nbots, wins, elo);
        for (int i = 0; i < a->nbots; i++)
            samples[i][b] = elo[i];
    }
    count_pairs(a, NULL, a->games, wins, NULL);
    elo_ratings(a->nbots, wins, elo);
    for (int i = 0; i < a->nbots; i++) {
        qsort(samples[i], ARENA_BOOTSTRAP, sizeof(double), compare_doubles);
        low[i] = samples[i][(int)(0.025 * ARENA_BOOTSTRAP)];
        high[i] = samples[i][(int)(0.975 * ARENA_BOOTSTRAP) - 1];
        double score = 0.5, games = 1, lo, hi;
        for (int j = 0; j < a->nbots; j++)
            if (j != i) {
                score += wins[i][j];
                games += wins[i][j] + wins[j][i];
            }
        cli_wilson95(score, games, &lo, &hi);
        /* a rating centred on the mean moves by (n-1)/n of a change in the
         * bot's performance against the others */
        double p = score / games, eps = 1e-6, share = (a->nbots - 1.0) / a->nbots;
        lo = fmax(lo, eps);
        hi = fmin(hi, 1 - eps);
        low[i] = fmin(low[i], elo[i] + share * (elo_of_score(lo) - elo_of_score(p)));
        high[i] = fmax(high[i], elo[i] + share * (elo_of_score(hi) - elo_of_score(p)));
    }
    free(samples);
    free(picks);
}

/* --sprt ELO0,ELO1,ALPHA,BETA; false after printing why. */
static bool parse_sprt(const char *text, arena_sprt *t)
{
    char tail;
    if (sscanf(text, "%lf,%lf,%lf,%lf%c", &t->elo0, &t->elo1, &t->alpha, &t->beta, &tail) != 4 ||
        !(t->elo0 < t->elo1) || fabs(t->elo0) > 2000 || fabs(t->elo1) > 2000 || !(t->alpha > 0 && t->alpha < 0.5) ||
        !(t->beta > 0 && t->beta < 0.5)) {
        fprintf(stderr, "asobi: --sprt is ELO0,ELO1,ALPHA,BETA with ELO0 < ELO1 and error rates in (0, 0.5), "
                        "such as 0,50,0.05,0.05; not \"%s\"\n", text);
        return false;
    }
    t->on = true;
    t->lower = log(t->beta / (1 - t->alpha));
    t->upper = log((1 - t->beta) / t->alpha);
    return true;
}

/* --gauntlet SPEC: a bot of the list (its label or item), else one more;
 * it becomes bot 0 (A of --sprt). False after printing why. */
static bool add_gauntlet(arena *a, const char *item)
{
    int g = -1;
    for (int i = 0; i < a->nbots; i++)
        if (strcmp(a->items[i], item) == 0 || strcmp(a->labels[i], item) == 0)
            g = i;
    if (g < 0) {
        if (a->nbots == ARENA_MAX_BOTS) {
            fprintf(stderr, "asobi: at most %d bots in an arena\n", ARENA_MAX_BOTS);
            return false;
        }
        g = a->nbots++;
        a->items[g] = strdup(item);
        cli_split_label(a->items[g], &a->labels[g], &a->specs[g]);
    }
    /* to the front, the others in their order */
    char *it = a->items[g], *label = a->labels[g];
    const char *spec = a->specs[g];
    for (int i = g; i > 0; i--) {
        a->items[i] = a->items[i - 1];
        a->labels[i] = a->labels[i - 1];
        a->specs[i] = a->specs[i - 1];
    }
    a->items[0] = it;
    a->labels[0] = label;
    a->specs[0] = spec;
    a->gauntlet = 0;
    return true;
}

/* The test's outcome, printed unless json; the --json member. */
static json_t *sprt_report(const arena *a, bool json)
{
    const arena_sprt *t = &a->sprt;
    const char *verdict = t->result > 0 ? "H1" : t->result < 0 ? "H0" : "undecided";
    if (!json) {
        printf("\nSPRT %s vs %s, H0 elo %+g, H1 elo %+g, alpha %g, beta %g: ", a->labels[0], a->labels[1], t->elo0,
               t->elo1, t->alpha, t->beta);
        if (t->result > 0)
            printf("H1 accepted (%s is at least %+g Elo stronger)", a->labels[0], t->elo1);
        else if (t->result < 0)
            printf("H0 accepted (%s is not %+g Elo stronger)", a->labels[0], t->elo1);
        else
            printf("undecided");
        printf(" after %ld games; LLR %.2f in [%.2f, %.2f]\n", t->games, t->llr, t->lower, t->upper);
    }
    return json_pack("{s:f, s:f, s:f, s:f, s:s, s:I, s:I, s:f, s:[f,f]}", "elo0", t->elo0, "elo1", t->elo1,
                     "alpha", t->alpha, "beta", t->beta, "result", verdict, "games", (json_int_t)t->games, "played",
                     (json_int_t)t->played, "llr", t->llr, "bounds", t->lower, t->upper);
}

static void arena_usage(FILE *out)
{
    fprintf(out,
            "usage: asobi arena GAME --bots LIST [--games N] [--players P] [--jobs J] [--seed S]\n"
            "                        [--gauntlet SPEC] [--sprt ELO0,ELO1,ALPHA,BETA]\n"
            "                        [--opt KEY=VALUE]... [--card-sets DIR] [--options JSON] [--json]\n"
            "\n"
            "A round-robin between the bots of LIST (at least 2 specs, comma-separated): every\n"
            "pair (2 players) or every combination of P bots sits down together, in every seat\n"
            "rotation, N games in all (default 200). Reported: Elo ratings (Bradley-Terry,\n"
            "centred on 0) with 95%% bootstrap intervals, wins (a shared victory counts for each\n"
            "winner), per-pair records (with 3+ players a beats b when a finished ahead of b),\n"
            "average score and ms per move. --json prints one JSON object instead. Game i uses\n"
            "seed S+i, so results do not depend on --jobs (default: all cores).\n"
            "\n"
            "A spec may carry a label, NAME=SPEC (mc=exec:cmd=python3 mc.py, h=heuristic): the\n"
            "tables and --json show it. --gauntlet SPEC (a spec or label of LIST, or one more bot)\n"
            "plays that bot against each of the others only. --sprt ELO0,ELO1,ALPHA,BETA runs a\n"
            "sequential probability ratio test between the two bots (the first listed, or the\n"
            "gauntlet's bot, is A): H0 \"A is ELO0 stronger\" against H1 \"ELO1\", with error\n"
            "rates ALPHA and BETA; the arena stops when it decides (at most --games games).\n"
            "\n"
            "A spec exec:cmd=COMMAND[,timeout=S][,startup=S][,reuse=1][,samples=K] seats an external\n"
            "program (run with /bin/sh -c, no commas in COMMAND) speaking JSON lines\n"
            "(docs/protocol.md, \"External bots\"). A bad answer, crash or timeout (default 10 s a\n"
            "decision) is a forfeit: a random legal move is played for it, and the forfeits and\n"
            "stray lines are reported per bot.\n");
}

int cli_arena(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"games", required_argument, NULL, 'n'}, {"bots", required_argument, NULL, 'b'},
        {"players", required_argument, NULL, 'p'}, {"seed", required_argument, NULL, 's'},
        {"jobs", required_argument, NULL, 'j'}, {"opt", required_argument, NULL, 'o'}, CLI_CARD_SETS_OPTION,
        {"options", required_argument, NULL, 'O'}, {"json", no_argument, NULL, 'J'},
        {"gauntlet", required_argument, NULL, 'g'}, {"sprt", required_argument, NULL, 'S'},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    long games = 200, jobs = cli_default_jobs();
    cli_game_args ga = {.seed = 1};
    bool json = false;
    const char *bots_arg = NULL, *gauntlet_arg = NULL;
    int status = 2, c, handled;
    arena *a = calloc(1, sizeof *a);
    a->gauntlet = -1;
    optind = 1;
    while ((c = getopt_long(argc, argv, "n:b:p:s:j:o:O:JC:g:S:h", longopts, NULL)) != -1) {
        if ((handled = cli_game_flag(c, optarg, &ga)) != 0) {
            if (handled < 0)
                goto done;
            continue;
        }
        switch (c) {
        case 'n': if (!cli_parse_long(optarg, 1, 10000000, "--games", &games)) goto done; break;
        case 'b': bots_arg = optarg; break;
        case 'j': if (!cli_parse_long(optarg, 1, 64, "--jobs", &jobs)) goto done; break;
        case 'J': json = true; break;
        case 'g': gauntlet_arg = optarg; break;
        case 'S': if (!parse_sprt(optarg, &a->sprt)) goto done; break;
        case 'h': arena_usage(stdout); status = 0; goto done;
        default: arena_usage(stderr); goto done;
        }
    }
    const asobi_game_def *game = cli_game_operand(argc, argv, &ga, arena_usage);
    if (!game)
        goto done;
    if (!bots_arg) {
        fprintf(stderr, "asobi: arena needs --bots with at least two bot specs\n");
        goto done;
    }
    a->nbots = cli_parse_bot_list(bots_arg, a->items, ARENA_MAX_BOTS);
    if (a->nbots < 0)
        goto done;
    for (int i = 0; i < a->nbots; i++)
        cli_split_label(a->items[i], &a->labels[i], &a->specs[i]);
    if (gauntlet_arg && !add_gauntlet(a, gauntlet_arg))
        goto done;
    if (a->nbots < 2) {
        fprintf(stderr, "asobi: arena needs at least two bot specs (got \"%s\")\n", bots_arg);
        goto done;
    }
    if (a->sprt.on && a->nbots != 2) {
        fprintf(stderr, "asobi: --sprt tests two bots (A, the first or the gauntlet's, against B), not %d\n",
                a->nbots);
        goto done;
    }
    asobi_error err;
    for (int i = 0; i < a->nbots; i++) {
        if (cli_check_bot_spec(a->specs[i], game, &err) != ASOBI_OK) {
            fprintf(stderr, "asobi: bot \"%s\": %s\n", a->specs[i], err.message);
            goto done;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(a->labels[i], a->labels[j]) == 0) {
                fprintf(stderr, "asobi: bot \"%s\" is listed twice\n", a->labels[i]);
                goto done;
            }
    }
    a->players = (int)ga.players;
    a->games = games;
    make_tables(a);
    a->seat_bot = calloc((size_t)games, sizeof *a->seat_bot);
    a->seat_rank = calloc((size_t)games, sizeof *a->seat_rank);
    if (a->sprt.on) {
        a->sprt.finished = calloc((size_t)games, sizeof *a->sprt.finished);
        a->sprt.reports = calloc((size_t)games, sizeof *a->sprt.reports);
    }
    cli_batch batch = {.game = game, .players = a->players, .options = ga.options, .seed = ga.seed,
                       .games = games, .jobs = (int)jobs, .spec_of = arena_spec, .done = arena_done,
                       .stop = arena_stop, .ctx = a};
    double t0 = cli_now();
    if (!cli_run_batch(&batch)) {
        status = 1;
        goto done;
    }
    double elapsed = cli_now() - t0;
    if (a->sprt.on) { /* the games up to the decision count, those played beyond it not */
        games = a->games = a->sprt.games;
        for (long g = 0; g < games; g++)
            arena_count(a, &a->sprt.reports[g]);
    }

    double wins[ARENA_MAX_BOTS][ARENA_MAX_BOTS], draws[ARENA_MAX_BOTS][ARENA_MAX_BOTS];
    double elo[ARENA_MAX_BOTS], low[ARENA_MAX_BOTS], high[ARENA_MAX_BOTS];
    count_pairs(a, NULL, games, wins, draws);
    elo_ratings(a->nbots, wins, elo);
    elo_intervals(a, low, high);

    json_t *bots = json_array(), *pairs = json_array();
    if (!json)
        printf("%s arena, %d players, %ld games, seed %llu, %.1f s\n%-28s %6s  %-15s %13s %7s %9s %9s\n",
               asobi_game_title(game), a->players, games, (unsigned long long)ga.seed, elapsed, "bot", "elo",
               "95% CI", "wins/games", "win%", "avg score", "ms/move");
    for (int i = 0; i < a->nbots; i++) {
        double n = (double)a->seats_played[i];
        double ms = a->moves[i] ? 1000.0 * a->seconds[i] / (double)a->moves[i] : 0;
        json_array_append_new(bots, json_pack("{s:s, s:s, s:f, s:[f,f], s:f, s:I, s:f, s:f, s:I, s:I, s:I}",
                                              "label", a->labels[i], "spec", a->specs[i], "elo", elo[i],
                                              "elo_ci95", low[i], high[i],
                                              "wins", a->wins[i], "games", (json_int_t)a->seats_played[i],
                                              "avg_score", n > 0 ? a->score[i] / n : 0, "ms_per_move", ms,
                                              "decisions", (json_int_t)a->moves[i], "forfeits",
                                              (json_int_t)a->forfeits[i], "stray", (json_int_t)a->stray[i]));
        if (!json)
            printf("%-28.28s %+6.0f  [%+5.0f, %+5.0f] %6.0f/%-6ld %6.1f%% %9.2f %9.3f\n", a->labels[i], elo[i],
                   low[i], high[i], a->wins[i], a->seats_played[i], n > 0 ? 100 * a->wins[i] / n : 0,
                   n > 0 ? a->score[i] / n : 0, ms);
    }
    /* external programs: how often a random move stood in for them */
    for (int i = 0; !json && i < a->nbots; i++)
        if (cli_is_exec_spec(a->specs[i]))
            printf("forfeits of %s: %ld of %ld decisions, %ld stray line%s\n", a->labels[i], a->forfeits[i],
                   a->moves[i], a->stray[i], a->stray[i] == 1 ? "" : "s");
    if (!json)
        printf("\n%-28s %-28s %7s %7s %7s %6s  %s\n", "a", "b", "games", "a wins", "b wins", "draws",
               "a's score, 95% CI");
    for (int i = 0; i < a->nbots; i++)
        for (int j = i + 1; j < a->nbots; j++) {
            double d = draws[i][j], aw = wins[i][j] - d / 2, bw = wins[j][i] - d / 2, n = aw + bw + d;
            if (n == 0)
                continue;
            json_array_append_new(pairs, json_pack("{s:s, s:s, s:f, s:f, s:f, s:f}", "a", a->labels[i], "b",
                                                   a->labels[j], "games", n, "a_wins", aw, "b_wins", bw,
                                                   "draws", d));
            if (!json) {
                double lo, hi;
                cli_wilson95(aw + d / 2, n, &lo, &hi);
                printf("%-28.28s %-28.28s %7.0f %7.0f %7.0f %6.0f  %5.1f%% [%5.1f%%, %5.1f%%]\n", a->labels[i],
                       a->labels[j], n, aw, bw, d, 100 * (aw + d / 2) / n, 100 * lo, 100 * hi);
            }
        }
    json_t *sprt = a->sprt.on ? sprt_report(a, json) : NULL;
    if (json) {
        json_t *out = json_pack("{s:s, s:i, s:I, s:o, s:o}", "game", asobi_game_name(game), "players",
                                a->players, "games", (json_int_t)games, "bots", bots, "pairs", pairs);
        if (a->gauntlet >= 0)
            json_object_set_new(out, "gauntlet", json_string(a->labels[a->gauntlet]));
        if (sprt)
            json_object_set_new(out, "sprt", sprt);
        char *text = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER);
        puts(text);
        free(text);
        json_decref(out);
    } else {
        json_decref(bots);
        json_decref(pairs);
        json_decref(sprt);
    }
    status = 0;
done:
    for (int i = 0; i < a->nbots; i++) {
        free(a->items[i]);
        free(a->labels[i]);
    }
    free(a->sprt.finished);
    free(a->sprt.reports);
    free(a->seat_bot);
    free(a->seat_rank);
    free(a);
    json_decref(ga.options);
    return status;
}

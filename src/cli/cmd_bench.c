/* cmd_bench.c — `asobi bench`: random playouts and actions per second (medians of several runs), and bot speed. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli_runner.h"

typedef struct bench_run {
    double games_per_second, actions_per_second;
} bench_run;

/* Random playouts from fresh games for about `seconds`, each played by
 * asobi_state_random_playout (as search plays them). With views, the same
 * loop one action at a time, every action preceded by what an engine serving
 * players would do: the view of each seat to move as JSON text
 * (asobi_state_view_text, as the server sends it). */
static bench_run bench_playouts(const asobi_game_def *game, int players, const json_t *options,
                                uint64_t seed, double seconds, bool views)
{
    /* 64 deals made beforehand, so that no allocation is timed */
    enum { DEALS = 64 };
    asobi_state *fresh[DEALS];
    for (int i = 0; i < DEALS; i++)
        fresh[i] = asobi_state_new(game, players, options, seed * DEALS + (uint64_t)i, NULL);
    asobi_state *s = asobi_state_clone(fresh[0]);
    asobi_rng rng;
    asobi_rng_seed(&rng, seed);
    long games = 0, actions = 0;
    double t0 = cli_now(), elapsed = 0;
    while (elapsed < seconds) {
        for (int batch = 0; batch < 16; batch++) {
            asobi_state_copy(s, fresh[games % DEALS]);
            if (!views) { /* as search plays them */
                actions += asobi_state_random_playout(s, &rng);
                games++;
                continue;
            }
            uint32_t to_move;
            while ((to_move = asobi_state_to_move(s)) != 0) {
                int seat = __builtin_ctz(to_move);
                for (uint32_t m = to_move; m; m &= m - 1)
                    free(asobi_state_view_text(s, __builtin_ctz(m), NULL));
                asobi_state_apply_unchecked(s, seat, asobi_state_random_action(s, seat, &rng));
                actions++;
            }
            games++;
        }
        elapsed = cli_now() - t0;
    }
    asobi_state_free(s);
    for (int i = 0; i < DEALS; i++)
        asobi_state_free(fresh[i]);
    return (bench_run){(double)games / elapsed, (double)actions / elapsed};
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef struct bot_bench {
    const char *spec;
    double seconds;
    long moves;
} bot_bench;

static const char *bench_spec(long game, int seat, void *ctx)
{
    (void)game;
    bot_bench *b = ctx;
    return seat == 0 ? b->spec : "random";
}

static void bench_done(const cli_game_report *r, void *ctx)
{
    bot_bench *b = ctx;
    b->seconds += r->seconds[0];
    b->moves += r->moves[0];
}

static void bench_usage(FILE *out)
{
    fprintf(out,
            "usage: asobi bench GAME [--players N] [--runs R] [--seconds S] [--seed S]\n"
            "                        [--bot SPEC [--games N]] [--opt KEY=VALUE]... [--card-sets DIR] [--no-views]\n"
            "                        [--json]\n"
            "\n"
            "Random playouts per second and actions per second on one core, as the median of R\n"
            "runs (default 5) of S seconds each (default 1), first without views, then building\n"
            "and serializing the JSON view of every seat to move before every action (not with\n"
            "--no-views). ns per decision: the time of one action (a legal-action list, a random\n"
            "pick and the action applied, through the generic interface search uses).\n"
            "With --bot SPEC: the bot plays seat 0 against random bots for N games (default 5)\n"
            "per run; reported: moves per second and ms per move (median of runs), and for\n"
            "specs with iters=K, search iterations per second.\n");
}

int cli_bench(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"players", required_argument, NULL, 'p'}, {"runs", required_argument, NULL, 'r'},
        {"seconds", required_argument, NULL, 't'}, {"seed", required_argument, NULL, 's'},
        {"bot", required_argument, NULL, 'b'},     {"games", required_argument, NULL, 'n'},
        {"opt", required_argument, NULL, 'o'}, CLI_CARD_SETS_OPTION, {"options", required_argument, NULL, 'O'},
        {"json", no_argument, NULL, 'J'},          {"no-views", no_argument, NULL, 'V'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    long runs = 5, games = 5;
    double seconds = 1.0;
    cli_game_args ga = {.seed = 1};
    const char *bot = NULL;
    bool json = false, no_views = false;
    int status = 2, c, handled;
    optind = 1;
    while ((c = getopt_long(argc, argv, "p:r:t:s:b:n:o:O:JVC:h", longopts, NULL)) != -1) {
        if ((handled = cli_game_flag(c, optarg, &ga)) != 0) {
            if (handled < 0)
                goto done;
            continue;
        }
        switch (c) {
        case 'r': if (!cli_parse_long(optarg, 1, 1000, "--runs", &runs)) goto done; break;
        case 't': if (!cli_parse_double(optarg, 0.01, 3600, "--seconds", &seconds)) goto done; break;
        case 'b': bot = optarg; break;
        case 'n': if (!cli_parse_long(optarg, 1, 1000000, "--games", &games)) goto done; break;
        case 'J': json = true; break;
        case 'V': no_views = true; break;
        case 'h': bench_usage(stdout); status = 0; goto done;
        default: bench_usage(stderr); goto done;
        }
    }
    const asobi_game_def *game = cli_game_operand(argc, argv, &ga, bench_usage);
    if (!game)
        goto done;
    long players = ga.players;
    uint64_t seed = ga.seed;
    const json_t *options = ga.options;
    asobi_error err;
    json_t *out = json_pack("{s:s, s:i, s:i, s:f}", "game", asobi_game_name(game), "players", (int)players,
                            "runs", (int)runs, "seconds_per_run", seconds);
    if (!bot) {
        double gps[2][1000], aps[2][1000];
        int kinds = no_views ? 1 : 2;
        for (int r = 0; r < runs; r++)
            for (int views = 0; views < kinds; views++) {
                bench_run b = bench_playouts(game, (int)players, options, seed + (uint64_t)r, seconds, views);
                gps[views][r] = b.games_per_second;
                aps[views][r] = b.actions_per_second;
            }
        const char *names[2] = {"no_views", "with_views"};
        for (int views = 0; views < kinds; views++) {
            double g = median(gps[views], (int)runs), a = median(aps[views], (int)runs);
            double lo = aps[views][0], hi = aps[views][runs - 1]; /* sorted by median() */
            json_object_set_new(out, names[views],
                                json_pack("{s:f, s:f, s:f, s:f, s:f}", "playouts_per_second", g,
                                          "actions_per_second", a, "ns_per_decision", 1e9 / a,
                                          "ns_per_decision_min", 1e9 / hi, "ns_per_decision_max", 1e9 / lo));
            if (!json)
                printf("%s, %ld players, %s: %.0f random playouts/s, %.0f actions/s, %.1f ns per decision "
                       "(%.1f-%.1f; median of %ld runs of %gs)\n",
                       asobi_game_title(game), players, views ? "with views" : "no views", g, a, 1e9 / a,
                       1e9 / hi, 1e9 / lo, runs, seconds);
        }
    } else {
        if (asobi_bot_check_spec(bot, game, &err) != ASOBI_OK) {
            fprintf(stderr, "asobi: bot \"%s\": %s\n", bot, err.message);
            json_decref(out);
            goto done;
        }
        double mps[1000], msm[1000];
        for (int r = 0; r < runs; r++) {
            bot_bench b = {.spec = bot};
            cli_batch batch = {.game = game, .players = (int)players, .options = options,
                               .seed = seed + (uint64_t)r * 1000003u, .games = games, .jobs = 1,
                               .spec_of = bench_spec, .done = bench_done, .ctx = &b};
            if (!cli_run_batch(&batch)) {
                json_decref(out);
                status = 1;
                goto done;
            }
            mps[r] = (double)b.moves / b.seconds;
            msm[r] = 1000.0 * b.seconds / (double)b.moves;
        }
        double moves_per_second = median(mps, (int)runs), ms = median(msm, (int)runs);
        json_object_set_new(out, "bot", json_pack("{s:s, s:f, s:f}", "spec", bot, "moves_per_second",
                                                  moves_per_second, "ms_per_move", ms));
        const char *iters = strstr(bot, "iters=");
        double per_move = iters ? atof(iters + 6) : 0;
        if (!json)
            printf("%s, %ld players, bot %s at seat 0: %.1f moves/s, %.3f ms per move", asobi_game_title(game),
                   players, bot, moves_per_second, ms);
        if (per_move > 0) {
            json_object_set_new(json_object_get(out, "bot"), "iterations_per_second",
                                json_real(per_move * moves_per_second));
            if (!json)
                printf(", %.0f iterations/s", per_move * moves_per_second);
        }
        if (!json)
            printf(" (median of %ld runs of %ld games)\n", runs, games);
    }
    if (json) {
        char *text = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER);
        puts(text);
        free(text);
    }
    json_decref(out);
    status = 0;
done:
    json_decref(ga.options);
    return status;
}

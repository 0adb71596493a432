/* cmd_sim.c — `asobi sim`: many bot games, with per-seat win rates, confidence intervals and speed. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli_exec_bot.h"
#include "cli_runner.h"

typedef struct sim_totals {
    const char *specs[ASOBI_MAX_SEATS];
    char *labels[ASOBI_MAX_SEATS]; /* NAME of NAME=SPEC, else the spec */
    int players;
    double wins[ASOBI_MAX_SEATS], shared[ASOBI_MAX_SEATS], score[ASOBI_MAX_SEATS];
    double seconds[ASOBI_MAX_SEATS];
    long moves[ASOBI_MAX_SEATS];
    long forfeits[ASOBI_MAX_SEATS]; /* an external program's decisions played at random for it */
    long stray[ASOBI_MAX_SEATS];    /* its lines that answered no request */
    long games, actions, nobody;
} sim_totals;

static const char *sim_spec(long game, int seat, void *ctx)
{
    (void)game;
    return ((sim_totals *)ctx)->specs[seat];
}

static void sim_done(const cli_game_report *r, void *ctx)
{
    sim_totals *t = ctx;
    int k = __builtin_popcount(r->result.winners);
    for (int i = 0; i < t->players; i++) {
        if (r->result.winners & (1u << i)) {
            t->wins[i] += 1;
            if (k > 1)
                t->shared[i] += 1;
        }
        t->score[i] += r->result.score[i];
        t->seconds[i] += r->seconds[i];
        t->moves[i] += r->moves[i];
        t->forfeits[i] += r->forfeits[i];
        t->stray[i] += r->stray[i];
    }
    if (k == 0)
        t->nobody++;
    t->games++;
    t->actions += r->actions;
}

static void sim_usage(FILE *out)
{
    fprintf(out,
            "usage: asobi sim GAME --games N [--bots LIST] [--players N] [--seed S] [--jobs J]\n"
            "                      [--opt KEY=VALUE]... [--card-sets DIR] [--options JSON] [--json]\n"
            "\n"
            "Play N games between bots (seat i gets the i-th spec of LIST; the last spec fills\n"
            "the remaining seats; default random) and print each seat's win rate with its 95%%\n"
            "confidence interval (Wilson), average score, and games per second. A shared\n"
            "victory counts as a win for every winner. Game i uses seed S+i, so results do\n"
            "not depend on --jobs (default: all cores). A spec exec:cmd=COMMAND[,timeout=S]...\n"
            "seats an external program (see asobi arena --help, docs/protocol.md); a spec may\n"
            "carry a label, NAME=SPEC, shown instead of it.\n");
}

int cli_sim(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"games", required_argument, NULL, 'n'}, {"bots", required_argument, NULL, 'b'},
        {"players", required_argument, NULL, 'p'}, {"seed", required_argument, NULL, 's'},
        {"jobs", required_argument, NULL, 'j'}, {"opt", required_argument, NULL, 'o'}, CLI_CARD_SETS_OPTION,
        {"options", required_argument, NULL, 'O'}, {"json", no_argument, NULL, 'J'},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    long games = 100, jobs = cli_default_jobs();
    cli_game_args ga = {.seed = 1};
    bool json = false;
    const char *bots_arg = "random";
    sim_totals t = {0};
    int status = 2, c, handled, nspecs = 0;
    char *specs[ASOBI_MAX_SEATS];
    optind = 1;
    while ((c = getopt_long(argc, argv, "n:b:p:s:j:o:O:JC:h", longopts, NULL)) != -1) {
        if ((handled = cli_game_flag(c, optarg, &ga)) != 0) {
            if (handled < 0)
                goto done;
            continue;
        }
        switch (c) {
        case 'n': if (!cli_parse_long(optarg, 1, 100000000, "--games", &games)) goto done; break;
        case 'b': bots_arg = optarg; break;
        case 'j': if (!cli_parse_long(optarg, 1, 64, "--jobs", &jobs)) goto done; break;
        case 'J': json = true; break;
        case 'h': sim_usage(stdout); status = 0; goto done;
        default: sim_usage(stderr); goto done;
        }
    }
    const asobi_game_def *game = cli_game_operand(argc, argv, &ga, sim_usage);
    if (!game)
        goto done;
    long players = ga.players;
    uint64_t seed = ga.seed;
    const json_t *options = ga.options;
    asobi_error err;
    nspecs = cli_parse_bot_list(bots_arg, specs, ASOBI_MAX_SEATS);
    if (nspecs < 0)
        goto done;
    t.players = (int)players;
    for (int i = 0; i < players; i++) {
        cli_split_label(specs[i < nspecs ? i : nspecs - 1], &t.labels[i], &t.specs[i]);
        if (cli_check_bot_spec(t.specs[i], game, &err) != ASOBI_OK) {
            fprintf(stderr, "asobi: bot \"%s\": %s\n", t.specs[i], err.message);
            goto done;
        }
    }
    cli_batch batch = {.game = game, .players = (int)players, .options = options, .seed = seed,
                       .games = games, .jobs = (int)jobs, .spec_of = sim_spec, .done = sim_done,
                       .ctx = &t};
    double t0 = cli_now();
    if (!cli_run_batch(&batch)) {
        status = 1;
        goto done;
    }
    double elapsed = cli_now() - t0;
    json_t *out = json_pack("{s:s, s:i, s:I, s:I, s:f, s:f, s:f, s:I}", "game", asobi_game_name(game),
                            "players", (int)players, "games", (json_int_t)t.games, "seed",
                            (json_int_t)seed, "seconds", elapsed, "games_per_second",
                            (double)t.games / elapsed, "actions_per_game",
                            (double)t.actions / (double)t.games, "nobody_won", (json_int_t)t.nobody);
    json_t *seats = json_array();
    if (!json)
        printf("%s, %ld players, %ld games, seed %llu\n%-4s  %-24s  %7s  %8s  %-17s  %9s  %9s\n",
               asobi_game_title(game), players, t.games, (unsigned long long)seed, "seat", "bot", "wins",
               "win rate", "95% CI", "avg score", "ms/move");
    for (int i = 0; i < players; i++) {
        double lo, hi, rate = t.wins[i] / (double)t.games;
        cli_wilson95(t.wins[i], (double)t.games, &lo, &hi);
        double ms = t.moves[i] ? 1000.0 * t.seconds[i] / (double)t.moves[i] : 0;
        json_array_append_new(seats, json_pack("{s:i, s:s, s:s, s:f, s:f, s:f, s:[f,f], s:f, s:f, s:I, s:I}",
                                               "seat", i, "label", t.labels[i], "bot", t.specs[i], "wins",
                                               t.wins[i], "shared_wins",
                                               t.shared[i], "win_rate", rate, "ci95", lo, hi, "avg_score",
                                               t.score[i] / (double)t.games, "ms_per_move", ms, "forfeits",
                                               (json_int_t)t.forfeits[i], "stray", (json_int_t)t.stray[i]));
        if (!json)
            printf("%-4d  %-24.24s  %7.0f  %7.1f%%  [%5.1f%%, %5.1f%%]  %9.2f  %9.3f\n", i + 1, t.labels[i],
                   t.wins[i], 100 * rate, 100 * lo, 100 * hi, t.score[i] / (double)t.games, ms);
    }
    json_object_set_new(out, "seats", seats);
    if (json) {
        char *text = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER);
        puts(text);
        free(text);
    } else {
        printf("%.1f games/s, %.1f actions per game, %.2f s on %ld job%s", (double)t.games / elapsed,
               (double)t.actions / (double)t.games, elapsed, jobs, jobs > 1 ? "s" : "");
        if (t.nobody)
            printf(", %ld game%s won by nobody", t.nobody, t.nobody > 1 ? "s" : "");
        printf("\n");
        for (int i = 0; i < players; i++)
            if (cli_is_exec_spec(t.specs[i]))
                printf("forfeits of seat %d (%s): %ld of %ld decisions, %ld stray line%s\n", i + 1, t.labels[i],
                       t.forfeits[i], t.moves[i], t.stray[i], t.stray[i] == 1 ? "" : "s");
    }
    json_decref(out);
    status = 0;
done:
    for (int i = 0; i < nspecs; i++)
        free(specs[i]);
    for (int i = 0; i < ASOBI_MAX_SEATS; i++)
        free(t.labels[i]);
    json_decref(ga.options);
    return status;
}

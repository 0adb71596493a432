/* cmd_review.c — `asobi review`: every decision of one seat in a record, judged by a bot from what the seat knew. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_runner.h"

static void review_usage(FILE *out)
{
    fprintf(out,
            "usage: asobi review RECORD --seat K [--bot SPEC] [--seed S] [--jobs J] [--json]\n"
            "\n"
            "Review every decision of seat K in a record (as written by 'asobi play --record')\n"
            "where it had a choice: a bot searches the position again from what seat K knew\n"
            "then (its view and the public history, never the record's hidden cards) and\n"
            "gives the move played and its best move, each valued as seat K's share of the\n"
            "win in [0,1], the loss (best - played), and a summary: accuracy (the share of\n"
            "decisions with a loss under %.2f), total loss, the three biggest mistakes.\n"
            "A loss of %.2f is an inaccuracy, %.2f a mistake, %.2f a blunder (docs/ai.md).\n"
            "  --seat K   the seat to review, from 0 as in the record (--seat 0 is the\n"
            "             screen's 'seat 1')\n"
            "  --bot SPEC the judge, a bot that weighs moves (default %s)\n"
            "  --seed S   the judge's seed (default 1): the same seed, the same review\n"
            "  --jobs J   decisions searched at once (default: all cores); the review is the\n"
            "             same for every J\n"
            "  --json     the review as JSON (docs/ai.md, \"Game review\")\n",
            ASOBI_REVIEW_INACCURACY, ASOBI_REVIEW_INACCURACY, ASOBI_REVIEW_MISTAKE, ASOBI_REVIEW_BLUNDER,
            ASOBI_REVIEW_DEFAULT_BOT);
}

/* A record is text of about 30 bytes an action; the same bound as replay's. */
#define REVIEW_RECORD_MAX (256L << 20)

typedef struct review_progress_ctx {
    double start;
} review_progress_ctx;

static void show_progress(int done, int total, void *ctx)
{
    const review_progress_ctx *p = ctx;
    cli_progress(done, total, cli_now() - p->start);
}

static const char *value_text(const json_t *v, char *buf, size_t cap)
{
    if (json_is_number(v))
        snprintf(buf, cap, "%.2f", json_number_value(v));
    else
        snprintf(buf, cap, "-");
    return buf;
}

/* The review as a table, decisions numbered as `replay` numbers actions. */
static void print_review(const json_t *r)
{
    int seat = (int)json_integer_value(json_object_get(r, "seat"));
    const json_t *decisions = json_object_get(r, "decisions"), *summary = json_object_get(r, "summary");
    printf("%s, %d players, seat %d reviewed by %s (seed %lld)\n", json_string_value(json_object_get(r, "game")),
           (int)json_integer_value(json_object_get(r, "players")), seat + 1,
           json_string_value(json_object_get(r, "bot")), (long long)json_integer_value(json_object_get(r, "seed")));
    printf("values: seat %d's share of the win, as the bot estimates it from what seat %d knew\n\n", seat + 1,
           seat + 1);
    printf("%5s  %-26s %5s  %-26s %5s  %5s\n", "#", "played", "value", "best", "value", "loss");
    size_t i;
    const json_t *d;
    char a[16], b[16];
    json_array_foreach(decisions, i, d) {
        const char *label = json_string_value(json_object_get(d, "label"));
        printf("%4lld.  %-26.26s %5s  %-26.26s %5s  %5.2f%s%s\n",
               (long long)json_integer_value(json_object_get(d, "index")) + 1,
               json_string_value(json_object_get(d, "played")),
               value_text(json_object_get(d, "played_value"), a, sizeof a),
               json_string_value(json_object_get(d, "best")), value_text(json_object_get(d, "best_value"), b, sizeof b),
               json_number_value(json_object_get(d, "loss")), label ? "  " : "", label ? label : "");
    }
    int count = (int)json_integer_value(json_object_get(summary, "decisions"));
    printf("\n%d decisions", count);
    if (count > 0)
        printf(", accuracy %.0f%% (a loss under %.2f), total loss %.2f; %lld inaccuracies, %lld mistakes, %lld "
               "blunders",
               100 * json_number_value(json_object_get(summary, "accuracy")), ASOBI_REVIEW_INACCURACY,
               json_number_value(json_object_get(summary, "total_loss")),
               (long long)json_integer_value(json_object_get(summary, "inaccuracies")),
               (long long)json_integer_value(json_object_get(summary, "mistakes")),
               (long long)json_integer_value(json_object_get(summary, "blunders")));
    printf("\n");
    const json_t *worst = json_object_get(summary, "worst"), *w;
    json_array_foreach(worst, i, w) {
        json_int_t index = json_integer_value(w);
        size_t k;
        json_array_foreach(decisions, k, d) {
            if (json_integer_value(json_object_get(d, "index")) != index)
                continue;
            printf("%s %lld. %s (best %s, loss %.2f)", i == 0 ? "biggest mistakes:" : ";", (long long)index + 1,
                   json_string_value(json_object_get(d, "played")), json_string_value(json_object_get(d, "best")),
                   json_number_value(json_object_get(d, "loss")));
        }
    }
    if (json_array_size(worst) > 0)
        printf("\n");
}

int cli_review(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"seat", required_argument, NULL, 'k'}, {"bot", required_argument, NULL, 'b'},
        {"seed", required_argument, NULL, 's'}, {"jobs", required_argument, NULL, 'j'},
        {"json", no_argument, NULL, 'J'},       {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    long seat = -1, jobs = cli_default_jobs();
    uint64_t seed = 1;
    bool json = false;
    const char *spec = ASOBI_REVIEW_DEFAULT_BOT;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "k:b:s:j:Jh", longopts, NULL)) != -1) {
        switch (c) {
        case 'k': if (!cli_parse_long(optarg, 0, ASOBI_MAX_SEATS - 1, "--seat", &seat)) return 2; break;
        case 'b': spec = optarg; break;
        case 's': if (!cli_parse_seed(optarg, &seed)) return 2; break;
        case 'j': if (!cli_parse_long(optarg, 1, 64, "--jobs", &jobs)) return 2; break;
        case 'J': json = true; break;
        case 'h': review_usage(stdout); return 0;
        default: review_usage(stderr); return 2;
        }
    }
    if (optind != argc - 1 || seat < 0) {
        if (optind == argc - 1)
            fprintf(stderr, "asobi: review needs --seat K\n");
        review_usage(stderr);
        return 2;
    }
    const char *path = argv[optind];
    asobi_error err;
    size_t len;
    char *text;
    if (asobi_read_regular_file(path, REVIEW_RECORD_MAX, &text, &len, &err) != ASOBI_OK) {
        fprintf(stderr, "asobi: %s: %s\n", path, err.message);
        return 1;
    }
    json_error_t jerr;
    json_t *record = json_loadb(text, len, 0, &jerr);
    free(text);
    if (!record) {
        fprintf(stderr, "asobi: %s: not a JSON record (line %d: %s)\n", path, jerr.line, jerr.text);
        return 1;
    }
    review_progress_ctx progress = {.start = cli_now()};
    json_t *r = asobi_review(record, (int)seat, spec, seed, (int)jobs, show_progress, &progress, &err);
    json_decref(record);
    if (!r) {
        fprintf(stderr, "asobi: %s: %s\n", path, err.message);
        return err.code == ASOBI_E_BAD_SEAT || err.code == ASOBI_E_BAD_BOT ? 2 : 1;
    }
    if (json) {
        char *out = json_dumps(r, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        puts(out);
        free(out);
    } else {
        print_review(r);
    }
    json_decref(r);
    return 0;
}

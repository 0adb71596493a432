/* cmd_replay.c — `asobi replay`: print a recorded game, or step through it action by action. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void replay_usage(FILE *out)
{
    fprintf(out,
            "usage: asobi replay FILE [--seat K|all] [--step] [--at N] [--json] [--quiet]\n"
            "\n"
            "Replay a record (as written by 'asobi play --record' or the engine's \"record\").\n"
            "  default    print every action, then the final table and result\n"
            "  --seat K   show only what seat K (from 0, as in the record: --seat 0 is the screen's\n"
            "             'seat 1') saw at each step: its view of the table, its own\n"
            "             actions in full and the others' as they were announced to it, no seed\n"
            "             (default: all, the all-seeing view and every action in full)\n"
            "  --at N     show the table after the first N actions and stop\n"
            "  --step     step through: Enter = next, b = back, g N = go to action N, q = quit\n"
            "  --json     with --at: print the view as JSON instead of text\n"
            "  --verbose  print the table after every action\n");
}

static void show(const asobi_match *m, int seat, bool json)
{
    const asobi_state *s = asobi_match_state(m);
    if (json) {
        json_t *v = asobi_state_view(s, seat);
        char *text = json_dumps(v, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        puts(text);
        free(text);
        json_decref(v);
        return;
    }
    char *text = asobi_state_render(s, seat);
    fputs(text ? text : "", stdout);
    free(text);
}

/* Action i as the chosen seat saw it: log holds the texts (cli_seat_log). */
static void print_action(const asobi_match *m, char *const *log, int i)
{
    printf("%4d. seat %d: %s\n", i + 1, asobi_match_action_seat(m, i) + 1, log[i]);
}

/* The record in file path, read whole (it is text: about 30 bytes an
 * action) and replayed one action at a time (asobi_match_read), so memory
 * is the text plus the match however long the game. Only a regular file of
 * at most RECORD_FILE_MAX bytes is read. */
#define RECORD_FILE_MAX (256L << 20)

static asobi_match *read_record(const char *path, asobi_error *err)
{
    size_t len;
    char *text;
    if (asobi_read_regular_file(path, RECORD_FILE_MAX, &text, &len, err) != ASOBI_OK)
        return NULL;
    asobi_match *m = asobi_match_read(text, len, err);
    free(text);
    return m;
}

static int step_through(const asobi_match *played, char *const *log, int total, int seat)
{
    int at = 0;
    char line[128];
    for (;;) {
        asobi_error err;
        asobi_match *m = asobi_match_prefix(played, at, &err);
        if (!m) {
            fprintf(stderr, "asobi: %s\n", err.message);
            return 1;
        }
        printf("\n--- after %d of %d actions ---\n", at, total);
        if (at > 0)
            print_action(m, log, at - 1);
        show(m, seat, false);
        if (at == total)
            cli_print_result(asobi_match_state(m));
        asobi_match_free(m);
        printf("[Enter] next  [b] back  [g N] go to  [q] quit > ");
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin))
            return 0;
        long to;
        if (line[0] == 'q')
            return 0;
        else if (line[0] == 'b')
            at = at > 0 ? at - 1 : 0;
        else if (line[0] == 'g' && cli_parse_long(strtok(line + 1, " \r\n"), 0, total, "the action number", &to))
            at = (int)to;
        else if (line[0] == '\n' || line[0] == '\r' || line[0] == 'n')
            at = at < total ? at + 1 : total;
    }
}

int cli_replay(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"seat", required_argument, NULL, 'k'}, {"step", no_argument, NULL, 'S'},
        {"at", required_argument, NULL, 'a'},   {"json", no_argument, NULL, 'J'},
        {"verbose", no_argument, NULL, 'v'},    {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    long seat = ASOBI_ALL_SEEING, at = -1;
    bool step = false, json = false, verbose = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "k:Sa:Jvh", longopts, NULL)) != -1) {
        switch (c) {
        case 'k':
            if (strcmp(optarg, "all") != 0 && !cli_parse_long(optarg, 0, ASOBI_MAX_SEATS - 1, "--seat", &seat))
                return 2;
            break;
        case 'S': step = true; break;
        case 'a': if (!cli_parse_long(optarg, 0, 100000000, "--at", &at)) return 2; break;
        case 'J': json = true; break;
        case 'v': verbose = true; break;
        case 'h': replay_usage(stdout); return 0;
        default: replay_usage(stderr); return 2;
        }
    }
    if (optind != argc - 1) {
        replay_usage(stderr);
        return 2;
    }
    asobi_error err;
    asobi_match *m = read_record(argv[optind], &err);
    if (!m) {
        fprintf(stderr, "asobi: %s: %s\n", argv[optind], err.message);
        return 1;
    }
    int total = asobi_match_length(m);
    if (seat >= asobi_state_players(asobi_match_state(m))) {
        fprintf(stderr, "asobi: --seat is from 0 to %d for this game\n", asobi_state_players(asobi_match_state(m)) - 1);
        asobi_match_free(m);
        return 2;
    }
    /* With --seat, every action is told as that seat saw it happen */
    int logged = 0;
    char **log = cli_seat_log(m, (int)seat, &logged, &err);
    if (!log) {
        fprintf(stderr, "asobi: %s: %s\n", argv[optind], err.message);
        asobi_match_free(m);
        return 1;
    }
    int status = 0;
    if (step) {
        status = step_through(m, log, total, (int)seat);
    } else if (at >= 0) {
        asobi_match *p = asobi_match_prefix(m, (int)(at > total ? total : at), &err);
        show(p, (int)seat, json);
        asobi_match_free(p);
    } else {
        printf("%s, %d players", asobi_game_name(asobi_state_game(asobi_match_state(m))),
               asobi_state_players(asobi_match_state(m)));
        if (seat == ASOBI_ALL_SEEING) /* the seed decides every hidden card */
            printf(", seed %llu", (unsigned long long)asobi_match_seed(m));
        else
            printf(", as seat %ld saw it", seat + 1);
        printf(", %d actions\n", total);
        /* one running match, one action at a time: linear (reloading each
         * prefix from the record was quadratic) */
        asobi_match *p = verbose ? asobi_match_prefix(m, 0, &err) : NULL;
        for (int i = 0; i < total; i++) {
            print_action(m, log, i);
            if (p && asobi_match_act_text(p, asobi_match_action_seat(m, i), asobi_match_action_text(m, i),
                                          &err) == ASOBI_OK)
                show(p, (int)seat, false);
        }
        asobi_match_free(p);
        show(m, (int)seat, false);
        cli_print_result(asobi_match_state(m));
    }
    cli_free_log(log);
    asobi_match_free(m);
    return status;
}

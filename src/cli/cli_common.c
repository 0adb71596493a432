/* cli_common.c — what several subcommands share: number and option parsing, bot lists, records, progress. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "protocol/protocol.h"

bool cli_parse_long(const char *text, long min, long max, const char *what, long *out)
{
    char *end;
    errno = 0;
    long v = text ? strtol(text, &end, 10) : 0;
    if (!text || !*text || *end || errno || v < min || v > max) {
        fprintf(stderr, "asobi: %s must be a whole number from %ld to %ld (got \"%s\")\n", what, min, max,
                text ? text : "");
        return false;
    }
    *out = v;
    return true;
}

/* Seeds are decimal, always: base-0 parsing read "010" as 8 and refused
 * "08". Only digits (strtoull alone would also take spaces and a sign). */
bool cli_parse_seed(const char *text, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    bool digits = text && *text && strspn(text, "0123456789") == strlen(text);
    unsigned long long v = digits ? strtoull(text, &end, 10) : 0;
    if (!digits || *end || errno) {
        fprintf(stderr, "asobi: a seed is a whole number from 0 to 18446744073709551615 (got \"%s\")\n",
                text ? text : "");
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

bool cli_parse_double(const char *text, double min, double max, const char *what, double *out)
{
    char *end;
    errno = 0;
    double v = text ? strtod(text, &end) : 0;
    if (!text || !*text || *end || errno || !isfinite(v) || v < min || v > max) {
        fprintf(stderr, "asobi: %s must be a number from %g to %g (got \"%s\")\n", what, min, max,
                text ? text : "");
        return false;
    }
    *out = v;
    return true;
}

bool cli_add_option(json_t **options, const char *key_value)
{
    const char *eq = strchr(key_value, '=');
    if (!eq || eq == key_value) {
        fprintf(stderr, "asobi: --opt takes KEY=VALUE (got \"%s\")\n", key_value);
        return false;
    }
    char *key = strndup(key_value, (size_t)(eq - key_value));
    const char *text = eq + 1;
    json_t *value = json_loads(text, JSON_DECODE_ANY, NULL);
    if (!value || json_is_object(value) || json_is_array(value) || json_is_null(value)) {
        json_decref(value);
        value = json_string(text);
    }
    if (!*options)
        *options = json_object();
    json_object_set_new(*options, key, value);
    free(key);
    return true;
}

bool cli_merge_options(json_t **options, const char *json_text)
{
    json_error_t jerr;
    json_t *o = json_loads(json_text, 0, &jerr);
    if (!json_is_object(o)) {
        fprintf(stderr, "asobi: --options takes a JSON object (%s)\n", o ? "not an object" : jerr.text);
        json_decref(o);
        return false;
    }
    if (!*options)
        *options = json_object();
    json_object_update(*options, o);
    json_decref(o);
    return true;
}

/* The length of item's label ("mc" of "mc=exec:cmd=..." or "h=heuristic"):
 * letters, digits, '_', '-' and '.' before an '=' that a bot spec follows
 * (a bot's name, alone or before ':'; "exec:"). 0 when item has none. */
static size_t label_length(const char *item)
{
    size_t n = strspn(item, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.");
    if (n == 0 || item[n] != '=')
        return 0;
    const char *rest = item + n + 1;
    size_t name = strcspn(rest, ":");
    if (name == 4 && strncmp(rest, "exec", 4) == 0 && rest[4] == ':')
        return n;
    for (const char *const *b = asobi_bot_names(); *b; b++)
        if (strlen(*b) == name && strncmp(rest, *b, name) == 0)
            return n;
    return 0;
}

void cli_split_label(const char *item, char **label, const char **spec)
{
    size_t n = label_length(item);
    *label = n ? strndup(item, n) : strdup(item);
    *spec = n ? item + n + 1 : item;
}

int cli_parse_bot_list(const char *list, char **specs, int cap)
{
    int n = 0;
    char *copy = strdup(list), *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(item, ':'), *eq = strchr(item, '=');
        if (eq && (!colon || colon > eq) && n > 0 && !label_length(item)) {
            /* "c=0.7" after "ismcts:iters=500": a further parameter */
            size_t len = strlen(specs[n - 1]) + strlen(item) + 2;
            char *joined = malloc(len);
            snprintf(joined, len, "%s,%s", specs[n - 1], item);
            free(specs[n - 1]);
            specs[n - 1] = joined;
            continue;
        }
        if (n == cap) {
            fprintf(stderr, "asobi: at most %d bots in a list\n", cap);
            for (int i = 0; i < n; i++)
                free(specs[i]);
            free(copy);
            return -1;
        }
        specs[n++] = strdup(item);
    }
    free(copy);
    if (n == 0)
        fprintf(stderr, "asobi: the bot list \"%s\" is empty\n", list);
    return n > 0 ? n : -1;
}

bool cli_write_record(const asobi_match *match, const char *path)
{
    json_t *rec = asobi_match_record(match);
    int rc = json_dump_file(rec, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(rec);
    if (rc != 0) {
        fprintf(stderr, "asobi: cannot write the record to %s: %s\n", path, strerror(errno));
        return false;
    }
    return true;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress(long done, long total, double elapsed)
{
    if (!isatty(STDERR_FILENO) || total <= 0)
        return;
    int width = 30, filled = (int)((double)width * (double)done / (double)total);
    fprintf(stderr, "\r[%.*s%*s] %ld/%ld", filled, "##############################", width - filled, "",
            done, total);
    if (done > 0 && done < total)
        fprintf(stderr, "  eta %.0fs ", elapsed / (double)done * (double)(total - done));
    else
        fprintf(stderr, "             ");
    if (done == total)
        fprintf(stderr, "\r%*s\r", width + 40, "");
    fflush(stderr);
}

int cli_game_flag(int c, const char *arg, cli_game_args *args)
{
    switch (c) {
    case 'p': return cli_parse_long(arg, 1, ASOBI_MAX_SEATS, "--players", &args->players) ? 1 : -1;
    case 's': return (args->seeded = cli_parse_seed(arg, &args->seed)) ? 1 : -1;
    case 'o': return cli_add_option(&args->options, arg) ? 1 : -1;
    case 'O': return cli_merge_options(&args->options, arg) ? 1 : -1;
    case 'C': args->card_sets = arg; return 1;
    default: return 0;
    }
}

const asobi_game_def *cli_game_operand(int argc, char **argv, cli_game_args *args, void (*usage)(FILE *))
{
    if (optind != argc - 1) {
        usage(stderr);
        return NULL;
    }
    const asobi_game_def *game = asobi_game_find(argv[optind]);
    if (!game) {
        fprintf(stderr, "asobi: there is no game \"%s\" (see 'asobi games')\n", argv[optind]);
        return NULL;
    }
    if (args->players == 0)
        args->players = asobi_game_min_players(game);
    asobi_error err;
    /* --opt cards=NAME or FILE: a set of --card-sets DIR, or a file the
     * person running the command names; its content goes into the options
     * (and so into records) */
    asobi_data_sets *sets = args->card_sets ? cli_load_card_sets(args->card_sets) : NULL;
    if (args->card_sets && !sets)
        return NULL;
    int rc = asobi_game_options_resolve(game, args->options, sets, true, &err);
    asobi_data_sets_free(sets);
    if (rc != ASOBI_OK) {
        fprintf(stderr, "asobi: %s\n", err.message);
        return NULL;
    }
    asobi_state *probe = asobi_state_new(game, (int)args->players, args->options, args->seed, &err);
    if (!probe) {
        fprintf(stderr, "asobi: %s\n", err.message);
        return NULL;
    }
    asobi_state_free(probe);
    return game;
}

asobi_data_sets *cli_load_card_sets(const char *dir)
{
    asobi_error err;
    asobi_data_sets *sets = asobi_data_sets_load(dir, &err);
    if (!sets)
        fprintf(stderr, "asobi: --card-sets: %s\n", err.message);
    return sets;
}

void cli_print_result(const asobi_state *state)
{
    asobi_result r;
    asobi_state_result(state, &r);
    if (!r.terminal) {
        printf("(the game has not ended)\n");
        return;
    }
    printf("Result:");
    for (int i = 0; i < r.players; i++)
        printf("  seat %d: rank %d, score %g", i + 1, r.rank[i], r.score[i]);
    printf("\nWinner%s:", __builtin_popcount(r.winners) > 1 ? "s (shared victory)" : "");
    if (!r.winners)
        printf(" nobody");
    for (int i = 0; i < r.players; i++)
        if (r.winners & (1u << i))
            printf(" seat %d", i + 1);
    printf("\n");
}

/* cli.h — the subcommands of the asobi command and the helpers they share (cli_common.c). */
#ifndef ASOBI_CLI_H
#define ASOBI_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "asobi/asobi.h"

/* One function per subcommand, each in its own cmd_NAME.c. argv[0] is the
 * subcommand's name; they return the process exit status. */
int cli_games(int argc, char **argv);
int cli_play(int argc, char **argv);
int cli_engine(int argc, char **argv);
int cli_serve(int argc, char **argv);
int cli_accounts(int argc, char **argv);
int cli_sim(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_bots(int argc, char **argv);
int cli_arena(int argc, char **argv);
int cli_rules(int argc, char **argv);
int cli_review(int argc, char **argv);

/* Parse a whole decimal number; false (and a message on stderr naming
 * what) when text is not one or is outside [min, max]. */
bool cli_parse_long(const char *text, long min, long max, const char *what, long *out);
bool cli_parse_seed(const char *text, uint64_t *out);
bool cli_parse_double(const char *text, double min, double max, const char *what, double *out);

/* Game options from the command line: each "--opt KEY=VALUE" adds a key to
 * *options (VALUE read as JSON when it is a number, true/false or a JSON
 * string, otherwise as text); "--options JSON" merges a whole object. */
bool cli_add_option(json_t **options, const char *key_value);
bool cli_merge_options(json_t **options, const char *json_text);

/* Bot lists: "random,heuristic" or "ismcts:iters=500,c=0.7,random". An item
 * holding '=' but no ':' continues the parameters of the spec before it, so
 * specs with several parameters need no quoting. Returns the count (at most
 * cap) or -1 after printing why. The specs are malloc'd strings. */
int cli_parse_bot_list(const char *list, char **specs, int cap);

/* A list item may carry a label, NAME=SPEC ("mc=exec:cmd=python3 mc.py",
 * "h=heuristic": NAME of letters, digits, '_', '-', '.', then a bot spec):
 * its label (malloc'd; the whole item when it has none) and the spec
 * (pointing into item). */
void cli_split_label(const char *item, char **label, const char **spec);

/* The options every game-running subcommand shares: --players, --seed,
 * --opt, --options, --card-sets. cli_game_flag handles one of them (getopt
 * letters p, s, o, O, C); it returns 1 if it handled c, 0 if c is not one of
 * them, -1 on a bad value (after printing why). */
typedef struct cli_game_args {
    long players; /* 0: the game's smallest count */
    uint64_t seed;
    bool seeded;
    json_t *options; /* NULL: defaults */
    const char *card_sets; /* --card-sets DIR: named sets for data options */
} cli_game_args;
#define CLI_CARD_SETS_OPTION {"card-sets", required_argument, NULL, 'C'}
#define CLI_CARD_SETS_HELP \
    "  --card-sets DIR every DIR/NAME.json is a Time Masters card set that --opt cards=NAME picks\n"
/* --card-sets DIR for the commands that keep them (engine, serve): the sets,
 * or NULL after printing why. */
asobi_data_sets *cli_load_card_sets(const char *dir);
int cli_game_flag(int c, const char *arg, cli_game_args *args);

/* The GAME operand (argv[optind], the only operand): find it, default the
 * player count, and check players and options by making one state. NULL
 * after printing why (and the usage when the operand is missing). */
const asobi_game_def *cli_game_operand(int argc, char **argv, cli_game_args *args, void (*usage)(FILE *));

/* Print the result of a finished game: ranks, scores, winners. */
void cli_print_result(const asobi_state *state);

/* Write a record (JSON, indented) to path; false after printing why. */
bool cli_write_record(const asobi_match *match, const char *path);

/* A progress bar on stderr when it is a terminal: done of total. */
void cli_progress(long done, long total, double elapsed);

/* Seconds since an arbitrary start (monotonic). */
double cli_now(void);

/* A match's actions as viewer (a seat, or ASOBI_ALL_SEEING) saw them
 * happen (replayed from its start): a NULL-terminated array of *count malloc'd texts, the seat's own
 * actions in full and the others' in their public form (cli_log.c). What a
 * command shows a seat of a game's history must come from here, never from
 * the record, which holds every hidden card. NULL (err set) when the record
 * does not replay. */
char **cli_seat_log(const asobi_match *match, int viewer, int *count, asobi_error *err);
void cli_free_log(char **lines);
/* text, then the text of each event (asobi_state_events) on a line of its
 * own, indented under it: malloc'd (NULL when out of memory). */
char *cli_with_events(const char *text, const json_t *events);
/* Print the events' texts, one an indented line (under an action's line). */
void cli_print_events(const json_t *events);
/* The game's short legend (strength order, symbols, phases) in lang "en"
 * or "ja"; false for a game without one (cli_legend.c). */
bool cli_print_legend(FILE *out, const char *game, const char *lang);
/* "ja" when the environment's locale (LC_ALL, LC_MESSAGES, LANG) is
 * Japanese, else "en". */
const char *cli_default_lang(void);

/* Print the match so far as viewer saw it, numbered; false if it cannot. */
bool cli_print_seat_log(const asobi_match *match, int viewer);

#endif

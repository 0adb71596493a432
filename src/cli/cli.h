/* cli.h — the subcommands of the asobi command and the helpers they share (cli_common.c). */
#ifndef ASOBI_CLI_H
#define ASOBI_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "asobi/asobi.h"

/* One function per subcommand, each in its own cmd_NAME.c. argv[0] is the
 * subcommand's name; they return the process exit status. */
int cli_games(int argc, char **argv);
int cli_play(int argc, char **argv);
int cli_engine(int argc, char **argv);
int cli_sim(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_bots(int argc, char **argv);

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

/* A seed for when the user gives none: from the clock and the process id. */
uint64_t cli_fresh_seed(void);

/* Write a record (JSON, indented) to path; false after printing why. */
bool cli_write_record(const asobi_match *match, const char *path);

/* A progress bar on stderr when it is a terminal: done of total. */
void cli_progress(long done, long total, double elapsed);

/* Seconds since an arbitrary start (monotonic). */
double cli_now(void);

#endif

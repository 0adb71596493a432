/* cli_exec_bot.h — external bots ("exec:cmd=COMMAND"): a program playing one seat through JSON lines (docs/protocol.md). */
#ifndef ASOBI_CLI_EXEC_BOT_H
#define ASOBI_CLI_EXEC_BOT_H

#include "cli.h"

/* Only the command line spawns programs: the library's asobi_bot_new (used
 * by the server too) knows nothing of "exec:"; the CLI runner recognises the
 * prefix and makes one of these instead.
 *
 * A program's life: cli_exec_bot_start (spawned, then the "hello"
 * handshake), then for each game it plays cli_exec_bot_begin ("new"),
 * observe/choose, cli_exec_bot_end ("over"); with reuse=1 the same program
 * plays game after game, else it is freed after one. cli_exec_bot_free
 * sends "quit" and reaps it. */
typedef struct cli_exec_bot cli_exec_bot;

/* Whether spec names an external bot (starts with "exec:"). */
bool cli_is_exec_spec(const char *spec);

/* Check any bot spec: an "exec:" one here, any other with asobi_bot_check_spec. */
int cli_check_bot_spec(const char *spec, const asobi_game_def *game, asobi_error *err);

/* Start the program of spec and wait (at most its startup= seconds) for its
 * answer to "hello". NULL with err only if the spec is bad or /bin/sh cannot
 * be started; a program that does not answer is returned stopped, and every
 * decision asked of it is a forfeit. */
cli_exec_bot *cli_exec_bot_start(const char *spec, asobi_error *err);

/* Whether the program may play another game (reuse=1, still alive). */
bool cli_exec_bot_reusable(const cli_exec_bot *bot);

/* The spec the program was started from. */
const char *cli_exec_bot_spec(const cli_exec_bot *bot);

/* A game begins: the program plays seat of game number game_index; seed
 * drives the random moves played for it when it forfeits. Sends "new". */
void cli_exec_bot_begin(cli_exec_bot *bot, long game_index, int players, int seat, uint64_t seed);

/* Tell the bot (if it is still alive) what seat did in state, before the
 * action is applied: its public text as the bot's seat sees it. */
void cli_exec_bot_observe(cli_exec_bot *bot, const asobi_state *state, int seat, int id);

/* The bot's choice for its seat in state: always a legal id. A malformed
 * or illegal answer, a crash or a timeout is a forfeit: a random legal id
 * is returned instead and counted. */
int cli_exec_bot_choose(cli_exec_bot *bot, const asobi_state *state);

/* How many of its decisions the bot forfeited, and how many lines it wrote
 * that answered no request (skipped), since the last call (or its start):
 * read once per game, they count that game's (its handshake's lines with
 * its first game). */
void cli_exec_bot_take_counts(cli_exec_bot *bot, long *forfeits, long *stray);

/* The game is over: send the result ("over"). state may be NULL (a game
 * that failed): nothing is sent then. */
void cli_exec_bot_end(cli_exec_bot *bot, const asobi_state *state);

/* Send "quit", then end the program (killed if it lingers) and free the bot. */
void cli_exec_bot_free(cli_exec_bot *bot);

#endif

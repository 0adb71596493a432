/* cli_exec_bot.h — external bots ("exec:cmd=COMMAND"): a program playing one seat through JSON lines (docs/protocol.md). */
#ifndef ASOBI_CLI_EXEC_BOT_H
#define ASOBI_CLI_EXEC_BOT_H

#include "cli.h"

/* Only the command line spawns programs: the library's asobi_bot_new (used
 * by the server too) knows nothing of "exec:"; the CLI runner recognises the
 * prefix and makes one of these instead. */
typedef struct cli_exec_bot cli_exec_bot;

/* Whether spec names an external bot (starts with "exec:"). */
bool cli_is_exec_spec(const char *spec);

/* Check any bot spec: an "exec:" one here, any other with asobi_bot_check_spec. */
int cli_check_bot_spec(const char *spec, const asobi_game_def *game, asobi_error *err);

/* Start the program for seat of game number game_index; seed drives the
 * random moves played for it when it forfeits. NULL with err if the spec is
 * bad or the program cannot be started. */
cli_exec_bot *cli_exec_bot_new(const char *spec, long game_index, int players, int seat, uint64_t seed,
                               asobi_error *err);

/* Tell the bot (if it is still alive) what seat did in state, before the
 * action is applied: its public text as the bot's seat sees it. */
void cli_exec_bot_observe(cli_exec_bot *bot, const asobi_state *state, int seat, int id);

/* The bot's choice for its seat in state: always a legal id. A malformed
 * or illegal answer, a crash or a timeout is a forfeit: a random legal id
 * is returned instead and counted. */
int cli_exec_bot_choose(cli_exec_bot *bot, const asobi_state *state);

/* How many of its decisions the bot forfeited. */
long cli_exec_bot_forfeits(const cli_exec_bot *bot);

/* Send the result and "quit", then end the program (killed if it lingers)
 * and free the bot. state may be NULL (a game that failed): no result then. */
void cli_exec_bot_finish(cli_exec_bot *bot, const asobi_state *state);

#endif

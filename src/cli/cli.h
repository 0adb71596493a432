/* cli.h — the subcommands of the asobi command and the helpers they share. */
#ifndef ASOBI_CLI_H
#define ASOBI_CLI_H

int cli_games(int argc, char **argv);

#endif

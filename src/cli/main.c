/* main.c — the asobi command: dispatches to one file per subcommand. */
#include <stdio.h>
#include <string.h>

#include "asobi/asobi.h"
#include "cli.h"

typedef struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} subcommand;

static const subcommand subcommands[] = {
    {"play", cli_play, "play a game in the terminal against bots (or watch bots play)"},
    {"engine", cli_engine, "the JSON-lines engine protocol on stdin/stdout (docs/protocol.md)"},
    {"serve", cli_serve, "the game server: tables, seats and play over HTTP and WebSockets (docs/server.md)"},
    {"accounts", cli_accounts, "a server's accounts: list them, close one, reset one's password"},
    {"sim", cli_sim, "play many bot games: win rates with 95% intervals, scores, speed"},
    {"arena", cli_arena, "a round-robin between bots: Elo with 95% intervals, pair records"},
    {"bench", cli_bench, "random playouts and actions per second; a bot's speed"},
    {"replay", cli_replay, "print or step through a recorded game"},
    {"review", cli_review, "a seat's every decision in a record judged by a bot from what it knew"},
    {"games", cli_games, "list the games, their player counts and options (--json)"},
    {"bots", cli_bots, "list the bots and their parameters"},
    {"rules", cli_rules, "a short legend of a game (--lang ja|en)"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: asobi COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        fprintf(out, "  %-8s %s\n", subcommands[i].name, subcommands[i].summary);
    fprintf(out, "\n'asobi COMMAND --help' explains a command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("asobi %s\n", ASOBI_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (strcmp(argv[1], subcommands[i].name) == 0)
            return subcommands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "asobi: unknown command \"%s\"\n\n", argv[1]);
    usage(stderr);
    return 2;
}

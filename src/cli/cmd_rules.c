/* cmd_rules.c — `asobi rules GAME`: the game's short legend, in English or Japanese. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <string.h>

#include "cli.h"

static void rules_usage(FILE *out)
{
    fprintf(out, "usage: asobi rules GAME [--lang ja|en]\n"
                 "\n"
                 "A short legend of GAME: what beats what, what the symbols mean, the order of a\n"
                 "turn. The same text as 'help' or 'rules' at the prompt of 'asobi play'.\n"
                 "  --lang ja|en   the language (default: ja when LC_ALL, LC_MESSAGES or LANG\n"
                 "                 starts with ja, else en)\n"
                 "The whole rules as implemented: docs/rules/GAME.md.\n");
}

int cli_rules(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"lang", required_argument, NULL, 'l'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    const char *lang = cli_default_lang();
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "l:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'l':
            if (strcmp(optarg, "ja") != 0 && strcmp(optarg, "en") != 0) {
                fprintf(stderr, "asobi: --lang takes ja or en (got \"%s\")\n", optarg);
                return 2;
            }
            lang = optarg;
            break;
        case 'h': rules_usage(stdout); return 0;
        default: rules_usage(stderr); return 2;
        }
    }
    if (optind != argc - 1) {
        rules_usage(stderr);
        return 2;
    }
    const asobi_game_def *game = asobi_game_find(argv[optind]);
    if (!game) {
        fprintf(stderr, "asobi: no game \"%s\" (see 'asobi games')\n", argv[optind]);
        return 2;
    }
    if (!cli_print_legend(stdout, asobi_game_name(game), lang)) {
        fprintf(stderr, "asobi: no legend for %s yet\n", asobi_game_name(game));
        return 1;
    }
    return 0;
}

/* cmd_games.c — `asobi games` and `asobi bots`: what games and bots are compiled in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asobi/asobi.h"
#include "cli.h"

int cli_games(int argc, char **argv)
{
    bool json = argc > 1 && strcmp(argv[1], "--json") == 0;
    json_t *all = json_array();
    for (int i = 0; i < asobi_game_count(); i++) {
        const asobi_game_def *g = asobi_game_at(i);
        json_t *d = asobi_game_describe(g);
        if (!json) {
            printf("%-12s %-22s %d-%d players\n", asobi_game_name(g), asobi_game_title(g),
                   asobi_game_min_players(g), asobi_game_max_players(g));
            size_t k;
            json_t *o;
            json_array_foreach(json_object_get(d, "options"), k, o) {
                char *def = json_dumps(json_object_get(o, "default"), JSON_ENCODE_ANY);
                printf("    --opt %s=... (%s, default %s): %s\n", json_string_value(json_object_get(o, "name")),
                       json_string_value(json_object_get(o, "type")), def,
                       json_string_value(json_object_get(o, "help")));
                free(def);
            }
        }
        json_array_append_new(all, d);
    }
    if (json) {
        char *text = json_dumps(all, JSON_COMPACT);
        puts(text);
        free(text);
    }
    json_decref(all);
    return 0;
}

int cli_bots(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("Bots are named by a spec: NAME or NAME:KEY=VALUE,KEY=VALUE\n");
    for (const char *const *b = asobi_bot_names(); *b; b++)
        printf("  %-12s %s\n", *b, asobi_bot_help(*b));
    return 0;
}

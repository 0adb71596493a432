/* arena_main.c — a stand-in for `asobi arena` until the CLI has it: runs asobi_arena_run and prints its JSON. */
#include <stdio.h>
#include <stdlib.h>

#include "ai/arena.h"

static void progress(int done, int total, void *ctx)
{
    (void)ctx;
    if (done % 10 == 0 || done == total)
        fprintf(stderr, "\r%d/%d", done, total);
}

int main(int argc, char **argv)
{
    if (argc < 8) {
        fprintf(stderr, "usage: arena GAME PLAYERS GAMES_PER_TABLE JOBS SEED SPEC SPEC...\n");
        return 2;
    }
    asobi_arena_config c = {
        .game = asobi_game_find(argv[1]),
        .players = atoi(argv[2]),
        .games_per_table = atoi(argv[3]),
        .jobs = atoi(argv[4]),
        .seed = strtoull(argv[5], NULL, 10),
        .specs = (const char *const *)(argv + 6),
        .spec_count = argc - 6,
        .progress = progress,
    };
    asobi_error err;
    json_t *out = asobi_arena_run(&c, &err);
    fprintf(stderr, "\n");
    if (!out) {
        fprintf(stderr, "arena: %s\n", err.message);
        return 1;
    }
    json_dumpf(out, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
    printf("\n");
    json_decref(out);
    return 0;
}

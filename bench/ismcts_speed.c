/* ismcts_speed.c — ismcts iterations per second of CPU time, for every game and player count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asobi/asobi.h"

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 20000;
    int moves = argc > 2 ? atoi(argv[2]) : 20;
    /* Optional: one game (and one player count), e.g. for a profile under callgrind. */
    const char *only = argc > 3 ? argv[3] : NULL;
    int only_players = argc > 4 ? atoi(argv[4]) : 0;
    char spec[64];
    snprintf(spec, sizeof spec, "ismcts:iters=%d", iters);
    for (int g = 0; g < asobi_game_count(); g++) {
        const asobi_game_def *game = asobi_game_at(g);
        if (only && strcmp(only, asobi_game_name(game)) != 0)
            continue;
        for (int p = asobi_game_min_players(game); p <= asobi_game_max_players(game); p++) {
            if (only_players && p != only_players)
                continue;
            asobi_error err;
            asobi_state *s = asobi_state_new(game, p, NULL, 1, &err);
            asobi_bot *bot[ASOBI_MAX_SEATS], *rnd[ASOBI_MAX_SEATS];
            for (int i = 0; i < p; i++) {
                bot[i] = asobi_bot_new(spec, game, p, i, 1, &err);
                rnd[i] = asobi_bot_new("random", game, p, i, 1, &err);
            }
            /* Time ismcts moves along a game played by random bots. */
            clock_t cpu = 0;
            int timed = 0;
            uint64_t picks = 0xcbf29ce484222325ULL; /* FNV-1a of the moves chosen: equal runs choose alike */
            while (timed < moves) {
                if (asobi_state_terminal(s)) {
                    asobi_state_free(s);
                    s = asobi_state_new(game, p, NULL, (uint64_t)timed + 2, &err);
                }
                uint32_t m = asobi_state_to_move(s);
                int seat = 0;
                while (!(m & (1u << seat)))
                    seat++;
                clock_t t0 = clock();
                int pick = asobi_bot_choose(bot[seat], s, &err);
                cpu += clock() - t0;
                picks = (picks ^ (uint64_t)(uint32_t)pick) * 0x100000001b3ULL;
                timed++;
                int id = asobi_bot_choose(rnd[seat], s, &err);
                asobi_state_apply(s, seat, id, &err);
            }
            printf("%s %dp: %.0f ismcts iterations per CPU second (%d moves of %d iterations; moves chosen %016llx)\n",
                   asobi_game_name(game), p, (double)iters * moves / ((double)cpu / CLOCKS_PER_SEC), moves, iters,
                   (unsigned long long)picks);
            for (int i = 0; i < p; i++) {
                asobi_bot_free(bot[i]);
                asobi_bot_free(rnd[i]);
            }
            asobi_state_free(s);
        }
    }
    return 0;
}

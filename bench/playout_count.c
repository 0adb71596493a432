/* playout_count.c — a fixed amount of random playouts through the generic interface, for instruction counts under callgrind. */
#include <stdio.h>
#include <stdlib.h>

#include "asobi/asobi.h"

/* `asobi bench` plays for a time, so the work it does under callgrind
 * depends on the machine. This plays a given number of playouts with
 * `asobi bench`'s loop (64 fresh deals, to_move, random_action, apply) and
 * prints the decisions made and an FNV-1a hash of every action id chosen:
 * two builds that print the same hash played the same games, action for
 * action. Instructions per decision are then the difference of two runs'
 * counts divided by the difference of their decisions (the program's start,
 * the deals included, cancels out):
 *
 *   valgrind --tool=callgrind --callgrind-out-file=/tmp/a.cg build/bench_playout_count timemasters 2 200
 *   valgrind --tool=callgrind --callgrind-out-file=/tmp/b.cg build/bench_playout_count timemasters 2 1000
 *
 * Usage: bench_playout_count GAME PLAYERS PLAYOUTS [OPTIONS_JSON] */

enum { DEALS = 64 };

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s GAME PLAYERS PLAYOUTS [OPTIONS_JSON]\n", argv[0]);
        return 2;
    }
    const asobi_game_def *game = asobi_game_find(argv[1]);
    int players = atoi(argv[2]);
    long playouts = atol(argv[3]);
    json_t *options = argc > 4 ? json_loads(argv[4], 0, NULL) : NULL;
    if (!game || (argc > 4 && !options)) {
        fprintf(stderr, "unknown game or options that are not JSON\n");
        return 2;
    }
    asobi_state *fresh[DEALS];
    for (int i = 0; i < DEALS; i++) {
        asobi_error err;
        fresh[i] = asobi_state_new(game, players, options, 1000 + (uint64_t)i, &err);
        if (!fresh[i]) {
            fprintf(stderr, "%s\n", err.message);
            return 2;
        }
    }
    asobi_state *s = asobi_state_clone(fresh[0]);
    asobi_rng rng;
    asobi_rng_seed(&rng, 1);
    long decisions = 0;
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (long g = 0; g < playouts; g++) {
        asobi_state_copy(s, fresh[g % DEALS]);
        uint32_t to_move;
        while ((to_move = asobi_state_to_move(s)) != 0) {
            int seat = __builtin_ctz(to_move);
            int id = asobi_state_random_action(s, seat, &rng);
            hash = (hash ^ (uint64_t)(uint32_t)id) * 0x100000001b3ULL;
            asobi_state_apply_unchecked(s, seat, id);
            decisions++;
        }
    }
    printf("%s %dp: %ld playouts, %ld decisions, actions chosen %016llx\n", argv[1], players, playouts, decisions,
           (unsigned long long)hash);
    asobi_state_free(s);
    for (int i = 0; i < DEALS; i++)
        asobi_state_free(fresh[i]);
    json_decref(options);
    return 0;
}

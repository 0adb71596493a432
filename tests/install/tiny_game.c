/* tiny_game.c — a program outside the project that uses installed libasobi: plays every game to the end. */
#include <stdio.h>
#include <stdlib.h>

#include <asobi/asobi.h>

/* Random legal moves through the validated apply until the game is over;
 * prints the winners. Returns 0 only if everything the public API promises
 * held along the way. */
static int play_to_the_end(const asobi_game_def *game, int players, uint64_t seed)
{
    asobi_error err;
    asobi_state *state = asobi_state_new(game, players, NULL, seed, &err);
    if (!state) {
        fprintf(stderr, "tiny_game: %s\n", err.message);
        return 1;
    }
    asobi_rng rng;
    asobi_rng_seed(&rng, seed);
    int *ids = malloc(sizeof *ids * (size_t)asobi_game_max_actions(game));
    long actions = 0;
    int status = 0;
    while (status == 0 && !asobi_state_terminal(state)) {
        uint32_t to_move = asobi_state_to_move(state);
        int seat = 0;
        while (!(to_move & (1u << seat)))
            seat++;
        int n = asobi_state_legal(state, seat, ids);
        if (n <= 0 || ++actions > 1000000) {
            fprintf(stderr, "tiny_game: seat %d to move with %d legal actions\n", seat, n);
            status = 1;
        } else if (asobi_state_apply(state, seat, ids[asobi_rng_below(&rng, (uint32_t)n)], &err) != ASOBI_OK) {
            fprintf(stderr, "tiny_game: %s\n", err.message);
            status = 1;
        }
    }
    /* A view is a jansson object: the program uses jansson through asobi.pc. */
    json_t *view = asobi_state_view(state, 0);
    if (status == 0 && !json_is_true(json_object_get(view, "terminal"))) {
        fprintf(stderr, "tiny_game: the view of a finished game is not terminal\n");
        status = 1;
    }
    json_decref(view);
    if (status == 0) {
        asobi_result result;
        asobi_state_result(state, &result);
        printf("%s, %d players, seed %llu: %ld actions, winners", asobi_game_name(game), players,
               (unsigned long long)seed, actions);
        for (int i = 0; i < players; i++)
            if (result.winners & (1u << i))
                printf(" %d", i);
        printf("\n");
    }
    free(ids);
    asobi_state_free(state);
    return status;
}

/* Usage: tiny_game [SEED]: one game of every registered game, at its smallest
 * player count. */
int main(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    if (asobi_game_count() < 1) {
        fprintf(stderr, "tiny_game: no games registered\n");
        return 1;
    }
    int status = 0;
    for (int g = 0; g < asobi_game_count(); g++)
        status |= play_to_the_end(asobi_game_at(g), asobi_game_min_players(asobi_game_at(g)), seed);
    return status;
}

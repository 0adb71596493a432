/* playout_limit.c — how close the generic interface comes to a playout loop written by hand for one game (PSYCLE, THE OCTAL, Time Masters). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asobi/asobi.h"
#include "game_def.h"
#include "games/octal/octal.h"
#include "games/psycle/psycle.h"
#include "games/timemasters/timemasters.h"
#include "rng_inline.h"

/* Both loops play the same random games: the hand-written ones draw from the
 * generator exactly as asobi_state_random_action does (the same k-th legal
 * action from the same draw), and the program checks that the final states
 * of both are byte-identical before it reports a figure. The generic path is
 * the one `asobi bench` times and search plays: asobi_state_random_playout,
 * which is core's loop (to_move, random_action and apply through the game's
 * table of functions) or the game's random_playout hook (PSYCLE's: the
 * loop written by hand below, in the library). The hand-written ones call
 * the game's own rule functions directly: PSYCLE with no legal-action list
 * at all (a seat's choices are the cards 0..min(gems, 5)), THE OCTAL with
 * its random_action() (the overrides counted, not listed) and apply()
 * called without the table and without core's checks, Time Masters likewise
 * (tm_random_action: the actions counted, not listed). */

enum { DEALS = 64, RUNS = 5 };

typedef struct loop_result {
    long actions;
    double seconds;
    uint64_t check; /* a hash of every final state */
} loop_result;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

static long generic_playout(asobi_state *s, asobi_rng *rng) { return asobi_state_random_playout(s, rng); }

static long psycle_playout(asobi_state *state, asobi_rng *rng)
{
    psycle_state *s = asobi_state_data_mut(state);
    long actions = 0;
    while (!s->over) {
        for (int i = 0; i < s->players; i++) {
            int top = s->gems[i] < PSYCLE_CARDS - 1 ? s->gems[i] : PSYCLE_CARDS - 1;
            s->pending[i] = (int8_t)asobi_rng_below_inline(rng, (uint32_t)top + 1);
        }
        psycle_resolve_round(s);
        actions += s->players;
    }
    return actions;
}

static long octal_playout(asobi_state *state, asobi_rng *rng)
{
    octal_state *s = asobi_state_data_mut(state);
    long actions = 0;
    uint32_t to_move;
    while ((to_move = octal_to_move(s)) != 0) {
        int seat = __builtin_ctz(to_move);
        octal_apply(s, seat, octal_random_action(s, seat, rng));
        actions++;
    }
    return actions;
}

static long tm_playout(asobi_state *state, asobi_rng *rng)
{
    tm_state *s = asobi_state_data_mut(state);
    long actions = 0;
    while (!s->over) {
        int seat = s->seat;
        tm_apply(s, seat, tm_random_action(s, seat, rng));
        actions++;
    }
    return actions;
}

typedef long (*playout_fn)(asobi_state *, asobi_rng *);

static loop_result run(asobi_state **fresh, asobi_state *s, playout_fn playout, double seconds)
{
    asobi_rng rng;
    asobi_rng_seed(&rng, 7);
    loop_result r = {0, 0, 0xcbf29ce484222325ULL};
    long games = 0;
    double t0 = now();
    while (r.seconds < seconds) {
        for (int batch = 0; batch < 16; batch++, games++) {
            asobi_state_copy(s, fresh[games % DEALS]);
            r.actions += playout(s, &rng);
            if (games < DEALS)
                r.check = fnv1a(r.check, asobi_state_data_for_ai(s), asobi_state_game(s)->state_size);
        }
        r.seconds = now() - t0;
    }
    return r;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void measure(const char *name, int players, playout_fn hand, double seconds)
{
    const asobi_game_def *game = asobi_game_find(name);
    asobi_state *fresh[DEALS];
    for (int i = 0; i < DEALS; i++)
        fresh[i] = asobi_state_new(game, players, NULL, (uint64_t)i + 1, NULL);
    asobi_state *s = asobi_state_clone(fresh[0]);
    double ns[2][RUNS];
    for (int r = 0; r < RUNS; r++) { /* interleaved: generic, hand, generic, ... */
        loop_result g = run(fresh, s, generic_playout, seconds);
        loop_result h = run(fresh, s, hand, seconds);
        if (g.check != h.check) {
            fprintf(stderr, "%s %dp: the hand-written loop played other games than the generic one\n", name, players);
            exit(1);
        }
        ns[0][r] = 1e9 * g.seconds / (double)g.actions;
        ns[1][r] = 1e9 * h.seconds / (double)h.actions;
    }
    qsort(ns[0], RUNS, sizeof(double), compare);
    qsort(ns[1], RUNS, sizeof(double), compare);
    double g = ns[0][RUNS / 2], h = ns[1][RUNS / 2];
    printf("%-7s %dp: generic %6.1f ns/decision (%.1f-%.1f), by hand %6.1f (%.1f-%.1f): the generic path runs at %.0f%% "
           "of the hand-written loop's speed\n",
           name, players, g, ns[0][0], ns[0][RUNS - 1], h, ns[1][0], ns[1][RUNS - 1], 100.0 * h / g);
    asobi_state_free(s);
    for (int i = 0; i < DEALS; i++)
        asobi_state_free(fresh[i]);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 0.5;
    printf("median of %d interleaved runs of %gs each; the same games in both loops\n", RUNS, seconds);
    measure("psycle", 2, psycle_playout, seconds);
    measure("psycle", 4, psycle_playout, seconds);
    measure("octal", 4, octal_playout, seconds);
    measure("timemasters", 2, tm_playout, seconds);
    return 0;
}

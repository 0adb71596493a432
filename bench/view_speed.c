/* view_speed.c — nanoseconds per seat's view as JSON text: json_dumps of the tree (asobi_state_view) against asobi_state_view_text. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asobi/asobi.h"

/* Usage: bench_view_speed [STATES] [ROUNDS]
 * For each game at its common player counts, STATES states (default 300)
 * taken along random games; one run builds every seat's view of every state
 * ROUNDS times (default 20) as (a) json_dumps(asobi_state_view(), JSON_COMPACT)
 * and (b) asobi_state_view_text(); each figure is the median of 5 runs. */

#define RUNS 5

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v)
{
    qsort(v, RUNS, sizeof *v, cmp_double);
    return v[RUNS / 2];
}

static size_t sink; /* the lengths, so that nothing is optimized away */

/* ns per view of one way over every seat of every state, rounds times. */
static double run(asobi_state **states, int n, int players, int rounds, int text)
{
    double t0 = now();
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++)
            for (int seat = 0; seat < players; seat++) {
                if (text) {
                    size_t len;
                    char *t = asobi_state_view_text(states[i], seat, &len);
                    sink += len;
                    free(t);
                } else {
                    json_t *v = asobi_state_view(states[i], seat);
                    char *t = json_dumps(v, JSON_COMPACT);
                    sink += strlen(t);
                    free(t);
                    json_decref(v);
                }
            }
    return (now() - t0) * 1e9 / ((double)rounds * n * players);
}

int main(int argc, char **argv)
{
    int want = argc > 1 ? atoi(argv[1]) : 300;
    int rounds = argc > 2 ? atoi(argv[2]) : 20;
    if (want < 1 || rounds < 1) {
        fprintf(stderr, "usage: %s [STATES] [ROUNDS]\n", argv[0]);
        return 2;
    }
    static const struct {
        const char *game;
        int players;
    } cases[] = {{"psycle", 2}, {"psycle", 4}, {"ninja", 4}, {"octal", 4}, {"timemasters", 2}};
    printf("%-12s %7s %6s %9s %9s %7s\n", "game", "players", "bytes", "tree+dump", "text", "ratio");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const asobi_game_def *def = asobi_game_find(cases[c].game);
        int p = cases[c].players;
        asobi_state **states = calloc((size_t)want, sizeof *states);
        int ids[asobi_game_max_actions(def)];
        asobi_rng rng;
        asobi_rng_seed(&rng, 7);
        /* the states along random games, one in every few actions */
        asobi_state *s = NULL;
        uint64_t seed = 1;
        size_t bytes = 0;
        for (int n = 0; n < want;) {
            if (!s || asobi_state_terminal(s)) {
                asobi_state_free(s);
                s = asobi_state_new(def, p, NULL, seed++, NULL);
            }
            uint32_t m = asobi_state_to_move(s);
            int seat = __builtin_ctz(m);
            int k = asobi_state_legal(s, seat, ids);
            asobi_state_apply_unchecked(s, seat, ids[asobi_rng_below(&rng, (uint32_t)k)]);
            if (asobi_rng_below(&rng, 3) == 0) {
                states[n++] = asobi_state_clone(s);
                char *t = asobi_state_view_text(s, 0, NULL);
                bytes += strlen(t);
                free(t);
            }
        }
        asobi_state_free(s);
        double a[RUNS], b[RUNS];
        run(states, want, p, 1, 0); /* warm up */
        run(states, want, p, 1, 1);
        for (int r = 0; r < RUNS; r++) {
            a[r] = run(states, want, p, rounds, 0);
            b[r] = run(states, want, p, rounds, 1);
        }
        double ma = median(a), mb = median(b);
        printf("%-12s %7d %6zu %9.0f %9.0f %6.1fx\n", cases[c].game, p, bytes / (size_t)want, ma, mb, ma / mb);
        for (int i = 0; i < want; i++)
            asobi_state_free(states[i]);
        free(states);
    }
    return sink == 0;
}

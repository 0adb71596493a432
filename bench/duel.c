/* duel.c — a small driver: two bot specs play N games of a game (seats alternate); win rates and time per move. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "asobi/asobi.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: duel GAME SPEC_A SPEC_B GAMES [SEED] [PLAYERS]\n"
                        "  with 3+ players, seat 0 (rotating) is A and all others are B\n");
        return 2;
    }
    const asobi_game_def *g = asobi_game_find(argv[1]);
    int games = atoi(argv[4]);
    uint64_t seed = argc > 5 ? strtoull(argv[5], NULL, 10) : 1;
    int players = argc > 6 ? atoi(argv[6]) : 2;
    int a_wins = 0, b_wins = 0, draws = 0;
    double t[2] = {0, 0};
    long moves[2] = {0, 0};
    double a_share = 0;
    for (int k = 0; k < games; k++) {
        asobi_error err;
        asobi_state *s = asobi_state_new(g, players, NULL, seed + (uint64_t)k, &err);
        int a_seat = k % players;
        asobi_bot *bots[ASOBI_MAX_SEATS];
        for (int i = 0; i < players; i++) {
            bots[i] = asobi_bot_new(i == a_seat ? argv[2] : argv[3], g, players, i, seed * 7919 + (uint64_t)k, &err);
            if (!bots[i]) {
                fprintf(stderr, "%s\n", err.message);
                return 1;
            }
        }
        while (!asobi_state_terminal(s)) {
            uint32_t m = asobi_state_to_move(s);
            int ids[ASOBI_MAX_SEATS];
            for (int i = 0; i < players; i++)
                if (m & (1u << i)) {
                    double t0 = now();
                    ids[i] = asobi_bot_choose(bots[i], s, &err);
                    t[i != a_seat] += now() - t0;
                    moves[i != a_seat]++;
                    if (ids[i] < 0) {
                        fprintf(stderr, "%s\n", err.message);
                        return 1;
                    }
                }
            for (int i = 0; i < players; i++)
                if (m & (1u << i))
                    asobi_state_apply(s, i, ids[i], &err);
        }
        asobi_result r;
        asobi_state_result(s, &r);
        bool aw = r.winners & (1u << a_seat);
        bool bw = r.winners & ~(1u << a_seat);
        int k_w = __builtin_popcount(r.winners);
        if (aw)
            a_share += 1.0 / k_w;
        if (aw && !bw)
            a_wins++;
        else if (bw && !aw)
            b_wins++;
        else
            draws++;
        for (int i = 0; i < players; i++)
            asobi_bot_free(bots[i]);
        asobi_state_free(s);
    }
    printf("%s vs %s (%s, %dp, %d games): A wins %d, B wins %d, other %d; A share of wins %.3f; "
           "ms/move A %.3f B %.3f\n",
           argv[2], argv[3], argv[1], players, games, a_wins, b_wins, draws, a_share / games,
           1e3 * t[0] / (moves[0] ? moves[0] : 1), 1e3 * t[1] / (moves[1] ? moves[1] : 1));
    return 0;
}

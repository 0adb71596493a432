/* psycle_nash.h — the exact equilibrium of a 2-player PSYCLE cycle: matrix-game solver, value table, exploitability. */
#ifndef ASOBI_PSYCLE_NASH_H
#define ASOBI_PSYCLE_NASH_H

#include <stddef.h>

/* The largest matrix game solved: one row per card a seat can afford. */
#define PSYCLE_NASH_MAX 6

/* Solve the zero-sum matrix game m (rows x cols, row-major, the payoff to the
 * row player, who maximizes) exactly with the simplex method. Writes an
 * optimal mixed strategy of the row player to x (rows entries) and of the
 * column player to y (cols entries), either may be NULL; returns the value. */
double psycle_nash_solve_matrix(const double *m, int rows, int cols, double *x, double *y);

/* A position of a 2-player cycle between rounds, from seat A's side:
 * round 0..5 (5 = the cycle is over), the target and bonus values still face
 * down (bit v-1 set for value v), both seats' gems and A's points minus B's.
 * Returns the cycle's equilibrium value for A: P(A wins the cycle) - P(B
 * wins it) (a tied cycle is replayed: 0). Cached: computed once, in memory. */
double psycle_nash_value(int round, unsigned targets_down, unsigned bonuses_down, int gems_a, int gems_b,
                         int point_diff);

/* The round being played: the face-up target and bonus are known and have
 * been taken out of targets_down / bonuses_down. Writes A's equilibrium
 * strategy to x (index = card 0..gems_a capped at 5) and B's to y; either may
 * be NULL. Returns the round's value for A. */
double psycle_nash_round(int round, unsigned targets_down, unsigned bonuses_down, int target, int bonus,
                         int gems_a, int gems_b, int point_diff, double *x, double *y);

/* Fill the table for every position reachable from the start of a cycle
 * (10 gems each, 0 points) and return the number of positions it holds. */
size_t psycle_nash_prepare(void);

/* The best response to psycle-nash: the value for the responder (seat B)
 * from the position given (as for psycle_nash_value) when A plays the
 * equilibrium strategy at every round and B answers each round with the best
 * pure card knowing A's strategy (exact, by the same backward induction).
 * The exploitability there is this plus psycle_nash_value (B's equilibrium
 * value is minus A's); from the start of a cycle (0, 0x1f, 0x1f, 10, 10, 0)
 * the game's value is 0 by symmetry. */
double psycle_nash_best_response_value(int round, unsigned targets_down, unsigned bonuses_down, int gems_a,
                                       int gems_b, int point_diff);

#endif

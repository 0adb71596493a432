/* psycle_nash.c — 2-player PSYCLE solved exactly: backward induction over a cycle, a simplex per round. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "games/psycle/psycle.h"
#include "psycle_nash.h"

/* Why a cycle can be solved
 * -------------------------
 * With two players, everything between rounds is public except the order of
 * the face-down tiles: both gem counts, both point totals, the tiles already
 * face up (hence the set of those still face down). A cycle starts afresh
 * (10 gems each, 0 points, seed 000 §10) whatever happened before, and its
 * outcome for the game is only who takes the victory tile (§9: a tie is
 * replayed). So each cycle is a zero-sum game with value
 *     P(A wins the cycle) - P(B wins the cycle),
 * and the position that matters is
 *     (round, targets face down, bonuses face down, gems A, gems B,
 *      A's points - B's points).
 * Each round starts with a chance event: the next target and the next bonus
 * are drawn uniformly from those face down (the two piles are shuffled
 * separately, §3.2). Then both choose a card at once: a matrix game of at
 * most 6x6 (the cards each can afford) whose entries are the values of the
 * positions that follow. Backward induction from the end of the cycle (the
 * final score points - gems, §9) gives every value; the round's matrix game
 * is solved exactly by the simplex method.
 *
 * Two players never run the 50-gem supply dry (they hold at most 20 between
 * them, so it holds at least 30), but the gain is computed with the game's
 * own psycle_zero_gain and the points with psycle_round_points, so the
 * solver follows the rules engine rather than a copy of it.
 *
 * The table: positions reachable from the start of a cycle, found by
 * memoized recursion and kept in an open-addressing hash table (key: the
 * position packed in 30 bits; value: a double). A mutex guards it, so bots
 * in several threads may share it. Size and time: docs/ai.md. */

#define START_GEMS PSYCLE_START_GEMS

/* ------------------------------------------------------------------------
 * The matrix game: maximize sum(q) s.t. M' q <= 1, q >= 0, with M' = M + k
 * made positive. Then the value of M' is 1/sum(q), the column player's
 * optimal strategy is q/sum(q), and the row player's is the dual solution
 * p/sum(p), read from the objective row under the slack columns. Bland's
 * rule (smallest index enters, smallest basic index leaves on ties) rules
 * out cycling, so the simplex always ends.
 * ---------------------------------------------------------------------- */
#define EPS 1e-12

double psycle_nash_solve_matrix(const double *m, int rows, int cols, double *x, double *y)
{
    enum { R = PSYCLE_NASH_MAX, C = PSYCLE_NASH_MAX };
    double t[R + 1][C + R + 1];
    int basis[R];
    int width = cols + rows; /* rhs in column width */
    double lowest = m[0];
    for (int i = 0; i < rows * cols; i++)
        if (m[i] < lowest)
            lowest = m[i];
    double k = 1.0 - lowest; /* every entry of M' is >= 1 */
    memset(t, 0, sizeof t);
    for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++)
            t[i][j] = m[i * cols + j] + k;
        t[i][cols + i] = 1.0;
        t[i][width] = 1.0;
        basis[i] = cols + i;
    }
    for (int j = 0; j < cols; j++)
        t[rows][j] = -1.0;
    for (;;) {
        int enter = -1;
        for (int j = 0; j < width; j++)
            if (t[rows][j] < -EPS) {
                enter = j;
                break;
            }
        if (enter < 0)
            break;
        int leave = -1;
        double best = 0;
        for (int i = 0; i < rows; i++) {
            if (t[i][enter] <= EPS)
                continue;
            double ratio = t[i][width] / t[i][enter];
            if (leave < 0 || ratio < best - EPS || (ratio < best + EPS && basis[i] < basis[leave])) {
                leave = i;
                best = ratio;
            }
        }
        if (leave < 0)
            break; /* unbounded: impossible with M' > 0 */
        double pivot = t[leave][enter];
        for (int j = 0; j <= width; j++)
            t[leave][j] /= pivot;
        for (int i = 0; i <= rows; i++) {
            if (i == leave || t[i][enter] == 0)
                continue;
            double f = t[i][enter];
            for (int j = 0; j <= width; j++)
                t[i][j] -= f * t[leave][j];
        }
        basis[leave] = enter;
    }
    double z = t[rows][width]; /* sum(q) = sum(p) = 1 / value(M') */
    if (y) {
        for (int j = 0; j < cols; j++)
            y[j] = 0;
        for (int i = 0; i < rows; i++)
            if (basis[i] < cols)
                y[basis[i]] = t[i][width] / z;
    }
    if (x)
        for (int i = 0; i < rows; i++)
            x[i] = t[rows][cols + i] / z;
    return 1.0 / z - k;
}

/* ------------------------------------------------------------------------
 * The table.
 * ---------------------------------------------------------------------- */
typedef struct value_table {
    uint32_t *keys; /* EMPTY_KEY: free slot */
    double *values;
    size_t cap, count;
} value_table;

#define EMPTY_KEY UINT32_MAX

static value_table equilibrium_table, response_table;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t pack(unsigned targets, unsigned bonuses, int ga, int gb, int d)
{
    return (uint32_t)targets | (uint32_t)bonuses << 5 | (uint32_t)ga << 10 | (uint32_t)gb << 16 |
           (uint32_t)(d + 128) << 22;
}

static size_t slot_of(const value_table *t, uint32_t key)
{
    uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ULL;
    size_t i = (size_t)(h >> 20) & (t->cap - 1);
    while (t->keys[i] != EMPTY_KEY && t->keys[i] != key)
        i = (i + 1) & (t->cap - 1);
    return i;
}

static bool table_get(const value_table *t, uint32_t key, double *out)
{
    if (!t->cap)
        return false;
    size_t i = slot_of(t, key);
    if (t->keys[i] != key)
        return false;
    *out = t->values[i];
    return true;
}

static void table_put(value_table *t, uint32_t key, double v)
{
    if (2 * (t->count + 1) > t->cap) {
        value_table old = *t;
        t->cap = old.cap ? old.cap * 2 : 1u << 16;
        t->keys = malloc(t->cap * sizeof *t->keys);
        t->values = malloc(t->cap * sizeof *t->values);
        if (!t->keys || !t->values)
            abort(); /* a few tens of MB at most; nothing sensible to do without them */
        memset(t->keys, 0xff, t->cap * sizeof *t->keys);
        t->count = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.keys[i] != EMPTY_KEY)
                table_put(t, old.keys[i], old.values[i]);
        free(old.keys);
        free(old.values);
    }
    size_t i = slot_of(t, key);
    if (t->keys[i] == EMPTY_KEY)
        t->count++;
    t->keys[i] = key;
    t->values[i] = v;
}

static int popcount5(unsigned m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

/* The position after cards a (seat A) and b (seat B) are played. */
static void after_round(int target, int bonus, int ga, int gb, int d, int a, int b, int *ga2, int *gb2,
                        int *d2)
{
    int8_t cards[2] = {(int8_t)a, (int8_t)b};
    int supply = psycle_table.gem_supply - ga - gb + a + b;
    int zeros = (a == 0) + (b == 0);
    int gain = psycle_zero_gain(cards, 2, supply, zeros);
    *ga2 = ga - a + (a == 0 ? gain : 0);
    *gb2 = gb - b + (b == 0 ? gain : 0);
    *d2 = d + psycle_round_points(a, cards, 2, 0, target, bonus, NULL) -
          psycle_round_points(b, cards, 2, 1, target, bonus, NULL);
}

static int affordable(int gems) { return (gems < PSYCLE_CARDS - 1 ? gems : PSYCLE_CARDS - 1) + 1; }

static double value_locked(int round, unsigned targets, unsigned bonuses, int ga, int gb, int d);

/* The round's matrix (entries: values of the positions that follow). */
static void round_matrix(int round, unsigned targets, unsigned bonuses, int target, int bonus, int ga,
                         int gb, int d, double *m, int *rows, int *cols)
{
    *rows = affordable(ga);
    *cols = affordable(gb);
    for (int a = 0; a < *rows; a++)
        for (int b = 0; b < *cols; b++) {
            int ga2, gb2, d2;
            after_round(target, bonus, ga, gb, d, a, b, &ga2, &gb2, &d2);
            m[a * *cols + b] = value_locked(round + 1, targets, bonuses, ga2, gb2, d2);
        }
}

static double round_locked(int round, unsigned targets, unsigned bonuses, int target, int bonus, int ga,
                           int gb, int d, double *x, double *y)
{
    double m[PSYCLE_NASH_MAX * PSYCLE_NASH_MAX];
    int rows, cols;
    round_matrix(round, targets, bonuses, target, bonus, ga, gb, d, m, &rows, &cols);
    return psycle_nash_solve_matrix(m, rows, cols, x, y);
}

/* The chance event of a round: every (target, bonus) pair of those face down. */
static double value_locked(int round, unsigned targets, unsigned bonuses, int ga, int gb, int d)
{
    if (round >= PSYCLE_ROUNDS) {
        int final = d - ga + gb; /* §9: points minus gems, A's minus B's */
        return final > 0 ? 1.0 : final < 0 ? -1.0 : 0.0;
    }
    /* The game is symmetric: A's value at (ga, gb, d) is minus B's at
     * (gb, ga, -d). Only one of the two is stored, which halves the table. */
    if (ga < gb || (ga == gb && d < 0))
        return -value_locked(round, targets, bonuses, gb, ga, -d);
    uint32_t key = pack(targets, bonuses, ga, gb, d);
    double v;
    if (table_get(&equilibrium_table, key, &v))
        return v;
    double sum = 0;
    for (int t = 1; t <= PSYCLE_ROUNDS; t++)
        for (int b = 1; b <= PSYCLE_ROUNDS; b++)
            if ((targets >> (t - 1) & 1u) && (bonuses >> (b - 1) & 1u))
                sum += round_locked(round, targets & ~(1u << (t - 1)), bonuses & ~(1u << (b - 1)), t, b,
                                    ga, gb, d, NULL, NULL);
    v = sum / (popcount5(targets) * popcount5(bonuses));
    table_put(&equilibrium_table, key, v);
    return v;
}

double psycle_nash_value(int round, unsigned targets_down, unsigned bonuses_down, int gems_a, int gems_b,
                         int point_diff)
{
    pthread_mutex_lock(&table_lock);
    double v = value_locked(round, targets_down, bonuses_down, gems_a, gems_b, point_diff);
    pthread_mutex_unlock(&table_lock);
    return v;
}

double psycle_nash_round(int round, unsigned targets_down, unsigned bonuses_down, int target, int bonus,
                         int gems_a, int gems_b, int point_diff, double *x, double *y)
{
    pthread_mutex_lock(&table_lock);
    double v = round_locked(round, targets_down, bonuses_down, target, bonus, gems_a, gems_b, point_diff,
                            x, y);
    pthread_mutex_unlock(&table_lock);
    return v;
}

size_t psycle_nash_prepare(void)
{
    pthread_mutex_lock(&table_lock);
    value_locked(0, 0x1f, 0x1f, START_GEMS, START_GEMS, 0);
    size_t n = equilibrium_table.count;
    pthread_mutex_unlock(&table_lock);
    return n;
}

/* ------------------------------------------------------------------------
 * The best response to the equilibrium player (for the exploitability):
 * A plays its equilibrium mix at every round, B picks the card minimizing
 * A's expected continuation, by the same backward induction.
 * ---------------------------------------------------------------------- */
static double response_locked(int round, unsigned targets, unsigned bonuses, int ga, int gb, int d)
{
    if (round >= PSYCLE_ROUNDS)
        return value_locked(round, targets, bonuses, ga, gb, d);
    uint32_t key = pack(targets, bonuses, ga, gb, d);
    double v;
    if (table_get(&response_table, key, &v))
        return v;
    double sum = 0;
    for (int t = 1; t <= PSYCLE_ROUNDS; t++)
        for (int bo = 1; bo <= PSYCLE_ROUNDS; bo++) {
            if (!((targets >> (t - 1) & 1u) && (bonuses >> (bo - 1) & 1u)))
                continue;
            unsigned t2 = targets & ~(1u << (t - 1)), b2 = bonuses & ~(1u << (bo - 1));
            double x[PSYCLE_NASH_MAX];
            round_locked(round, t2, b2, t, bo, ga, gb, d, x, NULL);
            int rows = affordable(ga), cols = affordable(gb);
            double worst = INFINITY;
            for (int b = 0; b < cols; b++) {
                double e = 0;
                for (int a = 0; a < rows; a++) {
                    if (x[a] <= 0)
                        continue;
                    int ga2, gb2, d2;
                    after_round(t, bo, ga, gb, d, a, b, &ga2, &gb2, &d2);
                    e += x[a] * response_locked(round + 1, t2, b2, ga2, gb2, d2);
                }
                if (e < worst)
                    worst = e;
            }
            sum += worst;
        }
    v = sum / (popcount5(targets) * popcount5(bonuses));
    table_put(&response_table, key, v);
    return v;
}

double psycle_nash_best_response_value(int round, unsigned targets_down, unsigned bonuses_down, int gems_a,
                                       int gems_b, int point_diff)
{
    pthread_mutex_lock(&table_lock);
    double v = -response_locked(round, targets_down, bonuses_down, gems_a, gems_b, point_diff);
    pthread_mutex_unlock(&table_lock);
    return v;
}

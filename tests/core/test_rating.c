/* test_rating.c — Weng-Lin ratings (rating.h) against the reference, npm openskill 5, run at test time (issue 42). */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "asobi/rating.h"

/* Agreement asked of every mu, sigma and ordinal, in rating points. */
#define TOLERANCE 1e-9

/* ---- the reference's vectors ----------------------------------------------------
 * tests/core/rating_reference.mjs rates seeded random games with openskill
 * (node_modules/openskill, pinned in package-lock.json; scripts/setup.sh's
 * npm ci installs it) and prints them with its results: the reference
 * computes them on every run, so it is the judge, not a file written once.
 * CTest gives the node program in ASOBI_NODE; a machine without node or
 * the package fails here, never skips. */

static json_t *vectors;

/* The vectors, computed once for the tests that need them (0), or -1. */
static int load_vectors(void)
{
    if (vectors)
        return 0;
    const char *node = getenv("ASOBI_NODE");
    const char *dir = getenv("ASOBI_SOURCE_DIR");
    if (!node || !*node || strstr(node, "NOTFOUND")) {
        fprintf(stderr, "test_rating: node is missing (ASOBI_NODE unset; scripts/setup.sh installs it)\n");
        return -1;
    }
    char command[2048];
    snprintf(command, sizeof command, "'%s' '%s/tests/core/rating_reference.mjs'", node, dir ? dir : ".");
    if (strchr(node, '\'') || (dir && strchr(dir, '\''))) {
        fprintf(stderr, "test_rating: a quote in a path: %s\n", command);
        return -1;
    }
    FILE *out = popen(command, "r");
    if (!out)
        return -1;
    json_error_t error;
    vectors = json_loadf(out, 0, &error);
    int status = pclose(out);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !json_is_object(vectors)) {
        fprintf(stderr,
                "test_rating: %s failed (status %d; %s): is node_modules/openskill there (scripts/setup.sh)?\n",
                command, status, vectors ? "" : error.text);
        json_decref(vectors);
        vectors = NULL;
        return -1;
    }
    return 0;
}

static int free_vectors(void **unused)
{
    (void)unused;
    json_decref(vectors);
    return 0;
}

/* A number of the reference's JSON: an integer-valued double (25) comes as a JSON integer. */
static double number(const json_t *value)
{
    assert_true(json_is_number(value));
    return json_number_value(value);
}

static asobi_rating rating_of(const json_t *pair)
{
    assert_int_equal(json_array_size(pair), 2);
    return (asobi_rating){number(json_array_get(pair, 0)), number(json_array_get(pair, 1))};
}

typedef struct worst {
    double mu, sigma, ordinal;
    long seats;
} worst;

static void compare(worst *w, asobi_rating mine, asobi_rating theirs)
{
    w->mu = fmax(w->mu, fabs(mine.mu - theirs.mu));
    w->sigma = fmax(w->sigma, fabs(mine.sigma - theirs.sigma));
    w->seats++;
}

/* Each single game of 2-6 seats (and 8, 12), ties, scattered rank numbers, the
 * kappa floor: the same ratings as the reference's, and the same ordinals. */
static void test_single_games_agree_with_the_reference(void **unused)
{
    (void)unused;
    assert_int_equal(load_vectors(), 0);
    const json_t *games = json_object_get(vectors, "games");
    assert_true(json_array_size(games) >= 700);
    worst w = {0};
    size_t index;
    const json_t *game;
    json_array_foreach(games, index, game) {
        const json_t *before = json_object_get(game, "before"), *after = json_object_get(game, "after");
        const json_t *rank_json = json_object_get(game, "rank"), *ordinal = json_object_get(game, "ordinal");
        int n = (int)json_array_size(before);
        assert_true(n >= 2 && n <= ASOBI_RATING_MAX_PLAYERS);
        asobi_rating mine[ASOBI_RATING_MAX_PLAYERS];
        int rank[ASOBI_RATING_MAX_PLAYERS];
        for (int i = 0; i < n; i++) {
            mine[i] = rating_of(json_array_get(before, (size_t)i));
            rank[i] = (int)number(json_array_get(rank_json, (size_t)i));
        }
        asobi_error err;
        assert_int_equal(asobi_rating_update(mine, rank, n, mine, &err), ASOBI_OK);
        for (int i = 0; i < n; i++) {
            compare(&w, mine[i], rating_of(json_array_get(after, (size_t)i)));
            w.ordinal = fmax(w.ordinal, fabs(asobi_rating_ordinal(mine[i]) -
                                             number(json_array_get(ordinal, (size_t)i))));
        }
        if (w.mu > TOLERANCE || w.sigma > TOLERANCE || w.ordinal > TOLERANCE)
            fail_msg("game %zu (%d seats) differs from openskill: max |d mu| %g, |d sigma| %g, |d ordinal| %g", index,
                     n, w.mu, w.sigma, w.ordinal);
    }
    printf("openskill %s: %zu single games (%ld seats) agree; max |d mu| %.3g, |d sigma| %.3g, |d ordinal| %.3g\n",
           json_string_value(json_object_get(vectors, "reference")), json_array_size(games), w.seats, w.mu,
           w.sigma, w.ordinal);
}

/* Pools of players rated game after game (hundreds of games, 2-6 seats of
 * the pool each): this side goes on from its own ratings, so differences
 * that add up over a player's history would show. */
static void test_long_sequences_agree_with_the_reference(void **unused)
{
    (void)unused;
    assert_int_equal(load_vectors(), 0);
    const json_t *sequences = json_object_get(vectors, "sequences");
    assert_true(json_array_size(sequences) >= 3);
    worst w = {0};
    long played = 0;
    size_t s;
    const json_t *sequence;
    json_array_foreach(sequences, s, sequence) {
        int pool = (int)number(json_object_get(sequence, "pool"));
        asobi_rating *players = malloc((size_t)pool * sizeof *players);
        for (int p = 0; p < pool; p++)
            players[p] = asobi_rating_initial();
        size_t g;
        const json_t *game;
        json_array_foreach(json_object_get(sequence, "games"), g, game) {
            const json_t *seats = json_object_get(game, "seats"), *after = json_object_get(game, "after");
            int n = (int)json_array_size(seats);
            asobi_rating mine[ASOBI_RATING_MAX_PLAYERS];
            int rank[ASOBI_RATING_MAX_PLAYERS], seat[ASOBI_RATING_MAX_PLAYERS];
            for (int i = 0; i < n; i++) {
                seat[i] = (int)number(json_array_get(seats, (size_t)i));
                assert_true(seat[i] >= 0 && seat[i] < pool);
                mine[i] = players[seat[i]];
                rank[i] = (int)number(json_array_get(json_object_get(game, "rank"), (size_t)i));
            }
            assert_int_equal(asobi_rating_update(mine, rank, n, mine, NULL), ASOBI_OK);
            for (int i = 0; i < n; i++) {
                compare(&w, mine[i], rating_of(json_array_get(after, (size_t)i)));
                players[seat[i]] = mine[i];
            }
            if (w.mu > TOLERANCE || w.sigma > TOLERANCE)
                fail_msg("sequence %zu, game %zu differs from openskill: max |d mu| %g, |d sigma| %g", s, g, w.mu,
                         w.sigma);
            played++;
        }
        free(players);
    }
    printf("openskill: %ld games in %zu sequences (%ld seats) agree; max |d mu| %.3g, |d sigma| %.3g\n", played,
           json_array_size(sequences), w.seats, w.mu, w.sigma);
}

/* ---- the model's own properties (readable without the reference) ------------- */

/* A newcomer: mu 25, sigma 25/3, displayed 0, provisional for 10 games. */
static void test_newcomer_and_displayed_rating(void **unused)
{
    (void)unused;
    asobi_rating r = asobi_rating_initial();
    assert_true(r.mu == 25.0 && r.sigma == 25.0 / 3.0);
    assert_true(fabs(asobi_rating_ordinal(r)) < 1e-12);
    assert_true(asobi_rating_ordinal((asobi_rating){30, 2}) == 24.0);
    assert_true(asobi_rating_provisional(0));
    assert_true(asobi_rating_provisional(9));
    assert_false(asobi_rating_provisional(10));
    assert_false(asobi_rating_provisional(250));
}

/* Between equals the winner gains what the loser gives and both grow as
 * sure; a tie between equals moves no mu; only the order of the ranks
 * counts; after may be before. */
static void test_equals_ties_and_rank_numbers(void **unused)
{
    (void)unused;
    asobi_rating two[2] = {asobi_rating_initial(), asobi_rating_initial()};
    assert_int_equal(asobi_rating_update(two, (int[]){1, 2}, 2, two, NULL), ASOBI_OK);
    assert_true(two[0].mu > 25 && two[1].mu < 25);
    assert_true(fabs((two[0].mu - 25) + (two[1].mu - 25)) < 1e-12);
    assert_true(two[0].sigma == two[1].sigma && two[0].sigma < 25.0 / 3.0);

    asobi_rating three[3] = {asobi_rating_initial(), asobi_rating_initial(), asobi_rating_initial()}, tied[3];
    assert_int_equal(asobi_rating_update(three, (int[]){1, 1, 1}, 3, tied, NULL), ASOBI_OK);
    for (int i = 0; i < 3; i++)
        assert_true(fabs(tied[i].mu - 25) < 1e-12 && tied[i].sigma < 25.0 / 3.0);

    asobi_rating a[4] = {{20, 3}, {31, 5}, {25, 1}, {18, 7}}, b[4];
    memcpy(b, a, sizeof a);
    assert_int_equal(asobi_rating_update(a, (int[]){2, 1, 4, 2}, 4, a, NULL), ASOBI_OK);
    assert_int_equal(asobi_rating_update(b, (int[]){-5, -9, 1000, -5}, 4, b, NULL), ASOBI_OK);
    assert_memory_equal(a, b, sizeof a);
}

/* Refusals: bad_argument with a message, and after untouched. */
static void test_refusals_leave_the_ratings_alone(void **unused)
{
    (void)unused;
    static const asobi_rating bad[] = {{NAN, 3}, {INFINITY, 3}, {25, 0}, {25, -1}, {25, NAN}, {1001, 3}, {-1001, 3}, {25, 1001}};
    int rank[ASOBI_RATING_MAX_PLAYERS + 1] = {0};
    asobi_rating before[ASOBI_RATING_MAX_PLAYERS + 1], after[ASOBI_RATING_MAX_PLAYERS + 1], untouched[3];
    for (int i = 0; i <= ASOBI_RATING_MAX_PLAYERS; i++)
        before[i] = asobi_rating_initial();
    memset(after, 0x5a, sizeof after);
    memcpy(untouched, after, sizeof untouched);
    asobi_error err;
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        before[1] = bad[k];
        assert_int_equal(asobi_rating_update(before, rank, 3, after, &err), ASOBI_E_BAD_ARGUMENT);
        assert_non_null(strstr(err.message, "player 1's rating"));
        assert_memory_equal(after, untouched, sizeof untouched);
    }
    before[1] = asobi_rating_initial();
    assert_int_equal(asobi_rating_update(before, rank, 1, after, &err), ASOBI_E_BAD_ARGUMENT);
    assert_int_equal(asobi_rating_update(before, rank, ASOBI_RATING_MAX_PLAYERS + 1, after, &err),
                     ASOBI_E_BAD_ARGUMENT);
    assert_non_null(strstr(err.message, "2 to 64 players"));
    assert_int_equal(asobi_rating_update(NULL, rank, 2, after, &err), ASOBI_E_BAD_ARGUMENT);
    assert_int_equal(asobi_rating_update(before, NULL, 2, after, &err), ASOBI_E_BAD_ARGUMENT);
    assert_int_equal(asobi_rating_update(before, rank, 2, NULL, NULL), ASOBI_E_BAD_ARGUMENT);
    assert_memory_equal(after, untouched, sizeof untouched);
    /* the largest game: ratings stay finite */
    assert_int_equal(asobi_rating_update(before, rank, ASOBI_RATING_MAX_PLAYERS, after, &err), ASOBI_OK);
    assert_true(isfinite(after[0].mu) && after[0].sigma > 0);
    /* mu as far apart as allowed and sigmas small (exp(mu / c) at its
     * largest and smallest), the highest first and the lowest first: finite */
    asobi_rating far[3] = {{1000, 0.1}, {-1000, 0.1}, {-1000, 0.1}}, near[3];
    for (int first = 0; first < 2; first++) {
        int order[2][3] = {{1, 2, 3}, {3, 2, 1}};
        assert_int_equal(asobi_rating_update(far, order[first], 3, near, &err), ASOBI_OK);
        for (int i = 0; i < 3; i++)
            assert_true(isfinite(near[i].mu) && isfinite(near[i].sigma) && near[i].sigma > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_games_agree_with_the_reference),
        cmocka_unit_test(test_long_sequences_agree_with_the_reference),
        cmocka_unit_test(test_newcomer_and_displayed_rating),
        cmocka_unit_test(test_equals_ties_and_rank_numbers),
        cmocka_unit_test(test_refusals_leave_the_ratings_alone),
    };
    return cmocka_run_group_tests(tests, NULL, free_vectors);
}

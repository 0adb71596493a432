/* rating.h — Weng-Lin ratings (Plackett-Luce): a player's skill as a mean and an uncertainty, updated by ranked games of 2 or more with ties. */
#ifndef ASOBI_RATING_H
#define ASOBI_RATING_H

#include <stdbool.h>

#include "asobi/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Weng and Lin's Bayesian approximation ("A Bayesian Approximation Method for
 * Online Ranking", JMLR 12, 2011), Plackett-Luce model, exactly as its
 * reference implementation, npm openskill 5, computes it with its defaults:
 * tests/core/test_rating.c runs that package (node_modules/openskill, pinned
 * in package-lock.json) on hundreds of games and asks for agreement to 1e-9.
 *
 * A player's skill is a normal belief N(mu, sigma^2). A newcomer starts at
 * mu 25, sigma 25/3. After each game every seat's belief is updated from the
 * ranks alone (who finished ahead of whom; margins do not count):
 *   - first sigma grows by tau: sigma = sqrt(sigma^2 + tau^2) (the skill may
 *     have drifted since the last game; this keeps sigma from shrinking to
 *     nothing, so a regular player's rating can still move);
 *   - then the Plackett-Luce update: a seat gains for each seat it beat and
 *     loses for each that beat it, more when the result surprised (a low mu
 *     beating a high one), and its sigma shrinks by what the game taught;
 *     beta (25/6) is the spread of one game's performance around the skill,
 *     kappa (0.0001) the floor that keeps a sigma's shrink factor positive.
 * Seats that share a rank (a tie) are one group in the model's order: each
 * counts the others in its group neither as beaten nor as beating, and the
 * group's terms are shared among its members (openskill's util_a).
 *
 * Each seat is a team of one (no team game is played here). The arena can
 * use it beside its Bradley-Terry Elo: that one fits a tournament's games
 * all at once; this one follows a person game by game.
 */

/* The reference's defaults. */
#define ASOBI_RATING_MU 25.0
#define ASOBI_RATING_SIGMA (25.0 / 3.0)
#define ASOBI_RATING_BETA (25.0 / 6.0)
#define ASOBI_RATING_KAPPA 0.0001
#define ASOBI_RATING_TAU (25.0 / 300.0)
/* Seats in one game: the games seat 2 to 6 (ASOBI_MAX_SEATS), the model any number. */
#define ASOBI_RATING_MAX_PLAYERS 64
/* mu and sigma must be at most this in size (and sigma > 0): far beyond any
 * real rating (a newcomer is 25 +- 8.3; a pool's best reach about 50-60),
 * and near enough that the model's exp(mu / c) can neither overflow nor
 * underflow to 0 (rating.c). */
#define ASOBI_RATING_LIMIT 1000.0
/* A rating is provisional until this many rated games. */
#define ASOBI_RATING_PROVISIONAL_GAMES 10

typedef struct asobi_rating {
    double mu;    /* the skill's mean */
    double sigma; /* its standard deviation: how unsure the mean is */
} asobi_rating;

/* A newcomer's rating: mu 25, sigma 25/3. */
asobi_rating asobi_rating_initial(void);

/* One game's update. before[i] is seat i's rating, rank[i] its place: lower
 * is better, equal ranks are a tie, the numbers themselves do not matter (so
 * asobi_result's rank, 1 for the best, fits as it is). after[i] receives the
 * new ratings; after may be before. players: 2 to ASOBI_RATING_MAX_PLAYERS.
 * ASOBI_E_BAD_ARGUMENT (and after untouched) for a NULL pointer, a player
 * count out of range or a mu or sigma that is not a number, out of
 * ASOBI_RATING_LIMIT, or a sigma <= 0. */
int asobi_rating_update(const asobi_rating *before, const int *rank, int players, asobi_rating *after,
                        asobi_error *err);

/* The displayed rating: mu - 3 sigma (the reference's ordinal), a skill the
 * belief puts the player above with 99.87% certainty, so that it rises as
 * sigma shrinks and nobody ranks high on a few lucky games; a newcomer's is 0. */
double asobi_rating_ordinal(asobi_rating rating);

/* Is a rating after this many rated games still provisional (< 10)? */
bool asobi_rating_provisional(int rated_games);

#ifdef __cplusplus
}
#endif
#endif

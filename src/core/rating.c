/* rating.c — Weng-Lin ratings, Plackett-Luce model: one game's update, as npm openskill 5 computes it (see rating.h). */
#include <math.h>
#include <stddef.h>

#include "asobi/rating.h"

asobi_rating asobi_rating_initial(void)
{
    return (asobi_rating){.mu = ASOBI_RATING_MU, .sigma = ASOBI_RATING_SIGMA};
}

double asobi_rating_ordinal(asobi_rating rating)
{
    return rating.mu - 3.0 * rating.sigma;
}

bool asobi_rating_provisional(int rated_games)
{
    return rated_games < ASOBI_RATING_PROVISIONAL_GAMES;
}

static bool rating_valid(asobi_rating r)
{
    return isfinite(r.mu) && isfinite(r.sigma) && fabs(r.mu) <= ASOBI_RATING_LIMIT && r.sigma > 0 &&
           r.sigma <= ASOBI_RATING_LIMIT;
}

/*
 * The update, in the reference's order of work (openskill's rate.ts, then
 * models/plackett-luce.ts with teams of one, so a team's mu and sigma^2 are
 * its one player's):
 *
 *   sigma_i  = sqrt(sigma_i^2 + tau^2)                 (the skill's drift)
 *   c        = sqrt(sum_i (sigma_i^2 + beta^2))
 *   A_q      = how many seats share q's rank
 *   S_q      = sum of exp(mu_i / c) over the seats i ranked at or after q
 *   p_iq     = exp(mu_i / c) / S_q   (the model's chance that i comes first
 *                                     among the seats still in the race at q)
 *   Omega_i  = sigma_i^2 / c * sum over q ranked at or before i of
 *                ([q = i] - p_iq) / A_q
 *   Delta_i  = sigma_i^2 / c^2 * (sigma_i / c) * sum over the same q of
 *                p_iq (1 - p_iq) / A_q                (gamma = sigma_i / c)
 *   mu_i'    = mu_i + Omega_i
 *   sigma_i' = sigma_i * sqrt(max(1 - Delta_i, kappa))
 *
 * The reference sorts the seats by rank (stably: tied seats keep their
 * order) and works in that order; so does this, so that the sums add up in
 * the same order. Since c >= beta sqrt(2) > 5.89 and |mu| <= 1000
 * (ASOBI_RATING_LIMIT), every exp(mu / c) lies within e^-170 and e^170:
 * none overflows, and no S_q underflows to 0.
 */
int asobi_rating_update(const asobi_rating *before, const int *rank, int players, asobi_rating *after,
                        asobi_error *err)
{
    if (!before || !rank || !after)
        return asobi_fail(err, ASOBI_E_BAD_ARGUMENT, "asobi_rating_update: NULL argument");
    if (players < 2 || players > ASOBI_RATING_MAX_PLAYERS)
        return asobi_fail(err, ASOBI_E_BAD_ARGUMENT, "a rated game has 2 to %d players, not %d",
                          ASOBI_RATING_MAX_PLAYERS, players);
    for (int i = 0; i < players; i++)
        if (!rating_valid(before[i]))
            return asobi_fail(err, ASOBI_E_BAD_ARGUMENT,
                              "player %d's rating (mu %g, sigma %g) is not a finite mu and a sigma > 0", i,
                              before[i].mu, before[i].sigma);

    /* order[k]: the seat in k-th place, a stable insertion sort by rank */
    int order[ASOBI_RATING_MAX_PLAYERS];
    for (int i = 0; i < players; i++) {
        int k = i;
        while (k > 0 && rank[order[k - 1]] > rank[i]) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }

    /* In sorted order from here: place[k], the first place of k's tie group
     * (the reference's rankings()), and tied[k], the size of that group. */
    double mu[ASOBI_RATING_MAX_PLAYERS], var[ASOBI_RATING_MAX_PLAYERS];
    int place[ASOBI_RATING_MAX_PLAYERS], tied[ASOBI_RATING_MAX_PLAYERS];
    double tau_sq = ASOBI_RATING_TAU * ASOBI_RATING_TAU;
    double beta_sq = ASOBI_RATING_BETA * ASOBI_RATING_BETA;
    double c_sq = 0;
    for (int k = 0; k < players; k++) {
        const asobi_rating *r = &before[order[k]];
        double sigma = sqrt(r->sigma * r->sigma + tau_sq);
        mu[k] = r->mu;
        var[k] = sigma * sigma;
        c_sq += var[k] + beta_sq;
        place[k] = k > 0 && rank[order[k - 1]] == rank[order[k]] ? place[k - 1] : k;
    }
    for (int k = 0; k < players; k++) {
        tied[k] = 0;
        for (int j = 0; j < players; j++)
            tied[k] += place[j] == place[k];
    }
    double c = sqrt(c_sq);
    double strength[ASOBI_RATING_MAX_PLAYERS], still_in[ASOBI_RATING_MAX_PLAYERS];
    for (int k = 0; k < players; k++)
        strength[k] = exp(mu[k] / c);
    for (int q = 0; q < players; q++) {
        still_in[q] = 0;
        for (int i = 0; i < players; i++)
            if (place[i] >= place[q])
                still_in[q] += strength[i];
    }

    asobi_rating updated[ASOBI_RATING_MAX_PLAYERS];
    for (int i = 0; i < players; i++) {
        double omega = 0, delta = 0;
        for (int q = 0; q < players; q++) {
            if (place[q] > place[i])
                continue;
            double p = strength[i] / still_in[q];
            omega += (i == q ? 1 - p : -p) / tied[q];
            delta += p * (1 - p) / tied[q];
        }
        double sigma = sqrt(var[i]);
        double gamma = sigma / c;
        double shrink = 1 - delta * (var[i] / (c * c)) * gamma;
        updated[order[i]].mu = mu[i] + omega * (var[i] / c);
        updated[order[i]].sigma = sigma * sqrt(shrink > ASOBI_RATING_KAPPA ? shrink : ASOBI_RATING_KAPPA);
    }
    for (int i = 0; i < players; i++)
        if (!isfinite(updated[i].mu) || !isfinite(updated[i].sigma) || !(updated[i].sigma > 0))
            return asobi_fail(err, ASOBI_E_INTERNAL, "the rating update of player %d is not a number", i);
    for (int i = 0; i < players; i++)
        after[i] = updated[i];
    return ASOBI_OK;
}

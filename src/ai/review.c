/* review.c — a game review: each decision of one seat re-searched by a bot from that seat's information set. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "asobi/bot.h"
#include "asobi/record.h"
#include "asobi/review.h"

/* How a review stays honest
 * -------------------------
 * The record holds every hidden card (its seed decides them). The review
 * replays it only to reach each of the seat's decisions, and hands the
 * state at that point to asobi_bot_weigh: the same entry, behind the same
 * wall (determinize for the seat, withdraw the choices it has not seen), as
 * a bot playing that seat live. What the bot searches is therefore a
 * function of the seat's view and of the bot's own draws, nothing else, and
 * two records that differ only in what the seat had not seen give the same
 * review (tests/ai/test_review.c, the twins).
 *
 * Decisions are independent: each gets its own bot, seeded from the
 * review's seed and the decision's place in the record, so that any number
 * of threads, taking decisions in any order, give the same review. */

typedef struct review_decision {
    int index;          /* the record's action index: the seat decided after `index` actions */
    int played;         /* the action id played */
    asobi_state *state; /* the true state then (handed only to asobi_bot_weigh) */
    json_t *result;     /* filled by a worker */
    double loss;
} review_decision;

struct asobi_review_plan {
    char *spec;
    const char *game;
    int seat, players;
    uint64_t seed;
    review_decision *decisions;
    int count;
};

/* The threads of asobi_review taking the plan's decisions in turn. */
typedef struct review_job {
    asobi_review_plan *plan;
    int next, done;
    asobi_review_progress progress;
    void *ctx;
    pthread_mutex_t lock;
    asobi_error err; /* the first failure */
    bool failed;
} review_job;

/* splitmix64's finalizer: a decision's seed from the review's and its index. */
static uint64_t decision_seed(uint64_t seed, int index)
{
    uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (uint64_t)(index + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

const char *asobi_review_label(double loss)
{
    return loss >= ASOBI_REVIEW_BLUNDER      ? "blunder"
           : loss >= ASOBI_REVIEW_MISTAKE    ? "mistake"
           : loss >= ASOBI_REVIEW_INACCURACY ? "inaccuracy"
                                             : NULL;
}

typedef struct weighed_move {
    int id;
    double value, visits;
} weighed_move;

/* Best first; the unvisited (value -1) last; equals by id. */
static int by_value(const void *pa, const void *pb)
{
    const weighed_move *a = pa, *b = pb;
    if (a->value != b->value)
        return a->value > b->value ? -1 : 1;
    return a->id - b->id;
}

static json_t *value_json(double v) { return v < 0 ? json_null() : json_real(v); }

/* Search one decision: its object, or NULL with err filled. */
static json_t *review_one(const asobi_review_plan *job, review_decision *d, asobi_error *err)
{
    const asobi_game_def *game = asobi_state_game(d->state);
    asobi_bot *bot = asobi_bot_new(job->spec, game, job->players, job->seat, decision_seed(job->seed, d->index), err);
    if (!bot)
        return NULL;
    int max = asobi_game_max_actions(game), best = -1;
    int *ids = malloc((size_t)max * sizeof *ids);
    double *values = malloc((size_t)max * sizeof *values), *visits = malloc((size_t)max * sizeof *visits);
    weighed_move *moves = malloc((size_t)max * sizeof *moves);
    int n = ids && values && visits && moves
                ? asobi_bot_weigh(bot, d->state, ids, values, visits, &best, err)
                : (asobi_fail(err, ASOBI_E_NOMEM, "out of memory for a review"), -1);
    json_t *out = NULL;
    if (n > 0) {
        double played_value = -1, best_value = -1;
        for (int i = 0; i < n; i++) {
            moves[i] = (weighed_move){ids[i], values[i], visits[i]};
            played_value = ids[i] == d->played ? values[i] : played_value;
            best_value = ids[i] == best ? values[i] : best_value;
        }
        /* An unvisited played move (a search too small to try every move)
         * is not judged: no loss rather than a made-up one. */
        double loss = best == d->played || played_value < 0 || best_value < played_value ? 0
                                                                                       : best_value - played_value;
        d->loss = loss;
        qsort(moves, (size_t)n, sizeof *moves, by_value);
        char text[256];
        json_t *list = json_array();
        for (int i = 0; i < n; i++) {
            asobi_state_action_text(d->state, job->seat, moves[i].id, text, sizeof text);
            json_array_append_new(list, json_pack("{s:s,s:o,s:I}", "action", text, "value", value_json(moves[i].value),
                                                  "visits", (json_int_t)moves[i].visits));
        }
        char played[256], chosen[256];
        asobi_state_action_text(d->state, job->seat, d->played, played, sizeof played);
        asobi_state_action_text(d->state, job->seat, best, chosen, sizeof chosen);
        const char *label = asobi_review_label(loss);
        out = json_pack("{s:i,s:s,s:s,s:o,s:o,s:f,s:o,s:o}", "index", d->index, "played", played, "best", chosen,
                        "played_value", value_json(played_value), "best_value", value_json(best_value), "loss",
                        loss, "label", label ? json_string(label) : json_null(), "moves", list);
    }
    free(ids);
    free(values);
    free(visits);
    free(moves);
    asobi_bot_free(bot);
    return out;
}

int asobi_review_plan_search(asobi_review_plan *plan, int i, asobi_error *err)
{
    if (i < 0 || i >= plan->count)
        return asobi_fail(err, ASOBI_E_BAD_ARGUMENT, "decision %d: the review has %d", i, plan->count);
    review_decision *d = &plan->decisions[i];
    if (d->result)
        return ASOBI_OK;
    d->result = review_one(plan, d, err);
    return d->result ? ASOBI_OK : err ? err->code : ASOBI_E_INTERNAL;
}

static void *review_worker(void *arg)
{
    review_job *job = arg;
    for (;;) {
        pthread_mutex_lock(&job->lock);
        int i = job->failed ? job->plan->count : job->next++;
        pthread_mutex_unlock(&job->lock);
        if (i >= job->plan->count)
            return NULL;
        asobi_error err;
        int rc = asobi_review_plan_search(job->plan, i, &err);
        pthread_mutex_lock(&job->lock);
        if (rc != ASOBI_OK && !job->failed) {
            job->failed = true;
            job->err = err;
        }
        job->done++;
        if (rc == ASOBI_OK && job->progress)
            job->progress(job->done, job->plan->count, job->ctx);
        pthread_mutex_unlock(&job->lock);
    }
}

/* The summary: accuracy, total loss, the labels counted, the three worst. */
static json_t *review_summary(const review_decision *d, int count)
{
    int good = 0, labels[3] = {0, 0, 0}, worst[3] = {-1, -1, -1};
    double total = 0;
    for (int i = 0; i < count; i++) {
        total += d[i].loss;
        good += d[i].loss < ASOBI_REVIEW_INACCURACY;
        labels[0] += d[i].loss >= ASOBI_REVIEW_INACCURACY && d[i].loss < ASOBI_REVIEW_MISTAKE;
        labels[1] += d[i].loss >= ASOBI_REVIEW_MISTAKE && d[i].loss < ASOBI_REVIEW_BLUNDER;
        labels[2] += d[i].loss >= ASOBI_REVIEW_BLUNDER;
        if (d[i].loss <= 0)
            continue;
        /* insert into the three largest losses (the earlier decision first among equals) */
        for (int k = 0; k < 3; k++) {
            if (worst[k] < 0 || d[i].loss > d[worst[k]].loss) {
                for (int j = 2; j > k; j--)
                    worst[j] = worst[j - 1];
                worst[k] = i;
                break;
            }
        }
    }
    json_t *w = json_array();
    for (int k = 0; k < 3 && worst[k] >= 0; k++)
        json_array_append_new(w, json_integer(d[worst[k]].index));
    return json_pack("{s:i,s:o,s:f,s:i,s:i,s:i,s:o}", "decisions", count, "accuracy",
                     count ? json_real((double)good / count) : json_null(), "total_loss", total, "inaccuracies",
                     labels[0], "mistakes", labels[1], "blunders", labels[2], "worst", w);
}

asobi_review_plan *asobi_review_plan_new(const json_t *record, int seat, const char *bot_spec, uint64_t seed,
                                         asobi_error *err)
{
    const char *spec = bot_spec ? bot_spec : ASOBI_REVIEW_DEFAULT_BOT;
    asobi_match *whole = asobi_match_load(record, err);
    if (!whole)
        return NULL;
    const asobi_state *end = asobi_match_state(whole);
    const asobi_game_def *game = asobi_state_game(end);
    int players = asobi_state_players(end), total = asobi_match_length(whole);
    if (seat < 0 || seat >= players) {
        asobi_fail(err, ASOBI_E_BAD_SEAT, "seat %d: this game's seats are 0 to %d", seat, players - 1);
        asobi_match_free(whole);
        return NULL;
    }
    /* the spec checked once, before any work */
    asobi_bot *probe = asobi_bot_new(spec, game, players, seat, seed, err);
    bool weighs = probe != NULL;
    asobi_bot_free(probe);
    asobi_match *m = weighs ? asobi_match_prefix(whole, 0, err) : NULL;
    if (!m) {
        asobi_match_free(whole);
        return NULL;
    }
    asobi_review_plan *plan = calloc(1, sizeof *plan);
    /* Replay, keeping the state at each of the seat's choices. */
    review_decision *d = calloc((size_t)(total > 0 ? total : 1), sizeof *d);
    int *ids = malloc((size_t)asobi_game_max_actions(game) * sizeof *ids), count = 0;
    char *spec_copy = strdup(spec);
    bool ok = plan && d && ids && spec_copy;
    if (!ok)
        asobi_fail(err, ASOBI_E_NOMEM, "out of memory for a review");
    for (int i = 0; ok && i < total; i++) {
        const asobi_state *s = asobi_match_state(m);
        int who = asobi_match_action_seat(whole, i), id;
        const char *text = asobi_match_action_text(whole, i);
        if (who == seat && asobi_state_legal(s, seat, ids) > 1 &&
            asobi_state_parse_action(s, seat, text, &id, err) == ASOBI_OK) {
            d[count].index = i;
            d[count].played = id;
            d[count].state = asobi_state_clone(s);
            count++;
        }
        ok = asobi_match_act_text(m, who, text, err) == ASOBI_OK;
    }
    free(ids);
    asobi_match_free(m);
    asobi_match_free(whole);
    if (plan)
        *plan = (asobi_review_plan){.spec = spec_copy, .game = asobi_game_name(game), .seat = seat,
                                    .players = players, .seed = seed, .decisions = d, .count = count};
    if (!ok) {
        if (plan)
            asobi_review_plan_free(plan);
        else {
            free(spec_copy);
            for (int i = 0; d && i < count; i++)
                asobi_state_free(d[i].state);
            free(d);
        }
        return NULL;
    }
    return plan;
}

int asobi_review_plan_count(const asobi_review_plan *plan) { return plan->count; }

json_t *asobi_review_plan_result(const asobi_review_plan *plan)
{
    json_t *list = json_array();
    for (int i = 0; i < plan->count; i++)
        json_array_append(list, plan->decisions[i].result ? plan->decisions[i].result : json_null());
    return json_pack("{s:s,s:i,s:i,s:s,s:I,s:s,s:o,s:o}", "game", plan->game, "players", plan->players, "seat",
                     plan->seat, "bot", plan->spec, "seed", (json_int_t)plan->seed, "measure",
                     "the seat's share of the win (1 a win, 1/k a win shared by k, 0 a loss), as the bot "
                     "estimates it from what the seat knew",
                     "decisions", list, "summary", review_summary(plan->decisions, plan->count));
}

void asobi_review_plan_free(asobi_review_plan *plan)
{
    if (!plan)
        return;
    for (int i = 0; plan->decisions && i < plan->count; i++) {
        asobi_state_free(plan->decisions[i].state);
        json_decref(plan->decisions[i].result);
    }
    free(plan->decisions);
    free(plan->spec);
    free(plan);
}

json_t *asobi_review(const json_t *record, int seat, const char *bot_spec, uint64_t seed, int jobs,
                     asobi_review_progress progress, void *ctx, asobi_error *err)
{
    if (jobs < 1 || jobs > 256) {
        asobi_fail(err, ASOBI_E_BAD_ARGUMENT, "jobs must be from 1 to 256");
        return NULL;
    }
    asobi_review_plan *plan = asobi_review_plan_new(record, seat, bot_spec, seed, err);
    if (!plan)
        return NULL;
    review_job job = {.plan = plan, .progress = progress, .ctx = ctx};
    pthread_mutex_init(&job.lock, NULL);
    pthread_t threads[256];
    int started = 0;
    for (int t = 1; t < jobs && t < plan->count; t++) /* the calling thread is one of the jobs */
        started += pthread_create(&threads[started], NULL, review_worker, &job) == 0;
    review_worker(&job);
    for (int t = 0; t < started; t++)
        pthread_join(threads[t], NULL);
    pthread_mutex_destroy(&job.lock);
    json_t *out = NULL;
    if (job.failed) {
        if (err)
            *err = job.err;
    } else {
        out = asobi_review_plan_result(plan);
    }
    asobi_review_plan_free(plan);
    return out;
}

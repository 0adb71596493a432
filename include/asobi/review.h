/* review.h — a game review: every decision of one seat in a record, judged by a bot from what that seat knew. */
#ifndef ASOBI_REVIEW_H
#define ASOBI_REVIEW_H

#include "asobi/game.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The bot a review uses when none is named: ismcts at a budget of iterations
 * (so a review is the same on every machine), seconds a decision at most
 * (docs/ai.md, "Game review", has the figures). */
#define ASOBI_REVIEW_DEFAULT_BOT "ismcts:iters=10000"

/* The labels of a decision by its loss (best value - played value, on the
 * [0,1] scale of the values): at least INACCURACY an inaccuracy, at least
 * MISTAKE a mistake, at least BLUNDER a blunder. Accuracy is the share of
 * decisions with a loss under INACCURACY. docs/ai.md says how they were
 * measured. */
#define ASOBI_REVIEW_INACCURACY 0.05
#define ASOBI_REVIEW_MISTAKE 0.10
#define ASOBI_REVIEW_BLUNDER 0.20

/* Called after each decision is searched (from the searching thread, one
 * call at a time): done of total. */
typedef void (*asobi_review_progress)(int done, int total, void *ctx);

/* Review seat's decisions in record (asobi_match_record's form): every
 * point where seat was to move with more than one legal action. Each is
 * searched by a bot made from bot_spec (NULL: ASOBI_REVIEW_DEFAULT_BOT; it
 * must weigh moves, asobi_bot_weigh) through the same wall a live seat's bot
 * has, so only what seat could see at that moment counts, never the
 * record's hidden cards. Decisions are independent: jobs threads (1 or
 * more) search them, each decision with its own bot seeded from seed and
 * its place in the record, so the result does not depend on jobs. progress
 * may be NULL. Returns a new object (docs/ai.md, "Game review"):
 *   {"game","players","seat","bot","seed","measure",
 *    "decisions":[{"index","played","best","played_value","best_value",
 *                  "loss","label","moves":[{"action","value","visits"}]}],
 *    "summary":{"decisions","accuracy","total_loss","inaccuracies",
 *               "mistakes","blunders","worst":[index...]}}
 * or NULL with err filled (bad_record, bad_seat, bad_bot, ...). */
json_t *asobi_review(const json_t *record, int seat, const char *bot_spec, uint64_t seed, int jobs,
                     asobi_review_progress progress, void *ctx, asobi_error *err);

/* The same review in steps, for a caller that schedules the searches
 * itself (the server: one decision a job, so that a review never holds a
 * worker for longer than one search). asobi_review_plan_new replays the
 * record (the checks and errors of asobi_review); asobi_review_plan_search
 * searches decision i of asobi_review_plan_count (threads may search
 * different decisions at once; each once); asobi_review_plan_result, once
 * every decision is searched, gives asobi_review's object (a new
 * reference). asobi_review is these three calls. */
typedef struct asobi_review_plan asobi_review_plan;
asobi_review_plan *asobi_review_plan_new(const json_t *record, int seat, const char *bot_spec, uint64_t seed,
                                         asobi_error *err);
int asobi_review_plan_count(const asobi_review_plan *plan);
int asobi_review_plan_search(asobi_review_plan *plan, int i, asobi_error *err);
json_t *asobi_review_plan_result(const asobi_review_plan *plan);
void asobi_review_plan_free(asobi_review_plan *plan);

/* The label of a loss: "inaccuracy", "mistake", "blunder", or NULL. */
const char *asobi_review_label(double loss);

#ifdef __cplusplus
}
#endif
#endif

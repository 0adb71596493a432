/* bot_ismcts.c — "ismcts": information-set Monte Carlo tree search over determinizations, for every game. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bits.h"
#include "hash.h"
#include "rng_inline.h"
#include "bot_def.h"

/* The search
 * ----------
 * Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012, "Information
 * Set Monte Carlo Tree Search"). The tree belongs to the bot's information
 * set: its root is the position as the bot sees it, and a node is reached by
 * a sequence of actions and observations from there. Each iteration
 *   1. copies the bot's state (already determinized by asobi_bot_choose) and
 *      determinizes it again for the bot's seat, so every iteration plays in
 *      a different world that agrees with everything the bot can see;
 *   2. descends the tree, considering only the children whose actions are
 *      legal in this world ("availability"); the tree alternates decision
 *      nodes (an information set of the bot, named by a fingerprint, see
 *      fingerprint()) and action nodes (the joint action taken there);
 *   3. adds at most one action node and the decision node below it, then
 *      plays the game out (random or the game's heuristic);
 *   4. backs the per-seat rewards up the path.
 *
 * Two kinds of decision, told apart by the state at hand:
 *
 * Sequential (one seat to move). The action nodes are that seat's actions. The
 * seat picks with UCB1 corrected for availability,
 *     mean + c * sqrt(ln(avail) / visits),
 * where avail counts the iterations in which the child was legal (not the
 * parent's visits), and each child's mean is the reward of the seat that
 * moved into it. Untried legal actions are tried first, at random.
 *
 * Simultaneous (several seats to move, as every round of PSYCLE). Picking
 * jointly would let a seat "see" the others' choices. Instead every seat
 * picks from its OWN statistics at the node, independently of the others'
 * picks (decoupled selection), with regret matching (Hart and Mas-Colell
 * 2000; in MCTS: Lanctot, Lisy and Winands 2013, "Monte Carlo Tree Search in
 * Simultaneous Move Games"):
 *     sigma(a) = (1 - gamma) * R+(a) / sum R+  (uniform if no positive regret)
 *                + gamma / n,
 * over the n actions legal in this world; after the iteration, with reward x
 * for that seat and a the action it sampled with probability sigma(a),
 *     R(b) += (b == a ? x / sigma(a) : 0) - x    for every legal b
 * (the importance-sampled regret; baseline=1 uses per-action baselines to
 * reduce its variance). The joint action is then applied seat by seat, and
 * the action node is keyed by the joint action. Regret matching (rather
 * than decoupled UCT) is used because its average strategy converges to an
 * equilibrium in zero-sum games and to a coarse correlated equilibrium with
 * 3-4 players, while UCT's deterministic picks can cycle (measured on
 * PSYCLE: docs/ai.md; sim=duct selects decoupled UCT, sim=rm+ regret
 * matching+ that clamps regrets at 0, for comparison); PSYCLE's rounds
 * are pure guessing games whose equilibria are mixed. At a simultaneous
 * root the bot samples its move from its average regret-matching strategy
 * there (the average of the R+ strategies, without the gamma exploration,
 * which only serves to sample every action now and then).
 *
 * Rewards (per seat, from asobi_state_result at the end of a playout): a
 * game over gives each of k winners 1/k and every other seat 0 (nobody wins:
 * all 0). A playout stopped by the depth cap (depth=) scores the same way
 * with the seats ranked first by the result's current scores as winners.
 *
 * The inner loop allocates nothing: the nodes, the simultaneous nodes'
 * regret tables, the path and two working states (the iteration's world
 * and the fingerprint probe) are made when the bot is created (or at its
 * first move, for the states), and a state copy is a memcpy. When the node pool is full the search goes on without adding
 * nodes (the playouts still count). */

#define ROOT 0
#define NO_NODE (-1)

typedef struct ismcts_node {
    int32_t first_child, next_sibling;
    int32_t key;     /* action node: offset into keys, per seat the action taken (-1: none); else -1 */
    int32_t sim;     /* offset into the regret tables (a simultaneous node), -1 until first needed */
    uint32_t actors; /* action node: the seats that acted; 0 for a decision node */
    int32_t lazy;    /* decision node: its state kept in a slot of saved (obs not yet made), else -1 */
    uint64_t obs;    /* decision node: the fingerprint of the bot's information set there */
    uint32_t visits, avail;
    double reward; /* sum of the rewards of the (single) actor of the edge */
} ismcts_node;

/* One step of the descent, for the backup. */
typedef struct path_step {
    int32_t node;     /* the node reached by this step */
    int32_t parent;   /* the node the step left from */
    int32_t sim_first; /* first entry in sim_steps, or -1 for a sequential step */
    int32_t sim_count;
} path_step;

/* One seat's pick at a simultaneous node. */
typedef struct sim_step {
    int seat, action;
    double prob;
    int32_t legal_first, legal_count; /* its legal actions, in legal_buf */
} sim_step;

typedef enum { PLAYOUT_RANDOM, PLAYOUT_HEURISTIC } playout_kind;
typedef enum { SIM_RM, SIM_RM_PLUS, SIM_DUCT } sim_rule_kind;

typedef struct ismcts_bot {
    const asobi_game_def *game;
    int players, seat, max_actions;
    /* parameters */
    long iters;
    double seconds; /* > 0: budget by time instead of iterations */
    double c, gamma, purify;
    long max_depth; /* playout cap, 0: until the end */
    long worlds;    /* > 0: determinized search in that many sampled worlds */
    playout_kind playout;
    sim_rule_kind sim_rule;
    /* the move's deadline (CLOCK_MONOTONIC seconds): time= from the move's
     * start, or ISMCTS_SAFETY_SECONDS under an iters= budget; past it the
     * search stops, a playout midway included (out_of_time) */
    double deadline;
    bool out_of_time;
    /* pools */
    ismcts_node *nodes;
    int32_t node_cap, node_count;
    int *keys;
    double *regret, *strategy; /* per simultaneous node: players * max_actions each */
    int32_t sim_cap, sim_count; /* tables the pool may hold, tables made */
    int32_t sim_alloc;          /* tables allocated: grown by doubling as made */
    path_step *path;
    int32_t path_cap;
    sim_step *sim_steps;
    int32_t sim_steps_cap;
    int *legal_buf;
    double *sigma_buf; /* the sampling probabilities, parallel to legal_buf */
    double *base_sum, *base_count; /* baselines per decision node, as the regret tables */
    bool baseline;
    int32_t legal_cap;
    int *ids, *chosen;
    unsigned *stamp; /* per action id: the stamp of the last time it was seen legal */
    unsigned *tried;
    unsigned stamp_now;
    asobi_state *work;
    asobi_state *probe; /* for the information-set fingerprints */
    asobi_rng fixed_rng; /* their fixed seed, seeded once */
    asobi_state *world; /* worlds=: the sampled world being searched */
    double *votes;      /* worlds=: per action id, root visits summed over worlds */
    long last_iterations; /* of the last move (for benchmarks) */
    /* weigh(): per action id of the seat, the rewards and the number of
     * the iterations that began with it (NULL when only choosing) */
    double *root_sum, *root_count;
    /* The children of simultaneous nodes by joint action (see joint_slot):
     * open addressing, joint_cap slots (a power of two, 0 until first
     * needed), joint_used of them taken in this search. */
    struct joint_entry {
        int32_t parent, child; /* child + 1; 0: an empty slot */
        uint64_t packed;       /* the joint action packed (joint_pack), when joint_bits > 0 */
    } *joint;
    uint32_t joint_cap, joint_used;
    int joint_bits; /* bits per seat of a packed joint action; 0: they do not fit in 64 bits */
    /* Decision nodes whose fingerprint is made only when needed (see
     * observe): their states, saved_cap slots of saved_size bytes, the free
     * ones listed in saved_free. Used when the game has no info_hash and
     * small states; saved_size 0 otherwise. */
    unsigned char *saved;
    int32_t *saved_free;
    int32_t saved_cap, saved_used, saved_nfree, saved_max;
    size_t saved_size;
} ismcts_bot;

static const char *const ismcts_keys[] = {"iters", "time", "c",     "gamma", "playout",
                                          "depth", "nodes", "purify", "sim",   "baseline", "worlds", NULL};

static void ismcts_destroy(void *p)
{
    ismcts_bot *b = p;
    if (!b)
        return;
    free(b->nodes);
    free(b->joint);
    free(b->saved);
    free(b->saved_free);
    free(b->votes);
    asobi_state_free(b->world);
    free(b->keys);
    free(b->regret);
    free(b->sigma_buf);
    free(b->base_sum);
    free(b->base_count);
    free(b->strategy);
    free(b->path);
    free(b->sim_steps);
    free(b->legal_buf);
    free(b->ids);
    free(b->chosen);
    free(b->stamp);
    free(b->tried);
    asobi_state_free(b->work);
    asobi_state_free(b->probe);
    free(b);
}

static void *ismcts_create(const asobi_game_def *game, int players, int seat, const json_t *params,
                           asobi_error *err)
{
    if (asobi_bot_params_only(params, ismcts_keys, "ismcts", err) != ASOBI_OK)
        return NULL;
    double iters, seconds, c, gamma, depth, nodes, purify, baseline, worlds;
    if (asobi_bot_param_double(params, "iters", 1000, 1, 1e8, &iters, err) != ASOBI_OK ||
        asobi_bot_param_double(params, "time", 0, 0, 3600, &seconds, err) != ASOBI_OK ||
        asobi_bot_param_double(params, "c", 0.7, 0, 100, &c, err) != ASOBI_OK ||
        asobi_bot_param_double(params, "gamma", 0.5, 0.001, 1, &gamma, err) != ASOBI_OK ||
        asobi_bot_param_double(params, "depth", 0, 0, 1e7, &depth, err) != ASOBI_OK ||
        asobi_bot_param_double(params, "nodes", 0, 0, 5e7, &nodes, err) != ASOBI_OK ||
        asobi_bot_param_double(params, "purify", 0, 0, 1, &purify, err) != ASOBI_OK ||
        asobi_bot_param_double(params, "baseline", 0, 0, 1, &baseline, err) != ASOBI_OK ||
        asobi_bot_param_double(params, "worlds", 0, 0, 10000, &worlds, err) != ASOBI_OK)
        return NULL;
    if (json_object_get(params, "iters") && json_object_get(params, "time")) {
        asobi_fail(err, ASOBI_E_BAD_BOT, "ismcts: give iters= or time=, not both");
        return NULL;
    }
    /* playout=auto (the default): the game's choice (heuristic_playouts). */
    playout_kind playout = game->heuristic && game->heuristic_playouts ? PLAYOUT_HEURISTIC : PLAYOUT_RANDOM;
    const char *pk = json_string_value(json_object_get(params, "playout"));
    if (pk && strcmp(pk, "heuristic") == 0)
        playout = PLAYOUT_HEURISTIC;
    else if (pk && strcmp(pk, "random") == 0)
        playout = PLAYOUT_RANDOM;
    else if (pk && strcmp(pk, "auto") != 0) {
        asobi_fail(err, ASOBI_E_BAD_BOT, "ismcts: playout=%.40s: use auto, random or heuristic", pk);
        return NULL;
    }
    sim_rule_kind sim_rule = SIM_RM;
    const char *sk = json_string_value(json_object_get(params, "sim"));
    if (sk && strcmp(sk, "duct") == 0)
        sim_rule = SIM_DUCT;
    else if (sk && strcmp(sk, "rm+") == 0)
        sim_rule = SIM_RM_PLUS;
    else if (sk && strcmp(sk, "rm") != 0) {
        asobi_fail(err, ASOBI_E_BAD_BOT, "ismcts: sim=%.40s: use rm, rm+ or duct", sk);
        return NULL;
    }
    if (playout == PLAYOUT_HEURISTIC && !game->heuristic) {
        asobi_fail(err, ASOBI_E_BAD_BOT, "ismcts: %s has no heuristic for playout=heuristic", game->title);
        return NULL;
    }
    if (iters != floor(iters) || depth != floor(depth) || nodes != floor(nodes) || worlds != floor(worlds)) {
        asobi_fail(err, ASOBI_E_BAD_BOT, "ismcts: iters, depth, nodes and worlds are whole numbers");
        return NULL;
    }
    ismcts_bot *b = calloc(1, sizeof *b);
    b->game = game;
    b->players = players;
    b->seat = seat;
    b->max_actions = game->max_actions;
    b->iters = (long)iters;
    b->seconds = seconds;
    b->c = c;
    b->gamma = gamma;
    b->purify = purify;
    b->baseline = baseline > 0;
    b->max_depth = (long)depth;
    b->worlds = (long)worlds;
    b->playout = playout;
    b->sim_rule = sim_rule;
    asobi_rng_seed(&b->fixed_rng, 0x5eedf00dULL);
    int bits = 1;
    while ((1L << bits) < (long)b->max_actions + 1)
        bits++;
    b->joint_bits = bits * players <= 64 ? bits : 0;
    /* Two nodes per iteration at most (an action node and the decision
     * node after it), plus the root. Under a time budget the pool is a fixed
     * size (nodes=, default 2^18); the pages of a large block are only
     * touched as nodes are used. */
    long cap = nodes > 0 ? (long)nodes : seconds > 0 ? 1L << 18 : 2 * b->iters + 2;
    if (cap < 2)
        cap = 2;
    b->node_cap = (int32_t)cap;
    b->nodes = malloc((size_t)cap * sizeof *b->nodes);
    b->keys = malloc((size_t)cap * (size_t)players * sizeof *b->keys);
    /* Decision nodes only; the tables themselves are made as simultaneous
     * nodes appear (sim_tables): a sequential game never needs them, and
     * sized for the whole pool they would reserve gigabytes (NINJA: 4
     * seats x 390 actions x 8 bytes x 4 tables per node). */
    b->sim_cap = (int32_t)(cap / 2 + 1);
    b->path_cap = 4096;
    b->path = malloc((size_t)b->path_cap * sizeof *b->path);
    b->sim_steps_cap = b->path_cap * players;
    b->sim_steps = malloc((size_t)b->sim_steps_cap * sizeof *b->sim_steps);
    size_t legal_cap = (size_t)b->sim_steps_cap * (size_t)b->max_actions;
    if (legal_cap > (1u << 22))
        legal_cap = 1u << 22;
    b->legal_cap = (int32_t)legal_cap;
    b->legal_buf = malloc(legal_cap * sizeof *b->legal_buf);
    b->sigma_buf = malloc(legal_cap * sizeof *b->sigma_buf);
    b->ids = malloc((size_t)b->max_actions * sizeof *b->ids);
    b->chosen = malloc(ASOBI_MAX_SEATS * sizeof *b->chosen);
    b->stamp = calloc((size_t)b->max_actions, sizeof *b->stamp);
    b->tried = calloc((size_t)b->max_actions, sizeof *b->tried);
    b->votes = calloc((size_t)b->max_actions, sizeof *b->votes);
    if (!b->votes || !b->nodes || !b->keys || !b->path || !b->sim_steps || !b->legal_buf || !b->ids || !b->chosen ||
        !b->stamp || !b->tried || !b->sigma_buf) {
        ismcts_destroy(b);
        asobi_fail(err, ASOBI_E_NOMEM, "ismcts: out of memory for %ld nodes", cap);
        return NULL;
    }
    return b;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A move under an iters= budget stops all the same after this long: the
 * library's own limit on time= (asobi_bot_default_limits), so that no
 * position, however the game behaves, holds a bot for longer (issue 29). */
#define ISMCTS_SAFETY_SECONDS 60.0

/* A playout looks at the clock every this many steps: a step is well under
 * a microsecond, so the overrun is a few hundred microseconds at most and
 * the clock costs nothing measurable. */
#define PLAYOUT_CLOCK_STEPS 1024

/* Has the move's deadline passed? Sets out_of_time, which stops the search. */
static bool past_deadline(ismcts_bot *b)
{
    if (!b->out_of_time && now_seconds() >= b->deadline)
        b->out_of_time = true;
    return b->out_of_time;
}

/* A new node under parent: an action node for the joint action chosen[] of
 * the seats in actors, or (actors 0, chosen NULL) a decision node. */
static int32_t new_node(ismcts_bot *b, int32_t parent, uint32_t actors, const int *chosen, uint64_t obs)
{
    if (b->node_count >= b->node_cap)
        return NO_NODE;
    int32_t i = b->node_count++;
    ismcts_node *n = &b->nodes[i];
    n->first_child = NO_NODE;
    n->next_sibling = NO_NODE;
    n->key = chosen ? i * b->players : -1;
    n->sim = -1;
    n->actors = actors;
    n->obs = obs;
    n->lazy = -1;
    n->visits = 0;
    n->avail = 0;
    n->reward = 0;
    if (chosen)
        for (int s = 0; s < b->players; s++)
            b->keys[n->key + s] = (actors & (1u << s)) ? chosen[s] : -1;
    if (parent != NO_NODE) {
        n->next_sibling = b->nodes[parent].first_child;
        b->nodes[parent].first_child = i;
    }
    return i;
}

/* Room for one more node's tables: the four arrays grow together, by
 * doubling, up to sim_cap. False when full or out of memory. */
static bool grow_sim_tables(ismcts_bot *b)
{
    if (b->sim_count < b->sim_alloc)
        return true;
    if (b->sim_alloc >= b->sim_cap)
        return false;
    int32_t alloc = b->sim_alloc ? b->sim_alloc * 2 : 64;
    if (alloc > b->sim_cap)
        alloc = b->sim_cap;
    size_t bytes = (size_t)alloc * (size_t)b->players * (size_t)b->max_actions * sizeof(double);
    /* the baselines only with baseline=1: untouched, they keep the tables
     * that are read smaller (the tree's walk waits on memory) */
    double **arrays[] = {&b->regret, &b->strategy, &b->base_sum, &b->base_count};
    for (size_t i = 0; i < (b->baseline ? 4u : 2u); i++) {
        double *grown = realloc(*arrays[i], bytes);
        if (!grown)
            return false; /* the arrays grown so far stay valid, only larger */
        *arrays[i] = grown;
    }
    b->sim_alloc = alloc;
    return true;
}

/* The children of a simultaneous node
 * ------------------------------------
 * A simultaneous node has a child per joint action tried there: up to 6^4
 * of them in a round of PSYCLE with four players, where walking the sibling
 * list to find the joint action just sampled was over a third of the
 * search. They are found instead through a hash table keyed by the parent
 * and the joint action (the sibling list stays as it is, for everything
 * else that walks it). */

static uint64_t joint_hash(int32_t parent, uint32_t mask, const int *chosen, int players)
{
    uint64_t h = (uint64_t)(uint32_t)parent * 0x9e3779b97f4a7c15ULL ^ mask;
    for (int seat = 0; seat < players; seat++)
        if (mask & (1u << seat))
            h = (h ^ (uint32_t)chosen[seat]) * 0xff51afd7ed558ccdULL;
    return h ^ (h >> 32);
}

/* The joint action as one word, action + 1 per seat (0: the seat does not
 * act), when it fits (joint_bits > 0; PSYCLE: 3 bits a seat): an entry then
 * says itself whether it is the one sought, without reading its node and
 * keys, two cache misses in a tree of megabytes. */
static uint64_t joint_pack(const ismcts_bot *b, uint32_t mask, const int *chosen)
{
    uint64_t packed = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        int seat = __builtin_ctz(m);
        packed |= (uint64_t)(chosen[seat] + 1) << (seat * b->joint_bits);
    }
    return packed;
}

/* The child of parent for the joint action chosen[] of the seats in mask, or
 * the empty slot where it belongs (then *found is false). */
static struct joint_entry *joint_slot(ismcts_bot *b, int32_t parent, uint32_t mask, uint64_t packed, bool *found)
{
    uint32_t at = (uint32_t)joint_hash(parent, mask, b->chosen, b->players) & (b->joint_cap - 1);
    for (;; at = (at + 1) & (b->joint_cap - 1)) {
        struct joint_entry *e = &b->joint[at];
        if (e->child == 0) {
            *found = false;
            return e;
        }
        if (e->parent != parent)
            continue;
        if (b->joint_bits > 0) {
            if (e->packed == packed) {
                *found = true;
                return e;
            }
            continue;
        }
        const ismcts_node *ch = &b->nodes[e->child - 1];
        bool same = ch->actors == mask;
        for (int seat = 0; seat < b->players && same; seat++)
            if (mask & (1u << seat))
                same = b->keys[ch->key + seat] == b->chosen[seat];
        if (same) {
            *found = true;
            return e;
        }
    }
}

/* Room for one more entry (the table at most half full): false when out of
 * memory. Grown by doubling, the entries put back in their new places. */
static bool joint_room(ismcts_bot *b)
{
    if (b->joint_cap && 2 * (b->joint_used + 1) <= b->joint_cap)
        return true;
    uint32_t cap = b->joint_cap ? 2 * b->joint_cap : 1024;
    struct joint_entry *old = b->joint, *grown = calloc(cap, sizeof *grown);
    if (!grown || cap == 0)
        return false;
    uint32_t old_cap = b->joint_cap;
    b->joint = grown;
    b->joint_cap = cap;
    for (uint32_t i = 0; i < old_cap; i++) {
        if (old[i].child == 0)
            continue;
        const ismcts_node *ch = &b->nodes[old[i].child - 1];
        int chosen[ASOBI_MAX_SEATS];
        for (int seat = 0; seat < b->players; seat++)
            chosen[seat] = b->keys[ch->key + seat];
        uint32_t at = (uint32_t)joint_hash(old[i].parent, ch->actors, chosen, b->players) & (cap - 1);
        while (grown[at].child != 0)
            at = (at + 1) & (cap - 1);
        grown[at] = old[i];
    }
    free(old);
    return true;
}

/* The regret tables of a simultaneous node, made on first need. */
static int32_t sim_tables(ismcts_bot *b, int32_t node)
{
    ismcts_node *n = &b->nodes[node];
    if (n->sim < 0) {
        if (!grow_sim_tables(b))
            return -1;
        size_t table = (size_t)b->players * (size_t)b->max_actions;
        n->sim = (int32_t)((size_t)b->sim_count++ * table);
        memset(b->regret + n->sim, 0, table * sizeof *b->regret);
        if (b->baseline) {
            memset(b->base_sum + n->sim, 0, table * sizeof *b->base_sum);
            memset(b->base_count + n->sim, 0, table * sizeof *b->base_count);
        }
        memset(b->strategy + n->sim, 0, table * sizeof *b->strategy);
    }
    return n->sim;
}

/* The playout policy's pick for seat, through the game's table directly:
 * a playout is most of an iteration, and core's wrappers (a call each for
 * to_move, the pick and apply, around the game's own) were a tenth of a
 * PSYCLE playout. The same calls in the same order as through core. */
static inline int playout_pick(const ismcts_bot *b, const asobi_game_def *def, void *data, const asobi_state *s,
                               int seat, asobi_rng *rng)
{
    if (b->playout == PLAYOUT_HEURISTIC)
        return def->heuristic(data, seat, rng);
    if (def->random_action)
        return def->random_action(data, seat, rng);
    return asobi_state_random_action_unchecked(s, seat, rng);
}

/* Apply the joint action chosen[] of the seats in mask, seat by seat. Every
 * pick was made from the same state, so no seat saw another's choice; a
 * pick is checked again before it is applied after another seat's, unless
 * the game declares that one seat's choice never changes another's
 * (choices_independent). A lone seat's pick came from the legal actions of
 * this very state: no check. */
static inline void apply_joint(const asobi_game_def *def, void *data, asobi_state *s, uint32_t mask,
                               const int *chosen)
{
    if (!(mask & (mask - 1)) || def->choices_independent) {
        for (uint32_t m = mask; m; m &= m - 1) {
            int seat = __builtin_ctz(m);
            if (chosen[seat] >= 0)
                def->apply(data, seat, chosen[seat]);
        }
        return;
    }
    for (int seat = 0; seat < ASOBI_MAX_SEATS; seat++)
        if ((mask & (1u << seat)) && (asobi_state_to_move(s) & (1u << seat)) &&
            asobi_state_is_legal(s, seat, chosen[seat]))
            asobi_state_apply_unchecked(s, seat, chosen[seat]);
}

static void playout(ismcts_bot *b, asobi_state *s, asobi_rng *rng)
{
    const asobi_game_def *def = b->game;
    void *data = asobi_state_data_mut(s);
    int chosen[ASOBI_MAX_SEATS];
    /* The game's own playout loop plays the same games as this one where
     * the joint picks below equal seat-by-seat picks (game_def.h). */
    if (b->playout == PLAYOUT_RANDOM && b->max_depth == 0 && def->random_playout && def->choices_independent) {
        def->random_playout(data, rng);
        return;
    }
    for (long depth = 0; b->max_depth == 0 || depth < b->max_depth; depth++) {
        uint32_t mask = def->to_move(data);
        if (mask == 0)
            return;
        /* a playout left unfinished is scored as it stands (rewards) */
        if (depth % PLAYOUT_CLOCK_STEPS == PLAYOUT_CLOCK_STEPS - 1 && past_deadline(b))
            return;
        if (!(mask & (mask - 1))) { /* one seat: what apply_joint does for it */
            int seat = __builtin_ctz(mask);
            int a = playout_pick(b, def, data, s, seat, rng);
            if (a >= 0)
                def->apply(data, seat, a);
            continue;
        }
        for (uint32_t m = mask; m; m &= m - 1) {
            int seat = __builtin_ctz(m);
            chosen[seat] = playout_pick(b, def, data, s, seat, rng);
        }
        apply_joint(def, data, s, mask, chosen);
    }
}

/* Per-seat rewards: winners share 1 (see the top of the file). */
static void rewards(const asobi_state *s, int players, double *r)
{
    asobi_result res;
    asobi_state_result(s, &res);
    uint32_t winners = res.winners;
    if (!res.terminal) {
        winners = 0;
        for (int i = 0; i < players; i++)
            if (res.rank[i] == 1)
                winners |= 1u << i;
    }
    int k = asobi_popcount32(winners);
    for (int i = 0; i < players; i++)
        r[i] = (winners & (1u << i)) ? 1.0 / k : 0.0;
}

/* Sequential node: UCB with availability, untried actions first. Returns the
 * child (maybe new) and sets *expanded; NO_NODE if the pool is full and an
 * untried action was picked (then *action says which, to play it out). */
static int32_t select_sequential(ismcts_bot *b, int32_t node, const asobi_state *s, int mover,
                                 asobi_rng *rng, bool *expanded, int *action)
{
    int n = asobi_state_legal_unchecked(s, mover, b->ids);
    unsigned st = ++b->stamp_now;
    for (int i = 0; i < n; i++)
        b->stamp[b->ids[i]] = st;
    int32_t best = NO_NODE;
    double best_score = -1e300;
    int tried = 0;
    uint32_t mover_mask = 1u << mover;
    for (int32_t c = b->nodes[node].first_child; c != NO_NODE; c = b->nodes[c].next_sibling) {
        ismcts_node *ch = &b->nodes[c];
        if (ch->actors != mover_mask)
            continue;
        int a = b->keys[ch->key + mover];
        if (b->stamp[a] != st)
            continue;
        b->tried[a] = st;
        tried++;
        ch->avail++;
        double score = ch->visits == 0 ? 1e300
                                       : ch->reward / ch->visits +
                                             b->c * sqrt(log((double)ch->avail) / (double)ch->visits);
        if (score > best_score) {
            best_score = score;
            best = c;
        }
    }
    *expanded = false;
    if (tried < n) {
        int pick = (int)asobi_rng_below(rng, (uint32_t)(n - tried)), a = -1;
        for (int i = 0; i < n; i++)
            if (b->tried[b->ids[i]] != st && pick-- == 0) {
                a = b->ids[i];
                break;
            }
        *action = a;
        *expanded = true;
        int chosen[ASOBI_MAX_SEATS];
        chosen[mover] = a;
        int32_t child = new_node(b, node, mover_mask, chosen, 0);
        if (child != NO_NODE)
            b->nodes[child].avail = 1;
        return child;
    }
    *action = b->keys[b->nodes[best].key + mover];
    return best;
}

/* Decoupled UCT (sim=duct): the seat's own UCB1 over its legal actions at
 * the node (reward sums in sums, visits in visits), untried actions first. */
static int duct_pick(const ismcts_bot *b, const int *ids, const double *sums, const double *visits, int n,
                     asobi_rng *rng)
{
    double total = 0;
    int untried = 0;
    for (int i = 0; i < n; i++) {
        total += visits[ids[i]];
        untried += visits[ids[i]] == 0;
    }
    if (untried > 0) {
        int k = (int)asobi_rng_below(rng, (uint32_t)untried);
        for (int i = 0; i < n; i++)
            if (visits[ids[i]] == 0 && k-- == 0)
                return ids[i];
    }
    double best = -1e300, logn = log(total);
    int a = ids[0];
    for (int i = 0; i < n; i++) {
        int id = ids[i];
        double score = sums[id] / visits[id] + b->c * sqrt(logn / visits[id]);
        if (score > best) {
            best = score;
            a = id;
        }
    }
    return a;
}

/* Simultaneous node: every seat samples from its own regret-matching
 * strategy; the child of the joint action (maybe new). Writes the picks to
 * b->chosen and the sim steps for the backup. Returns NO_NODE with *stop if
 * the pools are full. */
static int32_t select_simultaneous(ismcts_bot *b, int32_t node, const asobi_state *s, uint32_t mask,
                                   asobi_rng *rng, path_step *step, int32_t *legal_used, bool *expanded,
                                   bool *stop)
{
    *expanded = false;
    *stop = false;
    int32_t base = sim_tables(b, node);
    if (base < 0 || step->sim_first + asobi_popcount32(mask) > b->sim_steps_cap) {
        *stop = true;
        return NO_NODE;
    }
    step->sim_count = 0;
    /* The fields read in the loops, in locals: the stores to the double
     * tables below could alias b->gamma for all the compiler knows, which
     * made it load it and divide again for every action. The arithmetic is
     * the same, operation for operation. */
    const double gamma = b->gamma, keep = 1 - gamma;
    const size_t max_actions = (size_t)b->max_actions;
    for (uint32_t m = mask; m; m &= m - 1) {
        int seat = __builtin_ctz(m);
        int32_t used = *legal_used;
        int *ids = b->legal_buf + used, n;
        if (used + b->max_actions <= b->legal_cap) {
            n = asobi_state_legal_unchecked(s, seat, ids); /* straight into the backup's list */
        } else {
            n = asobi_state_legal_unchecked(s, seat, b->ids);
            if (used + n > b->legal_cap) {
                *stop = true;
                return NO_NODE;
            }
            memcpy(ids, b->ids, (size_t)n * sizeof *ids);
        }
        double *regret = b->regret + base + (size_t)seat * max_actions;
        double *strategy = b->strategy + base + (size_t)seat * max_actions;
        double *sigma_out = b->sigma_buf + used;
        double positive = 0;
        for (int i = 0; i < n; i++)
            positive += regret[ids[i]] > 0 ? regret[ids[i]] : 0;
        double u = (double)(asobi_rng_next_inline(rng) >> 11) * 0x1.0p-53; /* asobi_rng_unit, inline */
        double acc = 0, pa = 0, last_sigma = 0, uniform = 1.0 / n, explore = gamma / n;
        int a = -1;
        if (b->sim_rule == SIM_DUCT)
            a = duct_pick(b, ids, regret, strategy, n, rng);
        for (int i = 0; a < 0 && i < n; i++) {
            int id = ids[i];
            double rm = positive > 0 ? (regret[id] > 0 ? regret[id] / positive : 0) : uniform;
            double sigma = keep * rm + explore;
            strategy[id] += rm; /* the average strategy leaves the exploration out */
            sigma_out[i] = sigma;
            acc += sigma;
            last_sigma = sigma;
            if (u < acc) {
                a = id;
                pa = sigma;
            }
        }
        if (a < 0 && b->sim_rule != SIM_DUCT) { /* rounding left u above the total */
            a = ids[n - 1];
            pa = last_sigma;
        }
        sim_step *ss = &b->sim_steps[step->sim_first + step->sim_count++];
        ss->seat = seat;
        ss->action = a;
        ss->prob = pa;
        ss->legal_first = used;
        ss->legal_count = n;
        *legal_used = used + n;
        b->chosen[seat] = a;
    }
    if (!joint_room(b)) {
        *stop = true;
        return NO_NODE;
    }
    bool found;
    uint64_t packed = b->joint_bits > 0 ? joint_pack(b, mask, b->chosen) : 0;
    struct joint_entry *e = joint_slot(b, node, mask, packed, &found);
    if (found)
        return e->child - 1;
    *expanded = true;
    int32_t child = new_node(b, node, mask, b->chosen, 0);
    if (child != NO_NODE) {
        e->parent = node;
        e->child = child + 1;
        e->packed = packed;
        b->joint_used++;
    }
    return child;
}

static void backup(ismcts_bot *b, int32_t depth, const double *r)
{
    b->nodes[ROOT].visits++;
    for (int32_t d = 0; d < depth; d++) {
        path_step *p = &b->path[d];
        if (p->node != NO_NODE) {
            ismcts_node *n = &b->nodes[p->node];
            n->visits++;
            if (n->actors && !(n->actors & (n->actors - 1))) /* one actor: its reward */
                n->reward += r[__builtin_ctz(n->actors)];
        }
        if (p->sim_first < 0)
            continue;
        int32_t base = b->nodes[p->parent].sim;
        for (int32_t k = 0; k < p->sim_count; k++) {
            sim_step *ss = &b->sim_steps[p->sim_first + k];
            double x = r[ss->seat];
            double *regret = b->regret + base + (size_t)ss->seat * (size_t)b->max_actions;
            if (b->sim_rule == SIM_DUCT) { /* regret holds reward sums, strategy visits */
                regret[ss->action] += x;
                b->strategy[base + (size_t)ss->seat * (size_t)b->max_actions + (size_t)ss->action] += 1;
                continue;
            }
            const int *legal = b->legal_buf + ss->legal_first;
            if (b->baseline) {
                /* Variance reduction with per-action baselines (Schmid et al.
                 * 2019, VR-MCCFR): rhat(c) = mu(c) + [c = a](x - mu(a)) / sigma(a),
                 * v = sum sigma(c) rhat(c), R(c) += rhat(c) - v. Unbiased like the
                 * plain estimate (mu comes from earlier iterations only), with
                 * far smaller importance weights when mu is close to the truth. */
                size_t off = base + (size_t)ss->seat * (size_t)b->max_actions;
                const double *sigma = b->sigma_buf + ss->legal_first;
                double v = 0;
                for (int32_t i = 0; i < ss->legal_count; i++) {
                    int c = legal[i];
                    double mu = b->base_count[off + c] > 0 ? b->base_sum[off + c] / b->base_count[off + c] : 0;
                    v += sigma[i] * (mu + (c == ss->action ? (x - mu) / ss->prob : 0));
                }
                for (int32_t i = 0; i < ss->legal_count; i++) {
                    int c = legal[i];
                    double mu = b->base_count[off + c] > 0 ? b->base_sum[off + c] / b->base_count[off + c] : 0;
                    double rhat = mu + (c == ss->action ? (x - mu) / ss->prob : 0);
                    regret[c] += rhat - v;
                }
                b->base_sum[off + ss->action] += x;
                b->base_count[off + ss->action] += 1;
                if (b->sim_rule == SIM_RM_PLUS)
                    for (int32_t i = 0; i < ss->legal_count; i++)
                        regret[legal[i]] = regret[legal[i]] > 0 ? regret[legal[i]] : 0;
                continue;
            }
            for (int32_t i = 0, n = ss->legal_count; i < n; i++)
                regret[legal[i]] -= x;
            regret[ss->action] += x / ss->prob;
            if (b->sim_rule == SIM_RM_PLUS) /* regret matching+: regrets never stay negative */
                for (int32_t i = 0; i < ss->legal_count; i++)
                    regret[legal[i]] = regret[legal[i]] > 0 ? regret[legal[i]] : 0;
        }
    }
}

/* The bot's information set in state s, as a 64-bit fingerprint. A game
 * may name it itself (the info_hash hook: a hash of what the seat sees,
 * without resampling anything). Otherwise: the interface promises that
 * determinizing for a viewer with a given rng depends only on what that
 * viewer sees, so determinizing a copy with a fixed seed gives one canonical
 * representative of everything the bot's seat sees in s, and hashing its
 * bytes names the information set. Two states share a fingerprint exactly
 * when the seat sees the same thing in both (up to a 2^-64 collision).
 *
 * The representative's own generator is not reseeded from the fixed rng
 * as asobi_state_determinize would: the fixed rng's state after the
 * determinization, which that seed would come from, is hashed instead, and
 * the representative's generator left out. The draws made can tell sets
 * apart that the rest cannot (in PSYCLE, whether another seat has chosen:
 * retract_unseen withdraws the choice it drew a card for). The fixed rng
 * is seeded once per bot (fixed_rng) and copied. */
static uint64_t fingerprint(ismcts_bot *b, const asobi_state *s)
{
    const asobi_game_def *def = b->game;
    if (def->info_hash)
        return def->info_hash(asobi_state_data_for_ai(s), b->seat);
    asobi_state_copy(b->probe, s);
    unsigned char *data = asobi_state_data_mut(b->probe);
    asobi_rng fixed = b->fixed_rng;
    def->determinize(data, b->seat, &fixed);
    if (def->retract_unseen)
        def->retract_unseen(data, b->seat);
    /* up to the block's end: the padding to 16 bytes is always zero, and
     * whole words spare the hash its byte-at-a-time tail */
    size_t skip = def->rng_offset, after = skip + sizeof(asobi_rng), size = (def->state_size + 15) & ~(size_t)15;
    uint64_t h = asobi_hash_bytes(&fixed, sizeof fixed, 0x5eedf00dULL);
    h = asobi_hash_bytes(data, skip, h);
    return asobi_hash_bytes(data + after, size - after, h);
}

/* A slot for a state kept with its decision node, -1 if none is left (the
 * slots grow by doubling, up to one per decision node the pool can hold). */
static int32_t saved_slot(ismcts_bot *b)
{
    if (b->saved_nfree > 0)
        return b->saved_free[--b->saved_nfree];
    if (b->saved_used == b->saved_cap) {
        if (b->saved_cap >= b->saved_max)
            return -1;
        int32_t cap = b->saved_cap ? 2 * b->saved_cap : 256;
        cap = cap > b->saved_max ? b->saved_max : cap;
        unsigned char *grown = realloc(b->saved, (size_t)cap * b->saved_size);
        if (!grown)
            return -1;
        b->saved = grown;
        int32_t *free_grown = realloc(b->saved_free, (size_t)cap * sizeof *free_grown);
        if (!free_grown)
            return -1;
        b->saved_free = free_grown;
        b->saved_cap = cap;
    }
    return b->saved_used++;
}

static asobi_state *saved_state(ismcts_bot *b, int32_t slot)
{
    return (asobi_state *)(void *)(b->saved + (size_t)slot * b->saved_size);
}

/* The decision node under action node a for the information set of state s
 * (maybe new).
 *
 * The fingerprint is made lazily, which changes nothing but when it is made:
 * a decision node made under an action node that had none keeps a copy of
 * its state instead (a memcpy of a small state, against a determinization),
 * and its fingerprint is made from that copy when another iteration comes
 * through the action node and has to tell the sets apart. Most such nodes
 * lie at the tree's frontier and no iteration comes back to them. */
static int32_t observe(ismcts_bot *b, int32_t a, const asobi_state *s, bool *expanded)
{
    int32_t first = b->nodes[a].first_child;
    if (first != NO_NODE) /* its node arrives while the fingerprint is made */
        __builtin_prefetch(&b->nodes[first]);
    if (first == NO_NODE && b->saved_size > 0) {
        *expanded = true;
        int32_t n = new_node(b, a, 0, NULL, 0);
        if (n == NO_NODE)
            return NO_NODE;
        int32_t slot = saved_slot(b);
        if (slot < 0) {
            b->nodes[n].obs = fingerprint(b, s);
        } else {
            asobi_state_copy(saved_state(b, slot), s);
            b->nodes[n].lazy = slot;
        }
        return n;
    }
    uint64_t obs = fingerprint(b, s);
    for (int32_t c = first; c != NO_NODE; c = b->nodes[c].next_sibling) {
        ismcts_node *n = &b->nodes[c];
        if (n->lazy >= 0) {
            n->obs = fingerprint(b, saved_state(b, n->lazy));
            b->saved_free[b->saved_nfree++] = n->lazy;
            n->lazy = -1;
        }
        if (n->obs == obs)
            return c;
    }
    *expanded = true;
    return new_node(b, a, 0, NULL, obs);
}

/* One iteration. The tree alternates decision nodes (an information set of
 * the bot) and action nodes (the joint action taken there, holding the
 * statistics). After an action the new state's information set picks the
 * next decision node: what the action revealed to the bot (a card turned
 * over, the next target tile of PSYCLE drawn at random) is part of the
 * path, so later choices in the tree can depend on it, as at the table. */
static void iterate(ismcts_bot *b, const asobi_state *root, bool resample, asobi_rng *rng)
{
    asobi_state *s = b->work;
    asobi_state_copy(s, root);
    if (resample) {
        asobi_state_determinize(s, b->seat, rng);
        asobi_state_retract_unseen(s, b->seat);
    }
    int32_t node = ROOT, depth = 0, sim_used = 0, legal_used = 0;
    int root_action = -1; /* the seat's action at the root in this iteration, for weigh() */
    void *data = asobi_state_data_mut(s);
    for (;;) {
        uint32_t mask = b->game->to_move(data);
        if (mask == 0 || depth >= b->path_cap)
            break;
        path_step *step = &b->path[depth];
        step->parent = node;
        step->sim_first = -1;
        step->sim_count = 0;
        bool expanded = false;
        int32_t child;
        if (!(mask & (mask - 1))) { /* one seat to move */
            int mover = 0;
            while (!(mask & (1u << mover)))
                mover++;
            int action;
            child = select_sequential(b, node, s, mover, rng, &expanded, &action);
            if (child != NO_NODE) /* observe reads it after the game's apply */
                __builtin_prefetch(&b->nodes[child]);
            if (depth == 0 && mover == b->seat)
                root_action = action;
            b->game->apply(data, mover, action);
        } else {
            step->sim_first = sim_used;
            bool stop;
            child = select_simultaneous(b, node, s, mask, rng, step, &legal_used, &expanded, &stop);
            if (stop)
                break;
            sim_used += step->sim_count;
            if (child != NO_NODE)
                __builtin_prefetch(&b->nodes[child]);
            if (depth == 0 && (mask & (1u << b->seat)))
                root_action = b->chosen[b->seat];
            apply_joint(b->game, data, s, mask, b->chosen);
        }
        step->node = child;
        depth++;
        if (child == NO_NODE)
            break;
        int32_t next = observe(b, child, s, &expanded);
        if (expanded || next == NO_NODE)
            break;
        node = next;
    }
    playout(b, s, rng);
    double r[ASOBI_MAX_SEATS];
    rewards(s, b->players, r);
    backup(b, depth, r);
    if (b->root_sum && root_action >= 0) {
        b->root_sum[root_action] += r[b->seat];
        b->root_count[root_action] += 1;
    }
}

/* Run the search from root for the budget (iterations, or seconds from now
 * until end). With resample, every iteration samples its own world (ISMCTS);
 * without, all of them play in root itself (one world of worlds=). */
static long search(ismcts_bot *b, const asobi_state *root, bool resample, long iters, double end, asobi_rng *rng)
{
    b->node_count = 0;
    b->sim_count = 0;
    b->saved_used = 0;
    b->saved_nfree = 0;
    if (b->joint_used) {
        memset(b->joint, 0, (size_t)b->joint_cap * sizeof *b->joint);
        b->joint_used = 0;
    }
    new_node(b, NO_NODE, 0, NULL, 0);
    /* The clock between iterations: in batches that grow while a batch
     * takes under a millisecond (cheap iterations, few clock reads) and
     * shrink to one when iterations are slow (a late batch overruns little). */
    double stop = end > 0 && end < b->deadline ? end : b->deadline;
    long done = 0, batch = 1;
    while ((end > 0 || done < iters) && !b->out_of_time) {
        double before = now_seconds();
        if (before >= stop)
            break;
        long k = end > 0 || iters - done > batch ? batch : iters - done;
        for (long i = 0; i < k && !b->out_of_time; i++, done++)
            iterate(b, root, resample, rng);
        double took = now_seconds() - before;
        batch = took < 1e-3 && batch < 4096 ? batch * 2 : took > 2e-3 && batch > 1 ? batch / 2 : batch;
    }
    return done;
}

/* The root's most visited child that is a legal action of seat in state,
 * NO_NODE if none. */
static int32_t most_visited(const ismcts_bot *b, const asobi_state *state, int seat)
{
    int32_t best = NO_NODE;
    for (int32_t c = b->nodes[ROOT].first_child; c != NO_NODE; c = b->nodes[c].next_sibling) {
        const ismcts_node *ch = &b->nodes[c];
        if (ch->actors != (1u << seat) || !asobi_state_is_legal(state, seat, b->keys[ch->key + seat]))
            continue;
        if (best == NO_NODE || ch->visits > b->nodes[best].visits)
            best = c;
    }
    return best;
}

/* worlds=K, a sequential root: determinized search (Perfect Information
 * Monte Carlo, as GIB played bridge; "determinized UCT" in Cowling, Powley
 * and Whitehouse 2012). K worlds are sampled from the seat's view, each is
 * searched on its own with 1/K of the budget as if everything were visible,
 * and the root visits of the K searches vote. Each world is consistent with
 * what the seat sees, so the wall holds; what it gives up is reasoning
 * about what it does not know (it assumes it will know it, "strategy
 * fusion"), and what it gains is a deep search of each world. */
static int choose_by_worlds(ismcts_bot *b, const asobi_state *state, int seat, asobi_rng *rng)
{
    if (!b->world)
        b->world = asobi_state_clone(state);
    memset(b->votes, 0, (size_t)b->max_actions * sizeof *b->votes);
    double start = now_seconds();
    long done = 0;
    for (long w = 0; w < b->worlds; w++) {
        asobi_state_copy(b->world, state);
        asobi_state_determinize(b->world, seat, rng);
        asobi_state_retract_unseen(b->world, seat);
        long iters = b->iters / b->worlds + (w < b->iters % b->worlds);
        double end = b->seconds > 0 ? start + b->seconds * (double)(w + 1) / (double)b->worlds : 0;
        done += search(b, b->world, false, iters < 1 ? 1 : iters, end, rng);
        for (int32_t c = b->nodes[ROOT].first_child; c != NO_NODE; c = b->nodes[c].next_sibling) {
            const ismcts_node *ch = &b->nodes[c];
            if (ch->actors == (1u << seat))
                b->votes[b->keys[ch->key + seat]] += ch->visits;
        }
    }
    b->last_iterations = done;
    int n = asobi_state_legal(state, seat, b->ids), best = b->ids[0];
    for (int i = 1; i < n; i++)
        if (b->votes[b->ids[i]] > b->votes[best])
            best = b->ids[i];
    return best;
}

static int ismcts_choose(void *p, const asobi_state *state, int seat, asobi_rng *rng)
{
    ismcts_bot *b = p;
    if (!b->work || asobi_state_size(b->work) != asobi_state_size(state)) {
        asobi_state_free(b->work);
        asobi_state_free(b->probe);
        asobi_state_free(b->world);
        b->work = asobi_state_clone(state); /* once per bot: the state size never changes */
        b->probe = asobi_state_clone(state);
        b->world = NULL;
        /* lazy fingerprints (observe) for small states whose game cannot name them itself */
        size_t size = asobi_state_size(state);
        b->saved_size = !b->game->info_hash && size <= 1024 ? size : 0;
        /* one slot per decision node at most, and at most 16 MB of them
         * (past that, fingerprints are made at once, as without slots) */
        b->saved_max = b->node_cap / 2 + 1;
        if (b->saved_size > 0 && (size_t)b->saved_max > ((size_t)16 << 20) / b->saved_size)
            b->saved_max = (int32_t)(((size_t)16 << 20) / b->saved_size);
        free(b->saved);
        free(b->saved_free);
        b->saved = NULL;
        b->saved_free = NULL;
        b->saved_cap = 0;
    }
    int n = asobi_state_legal(state, seat, b->ids);
    if (n == 1)
        return b->ids[0];
    b->deadline = now_seconds() + (b->seconds > 0 ? b->seconds : ISMCTS_SAFETY_SECONDS);
    b->out_of_time = false;
    uint32_t mask = asobi_state_to_move(state);
    if (b->worlds > 0 && asobi_popcount32(mask) == 1)
        return choose_by_worlds(b, state, seat, rng);
    b->last_iterations = search(b, state, true, b->iters, b->seconds > 0 ? now_seconds() + b->seconds : 0, rng);

    n = asobi_state_legal(state, seat, b->ids);
    if (asobi_popcount32(mask) > 1 && b->nodes[ROOT].sim >= 0) {
        /* Simultaneous root: sample from the seat's average strategy,
         * leaving out the actions below purify x the largest probability
         * (the noise of a finite search; purify=0 keeps them all). */
        const double *strategy = b->strategy + b->nodes[ROOT].sim + (size_t)seat * (size_t)b->max_actions;
        double total = 0, top = 0;
        for (int i = 0; i < n; i++)
            top = strategy[b->ids[i]] > top ? strategy[b->ids[i]] : top;
        double cut = b->purify * top;
        for (int i = 0; i < n; i++)
            total += strategy[b->ids[i]] >= cut ? strategy[b->ids[i]] : 0;
        if (total > 0) {
            double u = asobi_rng_unit(rng) * total, acc = 0;
            int last = b->ids[n - 1];
            for (int i = 0; i < n; i++) {
                if (strategy[b->ids[i]] < cut)
                    continue;
                last = b->ids[i];
                acc += strategy[b->ids[i]];
                if (u < acc)
                    return b->ids[i];
            }
            return last;
        }
    } else {
        /* Sequential root: the most visited legal child. */
        int32_t best = most_visited(b, state, seat);
        if (best != NO_NODE)
            return b->keys[b->nodes[best].key + seat];
    }
    return b->ids[asobi_rng_below(rng, (uint32_t)n)];
}

/* The move ismcts_choose makes, from the same draws, and the root's
 * statistics per action of the seat (the mean reward of the iterations that
 * began with it: at a sequential root the root child's mean, at a
 * simultaneous one the action's value against the others' mixed play). */
static int ismcts_weigh(void *p, const asobi_state *state, int seat, asobi_rng *rng, double *sum, double *count)
{
    ismcts_bot *b = p;
    b->root_sum = sum;
    b->root_count = count;
    int id = ismcts_choose(p, state, seat, rng);
    b->root_sum = b->root_count = NULL;
    return id;
}

const asobi_bot_def asobi_bot_ismcts = {
    .name = "ismcts",
    .help = "information-set MCTS over determinizations; regret matching at simultaneous choices. "
            "iters=N (default 1000) or time=S seconds per move; c=0.7 (UCB exploration); "
            "gamma=0.5 (regret-matching exploration); sim=rm|rm+|duct (simultaneous choices); "
            "baseline=0|1 (variance-reduced regrets); purify=0 (drop unlikely root moves); "
            "playout=auto|random|heuristic (auto: the game's choice); depth=N (cap a playout at N steps, then score by the "
            "result, 0 = to the end); nodes=N (node pool); worlds=K (determinized search instead: K sampled "
            "worlds searched one by one, their root visits vote)",
    .create = ismcts_create,
    .destroy = ismcts_destroy,
    .choose = ismcts_choose,
    .weigh = ismcts_weigh,
};

/* bot.c — the bot registry, spec strings, and the wall that keeps hidden information from bots. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bot_def.h"

extern const asobi_bot_def asobi_bot_random;
extern const asobi_bot_def asobi_bot_heuristic;
extern const asobi_bot_def asobi_bot_ismcts;
extern const asobi_bot_def asobi_bot_psycle_nash;

static const asobi_bot_def *const bot_registry[] = {
    &asobi_bot_random,
    &asobi_bot_heuristic,
    &asobi_bot_ismcts,
    &asobi_bot_psycle_nash,
};
#define BOT_COUNT (sizeof bot_registry / sizeof bot_registry[0])

struct asobi_bot {
    const asobi_bot_def *def;
    void *impl;
    char *spec;
    int seat;
    asobi_rng rng;
    asobi_state *scratch; /* the determinized copy handed to the bot */
};

static const asobi_bot_def *find_bot(const char *name, size_t len)
{
    for (size_t i = 0; i < BOT_COUNT; i++)
        if (strlen(bot_registry[i]->name) == len && strncmp(bot_registry[i]->name, name, len) == 0)
            return bot_registry[i];
    return NULL;
}

const char *const *asobi_bot_names(void)
{
    static const char *names[BOT_COUNT + 1];
    for (size_t i = 0; i < BOT_COUNT; i++)
        names[i] = bot_registry[i]->name;
    names[BOT_COUNT] = NULL;
    return names;
}

const char *asobi_bot_help(const char *name)
{
    const asobi_bot_def *d = name ? find_bot(name, strlen(name)) : NULL;
    return d ? d->help : NULL;
}

/* "name:key=value,key=value" -> the bot kind and {"key":"value",...}. */
static const asobi_bot_def *parse_spec(const char *spec, json_t **params, asobi_error *err)
{
    *params = NULL;
    if (!spec || !*spec) {
        asobi_fail(err, ASOBI_E_BAD_BOT, "empty bot spec");
        return NULL;
    }
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    const asobi_bot_def *def = find_bot(spec, len);
    if (!def) {
        char list[200] = "";
        for (size_t i = 0; i < BOT_COUNT; i++) {
            strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, bot_registry[i]->name, sizeof list - strlen(list) - 1);
        }
        asobi_fail(err, ASOBI_E_BAD_BOT, "no bot called \"%.*s\" (bots: %s)", (int)(len > 60 ? 60 : len),
                   spec, list);
        return NULL;
    }
    json_t *p = json_object();
    if (colon) {
        char *copy = strdup(colon + 1), *save = NULL;
        for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(item, '=');
            if (!eq || eq == item || !eq[1]) {
                asobi_fail(err, ASOBI_E_BAD_BOT, "bot parameter \"%.60s\" is not KEY=VALUE", item);
                free(copy);
                json_decref(p);
                return NULL;
            }
            *eq = '\0';
            json_object_set_new(p, item, json_string(eq + 1));
        }
        free(copy);
    }
    *params = p;
    return def;
}

/* Generous enough for every figure in docs/ai.md (at most iters=20000 and
 * time=1 there); at the limits an ISMCTS bot reserves some hundreds of MB
 * at most, and a move never takes more than a minute. */
const asobi_bot_limits asobi_bot_default_limits = {
    .iters = 200000, .seconds = 60, .nodes = 400002, .worlds = 10000, .depth = 1e7};
/* A server answers many clients on shared cores: a bot's move stays within
 * a couple of seconds and some megabytes. */
const asobi_bot_limits asobi_bot_server_limits = {
    .iters = 20000, .seconds = 2, .nodes = 40002, .worlds = 100, .depth = 10000};

/* The budget keys of params against limits. Only the number is judged here
 * (a malformed one is left to the bot's own parsing, which names it). */
static int check_limits(const json_t *params, const asobi_bot_limits *limits, asobi_error *err)
{
    const struct {
        const char *key;
        double max;
    } budgets[] = {{"iters", limits->iters},   {"time", limits->seconds}, {"nodes", limits->nodes},
                   {"worlds", limits->worlds}, {"depth", limits->depth}};
    for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
        const char *text = json_string_value(json_object_get(params, budgets[i].key));
        if (!text)
            continue;
        char *end;
        double v = strtod(text, &end);
        if (end != text && !*end && !(v <= budgets[i].max)) /* NaN is above every limit */
            return asobi_fail(err, ASOBI_E_BAD_BOT, "bot parameter %s=%.20s is above the limit of %g",
                              budgets[i].key, text, budgets[i].max);
    }
    return ASOBI_OK;
}

int asobi_bot_check_spec_within(const char *spec, const asobi_game_def *game, const asobi_bot_limits *limits,
                                asobi_error *err)
{
    asobi_bot *b = asobi_bot_new_within(spec, game, asobi_game_min_players(game), 0, 0, limits, err);
    if (!b)
        return err ? err->code : ASOBI_E_BAD_BOT;
    asobi_bot_free(b);
    return ASOBI_OK;
}

int asobi_bot_check_spec(const char *spec, const asobi_game_def *game, asobi_error *err)
{
    asobi_bot *b = asobi_bot_new(spec, game, asobi_game_min_players(game), 0, 0, err);
    if (!b)
        return err ? err->code : ASOBI_E_BAD_BOT;
    asobi_bot_free(b);
    return ASOBI_OK;
}

asobi_bot *asobi_bot_new(const char *spec, const asobi_game_def *game, int players, int seat,
                         uint64_t seed, asobi_error *err)
{
    return asobi_bot_new_within(spec, game, players, seat, seed, &asobi_bot_default_limits, err);
}

asobi_bot *asobi_bot_new_within(const char *spec, const asobi_game_def *game, int players, int seat,
                               uint64_t seed, const asobi_bot_limits *limits, asobi_error *err)
{
    json_t *params;
    const asobi_bot_def *def = parse_spec(spec, &params, err);
    if (!def)
        return NULL;
    /* the default limits always hold, whatever looser ones a caller passes */
    if (check_limits(params, limits, err) != ASOBI_OK ||
        check_limits(params, &asobi_bot_default_limits, err) != ASOBI_OK) {
        json_decref(params);
        return NULL;
    }
    asobi_bot *b = calloc(1, sizeof *b);
    b->def = def;
    b->spec = strdup(spec);
    b->seat = seat;
    asobi_rng_seed(&b->rng, seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(seat + 1)));
    b->impl = def->create(game, players, seat, params, err);
    json_decref(params);
    if (!b->impl) {
        free(b->spec);
        free(b);
        return NULL;
    }
    return b;
}

void asobi_bot_free(asobi_bot *bot)
{
    if (!bot)
        return;
    bot->def->destroy(bot->impl);
    asobi_state_free(bot->scratch);
    free(bot->spec);
    free(bot);
}

const char *asobi_bot_spec(const asobi_bot *bot) { return bot->spec; }

const char *asobi_bot_level(const char *spec)
{
    size_t n = strcspn(spec, ":");
    if (n == 6 && strncmp(spec, "random", 6) == 0)
        return "easy";
    if (n == 6 && strncmp(spec, "ismcts", 6) == 0)
        return "strong";
    return "medium";
}
int asobi_bot_seat(const asobi_bot *bot) { return bot->seat; }

int asobi_bot_choose(asobi_bot *bot, const asobi_state *state, asobi_error *err)
{
    int seat = bot->seat;
    if (!(asobi_state_to_move(state) & (1u << seat))) {
        asobi_fail(err, ASOBI_E_NOT_YOUR_TURN, "the bot's seat %d is not to move", seat);
        return -1;
    }
    if (!bot->scratch || asobi_state_size(bot->scratch) != asobi_state_size(state)) {
        asobi_state_free(bot->scratch);
        bot->scratch = asobi_state_clone(state);
    }
    /* The wall: the bot gets a state in which everything its seat cannot
     * see has been replaced at random, and simultaneous choices it cannot
     * see are withdrawn. Nothing of the true hidden state reaches it. */
    asobi_state_copy(bot->scratch, state);
    asobi_state_determinize(bot->scratch, seat, &bot->rng);
    asobi_state_retract_unseen(bot->scratch, seat);
    int id = bot->def->choose(bot->impl, bot->scratch, seat, &bot->rng);
    if (!asobi_state_is_legal(state, seat, id)) {
        asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "bot %s chose action %d, which is not legal", bot->spec, id);
        return -1;
    }
    return id;
}

int asobi_bot_weigh(asobi_bot *bot, const asobi_state *state, int *ids, double *values, double *visits,
                    int *best, asobi_error *err)
{
    int seat = bot->seat;
    if (!bot->def->weigh) {
        asobi_fail(err, ASOBI_E_BAD_BOT, "bot %s cannot weigh moves (ismcts can)", bot->spec);
        return -1;
    }
    if (!(asobi_state_to_move(state) & (1u << seat))) {
        asobi_fail(err, ASOBI_E_NOT_YOUR_TURN, "the bot's seat %d is not to move", seat);
        return -1;
    }
    if (!bot->scratch || asobi_state_size(bot->scratch) != asobi_state_size(state)) {
        asobi_state_free(bot->scratch);
        bot->scratch = asobi_state_clone(state);
    }
    /* the wall, exactly as in asobi_bot_choose */
    asobi_state_copy(bot->scratch, state);
    asobi_state_determinize(bot->scratch, seat, &bot->rng);
    asobi_state_retract_unseen(bot->scratch, seat);
    size_t max = (size_t)asobi_game_max_actions(asobi_state_game(state));
    double *sum = calloc(2 * max, sizeof *sum);
    if (!sum) {
        asobi_fail(err, ASOBI_E_NOMEM, "out of memory weighing moves");
        return -1;
    }
    double *count = sum + max;
    int id = bot->def->weigh(bot->impl, bot->scratch, seat, &bot->rng, sum, count);
    if (!asobi_state_is_legal(state, seat, id)) {
        free(sum);
        asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "bot %s chose action %d, which is not legal", bot->spec, id);
        return -1;
    }
    int n = asobi_state_legal(state, seat, ids);
    *best = id;
    double most = -1;
    for (int i = 0; i < n; i++) {
        visits[i] = count[ids[i]];
        values[i] = count[ids[i]] > 0 ? sum[ids[i]] / count[ids[i]] : -1;
        if (count[ids[i]] > most) { /* the lowest id among equals */
            most = count[ids[i]];
            *best = ids[i];
        }
    }
    free(sum);
    return n;
}

int asobi_bot_param_double(const json_t *params, const char *key, double def, double min, double max,
                           double *out, asobi_error *err)
{
    const char *text = json_string_value(json_object_get(params, key));
    if (!text) {
        *out = def;
        return ASOBI_OK;
    }
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || *end || end == text || !isfinite(v) || v < min || v > max)
        return asobi_fail(err, ASOBI_E_BAD_BOT, "bot parameter %s=%.40s must be a number from %g to %g",
                          key, text, min, max);
    *out = v;
    return ASOBI_OK;
}

int asobi_bot_params_only(const json_t *params, const char *const *keys, const char *bot, asobi_error *err)
{
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)params, key, value) {
        bool known = false;
        for (const char *const *k = keys; *k; k++)
            known |= strcmp(*k, key) == 0;
        if (!known)
            return asobi_fail(err, ASOBI_E_BAD_BOT, "bot %s has no parameter \"%.40s\"", bot, key);
    }
    return ASOBI_OK;
}

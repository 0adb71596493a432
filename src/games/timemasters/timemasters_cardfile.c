/* timemasters_cardfile.c — card sets (option `cards`): checked, read from JSON content, written back canonically, hashed. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "text.h"

#include "timemasters.h"

/* The names of the effect primitives, as written in card files and docs. */
static const char *const fx_names[TM_FX_COUNT] = {
    [TM_FX_NONE] = "none",         [TM_FX_EPHEMERAL] = "ephemeral", [TM_FX_READY] = "ready",
    [TM_FX_NEW_KE] = "new_ke",     [TM_FX_DRAW] = "draw",           [TM_FX_REMOVE] = "remove",
    [TM_FX_FOCUS_BACK] = "focus_back", [TM_FX_HEAVY] = "heavy",     [TM_FX_SLOW] = "slow",
    [TM_FX_LIGHT] = "light",
};

const char *tm_fx_name(int fx)
{
    return fx >= 0 && fx < TM_FX_COUNT ? fx_names[fx] : "?";
}

int tm_fx_from_name(const char *name)
{
    for (int i = 1; i < TM_FX_COUNT; i++)
        if (strcasecmp(name, fx_names[i]) == 0)
            return i;
    return -1;
}

/* Why card sets are content, never paths
 * --------------------------------------
 * A card set was once named by a file path in the options: whoever sent a
 * request (or wrote a record) chose a file on the machine running the
 * engine. Now the option holds the set itself, as JSON; the command line
 * reads a file for the person running it (asobi_game_options_read_files),
 * and records carry the content, so they replay anywhere. The options keep
 * the set in one canonical form (every field written, in one order) with a
 * name and a hash of that form, so two sets are told apart by their hash. */

/* Is name one a player can type back? The action parser collapses runs of
 * white space and trims the ends, so a name holding a tab, a double space or
 * a space at either end could never be written in an action text; control
 * characters have no business in a name either. */
static const char *name_problem(const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len >= TM_NAME_MAX)
        return "a name of 1 to 23 bytes";
    if (name[0] == ' ' || name[len - 1] == ' ')
        return "no spaces around the name";
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c < 0x20 || c == 0x7f)
            return "no tabs or control characters in the name";
        if (c == ' ' && name[i + 1] == ' ')
            return "no double spaces in the name";
    }
    if (!asobi_utf8_valid(name))
        return "a name in UTF-8";
    return NULL;
}

/* The limits every table obeys, ours included (a test checks ours). They
 * keep the state flat and fixed-size (see timemasters.h for the sizes) and
 * every game playable: a starting deck and every sphere stocked, names
 * that action texts can name. */
int tm_table_check(const tm_table *t, char *msg, size_t cap)
{
    if (t->kinds < 1 || t->kinds > TM_MAX_KINDS)
        return snprintf(msg, cap, "\"cards\": a list of 1 to %d card kinds", TM_MAX_KINDS), -1;
    if (t->sphere_size < 1 || t->sphere_size > TM_MAX_SPHERE)
        return snprintf(msg, cap, "\"sphere_size\" must be 1 to %d", TM_MAX_SPHERE), -1;
    int per_level[TM_LEVELS + 1] = {0}, timers[TM_LEVELS + 1] = {0};
    bool cheap_start_spell = false;
    for (int k = 0; k < t->kinds; k++) {
        const tm_card *c = &t->card[k];
        if (strnlen(c->name, TM_NAME_MAX) >= TM_NAME_MAX)
            return snprintf(msg, cap, "card %d: \"name\": a name of 1 to %d bytes", k + 1, TM_NAME_MAX - 1), -1;
        const char *why = name_problem(c->name);
        if (why)
            return snprintf(msg, cap, "card %d: \"name\": %s", k + 1, why), -1;
        for (int j = 0; j < k; j++)
            if (strcasecmp(c->name, t->card[j].name) == 0)
                return snprintf(msg, cap, "\"name\": two cards are named \"%s\"", c->name), -1;
        if (c->type > TM_TIMER)
            return snprintf(msg, cap, "card \"%s\": \"type\" is spell, focus or timer", c->name), -1;
        if (c->level > TM_LEVELS)
            return snprintf(msg, cap, "card \"%s\": \"level\" 0 to 5", c->name), -1;
        if (c->copies < 1)
            return snprintf(msg, cap, "card \"%s\": \"copies\" at least 1", c->name), -1;
        if (c->cost > TM_MAX_COST || (c->type != TM_SPELL && c->cost != 0))
            return snprintf(msg, cap, "card \"%s\": \"cost\" 0 to 9, spells only", c->name), -1;
        if (c->type == TM_TIMER ? (c->slots < 1 || c->slots > TM_MAX_SLOTS) : c->slots != 0)
            return snprintf(msg, cap, "card \"%s\": \"slots\": timers have 1 or 2 slots, others none", c->name), -1;
        if (c->type == TM_TIMER ? c->trigger > TM_TRIG_DISCARD : c->trigger != TM_TRIG_NONE)
            return snprintf(msg, cap, "card \"%s\": \"trigger\": only timers have a trigger", c->name), -1;
        if (c->n_effects > TM_MAX_EFFECTS)
            return snprintf(msg, cap, "card \"%s\": \"effects\": at most %d effects", c->name, TM_MAX_EFFECTS), -1;
        if (c->type == TM_TIMER && (c->trigger == TM_TRIG_NONE) != (c->n_effects == 0))
            return snprintf(msg, cap, "card \"%s\": \"trigger\": a timer has effects exactly when it has a trigger",
                            c->name), -1;
        for (int e = 0; e < c->n_effects; e++)
            if (c->fx[e][0] <= TM_FX_NONE || c->fx[e][0] >= TM_FX_COUNT || c->fx[e][1] < 1 ||
                c->fx[e][1] > 9)
                return snprintf(msg, cap, "card \"%s\": \"effects\": effect %d needs a known primitive and an "
                                "amount of 1 to 9", c->name, e + 1), -1;
        per_level[c->level] += c->copies;
        if (c->type == TM_TIMER)
            timers[c->level] += c->copies;
        cheap_start_spell |= c->level == 0 && c->type == TM_SPELL && c->cost <= TM_START_KE;
    }
    if (per_level[0] < 1 || per_level[0] > TM_MAX_START)
        return snprintf(msg, cap, "\"level\": the starting deck (level 0) holds 1 to %d cards", TM_MAX_START), -1;
    for (int l = 1; l <= TM_LEVELS; l++)
        if (per_level[l] < 2 || per_level[l] > TM_MAX_LEVEL_CARDS)
            return snprintf(msg, cap, "\"level\": level %d holds 2 to %d cards", l, TM_MAX_LEVEL_CARDS), -1;
    /* The timers one player could ever own: its starting ones, and per
     * level those its sphere could hold (it may take them all). At most
     * TM_MAX_TIMERS, so the state's bound on timers in play is never met
     * (issue 40: the seed gives no limit, 2-A "プレイされたタイマーカードは破棄
     * されるか、タイマーが活性化されるまではタイマーゾーンに残り続けます"). */
    int ownable = timers[0];
    for (int l = 1; l <= TM_LEVELS; l++)
        ownable += timers[l] < t->sphere_size ? timers[l] : t->sphere_size;
    if (ownable > TM_MAX_TIMERS)
        return snprintf(msg, cap, "\"type\": a player could own %d timers (its starting ones, and per level as "
                        "many as the sphere holds); at most %d", ownable, TM_MAX_TIMERS), -1;
    /* Every access point, hence every card taken and every point scored,
     * comes from a spell played: a starting deck without a spell its owner
     * can pay for makes a game nobody can score in (it would run to the
     * turn cap at 0 points). */
    if (!cheap_start_spell)
        return snprintf(msg, cap, "\"level\": the starting deck (level 0) needs a spell costing at most %d "
                        "(the starting Kè): access points come from playing spells", TM_START_KE), -1;
    return 0;
}

/* Every message below starts with "cards: " and names the field at fault. */
#define CARDS_FAIL(err, ...) asobi_fail(err, ASOBI_E_BAD_OPTION, "cards: " __VA_ARGS__)

/* Refuse keys a set or card does not have (a misspelt "copeis", an empty
 * key): silently ignoring them would play another game than the one meant. */
static int only_known_keys(const json_t *o, const char *const *known, const char *where, asobi_error *err)
{
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)o, key, value) {
        bool found = false;
        for (const char *const *k = known; *k && !found; k++)
            found = strcmp(*k, key) == 0;
        if (!found)
            return CARDS_FAIL(err, "%s: unknown field \"%.30s\"", where, key);
    }
    return ASOBI_OK;
}

static int int_field(const json_t *o, const char *key, int def, int lo, int hi, const char *where, int *out,
                     asobi_error *err)
{
    /* *out is set on every path: GCC cannot see that asobi_fail never returns
     * ASOBI_OK, and would warn (-O3) that callers read it uninitialized. */
    *out = def;
    const json_t *v = json_object_get(o, key);
    if (!v)
        return ASOBI_OK;
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return CARDS_FAIL(err, "%s: \"%s\" must be an integer %d to %d", where, key, lo, hi);
    *out = (int)json_integer_value(v);
    return ASOBI_OK;
}

static const char *const type_names[] = {[TM_SPELL] = "spell", [TM_FOCUS] = "focus", [TM_TIMER] = "timer"};
static const char *const trigger_names[] = {[TM_TRIG_NONE] = "none", [TM_TRIG_SET] = "set",
                                            [TM_TRIG_DISCARD] = "discard"};

static int name_index(const char *const *names, int n, const char *name)
{
    for (int i = 0; name && i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

static int parse_card(const json_t *c, int index, tm_card *out, asobi_error *err)
{
    static const char *const known[] = {"name", "type", "level", "cost", "copies", "slots", "trigger",
                                        "effects", NULL};
    char where[64];
    snprintf(where, sizeof where, "card %d", index + 1);
    if (!json_is_object(c))
        return CARDS_FAIL(err, "\"cards\": %s is not an object", where);
    const char *name = json_string_value(json_object_get(c, "name"));
    if (!name || strlen(name) == 0 || strlen(name) >= TM_NAME_MAX)
        return CARDS_FAIL(err, "%s: \"name\": a name of 1 to %d bytes", where, TM_NAME_MAX - 1);
    const char *why = name_problem(name);
    if (why)
        return CARDS_FAIL(err, "%s: \"name\": %s", where, why);
    memcpy(out->name, name, strlen(name) + 1);
    snprintf(where, sizeof where, "card %d (%s)", index + 1, name);
    if (only_known_keys(c, known, where, err) != ASOBI_OK)
        return ASOBI_E_BAD_OPTION;
    int type = name_index(type_names, 3, json_string_value(json_object_get(c, "type")));
    if (type < 0)
        return CARDS_FAIL(err, "%s: \"type\" is spell, focus or timer", where);
    out->type = (uint8_t)type;
    int level, cost, copies, slots;
    if (int_field(c, "level", -1, 0, TM_LEVELS, where, &level, err) ||
        int_field(c, "cost", 0, 0, TM_MAX_COST, where, &cost, err) ||
        int_field(c, "copies", 1, 1, TM_MAX_LEVEL_CARDS, where, &copies, err) ||
        int_field(c, "slots", out->type == TM_TIMER ? 1 : 0, 0, TM_MAX_SLOTS, where, &slots, err))
        return ASOBI_E_BAD_OPTION;
    if (level < 0)
        return CARDS_FAIL(err, "%s needs a \"level\" 0 to 5", where);
    out->level = (uint8_t)level;
    out->cost = (uint8_t)cost;
    out->copies = (uint8_t)copies;
    out->slots = (uint8_t)slots;
    const json_t *trig = json_object_get(c, "trigger");
    int trigger = trig ? name_index(trigger_names, 3, json_string_value(trig)) : TM_TRIG_NONE;
    if (trigger < 0)
        return CARDS_FAIL(err, "%s: \"trigger\" is none, set or discard", where);
    out->trigger = (uint8_t)trigger;
    const json_t *fx = json_object_get(c, "effects");
    if (fx && !json_is_array(fx))
        return CARDS_FAIL(err, "%s: \"effects\" is a list", where);
    size_t n = fx ? json_array_size(fx) : 0;
    if (n > TM_MAX_EFFECTS)
        return CARDS_FAIL(err, "%s: \"effects\": at most %d effects", where, TM_MAX_EFFECTS);
    out->n_effects = (uint8_t)n;
    for (size_t e = 0; e < n; e++) {
        const json_t *pair = json_array_get(fx, e);
        const char *op = json_string_value(json_array_get(pair, 0));
        const json_t *amount = json_array_get(pair, 1);
        int code = op ? tm_fx_from_name(op) : -1;
        if (!json_is_array(pair) || json_array_size(pair) != 2 || code < 0 || !json_is_integer(amount) ||
            json_integer_value(amount) < 1 || json_integer_value(amount) > 9)
            return CARDS_FAIL(err,
                              "%s: \"effects\": effect %zu must be [\"primitive\", 1..9] with a known "
                              "primitive (ephemeral, ready, new_ke, draw, remove, focus_back, "
                              "heavy, slow, light)", where, e + 1);
        out->fx[e][0] = (uint8_t)code;
        out->fx[e][1] = (uint8_t)json_integer_value(amount);
    }
    return ASOBI_OK;
}

int tm_table_from_json(const json_t *set, tm_table *out, asobi_error *err)
{
    static const char *const known[] = {"name", "hash", "title", "sphere_size", "cards", NULL};
    memset(out, 0, sizeof *out);
    if (!json_is_object(set))
        return CARDS_FAIL(err, "a card set is a JSON object with a \"cards\" list");
    if (only_known_keys(set, known, "the set", err) != ASOBI_OK)
        return ASOBI_E_BAD_OPTION;
    const json_t *cards = json_object_get(set, "cards");
    if (!json_is_array(cards) || json_array_size(cards) == 0 || json_array_size(cards) > TM_MAX_KINDS)
        return CARDS_FAIL(err, "\"cards\": a list of 1 to %d cards", TM_MAX_KINDS);
    const json_t *title = json_object_get(set, "title");
    if (title && !json_is_string(title))
        return CARDS_FAIL(err, "\"title\" is a string");
    /* cut to the table's 63 bytes at a character boundary: views show it */
    asobi_utf8_copy(out->title, sizeof out->title, title ? json_string_value(title) : "");
    int size;
    if (int_field(set, "sphere_size", 10, 1, TM_MAX_SPHERE, "the set", &size, err) != ASOBI_OK)
        return ASOBI_E_BAD_OPTION;
    out->sphere_size = (uint8_t)size;
    out->kinds = (uint8_t)json_array_size(cards);
    for (size_t i = 0; i < json_array_size(cards); i++)
        if (parse_card(json_array_get(cards, i), (int)i, &out->card[i], err) != ASOBI_OK)
            return ASOBI_E_BAD_OPTION;
    char msg[200];
    if (tm_table_check(out, msg, sizeof msg) != 0)
        return CARDS_FAIL(err, "%s", msg);
    return ASOBI_OK;
}

json_t *tm_table_to_json(const tm_table *t)
{
    json_t *cards = json_array();
    for (int k = 0; k < t->kinds; k++) {
        const tm_card *c = &t->card[k];
        json_t *fx = json_array();
        for (int e = 0; e < c->n_effects; e++)
            json_array_append_new(fx, json_pack("[s,i]", tm_fx_name(c->fx[e][0]), c->fx[e][1]));
        json_array_append_new(cards, json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:s, s:o}", "name", c->name,
                                               "type", type_names[c->type], "level", c->level, "cost",
                                               c->cost, "copies", c->copies, "slots", c->slots, "trigger",
                                               trigger_names[c->trigger], "effects", fx));
    }
    return json_pack("{s:s, s:i, s:o}", "title", t->title, "sphere_size", t->sphere_size, "cards", cards);
}

/* FNV-1a, 64 bits, over the canonical text: a name for the content (to tell
 * sets apart and catch a record whose set was edited), not a signature. */
static void content_hash(const json_t *canonical, char *out, size_t cap)
{
    char *text = json_dumps(canonical, JSON_COMPACT | JSON_SORT_KEYS);
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p; p++)
        h = (h ^ *p) * 0x100000001b3ULL;
    free(text);
    snprintf(out, cap, "fnv1a64:%016llx", (unsigned long long)h);
}

json_t *tm_cards_option(const json_t *value, asobi_error *err)
{
    if (json_is_null(value) || (json_is_string(value) && json_string_length(value) == 0))
        return json_null(); /* our own set ("" in records made before card sets were content) */
    if (json_is_string(value)) {
        asobi_fail(err, ASOBI_E_BAD_OPTION,
                   "cards: a card set is JSON content (an object), never a file name; on the command line, "
                   "--opt cards=FILE reads the file");
        return NULL;
    }
    tm_table t;
    if (tm_table_from_json(value, &t, err) != ASOBI_OK)
        return NULL;
    const json_t *name = json_object_get(value, "name");
    if (name && (!json_is_string(name) || json_string_length(name) < 1 || json_string_length(name) > 64)) {
        asobi_fail(err, ASOBI_E_BAD_OPTION, "cards: \"name\" is a string of 1 to 64 bytes");
        return NULL;
    }
    json_t *out = tm_table_to_json(&t);
    char hash[40];
    content_hash(out, hash, sizeof hash);
    const json_t *given = json_object_get(value, "hash");
    if (given && !(json_is_string(given) && strcmp(json_string_value(given), hash) == 0)) {
        json_decref(out);
        asobi_fail(err, ASOBI_E_BAD_OPTION, "cards: \"hash\" does not match the set's content (%s): the set "
                   "was changed after it was named", hash);
        return NULL;
    }
    json_object_set_new(out, "name", json_string(name ? json_string_value(name) : "custom"));
    json_object_set_new(out, "hash", json_string(hash));
    return out;
}

/* timemasters_cardfile.c — checking card tables and loading them from JSON card files (option `cards`). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <strings.h>

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

/* The limits every table obeys, ours included (a test checks ours). They
 * keep the state flat and fixed-size: see timemasters.h for the sizes. */
int tm_table_check(const tm_table *t, char *msg, size_t cap)
{
    if (t->kinds < 1 || t->kinds > TM_MAX_KINDS)
        return snprintf(msg, cap, "a table holds 1 to %d card kinds", TM_MAX_KINDS), -1;
    if (t->sphere_size < 1 || t->sphere_size > TM_MAX_SPHERE)
        return snprintf(msg, cap, "sphere_size must be 1 to %d", TM_MAX_SPHERE), -1;
    int per_level[TM_LEVELS + 1] = {0};
    for (int k = 0; k < t->kinds; k++) {
        const tm_card *c = &t->card[k];
        size_t len = strnlen(c->name, TM_NAME_MAX);
        if (len == 0 || len >= TM_NAME_MAX)
            return snprintf(msg, cap, "card %d: a name of 1 to %d characters", k, TM_NAME_MAX - 1), -1;
        if (c->name[0] == ' ' || c->name[len - 1] == ' ')
            return snprintf(msg, cap, "card \"%s\": no spaces around the name", c->name), -1;
        for (int j = 0; j < k; j++)
            if (strcasecmp(c->name, t->card[j].name) == 0)
                return snprintf(msg, cap, "two cards are named \"%s\"", c->name), -1;
        if (c->type > TM_TIMER)
            return snprintf(msg, cap, "card \"%s\": unknown type", c->name), -1;
        if (c->level > TM_LEVELS)
            return snprintf(msg, cap, "card \"%s\": level 0 to 5", c->name), -1;
        if (c->cost > 9 || (c->type != TM_SPELL && c->cost != 0))
            return snprintf(msg, cap, "card \"%s\": a cost of 0 to 9, spells only", c->name), -1;
        if (c->type == TM_TIMER ? (c->slots < 1 || c->slots > TM_MAX_SLOTS) : c->slots != 0)
            return snprintf(msg, cap, "card \"%s\": timers have 1 or 2 slots, others none", c->name), -1;
        if (c->type == TM_TIMER ? c->trigger > TM_TRIG_DISCARD : c->trigger != TM_TRIG_NONE)
            return snprintf(msg, cap, "card \"%s\": only timers have a trigger", c->name), -1;
        if (c->n_effects > TM_MAX_EFFECTS)
            return snprintf(msg, cap, "card \"%s\": at most %d effects", c->name, TM_MAX_EFFECTS), -1;
        if (c->type == TM_TIMER && (c->trigger == TM_TRIG_NONE) != (c->n_effects == 0))
            return snprintf(msg, cap, "card \"%s\": a timer has effects exactly when it has a trigger",
                            c->name), -1;
        for (int e = 0; e < c->n_effects; e++)
            if (c->fx[e][0] <= TM_FX_NONE || c->fx[e][0] >= TM_FX_COUNT || c->fx[e][1] < 1 ||
                c->fx[e][1] > 9)
                return snprintf(msg, cap, "card \"%s\": effect %d needs a known primitive and an "
                                "amount of 1 to 9", c->name, e + 1), -1;
        per_level[c->level] += c->copies;
    }
    if (per_level[0] < 1 || per_level[0] > TM_MAX_START)
        return snprintf(msg, cap, "the starting deck (level 0) holds 1 to %d cards", TM_MAX_START), -1;
    for (int l = 1; l <= TM_LEVELS; l++)
        if (per_level[l] < 2 || per_level[l] > TM_MAX_LEVEL_CARDS)
            return snprintf(msg, cap, "level %d holds 2 to %d cards", l, TM_MAX_LEVEL_CARDS), -1;
    return 0;
}

static int int_field(json_t *o, const char *key, int def, int lo, int hi, const char *card, int *out,
                     asobi_error *err)
{
    json_t *v = json_object_get(o, key);
    if (!v) {
        *out = def;
        return ASOBI_OK;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return asobi_fail(err, ASOBI_E_BAD_OPTION, "card file: %s: \"%s\" must be an integer %d to %d",
                          card, key, lo, hi);
    *out = (int)json_integer_value(v);
    return ASOBI_OK;
}

static int parse_card(json_t *c, int index, tm_card *out, asobi_error *err)
{
    char where[48];
    snprintf(where, sizeof where, "card %d", index + 1);
    if (!json_is_object(c))
        return asobi_fail(err, ASOBI_E_BAD_OPTION, "card file: %s is not an object", where);
    const char *name = json_string_value(json_object_get(c, "name"));
    if (!name || strlen(name) == 0 || strlen(name) >= TM_NAME_MAX)
        return asobi_fail(err, ASOBI_E_BAD_OPTION, "card file: %s needs a \"name\" of 1 to %d characters",
                          where, TM_NAME_MAX - 1);
    memcpy(out->name, name, strlen(name) + 1);
    const char *type = json_string_value(json_object_get(c, "type"));
    if (type && strcmp(type, "spell") == 0)
        out->type = TM_SPELL;
    else if (type && strcmp(type, "focus") == 0)
        out->type = TM_FOCUS;
    else if (type && strcmp(type, "timer") == 0)
        out->type = TM_TIMER;
    else
        return asobi_fail(err, ASOBI_E_BAD_OPTION, "card file: %s: \"type\" is spell, focus or timer", name);
    int level, cost, copies, slots;
    if (int_field(c, "level", -1, 0, TM_LEVELS, name, &level, err) ||
        int_field(c, "cost", 0, 0, 9, name, &cost, err) ||
        int_field(c, "copies", 1, 0, TM_MAX_LEVEL_CARDS, name, &copies, err) ||
        int_field(c, "slots", out->type == TM_TIMER ? 1 : 0, 0, TM_MAX_SLOTS, name, &slots, err))
        return err ? err->code : ASOBI_E_BAD_OPTION;
    if (level < 0)
        return asobi_fail(err, ASOBI_E_BAD_OPTION, "card file: %s needs a \"level\" 0 to 5", name);
    out->level = (uint8_t)level;
    out->cost = (uint8_t)cost;
    out->copies = (uint8_t)copies;
    out->slots = (uint8_t)slots;
    const char *trig = json_string_value(json_object_get(c, "trigger"));
    if (!trig || strcmp(trig, "none") == 0)
        out->trigger = TM_TRIG_NONE;
    else if (strcmp(trig, "set") == 0)
        out->trigger = TM_TRIG_SET;
    else if (strcmp(trig, "discard") == 0)
        out->trigger = TM_TRIG_DISCARD;
    else
        return asobi_fail(err, ASOBI_E_BAD_OPTION, "card file: %s: \"trigger\" is none, set or discard", name);
    json_t *fx = json_object_get(c, "effects");
    if (fx && !json_is_array(fx))
        return asobi_fail(err, ASOBI_E_BAD_OPTION, "card file: %s: \"effects\" is a list", name);
    size_t n = fx ? json_array_size(fx) : 0;
    if (n > TM_MAX_EFFECTS)
        return asobi_fail(err, ASOBI_E_BAD_OPTION, "card file: %s: at most %d effects", name, TM_MAX_EFFECTS);
    out->n_effects = (uint8_t)n;
    for (size_t e = 0; e < n; e++) {
        json_t *pair = json_array_get(fx, e);
        const char *op = json_string_value(json_array_get(pair, 0));
        json_t *amount = json_array_get(pair, 1);
        int code = op ? tm_fx_from_name(op) : -1;
        if (!json_is_array(pair) || json_array_size(pair) != 2 || code < 0 || !json_is_integer(amount) ||
            json_integer_value(amount) < 1 || json_integer_value(amount) > 9)
            return asobi_fail(err, ASOBI_E_BAD_OPTION,
                              "card file: %s: effect %zu must be [\"primitive\", 1..9] with a known "
                              "primitive (ephemeral, ready, new_ke, draw, remove, focus_back, "
                              "heavy, slow, light)", name, e + 1);
        out->fx[e][0] = (uint8_t)code;
        out->fx[e][1] = (uint8_t)json_integer_value(amount);
    }
    return ASOBI_OK;
}

int tm_table_load(const char *path, tm_table *out, asobi_error *err)
{
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    if (!root && jerr.line > 0)
        return asobi_fail(err, ASOBI_E_BAD_OPTION, "card file %.120s: %.100s (line %d)", path, jerr.text,
                          jerr.line);
    if (!root)
        return asobi_fail(err, ASOBI_E_BAD_OPTION, "card file %.120s: %.100s", path, jerr.text);
    int rc = ASOBI_OK;
    json_t *cards = json_object_get(root, "cards");
    memset(out, 0, sizeof *out);
    if (!json_is_object(root) || !json_is_array(cards) || json_array_size(cards) == 0 ||
        json_array_size(cards) > TM_MAX_KINDS) {
        rc = asobi_fail(err, ASOBI_E_BAD_OPTION,
                        "card file %.120s: an object with a \"cards\" list of 1 to %d cards", path,
                        TM_MAX_KINDS);
        goto done;
    }
    const char *title = json_string_value(json_object_get(root, "title"));
    snprintf(out->title, sizeof out->title, "%s", title ? title : path);
    int size;
    if ((rc = int_field(root, "sphere_size", 10, 1, TM_MAX_SPHERE, "the file", &size, err)) != ASOBI_OK)
        goto done;
    out->sphere_size = (uint8_t)size;
    out->kinds = (uint8_t)json_array_size(cards);
    for (size_t i = 0; i < json_array_size(cards); i++)
        if ((rc = parse_card(json_array_get(cards, i), (int)i, &out->card[i], err)) != ASOBI_OK)
            goto done;
    char msg[160];
    if (tm_table_check(out, msg, sizeof msg) != 0)
        rc = asobi_fail(err, ASOBI_E_BAD_OPTION, "card file %.80s: %s", path, msg);
done:
    json_decref(root);
    return rc;
}

/* data_sets.c — named contents for "data" options (Time Masters card sets), loaded from a folder by the person running a command. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "game_def.h"
#include "text.h"

/* Why a folder of sets
 * --------------------
 * A client of `asobi engine` or `asobi serve` never names a path (a path
 * names a file on someone else's machine). The person running the command
 * may: `--card-sets DIR` loads every DIR/ *.json at start, checks each
 * against the options it fits (the game's own normalize(): a set that no
 * game can play is refused there and then, naming the file and the
 * field), and lets options name a set by its name. The options then hold
 * the set's content, as if it had been given whole, so records stay
 * self-contained and replay on machines that never saw the folder. */

#define SETS_MAX 256

typedef struct data_set {
    const asobi_game_def *game;
    const char *option; /* the option's name (static, the game's table) */
    char *name;
    json_t *content;    /* as the option keeps it: canonical, with its hash */
} data_set;

struct asobi_data_sets {
    data_set set[SETS_MAX];
    int count;
};

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every option of every game that content fits: added to sets. 0 if none
 * (why holds the first refusal). */
static int add_fits(asobi_data_sets *sets, const json_t *content, asobi_error *why)
{
    int fits = 0;
    bool first = true;
    for (int g = 0; g < asobi_game_count(); g++) {
        const asobi_game_def *game = asobi_game_at(g);
        for (int i = 0; i < game->option_count; i++) {
            const asobi_option_def *o = &game->options[i];
            if (o->type != ASOBI_OPT_DATA || !o->normalize)
                continue;
            asobi_error local;
            json_t *normal = o->normalize(content, &local);
            if (!normal) {
                if (first && why)
                    *why = local;
                first = false;
                continue;
            }
            if (sets->count == SETS_MAX) {
                json_decref(normal);
                asobi_fail(why, ASOBI_E_BAD_OPTION, "more than %d sets", SETS_MAX);
                return 0;
            }
            data_set *d = &sets->set[sets->count++];
            d->game = game;
            d->option = o->name;
            d->name = strdup(json_string_value(json_object_get(normal, "name")) ?
                                 json_string_value(json_object_get(normal, "name")) : "");
            d->content = normal;
            fits++;
        }
    }
    return fits;
}

asobi_data_sets *asobi_data_sets_load(const char *dir, asobi_error *err)
{
    DIR *d = opendir(dir);
    if (!d) {
        asobi_fail(err, ASOBI_E_IO, "cannot open the folder %.120s", dir);
        return NULL;
    }
    /* the files in name order, so that which set wins a clash of names
     * never depends on the file system */
    char *names[SETS_MAX + 1];
    int n = 0;
    bool too_many = false;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        if (n == SETS_MAX) {
            too_many = true;
            break;
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    asobi_data_sets *sets = calloc(1, sizeof *sets);
    int rc = !sets ? asobi_fail(err, ASOBI_E_NOMEM, "out of memory")
             : too_many ? asobi_fail(err, ASOBI_E_BAD_OPTION, "%.120s holds more than %d .json files", dir, SETS_MAX)
                        : ASOBI_OK;
    qsort(names, (size_t)n, sizeof names[0], by_name);
    for (int i = 0; i < n && rc == ASOBI_OK; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        json_t *content;
        asobi_error why;
        if (!names[i]) {
            rc = asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
        } else if (asobi_read_data_file(path, &content, &why) != ASOBI_OK) {
            rc = asobi_fail(err, ASOBI_E_BAD_OPTION, "%s", why.message);
        } else {
            int before = sets->count;
            if (add_fits(sets, content, &why) == 0)
                rc = asobi_fail(err, ASOBI_E_BAD_OPTION, "%.200s: %s", path, why.message);
            for (int k = before; k < sets->count && rc == ASOBI_OK; k++)
                for (int j = 0; j < before; j++)
                    if (sets->set[j].game == sets->set[k].game && strcmp(sets->set[j].option, sets->set[k].option) == 0 &&
                        strcmp(sets->set[j].name, sets->set[k].name) == 0)
                        rc = asobi_fail(err, ASOBI_E_BAD_OPTION, "%.200s: a second set named \"%.40s\" in %.120s", path,
                                        sets->set[k].name, dir);
            json_decref(content);
        }
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    if (rc != ASOBI_OK) {
        asobi_data_sets_free(sets);
        return NULL;
    }
    asobi_error_clear(err);
    return sets;
}

void asobi_data_sets_free(asobi_data_sets *sets)
{
    if (!sets)
        return;
    for (int i = 0; i < sets->count; i++) {
        free(sets->set[i].name);
        json_decref(sets->set[i].content);
    }
    free(sets);
}

json_t *asobi_data_sets_list(const asobi_data_sets *sets)
{
    json_t *list = json_array();
    for (int i = 0; sets && i < sets->count; i++) {
        const data_set *d = &sets->set[i];
        json_t *entry = json_pack("{s:s, s:s, s:s, s:O}", "game", d->game->name, "option", d->option, "name", d->name,
                                  "hash", json_object_get(d->content, "hash") ? json_object_get(d->content, "hash")
                                                                              : json_null());
        const json_t *title = json_object_get(d->content, "title");
        if (json_is_string(title))
            json_object_set(entry, "title", (json_t *)title);
        json_array_append_new(list, entry);
    }
    return list;
}

/* The set of game's option named name, or NULL. */
static const json_t *find_set(const asobi_data_sets *sets, const asobi_game_def *game, const char *option,
                              const char *name)
{
    for (int i = 0; sets && i < sets->count; i++)
        if (sets->set[i].game == game && strcmp(sets->set[i].option, option) == 0 &&
            strcmp(sets->set[i].name, name) == 0)
            return sets->set[i].content;
    return NULL;
}

/* The names of the sets for game's option, quoted, comma-separated. */
static void set_names(const asobi_data_sets *sets, const asobi_game_def *game, const char *option, char *out,
                      size_t cap)
{
    out[0] = '\0';
    for (int k = 0; sets && k < sets->count; k++) {
        if (sets->set[k].game != game || strcmp(sets->set[k].option, option) != 0)
            continue;
        size_t at = strlen(out);
        snprintf(out + at, cap - at, "%s\"%s\"", at ? ", " : "", sets->set[k].name);
    }
    asobi_utf8_repair(out);
}

int asobi_game_options_resolve(const asobi_game_def *game, json_t *options, const asobi_data_sets *sets,
                               bool paths, asobi_error *err)
{
    if (!json_is_object(options))
        return ASOBI_OK;
    for (int i = 0; i < game->option_count; i++) {
        const asobi_option_def *o = &game->options[i];
        const json_t *v = json_object_get(options, o->name);
        if (o->type != ASOBI_OPT_DATA || !json_is_string(v) || json_string_length(v) == 0)
            continue;
        const char *given = json_string_value(v);
        const json_t *set = find_set(sets, game, o->name, given);
        json_t *content = NULL;
        asobi_error why;
        if (set) {
            content = json_deep_copy(set);
        } else if (paths && asobi_read_data_file(given, &content, &why) != ASOBI_OK) {
            char known[256];
            set_names(sets, game, o->name, known, sizeof known);
            if (!known[0])
                return asobi_fail(err, ASOBI_E_BAD_OPTION, "option %s: %s", o->name, why.message);
            return asobi_fail(err, ASOBI_E_BAD_OPTION, "option %s: no set named \"%.40s\" (the sets loaded: %s), nor a file: %s",
                              o->name, given, known, why.message);
        } else if (!paths) {
            char known[256];
            set_names(sets, game, o->name, known, sizeof known);
            return asobi_fail(err, ASOBI_E_BAD_OPTION,
                              "option %s: no set named \"%.40s\" (%s%s); a set is given as its JSON content or by "
                              "the name of one loaded with --card-sets, never as a path",
                              o->name, given, known[0] ? "the sets loaded: " : "no sets were loaded", known);
        }
        if (!content)
            return asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
        json_object_set_new(options, o->name, content);
    }
    return ASOBI_OK;
}

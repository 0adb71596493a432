/* options.c — checking a game's options object against the options it declares, and reading them. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game_def.h"
#include "text.h"

static const char *type_name(asobi_option_type t)
{
    switch (t) {
    case ASOBI_OPT_INT: return "int";
    case ASOBI_OPT_BOOL: return "bool";
    case ASOBI_OPT_ENUM: return "enum";
    case ASOBI_OPT_STRING: return "string";
    case ASOBI_OPT_DATA: return "data";
    }
    return "?";
}

static json_t *option_default(const asobi_option_def *o)
{
    return json_loads(o->default_json, JSON_DECODE_ANY, NULL);
}

json_t *asobi_game_describe(const asobi_game_def *game)
{
    json_t *opts = json_array();
    for (int i = 0; i < game->option_count; i++) {
        const asobi_option_def *o = &game->options[i];
        json_t *d = json_pack("{s:s, s:s, s:o, s:s}", "name", o->name, "type", type_name(o->type),
                              "default", option_default(o), "help", o->help ? o->help : "");
        if (o->type == ASOBI_OPT_INT) {
            json_object_set_new(d, "min", json_integer(o->min));
            json_object_set_new(d, "max", json_integer(o->max));
        }
        if (o->type == ASOBI_OPT_ENUM) {
            json_t *c = json_array();
            for (const char *const *p = o->choices; *p; p++)
                json_array_append_new(c, json_string(*p));
            json_object_set_new(d, "choices", c);
        }
        json_array_append_new(opts, d);
    }
    return json_pack("{s:s, s:s, s:i, s:i, s:i, s:o}", "name", game->name, "title", game->title,
                     "min_players", game->min_players, "max_players", game->max_players,
                     "max_actions", game->max_actions, "options", opts);
}

static const asobi_option_def *find_option(const asobi_game_def *game, const char *name)
{
    for (int i = 0; i < game->option_count; i++)
        if (strcmp(game->options[i].name, name) == 0)
            return &game->options[i];
    return NULL;
}

static int check_value(const asobi_option_def *o, const json_t *v, asobi_error *err)
{
    switch (o->type) {
    case ASOBI_OPT_INT:
        if (!json_is_integer(v))
            return asobi_fail(err, ASOBI_E_BAD_OPTION, "option %s takes an integer", o->name);
        if (json_integer_value(v) < o->min || json_integer_value(v) > o->max)
            return asobi_fail(err, ASOBI_E_BAD_OPTION, "option %s must be between %d and %d", o->name,
                              o->min, o->max);
        return ASOBI_OK;
    case ASOBI_OPT_BOOL:
        if (!json_is_boolean(v))
            return asobi_fail(err, ASOBI_E_BAD_OPTION, "option %s takes true or false", o->name);
        return ASOBI_OK;
    case ASOBI_OPT_ENUM:
        if (json_is_string(v))
            for (const char *const *p = o->choices; *p; p++)
                if (strcmp(*p, json_string_value(v)) == 0)
                    return ASOBI_OK;
        {
            char list[160] = "";
            for (const char *const *p = o->choices; *p; p++) {
                if (list[0])
                    strncat(list, ", ", sizeof list - strlen(list) - 1);
                strncat(list, *p, sizeof list - strlen(list) - 1);
            }
            return asobi_fail(err, ASOBI_E_BAD_OPTION, "option %s must be one of: %s", o->name, list);
        }
    case ASOBI_OPT_STRING:
        if (!json_is_string(v))
            return asobi_fail(err, ASOBI_E_BAD_OPTION, "option %s takes a string", o->name);
        return ASOBI_OK;
    case ASOBI_OPT_DATA:
        return ASOBI_OK; /* normalize() judges it */
    }
    return asobi_fail(err, ASOBI_E_BAD_OPTION, "option %s has an unknown type", o->name);
}

json_t *asobi_game_options(const asobi_game_def *game, const json_t *options, asobi_error *err)
{
    if (options && !json_is_object(options)) {
        asobi_fail(err, ASOBI_E_BAD_OPTION, "options must be a JSON object");
        return NULL;
    }
    const char *key;
    json_t *value;
    if (options) {
        json_object_foreach((json_t *)options, key, value) {
            const asobi_option_def *o = find_option(game, key);
            if (!o) {
                asobi_fail(err, ASOBI_E_BAD_OPTION, "%s has no option named \"%.40s\"", game->name, key);
                return NULL;
            }
            if (check_value(o, value, err) != ASOBI_OK)
                return NULL;
        }
    }
    json_t *full = json_object();
    for (int i = 0; i < game->option_count; i++) {
        const asobi_option_def *o = &game->options[i];
        json_t *given = options ? json_object_get(options, o->name) : NULL;
        json_t *v = given ? json_deep_copy(given) : option_default(o);
        if (o->type == ASOBI_OPT_DATA && o->normalize) {
            json_t *normal = o->normalize(v, err);
            json_decref(v);
            if (!normal) {
                json_decref(full);
                return NULL;
            }
            v = normal;
        }
        json_object_set_new(full, o->name, v);
    }
    return full;
}

int asobi_option_int(const json_t *options, const char *name)
{
    return (int)json_integer_value(json_object_get(options, name));
}

bool asobi_option_bool(const json_t *options, const char *name)
{
    return json_is_true(json_object_get(options, name));
}

const char *asobi_option_string(const json_t *options, const char *name)
{
    const char *s = json_string_value(json_object_get(options, name));
    return s ? s : "";
}

int asobi_read_regular_file(const char *path, size_t max, char **text, size_t *len, asobi_error *err)
{
    *text = NULL;
    *len = 0;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; the fstat below
     * then refuses it, like a device (/dev/stdin, /dev/zero) or a folder. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return asobi_fail(err, ASOBI_E_IO, "cannot open %.120s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return asobi_fail(err, ASOBI_E_IO, "%.120s is not a regular file", path);
    }
    if ((unsigned long long)st.st_size > max) {
        close(fd);
        return asobi_fail(err, ASOBI_E_IO, "%.120s is larger than %zu bytes", path, max);
    }
    /* read at most max+1 bytes whatever the size said (the file may grow),
     * into a buffer of the size it said, grown only if it did */
    size_t cap = (size_t)st.st_size + 1 < max + 1 ? (size_t)st.st_size + 1 : max + 1;
    char *buf = malloc(cap + 1);
    size_t n = 0;
    ssize_t got = 0;
    while (buf && n <= max && (got = read(fd, buf + n, cap - n)) > 0) {
        n += (size_t)got;
        if (n == cap && cap < max + 1) {
            size_t more = cap * 2 < max + 1 ? cap * 2 : max + 1;
            char *b = realloc(buf, more + 1);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
            cap = more;
        }
    }
    close(fd);
    if (!buf || got < 0 || n > max) {
        free(buf);
        return asobi_fail(err, ASOBI_E_IO, "cannot read %.120s%s", path, n > max ? ": too large" : "");
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return ASOBI_OK;
}

int asobi_read_data_file(const char *path, json_t **content, asobi_error *err)
{
    char *text;
    size_t len;
    *content = NULL;
    if (asobi_read_regular_file(path, ASOBI_DATA_FILE_MAX, &text, &len, err) != ASOBI_OK)
        return err ? err->code : ASOBI_E_IO;
    json_error_t jerr;
    json_t *c = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    free(text);
    if (!json_is_object(c)) {
        json_decref(c);
        return asobi_fail(err, ASOBI_E_BAD_OPTION, "%.120s: %s (line %d)", path, c ? "not a JSON object" : jerr.text,
                          jerr.line);
    }
    /* the set is named after its file unless it names itself */
    if (!json_object_get(c, "name")) {
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        char name[65];
        asobi_utf8_copy(name, sizeof name, base);
        size_t n = strlen(name);
        if (n > 5 && strcmp(name + n - 5, ".json") == 0)
            name[n - 5] = '\0';
        json_object_set_new(c, "name", json_string(name[0] ? name : "custom"));
    }
    *content = c;
    return ASOBI_OK;
}

int asobi_game_options_read_files(const asobi_game_def *game, json_t *options, asobi_error *err)
{
    return asobi_game_options_resolve(game, options, NULL, true, err);
}

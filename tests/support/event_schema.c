/* event_schema.c — reads the event list of docs/protocol.md and checks events against it (see event_schema.h). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_schema.h"

/* The `names` in a table cell that are field names (lower case and
 * underscores: `"ephemeral"`, a value, has quotes and is not one). */
static json_t *backticked_names(const char *cell, size_t len)
{
    json_t *names = json_array();
    const char *end = cell + len;
    for (const char *p = cell; p < end; p++) {
        if (*p != '`')
            continue;
        const char *q = memchr(p + 1, '`', (size_t)(end - p - 1));
        if (!q)
            break;
        bool word = q > p + 1;
        for (const char *c = p + 1; c < q; c++)
            word = word && (islower((unsigned char)*c) || *c == '_' || isdigit((unsigned char)*c));
        if (word)
            json_array_append_new(names, json_stringn(p + 1, (size_t)(q - p - 1)));
        p = q;
    }
    return names;
}

/* "### PSYCLE (`psycle`)" -> "psycle"; "### Every game" -> "*". */
static void section_game(const char *line, char *game, size_t cap)
{
    const char *open = strchr(line, '`'), *close = open ? strchr(open + 1, '`') : NULL;
    if (open && close && (size_t)(close - open) <= cap)
        snprintf(game, cap, "%.*s", (int)(close - open - 1), open + 1);
    else
        snprintf(game, cap, "*");
}

/* A table row "| `type` | fields | example |" of the current section. */
static void add_row(json_t *schema, const char *game, const char *line)
{
    const char *c1 = strchr(line + 1, '|');
    const char *c2 = c1 ? strchr(c1 + 1, '|') : NULL;
    if (!c1 || !c2)
        return;
    json_t *type = backticked_names(line + 1, (size_t)(c1 - line - 1));
    if (json_array_size(type) == 1) {
        json_t *types = json_object_get(schema, game);
        if (!types) {
            types = json_object();
            json_object_set_new(schema, game, types);
        }
        json_object_set_new(types, json_string_value(json_array_get(type, 0)),
                            backticked_names(c1 + 1, (size_t)(c2 - c1 - 1)));
    }
    json_decref(type);
}

static json_t *read_schema(void)
{
    const char *dir = getenv("ASOBI_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/protocol.md", dir ? dir : ".");
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    json_t *schema = json_object();
    char line[4096], game[64] = "*";
    bool in_events = false;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "## ", 3) == 0)
            in_events = strncmp(line, "## Events", 9) == 0;
        else if (in_events && strncmp(line, "### ", 4) == 0)
            section_game(line, game, sizeof game);
        else if (in_events && strncmp(line, "| `", 3) == 0)
            add_row(schema, game, line);
    }
    fclose(f);
    return schema;
}

const json_t *event_schema(void)
{
    static json_t *schema;
    if (!schema)
        schema = read_schema();
    return schema;
}

static const json_t *fields_of(const char *game, const char *type)
{
    const json_t *schema = event_schema();
    const json_t *fields = json_object_get(json_object_get(schema, game), type);
    return fields ? fields : json_object_get(json_object_get(schema, "*"), type);
}

static bool listed(const json_t *fields, const char *key)
{
    size_t i;
    const json_t *f;
    json_array_foreach(fields, i, f) if (strcmp(json_string_value(f), key) == 0) return true;
    return false;
}

bool event_schema_check(const char *game, const json_t *events, char *why, size_t cap)
{
    if (!event_schema()) {
        snprintf(why, cap, "docs/protocol.md cannot be read (is ASOBI_SOURCE_DIR set?)");
        return false;
    }
    if (!json_is_array(events)) {
        snprintf(why, cap, "the events are not an array");
        return false;
    }
    size_t i;
    const json_t *e;
    json_array_foreach(events, i, e)
    {
        const char *type = json_string_value(json_object_get(e, "type"));
        const char *text = json_string_value(json_object_get(e, "text"));
        const json_t *fields = type ? fields_of(game, type) : NULL;
        if (!fields) {
            snprintf(why, cap, "event %zu has type %s%s%s, which docs/protocol.md does not list for %s", i,
                     type ? "\"" : "", type ? type : "(none)", type ? "\"" : "", game);
            return false;
        }
        if (!text || !text[0]) {
            snprintf(why, cap, "event %zu (%s) has no text", i, type);
            return false;
        }
        const char *key;
        const json_t *value;
        json_object_foreach((json_t *)e, key, value)
        {
            if (strcmp(key, "type") != 0 && strcmp(key, "text") != 0 && !listed(fields, key)) {
                snprintf(why, cap, "event %zu (%s) has the field \"%s\", which docs/protocol.md does not list", i, type,
                         key);
                return false;
            }
        }
    }
    return true;
}

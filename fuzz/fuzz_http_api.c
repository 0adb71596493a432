/* fuzz_http_api.c — fuzz target: sequences of HTTP API requests through hall_http, as `asobi serve` answers them. */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_server.h"

/* The input is one request a line: its first byte is the method ('P' for
 * POST, anything else GET), then the path up to the first space, then the
 * body (the rest of the line; a body holds no newline, JSON does not need
 * one). Two lines are not requests: one starting with '!' starts the
 * server's --allow-chosen-seeds for the rest of the input, and in a body
 * "@I" and a digit K stand for the invite code of seat K of the last
 * private table made (empty when there is none), and "@W" for its watch
 * code, in a body or a path (?code=@W), so that inputs reach a private
 * table's seats and reads (its codes are random). The properties, after
 * every request (docs/server.md):
 *  - the reply is one JSON object; a 2xx reply has its documented shape,
 *    a refusal is {"error":{"code","message"}} with the code the hall gave;
 *  - a refusal changed nothing: every table's summary and state are
 *    byte-identical before and after;
 *  - a seed is taken only with --allow-chosen-seeds (seed_not_allowed
 *    otherwise), and a table made with one says so (seed_chosen);
 *  - a private table's reply holds an invite code per person's seat and a
 *    watch code, and the table is in no list;
 *  - a GET about a private table without ?code= or ?token= is answered
 *    as the same path about a missing id (the 404 not_found of
 *    GET /api/tables/ID); with its watch code its summary is read
 *    (issue 39);
 *  - at the end, every table's updates for each seat and a spectator can
 *    be built. */

#define REQUESTS_MAX 48

/* The invite codes of the last private table made ("" where none). */
static char invites[ASOBI_MAX_SEATS][TOKEN_CHARS + 1];
static char watch[TOKEN_CHARS + 1]; /* ... and its watch code */

/* Is table id in GET /api/tables's list? */
static bool listed(const hall *h, int64_t id)
{
    json_t *list = hall_tables_json(h, id + 1), *entry; /* the page that starts at id */
    size_t i;
    bool found = false;
    json_array_foreach(json_object_get(list, "tables"), i, entry)
        found |= json_integer_value(json_object_get(entry, "table")) == id;
    json_decref(list);
    return found;
}

/* A new table's reply and what it made. */
static void check_created(hall *h, const json_t *request, const json_t *reply)
{
    int64_t id = json_integer_value(json_object_get(reply, "table"));
    FUZZ_CHECK(id > 0);
    const table *t = hall_slot_of(h, id)->t;
    const json_t *seed = json_object_get(request, "seed"), *codes = json_object_get(reply, "invites");
    FUZZ_CHECK(t->seed_chosen == (seed && !json_is_null(seed)));
    FUZZ_CHECK(!t->seed_chosen || h->allow_chosen_seeds);
    FUZZ_CHECK(t->private_table == (codes != NULL));
    if (!codes)
        return;
    FUZZ_CHECK(json_array_size(codes) == (size_t)t->players && !listed(h, id));
    const char *w = json_string_value(json_object_get(reply, "watch"));
    FUZZ_CHECK(w && strlen(w) == TOKEN_CHARS);
    snprintf(watch, sizeof watch, "%s", w);
    for (int s = 0; s < t->players; s++) {
        const char *code = json_string_value(json_array_get(codes, (size_t)s));
        FUZZ_CHECK(t->seat[s].bot ? code == NULL : code && strlen(code) == TOKEN_CHARS);
        snprintf(invites[s], sizeof invites[s], "%s", code ? code : "");
    }
}

/* The value of the query's argument before= (arguments split at '&', as the
 * hall reads them: "?bef?before=1" has none), INT64_MAX when absent. */
static json_int_t query_before(const char *path)
{
    const char *q = strchr(path, '?');
    for (const char *p = q ? q + 1 : NULL; p && *p; p = strchr(p, '&') ? strchr(p, '&') + 1 : NULL)
        if (strncmp(p, "before=", 7) == 0)
            return strtoll(p + 7, NULL, 10);
    return INT64_MAX;
}

static void check_success(hall *h, const char *path, bool post, int status, const json_t *request,
                          const json_t *reply)
{
    FUZZ_CHECK(status == 200 || status == 201);
    if (post && strcmp(path, "/api/tables") == 0) {
        FUZZ_CHECK(status == 201);
        check_created(h, request, reply);
    } else if (post) { /* a join */
        FUZZ_CHECK(json_is_integer(json_object_get(reply, "seat")));
        FUZZ_CHECK(strlen(json_string_value(json_object_get(reply, "token"))) == TOKEN_CHARS);
    } else if (strncmp(path, "/api/tables?", 12) == 0 || strcmp(path, "/api/tables") == 0) {
        /* a page of the list: at most HALL_PAGE_TABLES, newest first, below before= and above next */
        const json_t *list = json_object_get(reply, "tables"), *next = json_object_get(reply, "next");
        json_int_t below = query_before(path);
        FUZZ_CHECK(json_array_size(list) <= HALL_PAGE_TABLES);
        for (size_t i = 0; i < json_array_size(list); i++) {
            json_int_t id = json_integer_value(json_object_get(json_array_get(list, i), "table"));
            FUZZ_CHECK(id < below && (!next || id >= json_integer_value(next)));
            below = id;
        }
    }
}

/* A GET about a private table without its code answers exactly as the same
 * path about a table that does not exist (issue 39): the 404 not_found of
 * GET /api/tables/ID, and for a path no GET serves (.../join) the same 405
 * a missing id gets, so that no answer tells that the table is there. */
static void check_as_missing(hall *h, const char *rest, int status, const srv_error *e)
{
    char missing[300];
    snprintf(missing, sizeof missing, "/api/tables/%lld%s", (long long)h->n_slots + 1000, rest);
    json_t *reply = NULL;
    srv_error me;
    int missing_status = hall_http(h, false, missing, "", 0, false, 0, &reply, &me);
    json_decref(reply);
    FUZZ_CHECK(missing_status >= 400 && status == missing_status && strcmp(e->code, me.code) == 0);
}

/* The body with every "@I" K replaced by seat K's invite code and "@W" by
 * the watch code: malloc'd, its length in *out_len. */
static char *with_invites(const char *body, size_t len, size_t *out_len)
{
    char *out = malloc(len / 3 * TOKEN_CHARS + len + 1), *o = out;
    FUZZ_CHECK(out);
    for (size_t i = 0; i < len; i++) {
        if (i + 2 < len && body[i] == '@' && body[i + 1] == 'I' && body[i + 2] >= '0' && body[i + 2] <= '9') {
            const char *code = invites[(body[i + 2] - '0') % ASOBI_MAX_SEATS];
            memcpy(o, code, strlen(code));
            o += strlen(code);
            i += 2;
        } else if (i + 1 < len && body[i] == '@' && body[i + 1] == 'W') {
            memcpy(o, watch, strlen(watch));
            o += strlen(watch);
            i += 1;
        } else {
            *o++ = body[i];
        }
    }
    *o = '\0';
    *out_len = (size_t)(o - out);
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_server fs;
    fuzz_server_open(&fs);
    memset(invites, 0, sizeof invites);
    memset(watch, 0, sizeof watch);
    const char *p = (const char *)data, *end = p + size;
    for (int n = 0; p < end && n < REQUESTS_MAX; n++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (len > 0 && p[0] == '!') {
            fs.hall.allow_chosen_seeds = true;
            p += len + (nl != NULL);
            continue;
        }
        bool post = len > 0 && p[0] == 'P';
        const char *path_start = len > 0 ? p + 1 : p;
        const char *sp = memchr(path_start, ' ', (size_t)(p + len - path_start));
        const char *path_end = sp ? sp : p + len;
        char path[256]; /* as the socket side keeps it (server.c: http_req.path), cut to fit */
        size_t plen;
        char *subst = with_invites(path_start, (size_t)(path_end - path_start), &plen);
        if (plen >= sizeof path)
            plen = sizeof path - 1;
        memcpy(path, subst, plen);
        path[plen] = '\0';
        free(subst);
        size_t blen;
        char *body = with_invites(sp ? sp + 1 : p + len, (size_t)(p + len - (sp ? sp + 1 : p + len)), &blen);
        json_t *request = json_loadb(body, blen, JSON_REJECT_DUPLICATES, NULL); /* as the hall reads it */

        fuzz_snapshot before;
        fuzz_snapshot_take(&fs.hall, &before);
        json_t *reply = NULL;
        srv_error e;
        int status = hall_http(&fs.hall, post, path, body, blen, false, 0, &reply, &e);
        FUZZ_CHECK(json_is_object(reply));
        char *text = json_dumps(reply, JSON_COMPACT);
        FUZZ_CHECK(text);
        free(text);
        FUZZ_CHECK(store_flush(fs.hall.store, NULL) == ASOBI_OK);
        const json_t *seed = json_object_get(request, "seed");
        if (post && strcmp(path, "/api/tables") == 0 && json_is_object(request) && seed && !json_is_null(seed) &&
            !fs.hall.allow_chosen_seeds)
            FUZZ_CHECK(status == 400 && strcmp(e.code, "seed_not_allowed") == 0);
        const char *rest;
        int64_t about = hall_path_id(path, "/api/tables/", &rest);
        const hall_slot *sl = about > 0 ? hall_slot_of(&fs.hall, about) : NULL;
        if (!post && sl && sl->t->private_table && !strstr(path, "code=") && !strstr(path, "token="))
            check_as_missing(&fs.hall, rest, status, &e);
        if (!post && sl && sl->t->private_table && *watch && !*rest && strstr(path, "code=") &&
            !strcmp(strstr(path, "code=") + 5, watch) && sl->t->watch_hash[0] && token_matches(watch, sl->t->watch_hash))
            FUZZ_CHECK(status == 200);
        if (status >= 400) {
            fuzz_check_refusal(reply, &e);
            fuzz_snapshot_check_same(&fs.hall, &before);
        } else {
            check_success(&fs.hall, path, post, status, request, reply);
        }
        fuzz_snapshot_free(&before);
        json_decref(reply);
        json_decref(request);
        free(body);
        p += len + (nl != NULL);
    }
    for (int64_t i = 0; i < fs.hall.n_slots; i++)
        if (fs.hall.slots[i].t)
            fuzz_check_updates(fs.hall.slots[i].t);
    fuzz_server_close(&fs);
    return 0;
}

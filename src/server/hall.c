/* hall.c — the tables of `asobi serve` in memory and every request on them (HTTP API, a connection's messages), without sockets. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.h"
#include "server/hall.h"
#include "server/ratings.h"

/* The index of the first slot whose id is not below id (n_slots: none). */
static int64_t slot_index(const hall *h, int64_t id)
{
    int64_t lo = 0, hi = h->n_slots;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (h->slots[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

hall_slot *hall_slot_of(hall *h, int64_t id)
{
    int64_t i = slot_index(h, id);
    if (i == h->n_slots || h->slots[i].id != id || !h->slots[i].t)
        return NULL;
    return &h->slots[i];
}

bool hall_reloading(const hall *h, int64_t id)
{
    for (int i = 0; i < h->n_reloading; i++)
        if (h->reloading[i] == id)
            return true;
    return false;
}

int hall_reload_begin(hall *h, int64_t id, hall_reload *r)
{
    memset(r, 0, sizeof *r);
    r->id = id;
    if (id <= 0 || !h->store || hall_slot_of(h, id) || hall_reloading(h, id))
        return HALL_RELOAD_NONE;
    if (h->n_reloading == HALL_RELOADS_MAX)
        return HALL_RELOAD_BUSY;
    h->reloading[h->n_reloading++] = id;
    return HALL_RELOAD_STARTED;
}

int hall_reload_rows(hall *h, hall_reload *r)
{
    if (!r->spec || !r->summary) {
        /* Only a finished table can be missing here: the unfinished ones are
         * in memory (or another node's; one that failed to restore stays away). */
        hall_reload_release(h, r);
        return HALL_RELOAD_NONE;
    }
    return HALL_RELOAD_STARTED;
}

int hall_reload_read(hall *h, int64_t id, hall_reload *r)
{
    int rc = hall_reload_begin(h, id, r);
    if (rc != HALL_RELOAD_STARTED)
        return rc;
    asobi_error err;
    if (store_load_table(h->store, id, &r->spec, &r->seats, &r->actions, &r->summary, &err) != ASOBI_OK) {
        hall_reload_release(h, r); /* no such table, or unreadable */
        return HALL_RELOAD_NONE;
    }
    return hall_reload_rows(h, r);
}

void hall_reload_replay(hall_reload *r, store *st, int64_t now_ms)
{
    r->t = table_restore(st, r->id, r->spec, r->seats, r->actions, r->summary, now_ms, &r->err);
}

hall_slot *hall_reload_take(hall *h, hall_reload *r)
{
    hall_slot *sl = hall_slot_of(h, r->id); /* two reloads of one table: the first one's */
    if (!sl && r->t && (sl = hall_add(h, r->t)) != NULL) {
        r->t = NULL;
        srv_log("table %lld is back in memory from the store", (long long)r->id);
    } else if (!sl) {
        srv_log("table %lld cannot be brought back: %s", (long long)r->id, r->t ? "out of memory" : r->err.message);
    }
    hall_reload_release(h, r);
    return sl;
}

void hall_reload_release(hall *h, hall_reload *r)
{
    for (int i = 0; i < h->n_reloading; i++) {
        if (h->reloading[i] == r->id) {
            h->reloading[i] = h->reloading[--h->n_reloading];
            break;
        }
    }
    json_decref(r->spec);
    json_decref(r->seats);
    json_decref(r->actions);
    json_decref(r->summary);
    table_free(r->t);
    r->spec = r->seats = r->actions = r->summary = NULL;
    r->t = NULL;
}

hall_slot *hall_slot_or_stored(hall *h, int64_t id, int64_t now_ms)
{
    hall_slot *sl = hall_slot_of(h, id);
    hall_reload r;
    if (sl || hall_reload_read(h, id, &r) != HALL_RELOAD_STARTED)
        return sl;
    hall_reload_replay(&r, h->store, now_ms);
    return hall_reload_take(h, &r);
}

/* Squeeze out the evicted slots, keeping the order. */
static void compact(hall *h)
{
    int64_t kept = 0;
    for (int64_t i = 0; i < h->n_slots; i++)
        if (h->slots[i].t)
            h->slots[kept++] = h->slots[i];
    h->n_slots = kept;
}

hall_slot *hall_add(hall *h, table *t)
{
    t->grace_ms = h->grace_ms;
    /* Compacting when half the slots are holes keeps the array within twice
     * the tables in memory, at a cost shared by the evictions that made them. */
    if (h->n_slots - h->tables_in_memory >= h->n_slots / 2)
        compact(h);
    if (h->n_slots == h->cap_slots) {
        int64_t cap = h->cap_slots ? 2 * h->cap_slots : 64;
        hall_slot *slots = realloc(h->slots, (size_t)cap * sizeof *slots);
        if (!slots)
            return NULL;
        h->slots = slots;
        h->cap_slots = cap;
    }
    /* New tables have the highest id yet: the usual insert is at the end. */
    int64_t i = slot_index(h, t->id);
    if (i < h->n_slots && h->slots[i].id == t->id) {
        if (h->slots[i].t)
            return NULL; /* already here: the caller keeps its table */
    } else {
        memmove(h->slots + i + 1, h->slots + i, (size_t)(h->n_slots - i) * sizeof *h->slots);
        h->n_slots++;
    }
    h->slots[i] = (hall_slot){.id = t->id, .t = t};
    h->tables_in_memory++;
    return &h->slots[i];
}

void hall_evict(hall *h, int64_t id)
{
    hall_slot *sl = hall_slot_of(h, id);
    if (!sl)
        return;
    table_free(sl->t);
    sl->t = NULL;
    h->tables_in_memory--;
}

void hall_close(hall *h)
{
    for (int64_t i = 0; i < h->n_slots; i++)
        table_free(h->slots[i].t);
    free(h->slots);
    h->slots = NULL;
    h->n_slots = h->cap_slots = h->tables_in_memory = 0;
}

static void changed(hall *h, hall_slot *sl)
{
    if (h->changed)
        h->changed(h->ctx, sl);
}

void hall_add_ws(const hall *h, json_t *reply, int64_t id)
{
    if (!h->public_url || !*h->public_url || !json_is_object(reply))
        return;
    /* http://... becomes ws://..., https://... wss://... */
    const char *base = h->public_url, *scheme = "";
    if (strncmp(base, "https://", 8) == 0)
        base += 8, scheme = "wss://";
    else if (strncmp(base, "http://", 7) == 0)
        base += 7, scheme = "ws://";
    size_t n = strlen(base);
    while (n > 0 && base[n - 1] == '/')
        n--;
    char url[512];
    snprintf(url, sizeof url, "%s%.*s/ws/tables/%lld", scheme, (int)n, base, (long long)id);
    json_object_set_new(reply, "ws", json_string(url));
}

/* This node's listed tables below before (0: all), newest first, at most max (0: no bound). */
static json_t *own_listed(const hall *h, int64_t before, size_t max)
{
    json_t *list = json_array();
    for (int64_t i = before > 0 ? slot_index(h, before) - 1 : h->n_slots - 1; i >= 0; i--) {
        const table *t = h->slots[i].t;
        if (!t || t->status == TABLE_OVER || t->private_table || t->abandoned)
            continue;
        if (max && json_array_size(list) == max)
            break;
        json_t *summary = table_summary(t);
        hall_add_ws(h, summary, t->id);
        json_array_append_new(list, summary);
    }
    return list;
}

json_t *hall_own_tables_json(const hall *h) { return json_pack("{s:o}", "tables", own_listed(h, 0, 0)); }

static json_int_t entry_id(const json_t *entry) { return json_integer_value(json_object_get(entry, "table")); }

static int by_id_descending(const void *a, const void *b)
{
    json_int_t x = entry_id(*(json_t *const *)a), y = entry_id(*(json_t *const *)b);
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Is table id in this node's memory? */
static bool held_here(const hall *h, int64_t id)
{
    int64_t i = slot_index(h, id);
    return i < h->n_slots && h->slots[i].id == id && h->slots[i].t;
}

json_t *hall_tables_json(const hall *h, int64_t before)
{
    /* one more than a page of this node's: if it is left out, a next page follows */
    json_t *list = own_listed(h, before, HALL_PAGE_TABLES + 1), *entry;
    json_t *others = h->store ? store_other_tables(h->store) : NULL;
    size_t i;
    json_array_foreach(others, i, entry)
    {
        json_int_t id = entry_id(entry);
        if ((before <= 0 || id < before) && !held_here(h, id)) /* not (now) this node's */
            json_array_append(list, entry);
    }
    json_decref(others);
    size_t n = json_array_size(list);
    json_t **items = n ? malloc(n * sizeof *items) : NULL;
    for (i = 0; items && i < n; i++)
        items[i] = json_incref(json_array_get(list, i));
    if (items) {
        qsort(items, n, sizeof *items, by_id_descending);
        json_array_clear(list);
        for (i = 0; i < n; i++)
            json_array_append_new(list, items[i]);
        free(items);
    }
    json_t *reply = json_object();
    if (json_array_size(list) > HALL_PAGE_TABLES) { /* the next page starts below the last listed */
        while (json_array_size(list) > HALL_PAGE_TABLES)
            json_array_remove(list, json_array_size(list) - 1);
        json_object_set_new(reply, "next", json_integer(entry_id(json_array_get(list, HALL_PAGE_TABLES - 1))));
    }
    json_object_set_new(reply, "tables", list);
    return reply;
}

int hall_bot_tables(const hall *h)
{
    int n = 0;
    for (int64_t i = 0; i < h->n_slots; i++)
        n += h->slots[i].t && h->slots[i].t->status != TABLE_OVER && table_bots_only(h->slots[i].t);
    return n;
}

/* GET /api/games: the same entries as the engine protocol's "games". */
static json_t *games_json(const hall *h)
{
    protocol_session *p = protocol_session_new();
    if (p)
        protocol_session_set_data_sets(p, h->card_sets);
    json_t *reply = p ? protocol_handle_line(p, "{\"cmd\":\"games\"}", 15) : NULL;
    protocol_session_free(p);
    if (reply)
        json_object_del(reply, "ok");
    return reply;
}

int64_t hall_path_id(const char *path, const char *prefix, const char **rest)
{
    size_t n = strlen(prefix);
    if (strncmp(path, prefix, n) != 0 || path[n] < '0' || path[n] > '9') /* digits only: no sign, no space */
        return -1;
    char *end;
    errno = 0;
    long long id = strtoll(path + n, &end, 10);
    if (errno || id <= 0)
        return -1;
    *rest = end;
    return id;
}

/* The answers of the API, one function per resource; each returns the
 * status and sets *reply (a refusal: e, and the reply built from it). */
static int refuse(json_t **reply, const srv_error *e)
{
    *reply = srv_error_json(e);
    return e->status;
}

/* A card set named in the options: one loaded with --card-sets (never a
 * path). The body with every such name replaced by its set, or NULL. */
static json_t *resolve_card_sets(const hall *h, const json_t *body, srv_error *e)
{
    json_t *copy = json_deep_copy(body);
    const asobi_game_def *def = asobi_game_find(json_string_value(json_object_get(body, "game")));
    json_t *options = json_object_get(copy, "options");
    asobi_error err;
    if (copy && def && json_is_object(options) &&
        asobi_game_options_resolve(def, options, h->card_sets, false, &err) != ASOBI_OK) {
        json_decref(copy);
        srv_fail_asobi(e, 400, &err);
        return NULL;
    }
    return copy;
}

/* The game options that bound a game's length. A game lasts as long as
 * they allow (mirrored PSYCLE ties: up to 100,000 actions at max_cycles
 * 10000), and a long game is long to replay, to send and to keep: a table
 * may not ask for more than the server's ceiling (--max-cycles,
 * --max-turns), and one that names none gets the ceiling when the game's
 * default is above it. 0: refused (e says why), the options as allowed. */
static int length_capped(const hall *h, json_t *request, srv_error *e)
{
    static const struct {
        const char *game, *option;
        bool turns; /* max_turns (--max-turns), else max_cycles (--max-cycles) */
    } caps[] = {{"psycle", "max_cycles", false}, {"octal", "max_turns", true}, {"timemasters", "max_turns", true}};
    const char *game = json_string_value(json_object_get(request, "game"));
    json_t *options = json_object_get(request, "options");
    if (options && !json_is_object(options))
        return 0; /* table_create refuses it */
    for (size_t i = 0; game && i < sizeof caps / sizeof caps[0]; i++) {
        int ceiling = caps[i].turns ? h->max_turns : h->max_cycles;
        if (strcmp(game, caps[i].game) != 0 || ceiling <= 0)
            continue;
        const json_t *asked = json_object_get(options, caps[i].option);
        if (json_is_integer(asked) && json_integer_value(asked) > ceiling)
            return srv_fail(e, 400, "bad_option", "%s may be %d at most on this server (%s)", caps[i].option,
                            ceiling, caps[i].turns ? "--max-turns" : "--max-cycles");
        const asobi_game_def *def = asobi_game_find(game);
        json_t *defaults = def ? asobi_game_options(def, NULL, NULL) : NULL;
        if (!asked && json_integer_value(json_object_get(defaults, caps[i].option)) > ceiling) {
            if (!json_is_object(options))
                json_object_set_new(request, "options", options = json_object());
            json_object_set_new(options, caps[i].option, json_integer(ceiling));
        }
        json_decref(defaults);
    }
    return 0;
}

/* Whoever chooses a table's seed knows every hand and the deck's order
 * (the seed decides them all): a client may choose one only on a server
 * started with --allow-chosen-seeds, for tests, benchmarks and research,
 * and such a table tells everyone (seed_chosen). */
static bool seed_allowed(const hall *h, const json_t *body, srv_error *e)
{
    const json_t *seed = json_object_get(body, "seed");
    if (h->allow_chosen_seeds || !seed || json_is_null(seed))
        return true;
    srv_fail(e, 400, "seed_not_allowed",
             "a table's seed is drawn by the server (one chosen by a client is taken only by a server started "
             "with --allow-chosen-seeds)");
    return false;
}

/* {"table":ID}, and a private table's invite codes ("invites": a code or
 * null per seat), the one time they are shown. */
static json_t *created_reply(const table *t, const table_invites *invites)
{
    json_t *reply = json_pack("{s:I}", "table", (json_int_t)t->id);
    if (!t->private_table || !reply)
        return reply;
    json_t *codes = json_array();
    for (int s = 0; s < t->players; s++)
        json_array_append_new(codes, invites->code[s][0] ? json_string(invites->code[s]) : json_null());
    json_object_set_new(reply, "invites", codes);
    json_object_set_new(reply, "watch", json_string(invites->watch));
    return reply;
}

/* Would the table this request asks for have bots in every seat? */
static bool asks_bots_only(const json_t *body)
{
    const asobi_game_def *def = asobi_game_find(json_string_value(json_object_get(body, "game")));
    const json_t *players = json_object_get(body, "players"), *bots = json_object_get(body, "bots");
    if (!def || !json_is_array(bots))
        return false;
    json_int_t n = json_is_integer(players) ? json_integer_value(players) : asobi_game_min_players(def);
    for (json_int_t s = 0; s < n; s++)
        if (!json_is_string(json_array_get(bots, (size_t)s)))
            return false;
    return n > 0;
}

static int post_table(hall *h, const json_t *body, int64_t now_ms, json_t **reply, srv_error *e)
{
    if (json_is_object(body) && !seed_allowed(h, body, e))
        return refuse(reply, e);
    /* Tables only bots play cost workers and nobody waits for them: a few
     * at most (`--max-bot-tables`), so that they never crowd out people's. */
    if (h->max_bot_tables > 0 && asks_bots_only(body) && hall_bot_tables(h) >= h->max_bot_tables) {
        srv_fail(e, 503, "too_many_bot_tables", "this server plays at most %d tables of bots only at once",
                 h->max_bot_tables);
        return refuse(reply, e);
    }
    if (!ratings_may_create(body, h->account, e)) /* a rated table: a signed-in person's only */
        return refuse(reply, e);
    json_t *resolved = json_is_object(body) ? resolve_card_sets(h, body, e) : json_incref((json_t *)body);
    if (!resolved && json_is_object(body))
        return refuse(reply, e);
    if (json_is_object(resolved) && length_capped(h, resolved, e) != 0) {
        json_decref(resolved);
        return refuse(reply, e);
    }
    table_invites invites;
    table *t = table_create_invited(h->store, resolved, now_ms, &invites, e);
    json_decref(resolved);
    if (!t)
        return refuse(reply, e);
    hall_slot *sl = hall_add(h, t);
    if (!sl) {
        table_free(t);
        srv_fail(e, 500, "no_memory", "out of memory");
        return refuse(reply, e);
    }
    srv_log("table %lld created: %s for %d%s%s", (long long)t->id,
            json_string_value(json_object_get(t->spec, "game")), t->players, t->private_table ? ", private" : "",
            t->seed_chosen ? ", seed chosen" : "");
    if (h->maker) { /* its bots are the work of the address that made it (workers.c) */
        memcpy(sl->owner, h->maker, sizeof sl->owner);
        sl->owner_known = true;
    }
    changed(h, sl);
    *reply = created_reply(t, &invites);
    hall_add_ws(h, *reply, t->id);
    return 201;
}

/* The value of NAME= in a query (at most cap - 1 bytes; "" when absent). */
static void query_value(const char *query, const char *name, char *out, size_t cap)
{
    size_t n = strlen(name);
    out[0] = '\0';
    for (const char *p = query; p && *p; p = strchr(p, '&') ? strchr(p, '&') + 1 : NULL)
        if (strncmp(p, name, n) == 0 && p[n] == '=')
            snprintf(out, cap, "%.*s", (int)strcspn(p + n + 1, "&"), p + n + 1);
}

void hall_request_secret(const char *query, const char *header, char *out, size_t cap)
{
    query_value(query, "code", out, cap);
    if (!*out)
        query_value(query, "token", out, cap);
    if (!*out && header)
        snprintf(out, cap, "%s", header);
}

/* GET /api/tables/ID and /api/tables/ID/record: from memory, or from the
 * store once a finished table has left memory. A private table is read only
 * with its watch code, a seat's invite code or a seat's token (?code=,
 * ?token= or the X-Asobi-Code header: secret); without one it answers the
 * very 404 of an id that does not exist (issue 39). */
static int get_table(hall *h, int64_t id, bool record_wanted, const char *secret, json_t **reply, srv_error *e)
{
    hall_slot *sl = hall_slot_of(h, id);
    json_t *summary = NULL, *record = NULL;
    asobi_error err;
    if (sl) {
        summary = table_summary(sl->t);
        hall_add_ws(h, summary, id);
        record = sl->t->status == TABLE_OVER ? asobi_match_record(sl->t->match) : NULL;
    } else if (h->found && h->found->table == id) { /* read off the loop (PostgreSQL) */
        summary = json_incref(h->found->summary);
        record = json_incref(h->found->record);
    } else if (store_load_finished(h->store, id, &summary, &record, &err) != ASOBI_OK) {
        summary = record = NULL;
    }
    int status = 200;
    bool readable = sl ? table_readable(sl->t, secret) : table_summary_readable(summary, secret);
    if (summary && !sl) { /* what opens it stays in the store */
        json_t *copy = json_deep_copy(summary);
        json_decref(summary);
        summary = copy;
        json_object_del(summary, "access");
    }
    if (!summary || !readable) {
        srv_fail(e, 404, "not_found", "there is no table %lld", (long long)id);
        status = refuse(reply, e);
    } else if (!record_wanted) {
        *reply = json_incref(summary);
    } else if (!record) {
        srv_fail(e, 409, "game_not_over", "table %lld is not over yet", (long long)id);
        status = refuse(reply, e);
    } else {
        *reply = json_incref(record);
    }
    json_decref(summary);
    json_decref(record);
    return status;
}

int hall_query_step(const char *query, int max, int *step)
{
    *step = -1;
    for (const char *p = query; p && *p; p = strchr(p, '&') ? strchr(p, '&') + 1 : NULL) {
        if (strncmp(p, "step=", 5) != 0)
            continue;
        char *end;
        long k = strtol(p + 5, &end, 10);
        if (end == p + 5 || (*end && *end != '&') || k < 0 || k > max)
            return -1;
        *step = (int)k;
    }
    return 0;
}

/* The moves a replay's reply holds at most: the last ones before its step
 * (the page shows them as the log), so that a reply is one view and a few
 * lines whatever the game's length. */
#define REPLAY_LOG_MAX 50

/* Appends to log the entry of the record's action i, taken by seat with
 * text in before (giving after), and then its events as the all-seeing
 * viewer is told them (the game is over: nothing is hidden any more), as
 * the live log's entries are written (docs/server.md, "update"). */
static void replay_entries(json_t *log, int i, int seat, const char *text, const asobi_state *before,
                           const asobi_state *after)
{
    json_array_append_new(log, json_pack("{s:i, s:s, s:i, s:s}", "index", i, "kind", "action", "seat", seat,
                                         "text", text));
    int id = -1;
    if (asobi_state_parse_action(before, seat, text, &id, NULL) != ASOBI_OK)
        return;
    json_t *events = asobi_state_events(before, seat, id, after, ASOBI_ALL_SEEING);
    size_t k;
    json_t *ev;
    json_array_foreach(events, k, ev)
        json_array_append_new(log, json_pack("{s:i, s:s, s:i, s:O, s:O}", "index", i, "kind", "event", "seat", seat,
                                             "text", json_object_get(ev, "text"), "event", ev));
    json_decref(events);
}

void hall_book_free(hall_book *b)
{
    for (int k = 0; k < b->n_snaps; k++)
        asobi_state_free(b->snaps[k]);
    free(b->snaps);
    asobi_match_free(b->match);
    free(b->record_text);
    memset(b, 0, sizeof *b);
}

int hall_book_build(hall_book *b, int64_t id, json_t *record, asobi_error *err)
{
    memset(b, 0, sizeof *b);
    b->table = id;
    const json_t *actions = json_object_get(record, "actions");
    b->steps = (int)json_array_size(actions);
    b->record_text = json_dumps(record, JSON_COMPACT);
    b->record_len = b->record_text ? strlen(b->record_text) : 0;
    b->n_snaps = b->steps / HALL_BOOK_EVERY + 1;
    b->snaps = calloc((size_t)b->n_snaps, sizeof *b->snaps);
    b->match = asobi_match_load_prefix(record, 0, err);
    int rc = b->record_text && b->snaps && b->match ? ASOBI_OK : ASOBI_E_NOMEM;
    if (!b->match)
        rc = err->code;
    else if (rc != ASOBI_OK)
        asobi_fail(err, rc, "out of memory");
    for (int i = 0; rc == ASOBI_OK && i <= b->steps; i++) {
        if (i % HALL_BOOK_EVERY == 0 && !(b->snaps[i / HALL_BOOK_EVERY] = asobi_state_clone(asobi_match_state(b->match))))
            rc = asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
        const json_t *a = json_array_get(actions, (size_t)i);
        if (rc == ASOBI_OK && i < b->steps)
            rc = asobi_match_act_text(b->match, (int)json_integer_value(json_object_get(a, "seat")),
                                      json_string_value(json_object_get(a, "action")), err);
    }
    json_decref(record);
    if (rc != ASOBI_OK)
        hall_book_free(b);
    return rc;
}

/* Play action i of the book's game on state (its text as the match keeps it). */
static int book_apply(const hall_book *b, asobi_state *state, int i, asobi_error *err)
{
    int seat = asobi_match_action_seat(b->match, i), id = -1;
    int rc = asobi_state_parse_action(state, seat, asobi_match_action_text(b->match, i), &id, err);
    return rc != ASOBI_OK ? rc : asobi_state_apply(state, seat, id, err);
}

json_t *hall_book_step(const hall_book *b, int step, asobi_error *err)
{
    int from = step > REPLAY_LOG_MAX ? step - REPLAY_LOG_MAX : 0;
    asobi_state *state = asobi_state_clone(b->snaps[from / HALL_BOOK_EVERY]);
    json_t *log = json_array();
    int rc = state && log ? ASOBI_OK : asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
    for (int i = from - from % HALL_BOOK_EVERY; rc == ASOBI_OK && i < from; i++)
        rc = book_apply(b, state, i, err);
    for (int i = from; rc == ASOBI_OK && i < step; i++) {
        asobi_state *before = asobi_state_clone(state);
        rc = before ? book_apply(b, state, i, err) : asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
        if (rc == ASOBI_OK)
            replay_entries(log, i, asobi_match_action_seat(b->match, i), asobi_match_action_text(b->match, i), before,
                           state);
        asobi_state_free(before);
    }
    json_t *reply = rc != ASOBI_OK ? NULL
                                   : json_pack("{s:I, s:i, s:i, s:o, s:O}", "table", (json_int_t)b->table, "step", step,
                                               "steps", b->steps, "view",
                                               asobi_state_view(state, ASOBI_ALL_SEEING), "log", log);
    json_decref(log);
    asobi_state_free(state);
    return reply;
}

/* GET /api/tables/ID/replay?step=K (issue 33): a finished game step by
 * step, for the table page's replay; without step= its last step.
 * Refused: game_not_over, not_found, bad_request (a step outside 0..N).
 * The socket side answers it off the loop from a cached book instead
 * (replays.c); this is the same answer built at once (the tests, the fuzz
 * targets, and what the socket side leaves to the hall: its refusals). */
static int get_replay(hall *h, int64_t id, const char *query, const char *secret, json_t **reply, srv_error *e)
{
    json_t *record = NULL;
    int status = get_table(h, id, true, secret, &record, e);
    if (status != 200) {
        *reply = record;
        return status;
    }
    int steps = (int)json_array_size(json_object_get(record, "actions")), step;
    if (hall_query_step(query, steps, &step) != 0) {
        json_decref(record);
        srv_fail(e, 400, "bad_request", "step=K takes a step of the game, from 0 to %d", steps);
        return refuse(reply, e);
    }
    asobi_error err;
    hall_book book;
    *reply = hall_book_build(&book, id, record, &err) == ASOBI_OK ? hall_book_step(&book, step < 0 ? steps : step, &err)
                                                                  : NULL;
    hall_book_free(&book);
    if (!*reply) {
        srv_fail(e, 500, "internal", "the record did not replay: %s", err.message);
        return refuse(reply, e);
    }
    return 200;
}

static int post_join(hall *h, int64_t id, const json_t *body, int64_t now_ms, json_t **reply, srv_error *e)
{
    hall_slot *sl = hall_slot_of(h, id);
    int seat;
    char token[TOKEN_CHARS + 1];
    if (!sl) {
        srv_fail(e, 404, "not_found", "there is no table %lld", (long long)id);
        return refuse(reply, e);
    }
    json_t *as = ratings_join_body(sl->t, body, h->account, h->account_name, e); /* a rated table's: the account's name */
    if (!as)
        return refuse(reply, e);
    int joined = table_join(sl->t, as, now_ms, &seat, token, e);
    json_decref(as);
    if (joined != 0)
        return refuse(reply, e);
    if (h->account && table_seat_account(sl->t, seat, h->account, e) != 0)
        return refuse(reply, e); /* the store failed: the server stops at its commit */
    srv_log("table %lld: seat %d joined as \"%s\"", (long long)id, seat, sl->t->seat[seat].name);
    changed(h, sl);
    *reply = json_pack("{s:i, s:s}", "seat", seat, "token", token);
    hall_add_ws(h, *reply, id);
    return 200;
}

/* POST /api/tables/ID/leave: the person of the token leaves their seat (table_leave); a table every person
 * left is abandoned, leaves the list at once and is ended by the socket side as an expired one. */
static int post_leave(hall *h, int64_t id, const json_t *body, json_t **reply, srv_error *e)
{
    hall_slot *sl = hall_slot_of(h, id);
    int seat;
    if (!sl || sl->t->abandoned) {
        srv_fail(e, 404, "not_found", "there is no table %lld", (long long)id);
        return refuse(reply, e);
    }
    if (table_leave(sl->t, body, &seat, e) != 0)
        return refuse(reply, e);
    srv_log("table %lld: seat %d left%s", (long long)id, seat, sl->t->abandoned ? ", nobody is left: abandoned" : "");
    changed(h, sl);
    *reply = json_pack("{s:i, s:b}", "seat", seat, "abandoned", sl->t->abandoned);
    return 200;
}

/* The value of before= in a query ("a=1&before=7"): 0 and *before set (0
 * when absent), -1 when it is not a positive integer. */
static int query_before(const char *query, int64_t *before)
{
    *before = 0;
    for (const char *p = query; p && *p; p = strchr(p, '&') ? strchr(p, '&') + 1 : NULL) {
        if (strncmp(p, "before=", 7) != 0)
            continue;
        const char *rest;
        char arg[40];
        snprintf(arg, sizeof arg, "/%.*s", (int)strcspn(p + 7, "&"), p + 7);
        *before = hall_path_id(arg, "/", &rest);
        if (*before <= 0 || *rest)
            return -1;
    }
    return 0;
}

int hall_http(hall *h, bool post, const char *path, const char *body_text, size_t len, bool body_too_long,
              int64_t now_ms, json_t **reply, srv_error *e)
{
    json_t *body = NULL;
    if (post) {
        if (body_too_long) {
            srv_fail(e, 413, "body_too_long", "a request body may hold at most %d bytes", SERVER_MESSAGE_MAX);
            return refuse(reply, e);
        }
        json_error_t jerr;
        body = json_loadb(body_text ? body_text : "", len, JSON_REJECT_DUPLICATES, &jerr);
        if (!body) {
            srv_fail(e, 400, "bad_json", "not valid JSON: %s", jerr.text);
            return refuse(reply, e);
        }
    }
    /* the query: GET /api/tables?before=ID pages the list; other arguments are ignored */
    char route[256];
    const char *query = strchr(path, '?');
    snprintf(route, sizeof route, "%.*s", (int)(query ? query - path : (ptrdiff_t)strlen(path)), path);
    path = route;
    int64_t before = 0;
    if (query && query_before(query + 1, &before) != 0) {
        json_decref(body);
        srv_fail(e, 400, "bad_request", "before=ID takes a table's id (a positive integer)");
        return refuse(reply, e);
    }
    char secret[HALL_SECRET_CAP];
    hall_request_secret(query ? query + 1 : NULL, h->secret, secret, sizeof secret);
    const char *rest = "";
    int64_t id = hall_path_id(path, "/api/tables/", &rest);
    bool is_tables = strcmp(path, "/api/tables") == 0;
    bool posted_sub = id > 0 && (!strcmp(rest, "/join") || !strcmp(rest, "/leave")); /* the POSTs on a table */
    bool known_sub = id > 0 && (!*rest || !strcmp(rest, "/record") || !strcmp(rest, "/replay") || posted_sub);
    int status;
    if (strcmp(path, "/api/games") == 0 && !post) {
        *reply = games_json(h);
        status = 200;
        if (!*reply) {
            srv_fail(e, 500, "no_memory", "out of memory");
            status = refuse(reply, e);
        }
    } else if (is_tables && post) {
        status = post_table(h, body, now_ms, reply, e);
    } else if (is_tables) {
        *reply = hall_tables_json(h, before);
        status = 200;
    } else if (known_sub && strcmp(rest, "/replay") == 0 && !post) {
        status = get_replay(h, id, query ? query + 1 : "", secret, reply, e);
    } else if (known_sub && !posted_sub && !post) {
        status = get_table(h, id, strcmp(rest, "/record") == 0, secret, reply, e);
    } else if (known_sub && strcmp(rest, "/join") == 0 && post) {
        status = post_join(h, id, body, now_ms, reply, e);
    } else if (known_sub && strcmp(rest, "/leave") == 0 && post) {
        status = post_leave(h, id, body, reply, e);
    } else if (is_tables || known_sub) {
        srv_fail(e, 405, "method_not_allowed", "%s is not allowed on %.80s", post ? "POST" : "GET", path);
        status = refuse(reply, e);
    } else {
        srv_fail(e, 404, "not_found", "no such resource: %.80s", path);
        status = refuse(reply, e);
    }
    json_decref(body);
    return status;
}

int hall_hello(hall *h, int64_t id, const char *text, size_t len, json_t **msg, const char **token, const char **code,
               srv_error *e)
{
    *msg = json_loadb(text, len, 0, NULL);
    const char *type = json_string_value(json_object_get(*msg, "type"));
    *token = json_string_value(json_object_get(*msg, "token"));
    *code = json_string_value(json_object_get(*msg, "code"));
    if (!type || strcmp(type, "hello") != 0)
        return HALL_HELLO_NOT;
    if ((!*token && !*code) || (*token && strlen(*token) >= 128) || (*code && strlen(*code) >= 128)) {
        srv_fail(e, 400, "bad_request", "a hello carries a seat's \"token\" or a \"code\" string");
        return HALL_HELLO_REFUSED;
    }
    hall_slot *sl = hall_slot_of(h, id);
    int seat = sl && *token ? table_seat_of_token(sl->t, *token) : -1;
    if (sl && *token && seat < 0) {
        srv_fail(e, 403, "bad_token", "that token holds no seat at table %lld", (long long)id);
        return HALL_HELLO_REFUSED;
    }
    if (sl && seat >= 0)
        return seat;
    if (!sl || !table_readable(sl->t, *code)) {
        srv_fail(e, 404, "not_found", "there is no table %lld", (long long)id);
        return HALL_HELLO_REFUSED;
    }
    return ASOBI_SPECTATOR;
}

/* {"type":"rematch"} from a seat of a finished table: the first makes the
 * new table (table_rematch), later ones are told the same one. Every
 * connection of the old table learns it from its next update. */
static int rematch(hall *h, hall_slot *sl, int64_t now_ms, srv_error *e)
{
    int64_t old = sl->t->id;
    if (!sl->t->rematch) {
        table *t = table_rematch(sl->t, now_ms, e);
        if (!t)
            return -1;
        hall_slot *added = hall_add(h, t);
        if (!added) {
            table_free(t);
            return srv_fail(e, 500, "no_memory", "out of memory");
        }
        srv_log("table %lld: rematch at table %lld", (long long)old, (long long)t->id);
        /* its bots are the work of the same address as the old table's */
        const hall_slot *was = hall_slot_of(h, old);
        memcpy(added->owner, was->owner, sizeof added->owner);
        added->owner_known = was->owner_known;
        changed(h, added);
        sl = hall_slot_of(h, old); /* hall_add may have moved the slots */
    }
    changed(h, sl);
    return 0;
}

int hall_message(hall *h, int64_t id, int seat, const char *text, size_t len, int64_t now_ms, json_t **msg_id,
                 srv_error *e)
{
    *msg_id = NULL;
    json_t *msg = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
    if (json_is_object(msg) && json_object_get(msg, "id"))
        *msg_id = srv_echo_id(json_object_get(msg, "id")); /* at most a part of it comes back */
    const char *type = json_string_value(json_object_get(msg, "type"));
    const json_t *claimed = json_object_get(msg, "seat");
    hall_slot *sl = hall_slot_of(h, id);
    int rc = -1;
    if (!json_is_object(msg)) {
        srv_fail(e, 400, "bad_json", "a message is a JSON object");
    } else if (!type || (strcmp(type, "act") != 0 && strcmp(type, "rematch") != 0)) {
        srv_fail(e, 400, "unknown_type", "unknown message type \"%.40s\" (a client sends \"act\" or \"rematch\")",
                 type ? type : "");
    } else if (!sl) {
        srv_fail(e, 404, "not_found", "the table is gone");
    } else if (seat < 0) {
        srv_fail(e, 403, "not_seated", "a spectator cannot %s", strcmp(type, "act") == 0 ? "act" : "ask for a rematch");
    } else if (sl->t->seat[seat].left) { /* a tab still open on a seat its person left (table_leave) */
        srv_fail(e, 403, "bad_token", "seat %d was left: it is the bot's now", seat);
    } else if (strcmp(type, "rematch") == 0) {
        rc = rematch(h, sl, now_ms, e);
    } else if (claimed && !(json_is_integer(claimed) && json_integer_value(claimed) == seat)) {
        srv_fail(e, 403, "wrong_seat", "this connection plays seat %d only", seat);
    } else if (table_act(sl->t, seat, json_object_get(msg, "action"), now_ms, e) == 0) {
        h->actions_accepted++;
        changed(h, sl);
        rc = 0;
    }
    json_decref(msg);
    return rc;
}

/* fuzz_server.h — what the server's fuzz targets share: a hall over an in-memory store, its bots run inline, and its snapshots. */
#ifndef ASOBI_FUZZ_SERVER_H
#define ASOBI_FUZZ_SERVER_H

#include <string.h>

#include "fuzz_common.h"
#include "server/hall.h"

/* A hall as `asobi serve` has one, minus the sockets: the same requests go
 * through the same functions (hall_http, hall_message). The store is SQLite
 * in memory, made anew for every input, so an input always means the same.
 * Bots move inline when a table changes, as the workers would, but only the
 * cheap ones (random, heuristic): a search bot's move is refused as if its
 * worker found none, which the server survives the same way. */

#define FUZZ_BOT_MOVES_MAX 400 /* per input: a table of bots plays itself out */

typedef struct fuzz_server {
    hall hall;
    int bot_moves;
} fuzz_server;

static void fuzz_run_bots(void *ctx, hall_slot *sl)
{
    fuzz_server *fs = ctx;
    table_job jobs[ASOBI_MAX_SEATS];
    for (;;) {
        int n = table_due_jobs(sl->t, 0, 120000, jobs, ASOBI_MAX_SEATS);
        if (n == 0)
            return;
        bool moved = false;
        for (int i = 0; i < n; i++) {
            bool cheap = strcmp(jobs[i].spec, "random") == 0 || strcmp(jobs[i].spec, "heuristic") == 0;
            if (cheap && fs->bot_moves < FUZZ_BOT_MOVES_MAX) {
                table_job_run(&jobs[i]);
                FUZZ_CHECK(jobs[i].id >= 0); /* a cheap bot always finds a move */
                fs->bot_moves++;
            } else {
                jobs[i].id = -1;
            }
            srv_error e;
            int rc = table_job_done(sl->t, &jobs[i], 0, &e);
            FUZZ_CHECK(rc >= 0);
            moved |= rc > 0;
        }
        FUZZ_CHECK(store_flush(fs->hall.store, NULL) == ASOBI_OK);
        if (!moved)
            return;
    }
}

static void fuzz_server_open(fuzz_server *fs)
{
    memset(fs, 0, sizeof *fs);
    srv_log_quiet = true;
    asobi_error err;
    fs->hall.store = store_open(":memory:", &err);
    FUZZ_CHECK(fs->hall.store);
    fs->hall.changed = fuzz_run_bots;
    fs->hall.ctx = fs;
}

static void fuzz_server_close(fuzz_server *fs)
{
    hall_close(&fs->hall);
    store_close(fs->hall.store);
}

/* Everything a refusal must leave unchanged: every table's summary (seats,
 * names, status, action count) and its state, byte for byte. A table's
 * history only grows, so an unchanged state and action count mean an
 * unchanged record. */
typedef struct fuzz_snapshot {
    char *summaries;       /* every table's summary, as text */
    int64_t *ids;          /* per slot: its table id */
    asobi_state **states;  /* per slot, or NULL */
    int64_t count;
} fuzz_snapshot;

static void fuzz_snapshot_take(const hall *h, fuzz_snapshot *snap)
{
    json_t *all = json_array();
    snap->count = h->n_slots;
    snap->ids = calloc((size_t)(h->n_slots ? h->n_slots : 1), sizeof *snap->ids);
    snap->states = calloc((size_t)(h->n_slots ? h->n_slots : 1), sizeof *snap->states);
    FUZZ_CHECK(snap->ids && snap->states);
    for (int64_t i = 0; i < h->n_slots; i++) {
        const table *t = h->slots[i].t;
        snap->ids[i] = h->slots[i].id;
        if (!t)
            continue;
        json_array_append_new(all, table_summary(t));
        snap->states[i] = asobi_state_clone(asobi_match_state(t->match));
        FUZZ_CHECK(snap->states[i]);
    }
    snap->summaries = json_dumps(all, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(all);
    FUZZ_CHECK(snap->summaries);
}

static void fuzz_snapshot_free(fuzz_snapshot *snap);

/* A refusal adds and evicts no table: the slots are the same, one by one. */
static void fuzz_snapshot_check_same(const hall *h, const fuzz_snapshot *snap)
{
    fuzz_snapshot now;
    fuzz_snapshot_take(h, &now);
    FUZZ_CHECK(strcmp(snap->summaries, now.summaries) == 0);
    FUZZ_CHECK(now.count == snap->count);
    for (int64_t i = 0; i < now.count; i++) {
        const asobi_state *before = snap->states[i];
        FUZZ_CHECK(now.ids[i] == snap->ids[i]);
        FUZZ_CHECK((before == NULL) == (now.states[i] == NULL));
        FUZZ_CHECK(!before || asobi_state_equal(before, now.states[i]));
    }
    fuzz_snapshot_free(&now);
}

static void fuzz_snapshot_free(fuzz_snapshot *snap)
{
    for (int64_t i = 0; i < snap->count; i++)
        asobi_state_free(snap->states[i]);
    free(snap->states);
    free(snap->ids);
    free(snap->summaries);
}

/* What each viewer of a table is sent (with its last few events) can be
 * built and is one JSON object that names the viewer's seat; the text the
 * server sends (the view written as text) is exactly that object, dumped. */
static void fuzz_check_updates(const table *t)
{
    for (int v = -1; v < t->players; v++) {
        int viewer = v < 0 ? ASOBI_SPECTATOR : v;
        json_t *u = table_update(t, viewer, t->log_count - 4, 0);
        FUZZ_CHECK(json_is_object(u));
        char *text = json_dumps(u, JSON_COMPACT);
        FUZZ_CHECK(text);
        size_t len = 0;
        char *sent = table_update_text(t, viewer, t->log_count - 4, 0, &len);
        FUZZ_CHECK(sent && strcmp(sent, text) == 0 && len == strlen(text));
        free(sent);
        free(text);
        const json_t *seat = json_object_get(u, "seat");
        FUZZ_CHECK(viewer == ASOBI_SPECTATOR ? json_is_null(seat) : json_integer_value(seat) == viewer);
        json_decref(u);
    }
}

/* A refusal as the server sends it: {"error":{"code","message"}} with the
 * code of e, a 4xx or 5xx status. */
static void fuzz_check_refusal(const json_t *reply, const srv_error *e)
{
    FUZZ_CHECK(e->status >= 400 && e->status < 600);
    const json_t *error = json_object_get(reply, "error");
    FUZZ_CHECK(json_is_object(error));
    FUZZ_CHECK(json_is_string(json_object_get(error, "message")));
    FUZZ_CHECK(strcmp(json_string_value(json_object_get(error, "code")), e->code) == 0);
}

#endif

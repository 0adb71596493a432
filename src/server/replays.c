/* replays.c — finished games' replays and records off the loop: a book per table built on a worker, cached, each step a worker's job. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/internal.h"

/* Why
 * ---
 * A step of a finished game's replay was built on the loop by replaying the
 * record up to it, and a record was parsed and written again at every
 * request: at 100,000 actions (mirrored PSYCLE ties) a step cost 150-190 ms
 * of the loop and a record 230 ms, and eight clients paging through one
 * replay made everyone's /healthz wait 2.3 s. Now the loop only finds the
 * record (in memory, SQLite's read, or what PostgreSQL's reader thread
 * read) and hands it to a worker, which builds the table's book once
 * (hall_book: the record's text, the match, a state every HALL_BOOK_EVERY
 * actions); the books are cached (BOOKS_MAX, the least recently used goes),
 * a record is answered from its book's text as it is, and each step is a
 * worker's job of a few hundred to a thousand actions. The jobs are the
 * asking address's work on the bot lane (workers.c): one address paging
 * fast holds its share of the workers, no more, and its requests are
 * counted (--replays-per-second-per-address). */

#define BOOKS_MAX 8

/* One request waiting for a book being built. */
typedef struct book_waiter {
    uint64_t serial;   /* http_wait's */
    bool record;       /* the record; else a step of the replay */
    char query[128];   /* ... the request's query (step=K), read once the book is in */
    unsigned char key[LIMITS_KEY_BYTES];
} book_waiter;

typedef struct book_entry {
    int64_t table;
    bool ready;          /* built: book holds it */
    bool failed;         /* the record did not replay: err says why */
    asobi_error err;
    hall_book book;
    shared_text *record; /* the record's text as GET .../record answers it */
    json_t *summary;     /* the summary the store keeps (a private table's "access" in it): who may read */
    int pins;            /* jobs that read it (or build it): not evicted meanwhile */
    int64_t used_ms;
    book_waiter *waiting;
    size_t n_waiting, cap_waiting;
} book_entry;

typedef struct replay_cache {
    book_entry *books[BOOKS_MAX];
} replay_cache;

typedef struct replay_job {
    book_entry *entry;
    bool build;          /* build entry's book from source (or source_text) */
    json_t *source;      /* the record as read: the job's own */
    char *source_text;   /* or its text (a table in memory) */
    int step;            /* a step: which */
    uint64_t serial;     /* the waiting request */
    char *reply;         /* the step's reply (compact JSON), NULL: err */
    hall_book built;     /* a build's result, taken by the loop */
    int rc;
    asobi_error err;
} replay_job;

void replay_job_run(replay_job *j)
{
    if (j->build) {
        json_error_t jerr;
        json_t *record = j->source ? j->source : json_loads(j->source_text, 0, &jerr);
        j->source = NULL;
        j->rc = record ? hall_book_build(&j->built, j->entry->table, record, &j->err)
                       : asobi_fail(&j->err, ASOBI_E_BAD_ARGUMENT, "the record is not JSON: %s", jerr.text);
        return;
    }
    json_t *reply = hall_book_step(&j->entry->book, j->step, &j->err);
    j->reply = reply ? json_dumps(reply, JSON_COMPACT) : NULL;
    json_decref(reply);
}

static void job_free(replay_job *j)
{
    json_decref(j->source);
    free(j->source_text);
    free(j->reply);
    hall_book_free(&j->built);
    free(j);
}

static void entry_free(book_entry *e)
{
    hall_book_free(&e->book);
    shared_text_drop(e->record);
    json_decref(e->summary);
    free(e->waiting);
    free(e);
}

void replay_job_free(server *s, replay_job *j)
{
    (void)s;
    job_free(j);
}

void replays_free(server *s)
{
    if (!s->replays)
        return;
    for (int i = 0; i < BOOKS_MAX; i++)
        if (s->replays->books[i])
            entry_free(s->replays->books[i]);
    free(s->replays);
    s->replays = NULL;
}

/* The book of table id in the cache, or NULL. */
static book_entry *cached(server *s, int64_t id)
{
    for (int i = 0; s->replays && i < BOOKS_MAX; i++)
        if (s->replays->books[i] && s->replays->books[i]->table == id)
            return s->replays->books[i];
    return NULL;
}

/* A new entry for table id, in a free place or the least recently used
 * one's that nobody reads or waits for; NULL when every book is in use
 * (the request is answered busy) or out of memory. */
static book_entry *entry_new(server *s, int64_t id)
{
    if (!s->replays && !(s->replays = calloc(1, sizeof *s->replays)))
        return NULL;
    int place = -1;
    for (int i = 0; i < BOOKS_MAX; i++) {
        book_entry *e = s->replays->books[i];
        if (!e) {
            place = i;
            break;
        }
        if (!e->pins && !e->n_waiting && (place < 0 || e->used_ms < s->replays->books[place]->used_ms))
            place = i;
    }
    if (place < 0)
        return NULL;
    book_entry *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    if (s->replays->books[place])
        entry_free(s->replays->books[place]);
    s->replays->books[place] = e;
    e->table = id;
    e->used_ms = now_ms();
    return e;
}

/* The address whose work a request is: its client's, or for a client that
 * is not counted (not IP), one of its own (ff00::/8 with 0xfe: no client's). */
static void asker_key(struct lws *wsi, uint64_t serial, unsigned char key[LIMITS_KEY_BYTES])
{
    const limits_address *a = lws_get_opaque_user_data(wsi);
    memset(key, 0, LIMITS_KEY_BYTES);
    if (a) {
        memcpy(key, a->key, LIMITS_KEY_BYTES);
    } else {
        key[0] = 0xff;
        key[1] = 0xfe;
        memcpy(key + 8, &serial, sizeof serial);
    }
}

/* A step job for a request waiting under serial: queued (true). */
static bool step_queued(server *s, book_entry *e, uint64_t serial, int step, const unsigned char key[LIMITS_KEY_BYTES])
{
    replay_job *j = calloc(1, sizeof *j);
    if (!j)
        return false;
    *j = (replay_job){.entry = e, .step = step, .serial = serial};
    if (!queue_replay(s, j, key)) {
        free(j);
        return false;
    }
    e->pins++;
    return true;
}

/* The answer to a request that waited (its connection may be gone). */
void answer_waiter(server *s, uint64_t serial, int status, char *text, shared_text *shared, const srv_error *e)
{
    struct lws *wsi = http_waiting(s, serial);
    http_req *r = wsi ? lws_wsi_user(wsi) : NULL;
    if (!r) {
        free(text);
        return;
    }
    r->answer_later = true;
    if (shared)
        shared->refs++;
    int rc = e ? http_refuse(s, wsi, r, e) : http_answer(s, wsi, r, status, text, shared);
    if (rc < 0)
        lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
}

/* What a waiter asked, from a ready book: the record at once, a step queued
 * (a step outside the game refused as the hall refuses it). */
static void serve_waiter(server *s, book_entry *e, const book_waiter *w)
{
    srv_error err;
    int step = -1;
    if (e->failed) {
        srv_fail(&err, 500, "internal", "the record did not replay: %s", e->err.message);
        answer_waiter(s, w->serial, 0, NULL, NULL, &err);
    } else if (w->record) {
        answer_waiter(s, w->serial, 200, NULL, e->record, NULL);
    } else if (hall_query_step(w->query, e->book.steps, &step) != 0) {
        srv_fail(&err, 400, "bad_request", "step=K takes a step of the game, from 0 to %d", e->book.steps);
        answer_waiter(s, w->serial, 0, NULL, NULL, &err);
    } else if (!step_queued(s, e, w->serial, step < 0 ? e->book.steps : step, w->key)) {
        srv_fail(&err, 500, "no_memory", "out of memory");
        answer_waiter(s, w->serial, 0, NULL, NULL, &err);
    }
}

void replay_job_done(server *s, replay_job *j)
{
    book_entry *e = j->entry;
    e->pins--;
    e->used_ms = now_ms();
    if (j->build) {
        e->ready = true;
        e->failed = j->rc != ASOBI_OK;
        e->err = j->err;
        if (!e->failed) {
            e->book = j->built;
            memset(&j->built, 0, sizeof j->built);
            /* the record's text, shared by every reply (the book's copy goes) */
            e->record = malloc(sizeof *e->record + e->book.record_len + 1);
            if (e->record) {
                e->record->refs = 1;
                e->record->len = e->book.record_len;
                memcpy(e->record->text, e->book.record_text, e->book.record_len + 1);
            } else {
                e->failed = true;
                asobi_fail(&e->err, ASOBI_E_NOMEM, "out of memory");
            }
            free(e->book.record_text);
            e->book.record_text = NULL;
        }
        for (size_t i = 0; i < e->n_waiting; i++)
            serve_waiter(s, e, &e->waiting[i]);
        e->n_waiting = 0;
    } else if (j->reply) {
        answer_waiter(s, j->serial, 200, j->reply, NULL, NULL);
        j->reply = NULL;
    } else {
        srv_error err;
        srv_fail(&err, 500, "internal", "the replay's step was not built: %s", j->err.message);
        answer_waiter(s, j->serial, 0, NULL, NULL, &err);
    }
    job_free(j);
}

/* Start building table id's book from its record (source, taken) or its
 * text (taken): the entry, or NULL (out of memory, or every book busy). */
static book_entry *build_started(server *s, int64_t id, json_t *source, char *text,
                                 const unsigned char key[LIMITS_KEY_BYTES])
{
    book_entry *e = entry_new(s, id);
    replay_job *j = e ? calloc(1, sizeof *j) : NULL;
    if (!j) {
        json_decref(source);
        free(text);
        if (e) /* an empty entry: a later request tries again */
            e->ready = e->failed = true, asobi_fail(&e->err, ASOBI_E_NOMEM, "out of memory");
        return NULL;
    }
    *j = (replay_job){.entry = e, .build = true, .source = source, .source_text = text};
    if (!queue_replay(s, j, key)) {
        job_free(j);
        e->ready = e->failed = true;
        asobi_fail(&e->err, ASOBI_E_NOMEM, "out of memory");
        return NULL;
    }
    e->pins++;
    return e;
}

/* May this request read table id's replay and record? A private table opens
 * only to its watch code, a seat's invite code or a seat's token, as the
 * hall's get_table decides (issue 39); a cached book keeps the stored
 * summary that says who may. false: the hall answers (its 404 is byte for
 * byte a missing id's). */
static bool may_read(server *s, struct lws *wsi, const char *path, int64_t id, const json_t *summary)
{
    char header[HALL_SECRET_CAP] = "", secret[HALL_SECRET_CAP];
    int n = lws_hdr_custom_copy(wsi, header, sizeof header, "x-asobi-code:", 13);
    const char *query = strchr(path, '?');
    hall_request_secret(query ? query + 1 : NULL, n > 0 ? header : NULL, secret, sizeof secret);
    slot *sl = hall_slot_of(&s->hall, id);
    if (sl)
        return table_readable(sl->t, secret);
    return summary && table_summary_readable(summary, secret);
}

bool replays_answer(server *s, struct lws *wsi, http_req *r, const char *path, int *rc)
{
    const char *rest = "";
    int64_t id = hall_path_id(r->path, "/api/tables/", &rest);
    bool record = id > 0 && strcmp(rest, "/record") == 0;
    if (r->post || id <= 0 || (!record && strcmp(rest, "/replay") != 0))
        return false;
    srv_error e;
    limits_address *a = lws_get_opaque_user_data(wsi);
    double retry_after = 0;
    if (!r->looked_up && a && !limits_replay(&s->limits, a, now_s(), &retry_after)) {
        r->retry_after = (int)retry_after + 1;
        srv_fail(&e, 429, "rate_limited", "too many replay steps and records asked from your address: try again "
                 "in %d s (--replays-per-second-per-address)", r->retry_after);
        *rc = http_refuse(s, wsi, r, &e);
        return true;
    }
    book_entry *b = cached(s, id);
    if (b && b->ready && b->failed && !b->pins) { /* tried and failed (out of memory?): try again */
        b->table = 0;
        b = NULL;
    }
    if (b && !may_read(s, wsi, path, id, b->summary))
        return false;
    unsigned char key[LIMITS_KEY_BYTES];
    asker_key(wsi, s->lookups_asked + 1, key);
    if (!b) {
        /* the record: from memory, read off the loop (PostgreSQL: look_up_first, then here again), or
         * from SQLite's file; a table not finished or not found is left to the hall's refusals */
        slot *sl = hall_slot_of(&s->hall, id);
        json_t *source = NULL, *summary = NULL;
        char *text = NULL;
        asobi_error err;
        if (sl && sl->t->status != TABLE_OVER)
            return false;
        if (sl) {
            char *stored = table_stored_summary_text(sl->t);
            summary = stored ? json_loads(stored, 0, NULL) : NULL;
            free(stored);
            text = asobi_match_record_text(sl->t->match, NULL);
        } else if (r->looked_up) {
            if (r->found.table != id || !r->found.record)
                return false;
            summary = json_incref(r->found.summary);
            source = r->found.record;
            r->found.record = NULL;
        } else if (store_is_postgresql(s->cfg.db)) {
            return false;
        } else if (store_load_finished(s->store, id, &summary, &source, &err) != ASOBI_OK || !source) {
            json_decref(summary);
            json_decref(source);
            return false;
        }
        if ((!source && !text) || !summary || !may_read(s, wsi, path, id, summary)) {
            json_decref(summary);
            json_decref(source);
            free(text);
            return false;
        }
        b = build_started(s, id, source, text, key);
        if (b)
            b->summary = summary;
        else
            json_decref(summary);
        if (!b) {
            r->retry_after = 1;
            srv_fail(&e, 503, "busy", "every replay being built is in use: ask again in a second");
            *rc = http_refuse(s, wsi, r, &e);
            return true;
        }
    }
    b->used_ms = now_ms();
    uint64_t serial = http_wait(s, wsi, r);
    if (!serial)
        return *rc = -1, true;
    book_waiter w = {.serial = serial, .record = record};
    const char *query = strchr(path, '?');
    snprintf(w.query, sizeof w.query, "%s", query ? query + 1 : "");
    memcpy(w.key, key, sizeof w.key);
    r->answer_later = true;
    *rc = 0;
    if (b->ready) {
        serve_waiter(s, b, &w);
        return true;
    }
    if (b->n_waiting == b->cap_waiting) {
        size_t cap = b->cap_waiting ? 2 * b->cap_waiting : 8;
        book_waiter *grown = realloc(b->waiting, cap * sizeof *grown);
        if (!grown) {
            http_waiting(s, serial);
            return *rc = -1, true;
        }
        b->waiting = grown;
        b->cap_waiting = cap;
    }
    b->waiting[b->n_waiting++] = w;
    return true;
}

/* reviews.c — game reviews on the server: asked over HTTP, queued in the store's job table, searched on the workers' lowest lane, cached. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asobi/review.h"
#include "server/internal.h"
#include "server/jobs_store.h"

/* How a review goes
 * -----------------
 * POST /api/tables/ID/review {"seat":K} and GET .../review?seat=K never
 * touch the database on the loop: each is a fast-lane job (a worker reads
 * the finished table's summary for the private-table check, and queues or
 * reads the job row of jobs_store.h), answered when it is back. The rows
 * are the queue of every node: a node with no review under way asks its
 * workers to claim one (the review lane, below) every REVIEW_POLL_MS, or
 * at once after a POST. The claiming worker replays the record
 * (asobi_review_plan_new), and the review's decisions are then searched
 * one job each on the review lane, the lowest: a worker takes a review's
 * decision only when no bot move of any table waits, and reviews hold at
 * most --workers - 1 workers (one at least), so a live table's bot finds a
 * worker free, or waits for one decision's search at most with a single
 * worker. Each search renews the job's lease; a node that dies stops
 * renewing, and once the lease lapses another node claims the review again.
 * The result goes to the row (the cache: a second POST or GET reads it,
 * and the last few are kept in memory, so asking again costs nothing). */

#define REVIEW_KIND "review"
/* A review's lease: three of the node's table leases (--lease; 30 s by
 * default), renewed at each decision searched, which takes a second or so. */
#define REVIEW_LEASE_MS(s) (3 * ((s)->cfg.lease_ms > 0 ? (s)->cfg.lease_ms : STORE_LEASE_MS))
#define REVIEW_POLL_MS 1000  /* how often an idle node looks for queued reviews */
#define REVIEW_CACHE 8        /* done reviews kept in memory */
#define REVIEW_ASKERS_MAX 4096 /* addresses whose bucket is remembered (the oldest full one goes) */

typedef enum task_kind { TASK_ASK, TASK_CLAIM, TASK_SEARCH, TASK_END } task_kind;

/* A worker's review job and what it brings back. */
typedef struct review_task {
    task_kind kind;
    int64_t table;
    int seat;
    bool create;                 /* ASK: POST (queue it) or GET (read it) */
    char secret[HALL_SECRET_CAP]; /* ASK: the request's code or token */
    uint64_t serial;             /* ASK: the waiting request */
    int max_pending;             /* ASK: --max-queued-reviews */
    int decision;                /* SEARCH: which */
    bool failed;                 /* END: a search failed (err): the review ends failed */
    /* results */
    int status;                  /* ASK: 0 answered from row; 404 hidden or none; 400 bad seat; 503 busy; 500 error */
    jobs_row row;
    json_t *summary;             /* ASK: the table's stored summary (who may read) */
    asobi_review_plan *plan;     /* CLAIM: the claimed review's plan (NULL: none) */
    int rc;
    asobi_error err;
} review_task;

/* The review this node is searching. */
typedef struct active_review {
    int64_t table;
    int seat;
    asobi_review_plan *plan;
    int next, searched, in_flight, count;
    bool failed, ending;
    asobi_error err;
} active_review;

typedef struct cached_review {
    int64_t table;
    int seat;
    char *result;    /* the review's JSON */
    json_t *summary; /* the table's stored summary */
    int64_t used_ms;
} cached_review;

typedef struct asker {
    unsigned char key[LIMITS_KEY_BYTES];
    limits_bucket asks;
} asker;

struct reviews {
    jobs_store *store;
    bool claiming;
    int64_t claimed_ms;
    bool look_now;
    active_review active; /* plan NULL: none */
    cached_review cache[REVIEW_CACHE];
    asker *askers;
    int n_askers;
};

static char *review_key(int64_t id, int seat, char *out, size_t cap)
{
    snprintf(out, cap, "%lld/%d", (long long)id, seat);
    return out;
}

/* ---------------------------------------------------------------------------
 * On a worker.
 * ------------------------------------------------------------------------- */
static void run_ask(jobs_store *js, review_task *t)
{
    json_t *record = NULL;
    char key[48], args[96];
    t->status = 500;
    if (jobs_store_finished_table(js, t->table, &t->summary, &record, &t->err) != ASOBI_OK)
        return;
    if (!t->summary || !record || !table_summary_readable(t->summary, t->secret[0] ? t->secret : NULL)) {
        t->status = 404; /* as a missing table's: a private table's review is as private as its record */
    } else if (t->seat >= (int)json_integer_value(json_object_get(record, "players"))) {
        t->status = 400;
    } else {
        int pending = 0;
        review_key(t->table, t->seat, key, sizeof key);
        snprintf(args, sizeof args, "{\"table\":%lld,\"seat\":%d}", (long long)t->table, t->seat);
        if (jobs_store_ask(js, REVIEW_KIND, key, args, false, &t->row, &t->err) != ASOBI_OK)
            goto out;
        if (t->create && !t->row.status[0]) {
            if (jobs_store_pending(js, REVIEW_KIND, &pending, &t->err) != ASOBI_OK)
                goto out;
            if (t->max_pending > 0 && pending >= t->max_pending) {
                t->status = 503;
                goto out;
            }
            if (jobs_store_ask(js, REVIEW_KIND, key, args, true, &t->row, &t->err) != ASOBI_OK)
                goto out;
        }
        t->status = t->row.status[0] ? 0 : 404;
    }
out:
    json_decref(record);
}

static void run_claim(jobs_store *js, const char *bot, int64_t lease_ms, review_task *t)
{
    char *key = NULL, *args = NULL;
    if (!jobs_store_claim(js, REVIEW_KIND, lease_ms, &key, &args, &t->err))
        return;
    json_t *a = json_loads(args, 0, NULL), *summary = NULL, *record = NULL;
    t->table = json_integer_value(json_object_get(a, "table"));
    t->seat = (int)json_integer_value(json_object_get(a, "seat"));
    json_decref(a);
    if (jobs_store_finished_table(js, t->table, &summary, &record, &t->err) == ASOBI_OK && record)
        t->plan = asobi_review_plan_new(record, t->seat, bot, 0, &t->err);
    else if (!record)
        asobi_fail(&t->err, ASOBI_E_BAD_ARGUMENT, "no finished table %lld", (long long)t->table);
    if (!t->plan) {
        char why[300];
        snprintf(why, sizeof why, "{\"error\":\"%s\"}", asobi_code_name(t->err.code));
        jobs_store_end(js, REVIEW_KIND, key, "failed", why, NULL);
    }
    json_decref(summary);
    json_decref(record);
    free(key);
    free(args);
}

void review_task_run(server *s, review_task *t)
{
    jobs_store *js = s->reviews->store;
    char key[48];
    switch (t->kind) {
    case TASK_ASK:
        run_ask(js, t);
        break;
    case TASK_CLAIM:
        run_claim(js, s->cfg.review_bot, REVIEW_LEASE_MS(s), t);
        break;
    case TASK_SEARCH:
        t->rc = asobi_review_plan_search(t->plan, t->decision, &t->err);
        jobs_store_renew(js, REVIEW_KIND, review_key(t->table, t->seat, key, sizeof key), REVIEW_LEASE_MS(s), NULL);
        break;
    case TASK_END: {
        if (t->failed) { /* a search failed: the row says why, and nobody claims it again */
            char why[200];
            snprintf(why, sizeof why, "{\"error\":\"%s\"}", asobi_code_name(t->err.code));
            t->rc = jobs_store_end(js, REVIEW_KIND, review_key(t->table, t->seat, key, sizeof key), "failed", why,
                                   NULL);
            break;
        }
        json_t *result = asobi_review_plan_result(t->plan);
        char *text = result ? json_dumps(result, JSON_COMPACT) : NULL;
        json_decref(result);
        t->rc = text ? jobs_store_end(js, REVIEW_KIND, review_key(t->table, t->seat, key, sizeof key), "done", text,
                                      &t->err)
                     : asobi_fail(&t->err, ASOBI_E_NOMEM, "out of memory");
        t->row.result = text;
        break;
    }
    }
}

/* ---------------------------------------------------------------------------
 * On the loop.
 * ------------------------------------------------------------------------- */
static void task_free(review_task *t)
{
    jobs_row_free(&t->row);
    json_decref(t->summary);
    free(t);
}

void review_task_free(server *s, review_task *t)
{
    (void)s;
    task_free(t);
}

/* Hand a task to the workers: ASK on the fast lane, the rest on the review lane. */
static bool task_queued(server *s, review_task *t)
{
    job_node *node = calloc(1, sizeof *node);
    if (!node)
        return false;
    node->review = t;
    node->fast = t->kind == TASK_ASK;
    if (!queue_review(s, node)) {
        free(node);
        return false;
    }
    return true;
}

static cached_review *cache_find(struct reviews *rv, int64_t id, int seat)
{
    for (int i = 0; i < REVIEW_CACHE; i++)
        if (rv->cache[i].result && rv->cache[i].table == id && rv->cache[i].seat == seat)
            return &rv->cache[i];
    return NULL;
}

static void cache_put(struct reviews *rv, int64_t id, int seat, const char *result, json_t *summary)
{
    if (cache_find(rv, id, seat) || !result || !summary)
        return;
    cached_review *c = &rv->cache[0];
    for (int i = 1; i < REVIEW_CACHE; i++)
        if (!rv->cache[i].result || (c->result && rv->cache[i].used_ms < c->used_ms))
            c = &rv->cache[i];
    free(c->result);
    json_decref(c->summary);
    *c = (cached_review){.table = id, .seat = seat, .result = strdup(result), .summary = json_incref(summary),
                         .used_ms = now_ms()};
}

/* The reply of a review in state status (result: its JSON when done). */
static char *review_reply(const char *status, const char *result, const active_review *a)
{
    json_t *r = result ? json_loads(result, 0, NULL) : NULL;
    json_t *out = json_object();
    json_object_set_new(out, "status", json_string(status));
    if (r && strcmp(status, "done") == 0) {
        json_object_update(out, r);
    } else {
        if (r) /* failed: why */
            json_object_set(out, "error", json_object_get(r, "error"));
        json_object_set_new(out, "decisions", json_array());
        json_object_set_new(out, "summary", json_null());
        if (a) /* this node searches it: how far */
            json_object_set_new(out, "progress", json_pack("{s:i,s:i}", "searched", a->searched, "decisions", a->count));
    }
    json_decref(r);
    char *text = json_dumps(out, JSON_COMPACT);
    json_decref(out);
    return text;
}

static void ask_done(server *s, review_task *t)
{
    struct reviews *rv = s->reviews;
    srv_error e;
    if (t->status == 404) {
        srv_fail(&e, 404, "not_found", "there is no table %lld", (long long)t->table);
        answer_waiter(s, t->serial, 0, NULL, NULL, &e);
        return;
    }
    if (t->status == 400) {
        srv_fail(&e, 400, "bad_seat", "seat %d: the table has no such seat", t->seat);
        answer_waiter(s, t->serial, 0, NULL, NULL, &e);
        return;
    }
    if (t->status == 503) {
        srv_fail(&e, 503, "busy", "too many reviews are queued: ask again later (--max-queued-reviews)");
        answer_waiter(s, t->serial, 0, NULL, NULL, &e);
        return;
    }
    if (t->status) {
        srv_fail(&e, 500, "internal", "the review could not be read: %s", t->err.message);
        answer_waiter(s, t->serial, 0, NULL, NULL, &e);
        return;
    }
    if (strcmp(t->row.status, "done") == 0)
        cache_put(rv, t->table, t->seat, t->row.result, t->summary);
    const active_review *a = rv->active.plan && rv->active.table == t->table && rv->active.seat == t->seat
                                 ? &rv->active
                                 : NULL;
    if (t->create && strcmp(t->row.status, "queued") == 0)
        rv->look_now = true;
    answer_waiter(s, t->serial, t->create && strcmp(t->row.status, "done") != 0 ? 202 : 200,
                  review_reply(t->row.status, t->row.result, a), NULL, NULL);
}

/* Queue the active review's next decisions, up to the lane's share; once
 * every one is searched, its end. */
static void feed(server *s)
{
    active_review *a = &s->reviews->active;
    if (!a->plan || a->ending)
        return;
    if ((a->failed || a->searched == a->count) && a->in_flight == 0) {
        review_task *t = calloc(1, sizeof *t);
        if (t) {
            *t = (review_task){.kind = TASK_END, .table = a->table, .seat = a->seat, .plan = a->plan,
                               .failed = a->failed, .err = a->err};
            if (a->failed)
                srv_log("review of table %lld seat %d failed: %s", (long long)a->table, a->seat, a->err.message);
            if (task_queued(s, t)) {
                a->ending = true;
                return;
            }
            free(t);
        }
        /* out of memory: the review is dropped here, and its lease lapses into a new try */
        asobi_review_plan_free(a->plan);
        memset(a, 0, sizeof *a);
        s->reviews->look_now = true;
        return;
    }
    while (!a->failed && a->next < a->count && a->in_flight < s->review_share) {
        review_task *t = calloc(1, sizeof *t);
        if (!t)
            return;
        *t = (review_task){.kind = TASK_SEARCH, .table = a->table, .seat = a->seat, .plan = a->plan,
                           .decision = a->next};
        if (!task_queued(s, t)) {
            free(t);
            return;
        }
        a->next++;
        a->in_flight++;
    }
}

void review_task_done(server *s, review_task *t)
{
    struct reviews *rv = s->reviews;
    active_review *a = &rv->active;
    switch (t->kind) {
    case TASK_ASK:
        ask_done(s, t);
        break;
    case TASK_CLAIM:
        rv->claiming = false;
        if (t->plan) {
            *a = (active_review){.table = t->table, .seat = t->seat, .plan = t->plan,
                                 .count = asobi_review_plan_count(t->plan)};
            t->plan = NULL;
            srv_log("review of table %lld seat %d: %d decisions", (long long)a->table, a->seat, a->count);
            feed(s);
        }
        break;
    case TASK_SEARCH:
        a->in_flight--;
        a->searched++;
        if (t->rc != ASOBI_OK && !a->failed) {
            a->failed = true;
            a->err = t->err;
        }
        feed(s);
        break;
    case TASK_END:
        if (t->rc != ASOBI_OK) /* its lease lapses: claimed again later */
            srv_log("review of table %lld seat %d not kept: %s", (long long)t->table, t->seat, t->err.message);
        asobi_review_plan_free(a->plan);
        memset(a, 0, sizeof *a);
        rv->look_now = true;
        break;
    }
    task_free(t);
}

void reviews_tick(server *s, int64_t now)
{
    struct reviews *rv = s->reviews;
    if (!rv || rv->claiming || rv->active.plan || (!rv->look_now && now - rv->claimed_ms < REVIEW_POLL_MS))
        return;
    review_task *t = calloc(1, sizeof *t);
    if (!t)
        return;
    t->kind = TASK_CLAIM;
    if (!task_queued(s, t)) {
        free(t);
        return;
    }
    rv->claiming = true;
    rv->look_now = false;
    rv->claimed_ms = now;
}

bool reviews_start(server *s, asobi_error *err)
{
    s->reviews = calloc(1, sizeof *s->reviews);
    if (!s->reviews)
        return asobi_fail(err, ASOBI_E_NOMEM, "out of memory"), false;
    char node[160];
    snprintf(node, sizeof node, "%s", s->cfg.node ? s->cfg.node : "");
    if (!node[0]) {
        char host[128] = "";
        gethostname(host, sizeof host - 1);
        snprintf(node, sizeof node, "%s-%d", host, (int)getpid());
    }
    s->reviews->store = jobs_store_open(s->cfg.db, node, err);
    return s->reviews->store != NULL;
}

void reviews_free(server *s)
{
    struct reviews *rv = s->reviews;
    if (!rv)
        return;
    asobi_review_plan_free(rv->active.plan);
    for (int i = 0; i < REVIEW_CACHE; i++) {
        free(rv->cache[i].result);
        json_decref(rv->cache[i].summary);
    }
    free(rv->askers);
    jobs_store_close(rv->store);
    free(rv);
    s->reviews = NULL;
}

/* May this address ask one more review now (--reviews-per-hour-per-address, a burst of REVIEW_BURST)? */
#define REVIEW_BURST 3
static bool asker_may(server *s, const limits_address *a, double *retry_after)
{
    struct reviews *rv = s->reviews;
    double rate = s->cfg.reviews_per_hour / 3600.0, now = now_s();
    if (!a || rate <= 0)
        return true;
    asker *found = NULL;
    for (int i = 0; i < rv->n_askers && !found; i++)
        if (memcmp(rv->askers[i].key, a->key, LIMITS_KEY_BYTES) == 0)
            found = &rv->askers[i];
    if (!found) {
        /* forget the addresses whose bucket is full again */
        int kept = 0;
        for (int i = 0; i < rv->n_askers; i++)
            if (!limits_bucket_full(&rv->askers[i].asks, rate, REVIEW_BURST, now))
                rv->askers[kept++] = rv->askers[i];
        rv->n_askers = kept;
        if (kept == REVIEW_ASKERS_MAX)
            return false;
        if (!rv->askers && !(rv->askers = calloc(REVIEW_ASKERS_MAX, sizeof *rv->askers)))
            return false;
        found = &rv->askers[rv->n_askers++];
        memset(found, 0, sizeof *found);
        memcpy(found->key, a->key, LIMITS_KEY_BYTES);
    }
    return limits_bucket_take(&found->asks, rate, REVIEW_BURST, now, retry_after);
}

/* The seat of a request: the body's {"seat":K} (POST) or ?seat=K (GET); -1 when missing or bad. */
static int request_seat(const http_req *r, const char *query)
{
    if (r->post) {
        json_t *body = r->body && !r->body_too_long ? json_loadb(r->body, r->body_len, 0, NULL) : NULL;
        json_t *seat = json_object_get(body, "seat");
        int k = json_is_integer(seat) && json_integer_value(seat) >= 0 && json_integer_value(seat) < ASOBI_MAX_SEATS
                    ? (int)json_integer_value(seat)
                    : -1;
        json_decref(body);
        return k;
    }
    const char *p = query ? strstr(query, "seat=") : NULL;
    if (!p || (p != query && p[-1] != '&'))
        return -1;
    char *end;
    long k = strtol(p + 5, &end, 10);
    return end != p + 5 && (*end == '\0' || *end == '&') && k >= 0 && k < ASOBI_MAX_SEATS ? (int)k : -1;
}

bool reviews_answer(server *s, struct lws *wsi, http_req *r, const char *path, int *rc)
{
    const char *rest = "";
    int64_t id = hall_path_id(r->path, "/api/tables/", &rest);
    if (id <= 0 || strcmp(rest, "/review") != 0)
        return false;
    srv_error e;
    const char *query = strchr(path, '?');
    int seat = request_seat(r, query ? query + 1 : NULL);
    char header[HALL_SECRET_CAP] = "", secret[HALL_SECRET_CAP] = "";
    int n = lws_hdr_custom_copy(wsi, header, sizeof header, "x-asobi-code:", 13);
    hall_request_secret(query ? query + 1 : NULL, n > 0 ? header : NULL, secret, sizeof secret);
    if (seat < 0) {
        srv_fail(&e, 400, "bad_request", r->post ? "the body is {\"seat\":K}" : "seat=K names the seat reviewed");
        *rc = http_refuse(s, wsi, r, &e);
        return true;
    }
    cached_review *c = cache_find(s->reviews, id, seat);
    if (c && table_summary_readable(c->summary, secret[0] ? secret : NULL)) {
        c->used_ms = now_ms(); /* asked again: from memory, no worker, no database */
        *rc = http_answer(s, wsi, r, 200, review_reply("done", c->result, NULL), NULL);
        return true;
    }
    limits_address *a = client_address(wsi);
    double retry_after = 0;
    if (r->post && !asker_may(s, a, &retry_after)) {
        r->retry_after = (int)retry_after + 1;
        srv_fail(&e, 429, "rate_limited",
                 "too many reviews asked from your address: try again in %d s (--reviews-per-hour-per-address)",
                 r->retry_after);
        *rc = http_refuse(s, wsi, r, &e);
        return true;
    }
    review_task *t = calloc(1, sizeof *t);
    uint64_t serial = t ? http_wait(s, wsi, r) : 0;
    if (!serial) {
        free(t);
        return *rc = -1, true;
    }
    *t = (review_task){.kind = TASK_ASK, .table = id, .seat = seat, .create = r->post, .serial = serial,
                       .max_pending = s->cfg.max_queued_reviews};
    snprintf(t->secret, sizeof t->secret, "%s", secret);
    if (!task_queued(s, t)) {
        http_waiting(s, serial);
        free(t);
        return *rc = -1, true;
    }
    r->answer_later = true;
    *rc = 0;
    return true;
}

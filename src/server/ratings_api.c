/* ratings_api.c — GET /api/players/NAME (a profile) and GET /api/leaderboard/GAME, read off the loop: PostgreSQL's reader thread, SQLite's on a worker (issue 42). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "server/internal.h"
#include "server/store_backend.h"

/* The reads behind these pages are the store's (store_player,
 * store_leaderboard), and the loop never reads the database. With
 * PostgreSQL the store's reader thread runs them and the request waits
 * (http_wait) until its answer comes back as a store_lookup
 * (http_lookup_done, then here again with r->found). With SQLite a
 * fast-lane worker reads the file on a connection of the workers' own
 * (ratings_reader: one, opened by the first read, taken in turn), and the
 * loop answers the waiting request when the job is back (answer_waiter),
 * as reviews.c reads its job table. Each address reads at most
 * --profile-reads-per-second-per-address (a burst of three seconds'). */

/* A read on a worker: what it asks, and what it brings back. */
typedef struct ratings_read {
    uint64_t serial; /* the waiting request */
    bool player;     /* a profile (key: the name), else a leaderboard (key: the game) */
    char key[32];
    int64_t before;
    char what[64]; /* "player NAME", "game GAME": what a 404 says is missing */
    int rc;        /* store_read_player's or store_read_leaderboard's */
    json_t *body;
    asobi_error err;
} ratings_read;

struct ratings_reader {
    pthread_mutex_t lock;
    sqlite3 *db; /* read-only; NULL until the first read opens it */
};

/* A name as accounts are named: 1 to 20 of letters, digits, '_' and '-'
 * (anything else names nobody, and is refused before any read). */
static bool name_shaped(const char *name)
{
    size_t n = strlen(name);
    return n >= 1 && n <= 20 && strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

/* ?before=N: the table number the games listed start below (0: the newest); -1 when it is not a number. */
static int64_t before_of(const char *path)
{
    const char *query = strchr(path, '?');
    const char *at = query ? strstr(query, "before=") : NULL;
    if (!at || (at[-1] != '?' && at[-1] != '&'))
        return 0;
    char *end;
    long long n = strtoll(at + 7, &end, 10);
    return end == at + 7 || (*end && *end != '&') || n < 0 ? -1 : (int64_t)n;
}

/* A read's reply: its JSON text (body taken), or NULL and the refusal e. */
static char *reply_of(int rc, json_t *body, const asobi_error *err, const char *what, srv_error *e)
{
    char *text = rc == ASOBI_OK && body ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    if (text)
        return text;
    if (rc == ASOBI_E_BAD_ARGUMENT)
        srv_fail(e, 404, "not_found", "there is no %s", what);
    else
        srv_fail(e, 500, "internal", "%s", err && err->message[0] ? err->message : "the ratings could not be read");
    return NULL;
}

static int answer(server *s, struct lws *wsi, http_req *r, int rc, json_t *body, const asobi_error *err,
                  const char *what)
{
    srv_error e;
    char *text = reply_of(rc, body, err, what, &e);
    return text ? http_answer(s, wsi, r, 200, text, NULL) : http_refuse(s, wsi, r, &e);
}

void ratings_read_run(server *s, ratings_read *j)
{
    struct ratings_reader *rd = s->ratings_reader;
    pthread_mutex_lock(&rd->lock);
    if (!rd->db) {
        if (sqlite3_open_v2(s->cfg.db, &rd->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) == SQLITE_OK) {
            sqlite3_busy_timeout(rd->db, 2000);
        } else {
            j->rc = asobi_fail(&j->err, ASOBI_E_IO, "database: %s: %s", s->cfg.db, sqlite3_errmsg(rd->db));
            sqlite3_close(rd->db);
            rd->db = NULL;
        }
    }
    if (rd->db)
        j->rc = store_sqlite_ratings_read(rd->db, j->player ? j->key : NULL, j->player ? NULL : j->key, j->before,
                                          &j->body, &j->err);
    pthread_mutex_unlock(&rd->lock);
}

void ratings_read_done(server *s, ratings_read *j)
{
    srv_error e;
    char *text = reply_of(j->rc, j->body, &j->err, j->what, &e);
    j->body = NULL;
    answer_waiter(s, j->serial, 200, text, NULL, text ? NULL : &e);
    ratings_read_free(j);
}

void ratings_read_free(ratings_read *j)
{
    if (j)
        json_decref(j->body);
    free(j);
}

void ratings_reader_free(server *s)
{
    struct ratings_reader *rd = s->ratings_reader;
    if (!rd)
        return;
    sqlite3_close(rd->db);
    pthread_mutex_destroy(&rd->lock);
    free(rd);
    s->ratings_reader = NULL;
}

/* A worker's read of SQLite for the request waiting under serial: false when out of memory. */
static bool read_queued(server *s, uint64_t serial, bool player, const char *key, int64_t before, const char *what)
{
    if (!s->ratings_reader) {
        struct ratings_reader *rd = calloc(1, sizeof *rd);
        if (!rd)
            return false;
        pthread_mutex_init(&rd->lock, NULL);
        s->ratings_reader = rd;
    }
    ratings_read *j = calloc(1, sizeof *j);
    job_node *node = j ? calloc(1, sizeof *node) : NULL;
    if (!node) {
        free(j);
        return false;
    }
    *j = (ratings_read){.serial = serial, .player = player, .before = before};
    snprintf(j->key, sizeof j->key, "%s", key);
    snprintf(j->what, sizeof j->what, "%s", what);
    node->ratings = j;
    if (!queue_fast(s, node)) {
        free(node);
        free(j);
        return false;
    }
    return true;
}

bool ratings_answer(server *s, struct lws *wsi, http_req *r, const char *path, int *rc)
{
    bool player = strncmp(r->path, "/api/players/", 13) == 0;
    bool board = strncmp(r->path, "/api/leaderboard/", 17) == 0;
    if (r->post || (!player && !board))
        return false;
    const char *key = r->path + (player ? 13 : 17);
    const asobi_game_def *def = board ? asobi_game_find(key) : NULL;
    char what[64];
    snprintf(what, sizeof what, "%s %.24s", player ? "player" : "game", key);
    int64_t before = player ? before_of(path) : 0;
    srv_error e;
    limits_address *a = client_address(wsi);
    double retry_after = 0;
    if (!r->looked_up && a && !limits_profile_read(&s->limits, a, now_s(), &retry_after)) {
        r->retry_after = (int)retry_after + 1;
        srv_fail(&e, 429, "rate_limited",
                 "too many profiles and leaderboards asked from your address: try again in %d s "
                 "(--profile-reads-per-second-per-address)",
                 r->retry_after);
        return *rc = http_refuse(s, wsi, r, &e), true;
    }
    if (before < 0) {
        srv_fail(&e, 400, "bad_request", "before=N takes a table number");
        return *rc = http_refuse(s, wsi, r, &e), true;
    }
    if ((player && !name_shaped(key)) || (board && (!def || strcmp(asobi_game_name(def), key) != 0)))
        return *rc = answer(s, wsi, r, ASOBI_E_BAD_ARGUMENT, NULL, NULL, what), true;
    if (r->looked_up) { /* the reader thread's answer (PostgreSQL) */
        json_t *body = r->found.answer;
        r->found.answer = NULL;
        return *rc = answer(s, wsi, r, r->found.answer_rc, body, NULL, what), true;
    }
    uint64_t n = http_wait(s, wsi, r);
    if (n && store_ratings_read_start(s->store, player ? key : NULL, board ? key : NULL, before, (void *)(uintptr_t)n)) {
        r->answer_later = true;
        return *rc = 0, true;
    }
    if (n && read_queued(s, n, player, key, before, what)) { /* SQLite: a worker reads it */
        r->answer_later = true;
        return *rc = 0, true;
    }
    if (n)
        http_waiting(s, n);
    srv_fail(&e, 500, "no_memory", "out of memory");
    return *rc = http_refuse(s, wsi, r, &e), true;
}

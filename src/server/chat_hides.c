/* chat_hides.c — operators' chat hides reach a running server: a thread polls the store's chat_hides news on a connection of its own and hands it to the loop (chat.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "server/chat.h"
#include "server/internal.h"
#include "server/store_backend.h"

#define NEWS_PER_READ 500 /* rows per poll: a long backlog (the first read) comes in slices */
#define NEWS_LIMIT " ORDER BY seq LIMIT 500" /* ... in SQL */

typedef struct hide_news {
    int64_t table;
    int index;
} hide_news;

struct chat_hides {
    server *s;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool stop;
    hide_news *news; /* read, not yet drained by the loop */
    int n, cap;
    /* the thread's own */
    sqlite3 *db;
    PGconn *pg;
    int64_t seen; /* the last news read */
};

/* Why a connection of its own: the loop's store connection never waits for
 * a read, and a SQLite one that takes no hold reads beside the server's
 * writes under WAL. A failed read is tried again at the next poll (the
 * connection opened again). */
static bool connect_store(struct chat_hides *h)
{
    const char *where = h->s->cfg.db;
    if (store_is_postgresql(where)) {
        if (h->pg && PQstatus(h->pg) == CONNECTION_OK)
            return true;
        if (h->pg)
            PQfinish(h->pg);
        h->pg = store_pg_connect(where, NULL);
        return h->pg != NULL;
    }
    if (h->db)
        return true;
    if (sqlite3_open_v2(where, &h->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        sqlite3_close(h->db);
        h->db = NULL;
        return false;
    }
    sqlite3_busy_timeout(h->db, 1000);
    return true;
}

/* Append one news under the lock. */
static void keep(struct chat_hides *h, int64_t table_id, int index)
{
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 16;
        hide_news *grown = realloc(h->news, (size_t)cap * sizeof *grown);
        if (!grown)
            return; /* out of memory: this hide waits for the table's next load */
        h->news = grown;
        h->cap = cap;
    }
    h->news[h->n++] = (hide_news){table_id, index};
}

/* Read the news after h->seen into h->news; how many rows came. */
static int read_news(struct chat_hides *h)
{
    int rows = 0;
    char after[24];
    snprintf(after, sizeof after, "%" PRId64, h->seen);
    if (h->pg) {
        const char *params[1] = {after};
        PGresult *r = PQexecParams(h->pg, "SELECT seq, table_id, idx FROM asobi_chat_hides WHERE seq > $1"
                                          NEWS_LIMIT, 1, NULL, params, NULL, NULL, 0);
        if (PQresultStatus(r) == PGRES_TUPLES_OK) {
            rows = PQntuples(r);
            pthread_mutex_lock(&h->lock);
            for (int i = 0; i < rows; i++) {
                h->seen = strtoll(PQgetvalue(r, i, 0), NULL, 10);
                keep(h, strtoll(PQgetvalue(r, i, 1), NULL, 10), atoi(PQgetvalue(r, i, 2)));
            }
            pthread_mutex_unlock(&h->lock);
        }
        PQclear(r);
        return rows;
    }
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(h->db, "SELECT seq, table_id, idx FROM chat_hides WHERE seq > ?1" NEWS_LIMIT,
                           -1, &q, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_int64(q, 1, h->seen);
    pthread_mutex_lock(&h->lock);
    while (sqlite3_step(q) == SQLITE_ROW) {
        h->seen = sqlite3_column_int64(q, 0);
        keep(h, sqlite3_column_int64(q, 1), sqlite3_column_int(q, 2));
        rows++;
    }
    pthread_mutex_unlock(&h->lock);
    sqlite3_finalize(q);
    return rows;
}

static void *poll_main(void *arg)
{
    struct chat_hides *h = arg;
    pthread_mutex_lock(&h->lock);
    while (!h->stop) {
        pthread_mutex_unlock(&h->lock);
        int rows = connect_store(h) ? read_news(h) : 0;
        pthread_mutex_lock(&h->lock);
        if (rows > 0 && !h->stop)
            lws_cancel_service(h->s->context); /* the loop drains (chat_hides_drain) */
        if (rows == NEWS_PER_READ)
            continue; /* more waiting: read on at once */
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += CHAT_HIDES_POLL_MS / 1000;
        until.tv_nsec += (long)(CHAT_HIDES_POLL_MS % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        while (!h->stop && pthread_cond_timedwait(&h->wake, &h->lock, &until) != ETIMEDOUT)
            ;
    }
    pthread_mutex_unlock(&h->lock);
    return NULL;
}

bool chat_hides_start(server *s, char *why, size_t cap)
{
    /* a database in memory is this process's alone: nobody else can hide */
    if (!s->cfg.db || !*s->cfg.db || strcmp(s->cfg.db, ":memory:") == 0)
        return true;
    struct chat_hides *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(why, cap, "chat hides: out of memory");
        return false;
    }
    h->s = s;
    pthread_mutex_init(&h->lock, NULL);
    pthread_cond_init(&h->wake, NULL);
    if (pthread_create(&h->thread, NULL, poll_main, h) != 0) {
        snprintf(why, cap, "chat hides: cannot start a thread");
        pthread_cond_destroy(&h->wake);
        pthread_mutex_destroy(&h->lock);
        free(h);
        return false;
    }
    s->chat_hides = h;
    return true;
}

void chat_hides_stop(server *s)
{
    struct chat_hides *h = s->chat_hides;
    if (!h)
        return;
    pthread_mutex_lock(&h->lock);
    h->stop = true;
    pthread_cond_signal(&h->wake);
    pthread_mutex_unlock(&h->lock);
    pthread_join(h->thread, NULL);
    sqlite3_close(h->db);
    if (h->pg)
        PQfinish(h->pg);
    pthread_cond_destroy(&h->wake);
    pthread_mutex_destroy(&h->lock);
    free(h->news);
    free(h);
    s->chat_hides = NULL;
}

void chat_hides_drain(server *s)
{
    struct chat_hides *h = s->chat_hides;
    if (!h)
        return;
    pthread_mutex_lock(&h->lock);
    hide_news *news = h->news;
    int n = h->n;
    h->news = NULL;
    h->n = h->cap = 0;
    pthread_mutex_unlock(&h->lock);
    for (int i = 0; i < n; i++)
        chat_hidden(s, news[i].table, news[i].index);
    free(news);
}

/* jobs_store.c — the job table of jobs_store.h on SQLite (one node) or PostgreSQL (several), on a connection of its own. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "server/jobs_store.h"
#include "server/store_backend.h"

/* The schema, the same columns in both databases (this block is the jobs
 * store's own; the tables' schema stays store_sqlite.c's and store_pg.c's).
 * lease_until: SQLite, milliseconds of the wall clock (one node: its own
 * clock); PostgreSQL, the database's clock, which every node shares. */
static const char *const sqlite_schema =
    "PRAGMA journal_mode=WAL;"
    "CREATE TABLE IF NOT EXISTS asobi_jobs(kind TEXT NOT NULL, key TEXT NOT NULL, args TEXT NOT NULL,"
    "  status TEXT NOT NULL, node TEXT, lease_until INTEGER, result TEXT, asked INTEGER NOT NULL,"
    "  PRIMARY KEY(kind, key));"
    "CREATE INDEX IF NOT EXISTS asobi_jobs_pending ON asobi_jobs(kind, status, asked);";
static const char *const pg_schema =
    "SELECT pg_advisory_lock(7334902);"
    "CREATE TABLE IF NOT EXISTS asobi_jobs(id BIGSERIAL, kind TEXT NOT NULL, key TEXT NOT NULL, args TEXT NOT NULL,"
    "  status TEXT NOT NULL, node TEXT, lease_until TIMESTAMPTZ, result TEXT, PRIMARY KEY(kind, key));"
    "CREATE INDEX IF NOT EXISTS asobi_jobs_pending ON asobi_jobs(kind, status, id);"
    "SELECT pg_advisory_unlock(7334902);";

struct jobs_store {
    pthread_mutex_t lock;
    sqlite3 *lite; /* one of the two */
    PGconn *pg;
    char node[128];
};

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int lite_fail(jobs_store *js, asobi_error *err, const char *what)
{
    return asobi_fail(err, ASOBI_E_IO, "jobs store: %s: %s", what, sqlite3_errmsg(js->lite));
}

jobs_store *jobs_store_open(const char *where, const char *node, asobi_error *err)
{
    jobs_store *js = calloc(1, sizeof *js);
    if (!js) {
        asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&js->lock, NULL);
    snprintf(js->node, sizeof js->node, "%s", node ? node : "");
    if (store_is_postgresql(where)) {
        js->pg = store_pg_connect(where, err);
        PGresult *r = js->pg ? PQexec(js->pg, pg_schema) : NULL;
        bool ok = r && PQresultStatus(r) == PGRES_TUPLES_OK;
        if (js->pg && !ok)
            asobi_fail(err, ASOBI_E_IO, "jobs store: %s", PQerrorMessage(js->pg));
        PQclear(r);
        if (!ok) {
            jobs_store_close(js);
            return NULL;
        }
        return js;
    }
    if (sqlite3_open_v2(where, &js->lite, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) !=
            SQLITE_OK ||
        (sqlite3_busy_timeout(js->lite, 2000), sqlite3_exec(js->lite, sqlite_schema, NULL, NULL, NULL)) != SQLITE_OK) {
        lite_fail(js, err, where);
        jobs_store_close(js);
        return NULL;
    }
    return js;
}

void jobs_store_close(jobs_store *js)
{
    if (!js)
        return;
    if (js->pg)
        PQfinish(js->pg);
    if (js->lite)
        sqlite3_close(js->lite);
    pthread_mutex_destroy(&js->lock);
    free(js);
}

void jobs_row_free(jobs_row *row)
{
    free(row->result);
    row->result = NULL;
}

/* PostgreSQL: run a query with text parameters; the result, or NULL with err. */
static PGresult *pg_run(jobs_store *js, const char *sql, int n, const char *const *params, asobi_error *err)
{
    PGresult *r = PQexecParams(js->pg, sql, n, NULL, params, NULL, NULL, 0);
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK)
        return r;
    asobi_fail(err, ASOBI_E_IO, "jobs store: %s", PQerrorMessage(js->pg));
    PQclear(r);
    if (PQstatus(js->pg) != CONNECTION_OK)
        PQreset(js->pg); /* the next call tries a new connection */
    return NULL;
}

/* SQLite: a statement prepared with up to 4 text parameters (NULL: SQL NULL) and one integer (?9). */
static sqlite3_stmt *lite_prepare(jobs_store *js, const char *sql, const char *const *params, int n, int64_t number,
                                  asobi_error *err)
{
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(js->lite, sql, -1, &q, NULL) != SQLITE_OK) {
        lite_fail(js, err, "preparing");
        return NULL;
    }
    for (int i = 0; i < n; i++)
        sqlite3_bind_text(q, i + 1, params[i], -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 9, number);
    return q;
}

static char *dup_or_null(const char *text) { return text ? strdup(text) : NULL; }

int jobs_store_finished_table(jobs_store *js, int64_t id, json_t **summary, json_t **record, asobi_error *err)
{
    *summary = *record = NULL;
    char number[32];
    snprintf(number, sizeof number, "%lld", (long long)id);
    const char *params[1] = {number};
    char *texts[2] = {NULL, NULL};
    int rc = ASOBI_OK;
    pthread_mutex_lock(&js->lock);
    if (js->pg) {
        PGresult *r = pg_run(js, "SELECT summary, record FROM asobi_tables WHERE id = $1 AND finished = 1", 1, params,
                             err);
        if (!r)
            rc = ASOBI_E_IO;
        else if (PQntuples(r) == 1)
            texts[0] = strdup(PQgetvalue(r, 0, 0)), texts[1] = strdup(PQgetvalue(r, 0, 1));
        PQclear(r);
    } else {
        /* ":memory:" has no table of records (a database of its own): no table found */
        sqlite3_stmt *q = NULL;
        if (sqlite3_prepare_v2(js->lite, "SELECT summary, record FROM tables WHERE id = ?1 AND finished = 1", -1, &q,
                               NULL) == SQLITE_OK) {
            sqlite3_bind_int64(q, 1, id);
            int step = sqlite3_step(q);
            if (step == SQLITE_ROW) {
                texts[0] = dup_or_null((const char *)sqlite3_column_text(q, 0));
                texts[1] = dup_or_null((const char *)sqlite3_column_text(q, 1));
            } else if (step != SQLITE_DONE) {
                rc = lite_fail(js, err, "reading a record");
            }
        }
        sqlite3_finalize(q);
    }
    pthread_mutex_unlock(&js->lock);
    if (texts[0] && texts[1]) {
        *summary = json_loads(texts[0], 0, NULL);
        *record = json_loads(texts[1], 0, NULL);
    }
    free(texts[0]);
    free(texts[1]);
    return rc;
}

int jobs_store_pending(jobs_store *js, const char *kind, int *count, asobi_error *err)
{
    const char *params[1] = {kind};
    int rc = ASOBI_OK;
    *count = 0;
    pthread_mutex_lock(&js->lock);
    if (js->pg) {
        PGresult *r = pg_run(js, "SELECT count(*) FROM asobi_jobs WHERE kind = $1 AND status IN ('queued','running')",
                             1, params, err);
        if (r)
            *count = atoi(PQgetvalue(r, 0, 0));
        else
            rc = ASOBI_E_IO;
        PQclear(r);
    } else {
        sqlite3_stmt *q = lite_prepare(
            js, "SELECT count(*) FROM asobi_jobs WHERE kind = ?1 AND status IN ('queued','running')", params, 1, 0, err);
        if (q && sqlite3_step(q) == SQLITE_ROW)
            *count = sqlite3_column_int(q, 0);
        else
            rc = q ? lite_fail(js, err, "counting jobs") : ASOBI_E_IO;
        sqlite3_finalize(q);
    }
    pthread_mutex_unlock(&js->lock);
    return rc;
}

int jobs_store_ask(jobs_store *js, const char *kind, const char *key, const char *args, bool create, jobs_row *row,
                   asobi_error *err)
{
    memset(row, 0, sizeof *row);
    const char *params[3] = {kind, key, args};
    int rc = ASOBI_OK;
    pthread_mutex_lock(&js->lock);
    if (js->pg) {
        PGresult *r = create ? pg_run(js,
                                      "INSERT INTO asobi_jobs(kind, key, args, status) VALUES($1, $2, $3, 'queued')"
                                      " ON CONFLICT DO NOTHING",
                                      3, params, err)
                             : (PGresult *)1;
        if (r && r != (PGresult *)1)
            PQclear(r);
        r = r ? pg_run(js, "SELECT status, result FROM asobi_jobs WHERE kind = $1 AND key = $2", 2, params, err) : NULL;
        if (!r)
            rc = ASOBI_E_IO;
        else if (PQntuples(r) == 1) {
            snprintf(row->status, sizeof row->status, "%s", PQgetvalue(r, 0, 0));
            row->result = PQgetisnull(r, 0, 1) ? NULL : strdup(PQgetvalue(r, 0, 1));
        }
        PQclear(r);
    } else {
        sqlite3_stmt *q = create ? lite_prepare(js,
                                                "INSERT OR IGNORE INTO asobi_jobs(kind, key, args, status, asked)"
                                                " VALUES(?1, ?2, ?3, 'queued', ?9)",
                                                params, 3, wall_ms(), err)
                                 : NULL;
        if (create && (!q || sqlite3_step(q) != SQLITE_DONE))
            rc = q ? lite_fail(js, err, "queueing a job") : ASOBI_E_IO;
        sqlite3_finalize(q);
        q = rc == ASOBI_OK ? lite_prepare(js, "SELECT status, result FROM asobi_jobs WHERE kind = ?1 AND key = ?2",
                                          params, 2, 0, err)
                           : NULL;
        int step = q ? sqlite3_step(q) : SQLITE_ERROR;
        if (step == SQLITE_ROW) {
            snprintf(row->status, sizeof row->status, "%s", (const char *)sqlite3_column_text(q, 0));
            row->result = dup_or_null((const char *)sqlite3_column_text(q, 1));
        } else if (step != SQLITE_DONE && rc == ASOBI_OK) {
            rc = q ? lite_fail(js, err, "reading a job") : ASOBI_E_IO;
        }
        sqlite3_finalize(q);
    }
    pthread_mutex_unlock(&js->lock);
    return rc;
}

bool jobs_store_claim(jobs_store *js, const char *kind, int64_t lease_ms, char **key, char **args, asobi_error *err)
{
    *key = *args = NULL;
    char lease[32];
    snprintf(lease, sizeof lease, "%lld", (long long)lease_ms);
    const char *params[3] = {kind, js->node, lease};
    pthread_mutex_lock(&js->lock);
    if (js->pg) {
        /* the oldest job nobody holds; a row another node is claiming at
         * this instant is skipped, not waited for */
        PGresult *r = pg_run(js,
                             "UPDATE asobi_jobs j SET status = 'running', node = $2,"
                             " lease_until = clock_timestamp() + $3 * interval '1 millisecond'"
                             " FROM (SELECT kind, key FROM asobi_jobs WHERE kind = $1 AND (status = 'queued' OR"
                             " (status = 'running' AND lease_until < clock_timestamp())) ORDER BY id LIMIT 1"
                             " FOR UPDATE SKIP LOCKED) c WHERE j.kind = c.kind AND j.key = c.key"
                             " RETURNING j.key, j.args",
                             3, params, err);
        if (r && PQntuples(r) == 1) {
            *key = strdup(PQgetvalue(r, 0, 0));
            *args = strdup(PQgetvalue(r, 0, 1));
        }
        PQclear(r);
    } else {
        int64_t now = wall_ms();
        sqlite3_stmt *q = lite_prepare(js,
                                       "UPDATE asobi_jobs SET status = 'running', node = ?2, lease_until = ?9"
                                       " WHERE rowid = (SELECT rowid FROM asobi_jobs WHERE kind = ?1 AND"
                                       " (status = 'queued' OR (status = 'running' AND lease_until < ?3))"
                                       " ORDER BY asked LIMIT 1) RETURNING key, args",
                                       (const char *[]){kind, js->node, NULL}, 2, now + lease_ms, err);
        if (q)
            sqlite3_bind_int64(q, 3, now);
        if (q && sqlite3_step(q) == SQLITE_ROW) {
            *key = dup_or_null((const char *)sqlite3_column_text(q, 0));
            *args = dup_or_null((const char *)sqlite3_column_text(q, 1));
        }
        sqlite3_finalize(q);
    }
    pthread_mutex_unlock(&js->lock);
    if (*key && *args)
        return true;
    free(*key);
    free(*args);
    *key = *args = NULL;
    return false;
}

/* One write that reads nothing back, in the store's dialect: PG_SQL with
 * PARAMS ($1..$n), or LITE_SQL with the first LITE_N of them (?1..) and
 * NUMBER as ?9; WHAT names it in a failure. */
static int write_row(jobs_store *js, const char *pg_sql, const char *lite_sql, const char *const *params, int n,
                     int lite_n, int64_t number, const char *what, asobi_error *err)
{
    int rc = ASOBI_OK;
    pthread_mutex_lock(&js->lock);
    if (js->pg) {
        PGresult *r = pg_run(js, pg_sql, n, params, err);
        rc = r ? ASOBI_OK : ASOBI_E_IO;
        PQclear(r);
    } else {
        sqlite3_stmt *q = lite_prepare(js, lite_sql, params, lite_n, number, err);
        if (!q || sqlite3_step(q) != SQLITE_DONE)
            rc = q ? lite_fail(js, err, what) : ASOBI_E_IO;
        sqlite3_finalize(q);
    }
    pthread_mutex_unlock(&js->lock);
    return rc;
}

int jobs_store_renew(jobs_store *js, const char *kind, const char *key, int64_t lease_ms, asobi_error *err)
{
    char lease[32];
    snprintf(lease, sizeof lease, "%lld", (long long)lease_ms);
    const char *params[4] = {kind, key, js->node, lease};
    return write_row(js,
                     "UPDATE asobi_jobs SET lease_until = clock_timestamp() + $4 * interval '1 millisecond'"
                     " WHERE kind = $1 AND key = $2 AND node = $3 AND status = 'running'",
                     "UPDATE asobi_jobs SET lease_until = ?9 WHERE kind = ?1 AND key = ?2"
                     " AND node = ?3 AND status = 'running'",
                     params, 4, 3, wall_ms() + lease_ms, "renewing a lease", err);
}

int jobs_store_end(jobs_store *js, const char *kind, const char *key, const char *status, const char *result,
                   asobi_error *err)
{
    const char *params[4] = {kind, key, status, result};
    /* a job done twice (its lease lapsed and another node ran it too) keeps the first result */
    return write_row(js,
                     "UPDATE asobi_jobs SET status = $3, result = $4, lease_until = NULL"
                     " WHERE kind = $1 AND key = $2 AND status <> 'done'",
                     "UPDATE asobi_jobs SET status = ?3, result = ?4, lease_until = NULL"
                     " WHERE kind = ?1 AND key = ?2 AND status <> 'done'",
                     params, 4, 4, 0, "ending a job", err);
}

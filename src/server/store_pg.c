/* store_pg.c — the store (store.h) in PostgreSQL (libpq): writes committed by a store thread, tables owned by nodes under fenced leases. */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "server/store_backend.h"

/* How it works (docs/server.md, "Several nodes")
 * ---------------------------------------------
 * The loop never waits on the network for a write. A write (a table, a
 * seat, an action, a finish) is appended to the open batch, a JSON array in
 * memory. store_commit_start hands the batch to the store thread, which
 * sends it as one statement, asobi_apply(node, lease, epochs, writes): one
 * round trip and one transaction per loop turn, whatever the number of
 * actions in it. The loop sends nothing while a batch is not committed
 * (store_settled), and the thread wakes it when one is.
 *
 * Ownership: every unfinished table has a lease row (table, node, epoch,
 * expiry). The node that creates a table holds its lease at epoch 1; the
 * thread renews all of its node's leases in one statement every third of
 * the lease (the heartbeat), and the node stops serving its tables at once
 * when its leases may have lapsed (valid_until, on the loop's clock). A
 * lapsed lease is taken by a live node, which raises the epoch.
 *
 * Fencing: asobi_apply checks, in the transaction that writes, that every
 * table written is still leased to this node at the epoch it holds, and
 * locks those lease rows (FOR SHARE) until it commits, so a takeover waits
 * for the commit and then sees every action in it. A node paused past its
 * lease (kill -STOP) that wakes up writes nothing: its writes to the tables
 * taken meanwhile are dropped and the tables reported lost, and since
 * nothing is sent before its batch commits, nobody heard of them.
 *
 * Cross-node events: a node's tables' lobby entries are kept in the
 * database (asobi_listing), written at most once per LISTING_EVERY_MS with
 * one NOTIFY asobi_tables (never once per action); the other nodes re-read
 * them when notified. */

#define ID_BLOCK 32            /* table ids reserved at once (the sequence counts in blocks) */
#define NOTIFY_CHANNEL "asobi_tables"

static const char *const schema =
    "SELECT pg_advisory_lock(7334901);"
    "CREATE SEQUENCE IF NOT EXISTS asobi_table_ids INCREMENT BY 32;"
    "CREATE TABLE IF NOT EXISTS asobi_tables(id BIGINT PRIMARY KEY, spec TEXT NOT NULL,"
    "  finished INT NOT NULL DEFAULT 0, summary TEXT, record TEXT);"
    "CREATE TABLE IF NOT EXISTS asobi_seats(table_id BIGINT NOT NULL, seat INT NOT NULL, name TEXT NOT NULL,"
    "  token_hash TEXT NOT NULL, PRIMARY KEY(table_id, seat));"
    "CREATE TABLE IF NOT EXISTS asobi_actions(table_id BIGINT NOT NULL, idx INT NOT NULL, seat INT NOT NULL,"
    "  action TEXT NOT NULL, by TEXT NOT NULL, clock_ms BIGINT NOT NULL, epoch BIGINT NOT NULL,"
    "  PRIMARY KEY(table_id, idx));"
    "CREATE TABLE IF NOT EXISTS asobi_nodes(id TEXT PRIMARY KEY, url TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL);"
    "CREATE TABLE IF NOT EXISTS asobi_leases(table_id BIGINT PRIMARY KEY, node TEXT NOT NULL,"
    "  epoch BIGINT NOT NULL, expires TIMESTAMPTZ NOT NULL);"
    "CREATE INDEX IF NOT EXISTS asobi_leases_node ON asobi_leases(node);"
    "CREATE TABLE IF NOT EXISTS asobi_listing(table_id BIGINT PRIMARY KEY, node TEXT NOT NULL, entry TEXT NOT NULL);"
    /* Ratings (issue 42; store.h, "Ratings"; store_ratings.c) */
    "CREATE TABLE IF NOT EXISTS asobi_ratings(account BIGINT NOT NULL, game TEXT NOT NULL, name TEXT NOT NULL,"
    "  mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL, games INT NOT NULL, PRIMARY KEY(account, game));"
    "CREATE INDEX IF NOT EXISTS asobi_ratings_board ON asobi_ratings(game, (mu - 3 * sigma));"
    "CREATE TABLE IF NOT EXISTS asobi_rating_history(table_id BIGINT NOT NULL, account BIGINT NOT NULL,"
    "  game TEXT NOT NULL, name TEXT NOT NULL, seat INT NOT NULL, rank INT NOT NULL,"
    "  mu_before DOUBLE PRECISION NOT NULL, sigma_before DOUBLE PRECISION NOT NULL, mu DOUBLE PRECISION NOT NULL,"
    "  sigma DOUBLE PRECISION NOT NULL, games INT NOT NULL, PRIMARY KEY(table_id, account));"
    "CREATE INDEX IF NOT EXISTS asobi_rating_history_account ON asobi_rating_history(account, table_id);"
    "CREATE TABLE IF NOT EXISTS asobi_bot_records(account BIGINT NOT NULL, game TEXT NOT NULL, level TEXT NOT NULL,"
    "  wins INT NOT NULL, losses INT NOT NULL, draws INT NOT NULL, PRIMARY KEY(account, game, level));"
    /* One batch of writes, fenced: the tables in p_epochs must be leased to
     * p_node at those epochs (and not expired), checked under a share lock
     * held to the commit; the writes to any other table are dropped and the
     * table is returned. New tables ("table") get their lease here. The
     * row is locked first and checked after: a check made in the query's
     * WHERE runs before a wait for the lock (another transaction holding
     * the row) and is not made again when the row comes back unchanged; and
     * the expiry is compared with clock_timestamp(), not now(), the time the
     * transaction began. (test_cluster's STOP/CONT test found both.) */
    "CREATE OR REPLACE FUNCTION asobi_apply(p_node TEXT, p_lease_ms BIGINT, p_epochs JSON, p_writes JSON)"
    "  RETURNS BIGINT[] LANGUAGE plpgsql AS $$\n"
    "DECLARE fenced BIGINT[] := '{}'; w JSON; e RECORD; l asobi_leases; t BIGINT; ep BIGINT;\n"
    "BEGIN\n"
    "  FOR w IN SELECT * FROM json_array_elements(p_writes) LOOP\n"
    "    IF w->>'op' = 'table' THEN\n"
    "      INSERT INTO asobi_tables(id, spec) VALUES ((w->>'t')::BIGINT, w->>'spec');\n"
    "      INSERT INTO asobi_leases VALUES ((w->>'t')::BIGINT, p_node, 1,"
    "        now() + p_lease_ms * interval '1 millisecond');\n"
    "    END IF;\n"
    "  END LOOP;\n"
    "  FOR e IN SELECT key::BIGINT AS id, value::TEXT::BIGINT AS epoch FROM json_each(p_epochs) LOOP\n"
    "    SELECT * INTO l FROM asobi_leases WHERE table_id = e.id FOR SHARE;\n"
    "    IF NOT FOUND OR l.node <> p_node OR l.epoch <> e.epoch OR l.expires <= clock_timestamp() THEN\n"
    "      fenced := fenced || e.id;\n"
    "    END IF;\n"
    "  END LOOP;\n"
    "  FOR w IN SELECT * FROM json_array_elements(p_writes) LOOP\n"
    "    t := (w->>'t')::BIGINT;\n"
    "    CONTINUE WHEN w->>'op' = 'table' OR (t = ANY(fenced) AND w->>'op' <> 'rematch');\n"
    "    ep := COALESCE((p_epochs->>(t::TEXT))::BIGINT, 1);\n"
    "    CASE w->>'op'\n"
    "    WHEN 'seat' THEN INSERT INTO asobi_seats VALUES (t, (w->>'seat')::INT, w->>'name', w->>'hash');\n"
    "    WHEN 'leave' THEN UPDATE asobi_seats SET token_hash = '' WHERE table_id = t AND seat = (w->>'seat')::INT;\n"
    /* accounts (issue 42): the signed-in person who took a seat */
    "    WHEN 'seat_account' THEN UPDATE asobi_seats SET account_id = (w->>'account')::BIGINT"
    "      WHERE table_id = t AND seat = (w->>'seat')::INT;\n"
    "    WHEN 'action' THEN INSERT INTO asobi_actions VALUES (t, (w->>'i')::INT, (w->>'seat')::INT,"
    "      w->>'action', w->>'by', (w->>'clock')::BIGINT, ep);\n"
    "    WHEN 'finish' THEN UPDATE asobi_tables SET finished = 1, summary = w->>'summary', record = w->>'record'"
    "      WHERE id = t; DELETE FROM asobi_leases WHERE table_id = t; DELETE FROM asobi_listing WHERE table_id = t;\n"
    "    WHEN 'expire' THEN UPDATE asobi_tables SET finished = 2 WHERE id = t AND finished = 0;"
    "      DELETE FROM asobi_leases WHERE table_id = t; DELETE FROM asobi_listing WHERE table_id = t;\n"
    "    WHEN 'rematch' THEN UPDATE asobi_tables SET summary = jsonb_set(summary::JSONB, '{rematch}',"
    "      to_jsonb((w->>'rematch')::BIGINT))::TEXT WHERE id = t AND finished = 1;\n"
    "    END CASE;\n"
    "  END LOOP;\n"
    "  RETURN fenced;\n"
    "END $$;"
    /* A node's lobby entries replace those it published before; the other nodes hear it. */
    "CREATE OR REPLACE FUNCTION asobi_publish(p_node TEXT, p_entries JSON) RETURNS VOID LANGUAGE plpgsql AS $$\n"
    "BEGIN\n"
    "  DELETE FROM asobi_listing WHERE node = p_node;\n"
    "  INSERT INTO asobi_listing SELECT (e->>'table')::BIGINT, p_node, e::TEXT FROM json_array_elements(p_entries) e\n"
    "    ON CONFLICT (table_id) DO UPDATE SET node = p_node, entry = EXCLUDED.entry;\n"
    "  PERFORM pg_notify('asobi_tables', p_node);\n"
    "END $$;"
    "SELECT pg_advisory_unlock(7334901);";

/* Ratings' statements that read the accounts' tables (store_accounts.c), as SQLite's. */
#define RATINGS_PG_ACCOUNT "SELECT id, name, closed FROM asobi_accounts WHERE name_key = lower($1)"
#define RATINGS_PG_GAMES                                                                                              \
    "SELECT s.table_id, t.summary, s.seat, h.game, h.mu_before, h.sigma_before, h.mu, h.sigma"                       \
    " FROM asobi_seats s JOIN asobi_tables t ON t.id = s.table_id AND t.finished = 1"                                \
    " LEFT JOIN asobi_rating_history h ON h.table_id = s.table_id AND h.account = s.account_id"                      \
    " WHERE s.account_id = $1 AND s.table_id < $2 ORDER BY s.table_id DESC LIMIT 20"
/* ... after the accounts' schema, which gives seats their account_id (under the schema's lock: see schema) */
#define RATINGS_PG_INDEX                                                                                              \
    "SELECT pg_advisory_lock(7334901);"                                                                              \
    "CREATE INDEX IF NOT EXISTS asobi_seats_account ON asobi_seats(account_id, table_id);"                           \
    "SELECT pg_advisory_unlock(7334901);"

/* The ratings' statements (store_backend.h's store_rq), as SQLite's. A
 * rating is read FOR UPDATE: two nodes rating one person at once take
 * turns, the second reading what the first wrote. */
static const char *const ratings_queries[STORE_RQ_COUNT] = {
    [STORE_RQ_BOT_RECORD] = "INSERT INTO asobi_bot_records AS b VALUES($1, $2, $3, $4, $5, $6)"
                            " ON CONFLICT(account, game, level) DO UPDATE SET wins = b.wins + EXCLUDED.wins,"
                            " losses = b.losses + EXCLUDED.losses, draws = b.draws + EXCLUDED.draws",
    [STORE_RQ_RATED_ALREADY] = "SELECT 1 FROM asobi_rating_history WHERE table_id = $1 LIMIT 1",
    [STORE_RQ_RATING_SEED] = "INSERT INTO asobi_ratings VALUES($1, $2, $3, 25.0, 25.0 / 3.0, 0) ON CONFLICT DO NOTHING",
    [STORE_RQ_RATING_GET] = "SELECT mu, sigma, games FROM asobi_ratings WHERE account = $1 AND game = $2 FOR UPDATE",
    [STORE_RQ_RATING_PUT] = "UPDATE asobi_ratings SET name = $3, mu = $4, sigma = $5, games = $6"
                            " WHERE account = $1 AND game = $2",
    [STORE_RQ_HISTORY_PUT] = "INSERT INTO asobi_rating_history VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    [STORE_RQ_ACCOUNT] = RATINGS_PG_ACCOUNT,
    [STORE_RQ_RATINGS] = "SELECT game, mu, sigma, games FROM asobi_ratings WHERE account = $1 ORDER BY game",
    [STORE_RQ_GAMES] = RATINGS_PG_GAMES,
    [STORE_RQ_BOTS] = "SELECT game, level, wins, losses, draws FROM asobi_bot_records WHERE account = $1"
                      " ORDER BY game, level",
    [STORE_RQ_HISTORY] = "SELECT game, table_id, mu, sigma FROM asobi_rating_history WHERE account = $1"
                         " ORDER BY table_id DESC LIMIT 2000",
    [STORE_RQ_BOARD] = "SELECT a.name, r.mu, r.sigma, r.games FROM asobi_ratings r JOIN asobi_accounts a"
                       " ON a.id = r.account WHERE r.game = $1 AND r.games >= 10 AND a.closed IS NULL"
                       " ORDER BY r.mu - 3 * r.sigma DESC, r.account LIMIT 100",
};

typedef struct pg_store {
    struct store base; /* its ops: first */
    char node[128];
    char *public_url;
    int64_t lease_ms;
    PGconn *read;  /* the reader thread's connection (and start-up's, and the synchronous reads' of the tests) */
    pthread_mutex_t read_lock; /* one user of `read` at a time */
    PGconn *write; /* the store thread's */
    json_t *batch; /* the writes since the last commit_start (the loop's own) */
    /* the store thread and what it shares with the loop (under lock) */
    pthread_t thread;
    bool thread_started;
    pthread_mutex_t lock;
    pthread_cond_t done; /* a batch committed, or the heartbeat ran */
    int wake_fd;         /* eventfd: the thread's poll wakes for a new batch or a stop */
    json_t *queued;      /* batches handed to the thread, oldest first */
    int in_flight;       /* batches handed and not yet committed */
    uint64_t handed;     /* batches handed to the thread (numbered from 1) */
    uint64_t committed;  /* ... and the number of the last one committed (in order) */
    uint64_t seen;       /* ... as the loop has collected it (pg_collect): what it may send after */
    bool failed;
    char failure[256];
    bool stopping;
    json_t *epochs;           /* {"ID": epoch} of the tables this node owns */
    json_t *given_up;         /* ids of tables taken that could not be restored: let go, never taken again */
    int64_t valid_until_ms;   /* the loop's clock: this node's leases hold until then at least */
    int64_t heartbeat_due_ms; /* the thread's next heartbeat */
    int heartbeats;           /* heartbeats run (load_unfinished waits for one) */
    int64_t next_id, last_id; /* table ids reserved and not yet used */
    int64_t spare_id;         /* a further block's first id (0: none; the thread reserves one) */
    json_t *lost;             /* ids of tables lost since the last collect */
    json_t *claimed;          /* [{"id","spec","seats","actions"}] taken since the last collect */
    bool others_changed;
    json_t *publish;          /* this node's lobby entries to publish (NULL: nothing new) */
    json_t *origins;          /* the live nodes' origins (scheme://host[:port] of their public URLs) */
    json_t *owners;           /* {"ID": 1} of the tables leased to other live nodes, as the last heartbeat read */
    json_t *others;           /* the other nodes' entries, as last read */
    bool others_stale;        /* a NOTIFY came from another node: read them again */
    void (*wake)(void *);
    void *wake_ctx;
    /* the reader thread (store_lookup_start): reads the loop must not wait for */
    pthread_t reader;
    bool reader_started;
    pthread_cond_t read_wanted; /* a lookup was asked, or the store stops */
    store_lookup *asked, *answered; /* (under lock) */
    size_t n_asked, cap_asked, n_answered, cap_answered;
} pg_store;

static const store_ops pg_ops;

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int pg_fail(PGconn *c, asobi_error *err, const char *what)
{
    char msg[200];
    snprintf(msg, sizeof msg, "%s", c ? PQerrorMessage(c) : "no connection");
    msg[strcspn(msg, "\n")] = '\0';
    return asobi_fail(err, ASOBI_E_IO, "database: %s: %s", what, msg);
}

/* Run a statement with text parameters; the result when its status is ok, else NULL (err says why). */
static PGresult *run(PGconn *c, const char *sql, int n, const char *const *params, ExecStatusType ok,
                     asobi_error *err, const char *what)
{
    PGresult *r = PQexecParams(c, sql, n, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(r) == ok)
        return r;
    char msg[200];
    snprintf(msg, sizeof msg, "%s", r ? PQresultErrorMessage(r) : PQerrorMessage(c));
    msg[strcspn(msg, "\n")] = '\0';
    asobi_fail(err, ASOBI_E_IO, "database: %s: %s", what, msg);
    PQclear(r);
    return NULL;
}

static void wake_thread(pg_store *st)
{
    uint64_t one = 1;
    if (write(st->wake_fd, &one, sizeof one) < 0)
        return; /* the counter is full: the thread is awake anyway */
}

static void wake_loop(pg_store *st)
{
    if (st->wake)
        st->wake(st->wake_ctx);
}

static void id_text(char *out, size_t cap, int64_t id) { snprintf(out, cap, "%lld", (long long)id); }

/* ---------------------------------------------------------------------------
 * The store thread: batches, the heartbeat, claims, notifications.
 * ------------------------------------------------------------------------- */
/* The epochs of the tables a batch writes, as this node holds them (0: not
 * held, which the fence refuses); "table" writes are new tables, leased by
 * the batch itself. Under the lock. */
static json_t *epochs_of(pg_store *st, const json_t *batch)
{
    json_t *epochs = json_object(), *w;
    size_t i;
    json_array_foreach(batch, i, w)
    {
        char key[24];
        id_text(key, sizeof key, json_integer_value(json_object_get(w, "t")));
        const char *op = json_string_value(json_object_get(w, "op"));
        if (strcmp(op, "table") == 0)
            json_object_set_new(st->epochs, key, json_integer(1));
        else if (strcmp(op, "rematch") == 0)
            continue; /* a finished table's (no lease any more): whoever holds it in memory notes it */
        else if (!json_object_get(epochs, key)) {
            json_t *held = json_object_get(st->epochs, key);
            json_object_set_new(epochs, key, json_integer(held ? json_integer_value(held) : 0));
        }
    }
    return epochs;
}

/* A table is no longer this node's (under the lock). */
static void lose(pg_store *st, int64_t id)
{
    char key[24];
    id_text(key, sizeof key, id);
    if (json_object_get(st->epochs, key)) {
        json_object_del(st->epochs, key);
        json_array_append_new(st->lost, json_integer(id));
    }
}

/* ---- Ratings: what a finish means for the people who played (store_ratings.c) ---- */

/* store_ratings.c's statements on a connection (ctx). */
static json_t *pg_rows(void *ctx, int query, const char *const *params, int n, asobi_error *err)
{
    PGconn *c = ctx;
    PGresult *r = PQexecParams(c, ratings_queries[query], n, NULL, params, NULL, NULL, 0);
    ExecStatusType status = PQresultStatus(r);
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
        char msg[200];
        snprintf(msg, sizeof msg, "%s", r ? PQresultErrorMessage(r) : PQerrorMessage(c));
        msg[strcspn(msg, "\n")] = '\0';
        asobi_fail(err, ASOBI_E_IO, "database: ratings: %s", msg);
        PQclear(r);
        return NULL;
    }
    json_t *rows = json_array();
    for (int i = 0; i < PQntuples(r); i++) {
        json_t *row = json_array();
        for (int col = 0; col < PQnfields(r); col++)
            json_array_append_new(row, PQgetisnull(r, i, col) ? json_null() : json_string(PQgetvalue(r, i, col)));
        json_array_append_new(rows, row);
    }
    PQclear(r);
    return rows;
}

static bool exec_ok(PGconn *c, const char *sql, asobi_error *err)
{
    PGresult *r = run(c, sql, 0, NULL, PGRES_COMMAND_OK, err, sql);
    PQclear(r);
    return r != NULL;
}

/* A finish's result as the batch carries it (pg_finish) and back: the
 * strings stay the JSON's. */
static json_t *result_json(const store_result *res)
{
    json_t *seats = json_array();
    for (int s = 0; s < res->seats; s++)
        json_array_append_new(seats, json_pack("{s:I, s:s?, s:s?, s:i}", "account", (json_int_t)res->seat[s].account,
                                               "name", res->seat[s].name, "level", res->seat[s].level, "rank",
                                               res->seat[s].rank));
    return json_pack("{s:s, s:b, s:o}", "game", res->game, "rated", res->rated, "seats", seats);
}

static void result_of(const json_t *j, store_result *res)
{
    memset(res, 0, sizeof *res);
    res->game = json_string_value(json_object_get(j, "game"));
    res->rated = json_is_true(json_object_get(j, "rated"));
    size_t i;
    const json_t *seat;
    json_array_foreach(json_object_get(j, "seats"), i, seat)
    {
        if (i >= ASOBI_MAX_SEATS)
            break;
        res->seat[i] = (store_seat_result){json_integer_value(json_object_get(seat, "account")),
                                           json_string_value(json_object_get(seat, "name")),
                                           json_string_value(json_object_get(seat, "level")),
                                           (int)json_integer_value(json_object_get(seat, "rank"))};
        res->seats = (int)i + 1;
    }
}

/* Does the batch finish a table with a result to record? Then it commits
 * in a transaction of its own making: asobi_apply, then the results. */
static bool batch_results(const json_t *batch)
{
    size_t i;
    json_t *w;
    json_array_foreach(batch, i, w) if (json_object_get(w, "result")) return true;
    return false;
}

/* The results of the batch's finishes, inside the transaction asobi_apply
 * ran in, after it: a table it fenced (fenced: its array's text, "{3,7}")
 * was not finished, and gets no result either. The lease rows asobi_apply
 * locked stay locked to the commit, so the node that takes a table over
 * finds it either finished and rated, or neither. */
static bool record_results(pg_store *st, const json_t *batch, const char *fenced, asobi_error *err)
{
    size_t i;
    json_t *w;
    json_array_foreach(batch, i, w)
    {
        const json_t *result = json_object_get(w, "result");
        if (!result)
            continue;
        int64_t t = json_integer_value(json_object_get(w, "t"));
        bool lost = false;
        for (const char *p = fenced; *p;) {
            char *end;
            long long id = strtoll(p, &end, 10);
            if (end == p) {
                p++;
                continue;
            }
            lost |= id == t;
            p = end;
        }
        store_result res;
        result_of(result, &res);
        if (!lost && store_record_result(pg_rows, st->write, t, &res, err) != ASOBI_OK)
            return false;
    }
    return true;
}

/* Commit the batches handed since the last commit, n of them joined in
 * one (the thread): while one commit is on its way, the loop's turns hand
 * over a batch each, and they go together in the next (group commit), so
 * the commits keep up whatever the load. The fenced tables come back as a
 * PostgreSQL array's text, "{3,7}". */
static void commit_batch(pg_store *st, json_t *batch, int n)
{
    pthread_mutex_lock(&st->lock);
    json_t *epochs = epochs_of(st, batch);
    pthread_mutex_unlock(&st->lock);
    char lease[24], *writes = json_dumps(batch, JSON_COMPACT), *held = json_dumps(epochs, JSON_COMPACT);
    id_text(lease, sizeof lease, st->lease_ms);
    const char *params[4] = {st->node, lease, held, writes};
    asobi_error err;
    bool results = batch_results(batch);
    PGresult *r = NULL;
    if (writes && held && (!results || exec_ok(st->write, "BEGIN", &err)))
        r = run(st->write, "SELECT asobi_apply($1, $2, $3, $4)", 4, params, PGRES_TUPLES_OK, &err, "committing");
    if (r && results && (!record_results(st, batch, PQgetvalue(r, 0, 0), &err) || !exec_ok(st->write, "COMMIT", &err))) {
        PQclear(r);
        r = NULL;
    }
    if (!r && results)
        PQclear(PQexec(st->write, "ROLLBACK")); /* nothing of the batch is kept; the server stops (st->failed) */
    if (!writes || !held)
        asobi_fail(&err, ASOBI_E_NOMEM, "out of memory");
    pthread_mutex_lock(&st->lock);
    if (!r) {
        st->failed = true;
        snprintf(st->failure, sizeof st->failure, "%s", err.message);
    } else {
        /* a finished or expired table has no lease any more: no longer held, not lost */
        json_t *w;
        size_t i;
        json_array_foreach(batch, i, w)
        {
            const char *op = json_string_value(json_object_get(w, "op"));
            if (strcmp(op, "finish") == 0 || strcmp(op, "expire") == 0) {
                char key[24];
                id_text(key, sizeof key, json_integer_value(json_object_get(w, "t")));
                json_object_del(st->epochs, key);
            }
        }
        const char *p = PQgetvalue(r, 0, 0);
        while (*p) {
            char *end;
            long long id = strtoll(p, &end, 10);
            if (end != p) {
                lose(st, id);
                p = end;
            } else {
                p++;
            }
        }
    }
    st->in_flight -= n;
    st->committed += (uint64_t)n;
    pthread_cond_broadcast(&st->done);
    pthread_mutex_unlock(&st->lock);
    PQclear(r);
    free(writes);
    free(held);
    json_decref(epochs);
}

/* One table's rows (the thread's connection or the loop's). */
static json_t *rows_of(PGconn *c, bool seats, int64_t table, asobi_error *err)
{
    char id[24];
    id_text(id, sizeof id, table);
    const char *params[1] = {id};
    PGresult *r = run(c,
                      seats ? "SELECT seat, name, token_hash, account_id, claimed FROM asobi_seats WHERE table_id = $1 ORDER BY seat"
                            : "SELECT seat, action, by, clock_ms FROM asobi_actions WHERE table_id = $1 ORDER BY idx",
                      1, params, PGRES_TUPLES_OK, err, seats ? "reading seats" : "reading actions");
    if (!r)
        return NULL;
    json_t *rows = json_array();
    for (int i = 0; i < PQntuples(r); i++) {
        if (seats) {
            json_t *row = json_pack("{s:i, s:s, s:s}", "seat", atoi(PQgetvalue(r, i, 0)), "name",
                                    PQgetvalue(r, i, 1), "token_hash", PQgetvalue(r, i, 2));
            if (row && !PQgetisnull(r, i, 3)) { /* a signed-in person's seat (issue 42) */
                json_object_set_new(row, "account", json_integer(strtoll(PQgetvalue(r, i, 3), NULL, 10)));
                if (atoi(PQgetvalue(r, i, 4)))
                    json_object_set_new(row, "claimed", json_true());
            }
            json_array_append_new(rows, row);
        } else
            json_array_append_new(rows, json_pack("{s:i, s:s, s:s, s:I}", "seat", atoi(PQgetvalue(r, i, 0)),
                                                  "action", PQgetvalue(r, i, 1), "by", PQgetvalue(r, i, 2),
                                                  "clock_ms", (json_int_t)strtoll(PQgetvalue(r, i, 3), NULL, 10)));
    }
    PQclear(r);
    return rows;
}

/* A table just leased to this node: its rows, for the loop to restore (the thread). */
static void take_table(pg_store *st, int64_t id, int64_t epoch)
{
    char key[24];
    id_text(key, sizeof key, id);
    const char *params[1] = {key};
    asobi_error err;
    PGresult *r = run(st->write, "SELECT spec FROM asobi_tables WHERE id = $1 AND finished = 0", 1, params,
                      PGRES_TUPLES_OK, &err, "reading a table");
    json_t *spec = r && PQntuples(r) == 1 ? json_loads(PQgetvalue(r, 0, 0), 0, NULL) : NULL;
    PQclear(r);
    json_t *seats = spec ? rows_of(st->write, true, id, &err) : NULL;
    json_t *actions = seats ? rows_of(st->write, false, id, &err) : NULL;
    pthread_mutex_lock(&st->lock);
    if (actions) {
        json_object_set_new(st->epochs, key, json_integer(epoch));
        json_array_append_new(st->claimed, json_pack("{s:I, s:o, s:o, s:o}", "id", (json_int_t)id, "spec", spec,
                                                     "seats", seats, "actions", actions));
        spec = seats = actions = NULL;
    }
    pthread_mutex_unlock(&st->lock);
    json_decref(spec);
    json_decref(seats);
    json_decref(actions);
}

/* Renew this node's row and its tables' leases; the tables it held that
 * are not renewed any more are lost. At the first heartbeat, the tables
 * leased to this node's name (a restart under the same --node) are taken
 * back at a new epoch. */
static bool renew(pg_store *st, bool first)
{
    char lease[24];
    id_text(lease, sizeof lease, st->lease_ms);
    pthread_mutex_lock(&st->lock);
    char *url = strdup(st->public_url);
    pthread_mutex_unlock(&st->lock);
    const char *params[3] = {st->node, url ? url : "", lease};
    asobi_error err;
    int64_t sent = mono_ms();
    PGresult *r = run(st->write,
                      "INSERT INTO asobi_nodes VALUES ($1, $2, now() + $3 * interval '1 millisecond')"
                      " ON CONFLICT (id) DO UPDATE SET url = $2, expires = now() + $3 * interval '1 millisecond'",
                      3, params, PGRES_COMMAND_OK, &err, "heartbeat");
    free(url);
    PQclear(r);
    if (!r)
        return false;
    const char *renewal = first ? "UPDATE asobi_leases SET epoch = epoch + 1, expires = now() + $2 * interval "
                                  "'1 millisecond' WHERE node = $1 RETURNING table_id, epoch"
                                : "UPDATE asobi_leases SET expires = now() + $2 * interval '1 millisecond' "
                                  "WHERE node = $1 AND expires > now() RETURNING table_id, epoch";
    const char *p2[2] = {st->node, lease};
    r = run(st->write, renewal, 2, p2, PGRES_TUPLES_OK, &err, "renewing the leases");
    if (!r)
        return false;
    json_t *renewed = json_object();
    for (int i = 0; i < PQntuples(r); i++)
        json_object_set_new(renewed, PQgetvalue(r, i, 0), json_integer(strtoll(PQgetvalue(r, i, 1), NULL, 10)));
    PQclear(r);
    pthread_mutex_lock(&st->lock);
    /* the leases hold for lease_ms from the moment the database renewed
     * them, which is after `sent`: stopping at sent + 0.9 lease is safe */
    st->valid_until_ms = sent + st->lease_ms * 9 / 10;
    const char *key;
    json_t *value, *tmp;
    json_object_foreach_safe(st->epochs, tmp, key, value)
    {
        if (!json_object_get(renewed, key))
            lose(st, strtoll(key, NULL, 10));
    }
    pthread_mutex_unlock(&st->lock);
    if (first) {
        json_object_foreach(renewed, key, value)
            take_table(st, strtoll(key, NULL, 10), json_integer_value(value));
    }
    json_decref(renewed);
    return true;
}

/* The origin of a URL: its scheme and authority ("https://play.example" of "https://play.example/n/a"). */
static json_t *origin_of(const char *url)
{
    const char *authority = strstr(url, "://");
    if (!authority)
        return NULL;
    const char *end = strchr(authority + 3, '/');
    size_t n = end ? (size_t)(end - url) : strlen(url);
    return json_stringn(url, n);
}

/* The live nodes' origins, which every node accepts from browsers (the thread, after a heartbeat). */
static void read_origins(pg_store *st)
{
    asobi_error err;
    PGresult *r = run(st->write, "SELECT url FROM asobi_nodes WHERE expires > now() AND url <> ''", 0, NULL,
                      PGRES_TUPLES_OK, &err, "reading the nodes");
    if (!r)
        return;
    json_t *origins = json_array();
    for (int i = 0; i < PQntuples(r); i++) {
        json_t *o = origin_of(PQgetvalue(r, i, 0));
        if (o)
            json_array_append_new(origins, o);
    }
    PQclear(r);
    pthread_mutex_lock(&st->lock);
    json_decref(st->origins);
    st->origins = origins;
    pthread_mutex_unlock(&st->lock);
}

static void pg_give_up(store *base, int64_t table)
{
    pg_store *st = (pg_store *)base;
    char key[24];
    id_text(key, sizeof key, table);
    pthread_mutex_lock(&st->lock);
    json_object_del(st->epochs, key); /* no write of it is fenced in any more */
    json_array_append_new(st->given_up, json_integer(table));
    st->heartbeat_due_ms = 0; /* let it go now */
    pthread_mutex_unlock(&st->lock);
    wake_thread(st);
}

static bool pg_owned_elsewhere(store *base, int64_t table)
{
    pg_store *st = (pg_store *)base;
    char key[24];
    id_text(key, sizeof key, table);
    pthread_mutex_lock(&st->lock);
    bool elsewhere = st->owners && json_object_get(st->owners, key) && !json_object_get(st->epochs, key);
    pthread_mutex_unlock(&st->lock);
    return elsewhere;
}

static char *given_up_array(pg_store *st);

/* Take unowned tables (their node died or stopped renewing), up to this
 * node's even share of every unfinished table among the live nodes. */
static void claim_orphans(pg_store *st)
{
    const char *params[1] = {st->node};
    asobi_error err;
    PGresult *r = run(st->write,
                      "SELECT (SELECT count(*) FROM asobi_nodes WHERE expires > now()),"
                      " (SELECT count(*) FROM asobi_leases),"
                      " (SELECT count(*) FROM asobi_leases WHERE node = $1 AND expires > now()),"
                      " (SELECT count(*) FROM asobi_leases WHERE expires <= now())",
                      1, params, PGRES_TUPLES_OK, &err, "counting tables");
    if (!r)
        return;
    long long nodes = strtoll(PQgetvalue(r, 0, 0), NULL, 10), total = strtoll(PQgetvalue(r, 0, 1), NULL, 10);
    long long mine = strtoll(PQgetvalue(r, 0, 2), NULL, 10), orphans = strtoll(PQgetvalue(r, 0, 3), NULL, 10);
    PQclear(r);
    if (!orphans)
        return;
    long long share = nodes > 0 ? (total + nodes - 1) / nodes : total;
    long long want = share - mine;
    if (want <= 0)
        want = 1; /* rounding: never leave an orphan while this node lives */
    char lease[24], limit[24];
    id_text(lease, sizeof lease, st->lease_ms);
    id_text(limit, sizeof limit, want);
    char *given_up = given_up_array(st); /* never again: this node could not restore them */
    const char *p3[4] = {st->node, lease, limit, given_up ? given_up : "{}"};
    r = run(st->write,
            "UPDATE asobi_leases l SET node = $1, epoch = l.epoch + 1, expires = now() + $2 * interval '1 millisecond'"
            " FROM (SELECT table_id FROM asobi_leases WHERE expires <= now() AND table_id <> ALL($4::BIGINT[])"
            " ORDER BY table_id LIMIT $3 FOR UPDATE SKIP LOCKED) c WHERE l.table_id = c.table_id"
            " RETURNING l.table_id, l.epoch",
            4, p3, PGRES_TUPLES_OK, &err, "claiming tables");
    free(given_up);
    if (!r)
        return;
    for (int i = 0; i < PQntuples(r); i++)
        take_table(st, strtoll(PQgetvalue(r, i, 0), NULL, 10), strtoll(PQgetvalue(r, i, 1), NULL, 10));
    if (PQntuples(r) > 0) {
        PGresult *n = PQexec(st->write, "NOTIFY " NOTIFY_CHANNEL);
        PQclear(n);
    }
    PQclear(r);
}

/* A block of table ids for later (the thread), so that creating a table never waits. */
static void reserve_ids(pg_store *st)
{
    asobi_error err;
    PGresult *r = run(st->write, "SELECT nextval('asobi_table_ids')", 0, NULL, PGRES_TUPLES_OK, &err, "table ids");
    if (!r)
        return;
    pthread_mutex_lock(&st->lock);
    st->spare_id = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    pthread_mutex_unlock(&st->lock);
    PQclear(r);
}

/* NOTIFY asobi_tables from any node: the lobby is to be read again. */
static void read_notifications(pg_store *st)
{
    PQconsumeInput(st->write);
    bool any = false;
    PGnotify *n;
    while ((n = PQnotifies(st->write)) != NULL) {
        any |= strcmp(n->extra, st->node) != 0; /* not our own */
        PQfreemem(n);
    }
    if (any) {
        pthread_mutex_lock(&st->lock);
        st->others_stale = true;
        pthread_mutex_unlock(&st->lock);
    }
}

/* The tables leased to the other live nodes (the thread, after a
 * heartbeat): the loop refuses their WebSockets (421) without a round trip. */
static void read_owners(pg_store *st)
{
    const char *params[1] = {st->node};
    asobi_error err;
    PGresult *r = run(st->write, "SELECT table_id FROM asobi_leases WHERE node <> $1 AND expires > now()", 1, params,
                      PGRES_TUPLES_OK, &err, "reading the leases");
    if (!r)
        return;
    json_t *owners = json_object();
    for (int i = 0; i < PQntuples(r); i++)
        json_object_set_new(owners, PQgetvalue(r, i, 0), json_true());
    PQclear(r);
    pthread_mutex_lock(&st->lock);
    json_decref(st->owners);
    st->owners = owners;
    pthread_mutex_unlock(&st->lock);
}

/* The other nodes' lobby entries, read again after their NOTIFY (the thread). */
static void read_others(pg_store *st)
{
    const char *params[1] = {st->node};
    asobi_error err;
    PGresult *r = run(st->write,
                      "SELECT entry FROM asobi_listing l JOIN asobi_leases s ON s.table_id = l.table_id"
                      " WHERE l.node <> $1 AND s.node = l.node AND s.expires > now() ORDER BY l.table_id DESC LIMIT 10000",
                      1, params, PGRES_TUPLES_OK, &err, "reading the other nodes' tables");
    if (!r)
        return;
    json_t *others = json_array();
    for (int i = 0; i < PQntuples(r); i++) {
        json_t *entry = json_loads(PQgetvalue(r, i, 0), 0, NULL);
        if (entry)
            json_array_append_new(others, entry);
    }
    PQclear(r);
    pthread_mutex_lock(&st->lock);
    json_decref(st->others);
    st->others = others;
    st->others_changed = true;
    pthread_mutex_unlock(&st->lock);
    read_owners(st); /* a node's tables changed (created, finished): who owns what, afresh */
    wake_loop(st);
}

/* This node's lobby entries, for the other nodes (the thread). */
static void publish(pg_store *st, json_t *entries)
{
    char *text = json_dumps(entries, JSON_COMPACT);
    const char *params[2] = {st->node, text ? text : "[]"};
    asobi_error err;
    PGresult *r = run(st->write, "SELECT asobi_publish($1, $2)", 2, params, PGRES_TUPLES_OK, &err, "publishing");
    PQclear(r);
    free(text);
}

/* The given-up tables' text array ("{1,2}"), for the heartbeat's statements (the thread). */
static char *given_up_array(pg_store *st)
{
    pthread_mutex_lock(&st->lock);
    json_t *copy = json_copy(st->given_up);
    pthread_mutex_unlock(&st->lock);
    size_t n = json_array_size(copy);
    char *text = malloc(n * 24 + 3), *p = text;
    if (text) {
        *p++ = '{';
        for (size_t i = 0; i < n; i++)
            p += sprintf(p, "%s%lld", i ? "," : "", (long long)json_integer_value(json_array_get(copy, i)));
        strcpy(p, "}");
    }
    json_decref(copy);
    return text;
}

/* The tables this node gave up: their leases end now (before the renewal,
 * which renews only the leases not ended). */
static void let_go_given_up(pg_store *st, const char *ids)
{
    const char *params[2] = {st->node, ids};
    asobi_error err;
    PGresult *r = run(st->write, "UPDATE asobi_leases SET expires = now() WHERE node = $1 AND expires > now()"
                      " AND table_id = ANY($2::BIGINT[])", 2, params, PGRES_COMMAND_OK, &err, "letting tables go");
    PQclear(r);
}

static void heartbeat(pg_store *st)
{
    pthread_mutex_lock(&st->lock);
    bool first = st->heartbeats == 0;
    pthread_mutex_unlock(&st->lock);
    char *given_up = given_up_array(st);
    if (given_up && strcmp(given_up, "{}") != 0)
        let_go_given_up(st, given_up);
    free(given_up);
    bool ok = renew(st, first);
    if (ok) {
        claim_orphans(st);
        read_origins(st);
        read_owners(st);
    }
    pthread_mutex_lock(&st->lock);
    st->heartbeats++;
    st->heartbeat_due_ms = mono_ms() + (ok ? st->lease_ms / 3 : st->lease_ms / 10);
    bool events = json_array_size(st->lost) || json_array_size(st->claimed);
    pthread_cond_broadcast(&st->done);
    pthread_mutex_unlock(&st->lock);
    if (events)
        wake_loop(st);
}

static void *store_thread(void *arg)
{
    pg_store *st = arg;
    for (;;) {
        pthread_mutex_lock(&st->lock);
        if (st->stopping && !json_array_size(st->queued)) {
            pthread_mutex_unlock(&st->lock);
            break;
        }
        int64_t now = mono_ms();
        bool beat = now >= st->heartbeat_due_ms;
        json_t *batch = NULL;
        int batches = (int)json_array_size(st->queued);
        if (!beat && batches) { /* every batch waiting, as one */
            batch = json_array();
            json_t *b;
            size_t i;
            json_array_foreach(st->queued, i, b) json_array_extend(batch, b);
            json_array_clear(st->queued);
        }
        bool reserve = !beat && !batch && !st->spare_id;
        json_t *entries = !beat && !batch ? st->publish : NULL;
        if (entries)
            st->publish = NULL;
        bool stale = !beat && !batch && !entries && st->others_stale;
        st->others_stale &= !stale;
        int64_t wait = st->heartbeat_due_ms - now;
        pthread_mutex_unlock(&st->lock);
        if (beat) {
            heartbeat(st);
        } else if (batch) {
            commit_batch(st, batch, batches);
            json_decref(batch);
            wake_loop(st);
        } else if (entries) {
            publish(st, entries);
            json_decref(entries);
        } else if (stale) {
            read_others(st);
        } else if (reserve) {
            reserve_ids(st);
        } else {
            struct pollfd fds[2] = {{.fd = st->wake_fd, .events = POLLIN}, {.fd = PQsocket(st->write), .events = POLLIN}};
            if (poll(fds, 2, (int)(wait > 0 ? wait : 0)) > 0 && (fds[0].revents & POLLIN)) {
                uint64_t count;
                if (read(st->wake_fd, &count, sizeof count) < 0)
                    continue;
            }
        }
        read_notifications(st);
    }
    return NULL;
}

/* Make room in a list of lookups for `want` of them (under lock); false when out of memory. */
static bool lookups_room(store_lookup **list, size_t *cap, size_t want)
{
    if (want > *cap) {
        size_t grown = *cap ? 2 * *cap : 16;
        while (grown < want)
            grown *= 2;
        store_lookup *more = realloc(*list, grown * sizeof *more);
        if (!more)
            return false;
        *list = more;
        *cap = grown;
    }
    return true;
}

static char *pg_owner_url(store *base, int64_t table);
static int pg_player(store *base, const char *name, int64_t before, json_t **profile, asobi_error *err);
static int pg_leaderboard(store *base, const char *game, json_t **board, asobi_error *err);
static int pg_load_finished(store *base, int64_t table, json_t **summary, json_t **record, asobi_error *err);
static int pg_load_table(store *base, int64_t table, json_t **spec, json_t **seats, json_t **actions,
                         json_t **summary, asobi_error *err);

/* What a read found out about a table's owner goes into the map of
 * other nodes' tables (under lock): a node asked about a table (a join
 * redirected) refuses its WebSocket with 421 at once, without waiting for
 * the next heartbeat or NOTIFY. */
static void note_owner(pg_store *st, int64_t table, const char *owner_url)
{
    char key[24];
    id_text(key, sizeof key, table);
    if (!st->owners)
        st->owners = json_object();
    if (owner_url && *owner_url && strcmp(owner_url, st->public_url) != 0)
        json_object_set_new(st->owners, key, json_true());
    else
        json_object_del(st->owners, key);
}

/* The reader thread: the loop's reads (who owns a table, a finished
 * table's summary and record) on a connection of its own, one at a time,
 * oldest first; a slow one (a lock in the database) holds up the reads
 * behind it, never the loop nor the commits. */
static void *reader_thread(void *arg)
{
    pg_store *st = arg;
    pthread_mutex_lock(&st->lock);
    for (;;) {
        while (!st->stopping && st->n_asked == 0)
            pthread_cond_wait(&st->read_wanted, &st->lock);
        if (st->n_asked == 0)
            break;
        store_lookup l = st->asked[0];
        memmove(st->asked, st->asked + 1, --st->n_asked * sizeof *st->asked);
        pthread_mutex_unlock(&st->lock);
        asobi_error err;
        bool ratings = l.player || l.game; /* a ratings read (pg_ratings_read_start) */
        if (ratings) {
            l.answer_rc = l.player ? pg_player(&st->base, l.player, l.before, &l.answer, &err)
                                   : pg_leaderboard(&st->base, l.game, &l.answer, &err);
        } else {
            l.owner_url = pg_owner_url(&st->base, l.table);
            if (!l.owner_url && l.rows &&
                pg_load_table(&st->base, l.table, &l.spec, &l.seats, &l.actions, &l.summary, &err) != ASOBI_OK)
                l.spec = l.seats = l.actions = l.summary = NULL;
            else if (!l.owner_url && !l.rows &&
                     pg_load_finished(&st->base, l.table, &l.summary, &l.record, &err) != ASOBI_OK)
                l.summary = l.record = NULL;
        }
        pthread_mutex_lock(&st->lock);
        if (!ratings)
            note_owner(st, l.table, l.owner_url);
        st->answered[st->n_answered++] = l; /* room was made when it was asked */
        pthread_mutex_unlock(&st->lock);
        wake_loop(st);
        pthread_mutex_lock(&st->lock);
    }
    pthread_mutex_unlock(&st->lock);
    return NULL;
}

static bool pg_lookup_start(store *base, int64_t table, bool rows, void *cookie)
{
    pg_store *st = (pg_store *)base;
    pthread_mutex_lock(&st->lock);
    /* the answers' room too: the reader never fails to hand one back */
    bool ok = st->reader_started && lookups_room(&st->asked, &st->cap_asked, st->n_asked + 1) &&
              lookups_room(&st->answered, &st->cap_answered, st->n_answered + st->n_asked + 2);
    if (ok)
        st->asked[st->n_asked++] = (store_lookup){.table = table, .cookie = cookie, .rows = rows};
    pthread_cond_signal(&st->read_wanted);
    pthread_mutex_unlock(&st->lock);
    return ok;
}

/* ---------------------------------------------------------------------------
 * Opening and closing.
 * ------------------------------------------------------------------------- */
static PGconn *connect_to(const char *uri, asobi_error *err)
{
    PGconn *c = PQconnectdb(uri);
    if (PQstatus(c) != CONNECTION_OK) {
        pg_fail(c, err, "connecting");
        PQfinish(c);
        return NULL;
    }
    PGresult *r = PQexec(c, "SET client_min_messages = warning");
    PQclear(r);
    return c;
}

static void pg_close(store *base);

store *store_pg_open(const char *uri, const store_options *opt, asobi_error *err)
{
    pg_store *st = calloc(1, sizeof *st);
    if (!st) {
        asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
        return NULL;
    }
    st->base.ops = &pg_ops;
    st->wake_fd = -1;
    if (opt->node && *opt->node) {
        snprintf(st->node, sizeof st->node, "%s", opt->node);
    } else {
        char host[64] = "node";
        gethostname(host, sizeof host - 1);
        snprintf(st->node, sizeof st->node, "%s-%d", host, (int)getpid());
    }
    st->public_url = strdup(opt->public_url ? opt->public_url : "");
    st->lease_ms = opt->lease_ms > 0 ? opt->lease_ms : STORE_LEASE_MS;
    st->batch = json_array();
    st->queued = json_array();
    st->epochs = json_object();
    st->given_up = json_array();
    st->lost = json_array();
    st->claimed = json_array();
    st->others_stale = true; /* the other nodes' tables: read once at the start */
    pthread_mutex_init(&st->lock, NULL);
    pthread_mutex_init(&st->read_lock, NULL);
    pthread_cond_init(&st->done, NULL);
    pthread_cond_init(&st->read_wanted, NULL);
    if (!st->public_url || !st->batch || !st->queued || !st->epochs || !st->lost || !st->claimed) {
        asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
        pg_close(&st->base);
        return NULL;
    }
    if (!(st->read = connect_to(uri, err)) || !(st->write = connect_to(uri, err))) {
        pg_close(&st->base);
        return NULL;
    }
    PGresult *r = PQexec(st->read, schema);
    if (PQresultStatus(r) != PGRES_TUPLES_OK && PQresultStatus(r) != PGRES_COMMAND_OK) {
        pg_fail(st->read, err, "creating the schema");
        PQclear(r);
        pg_close(&st->base);
        return NULL;
    }
    PQclear(r);
    if (store_accounts_schema_pg(st->read, err) != ASOBI_OK) {
        pg_close(&st->base);
        return NULL;
    }
    r = PQexec(st->read, RATINGS_PG_INDEX);
    if (PQresultStatus(r) != PGRES_TUPLES_OK && PQresultStatus(r) != PGRES_COMMAND_OK) {
        pg_fail(st->read, err, "creating the ratings' index");
        PQclear(r);
        pg_close(&st->base);
        return NULL;
    }
    PQclear(r);
    r = PQexec(st->write, "LISTEN " NOTIFY_CHANNEL);
    PQclear(r);
    st->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (st->wake_fd < 0 || pthread_create(&st->thread, NULL, store_thread, st) != 0) {
        asobi_fail(err, ASOBI_E_IO, "cannot start the store's thread");
        pg_close(&st->base);
        return NULL;
    }
    st->thread_started = true;
    if (pthread_create(&st->reader, NULL, reader_thread, st) != 0) {
        asobi_fail(err, ASOBI_E_IO, "cannot start the store's reader thread");
        pg_close(&st->base);
        return NULL;
    }
    st->reader_started = true;
    asobi_error_clear(err);
    return &st->base;
}

static int pg_flush(store *base, asobi_error *err);

/* A node stopping lets its tables go at once: another takes them at its
 * next heartbeat, or this node again when it comes back first. */
static void release_leases(pg_store *st)
{
    const char *params[1] = {st->node};
    asobi_error err;
    PGresult *r = run(st->write, "UPDATE asobi_leases SET expires = now() WHERE node = $1", 1, params,
                      PGRES_COMMAND_OK, &err, "releasing the leases");
    PQclear(r);
    r = run(st->write, "DELETE FROM asobi_nodes WHERE id = $1", 1, params, PGRES_COMMAND_OK, &err, "leaving");
    PQclear(r);
}

static void pg_close(store *base)
{
    pg_store *st = (pg_store *)base;
    if (st->thread_started) {
        pg_flush(base, NULL);
        pthread_mutex_lock(&st->lock);
        st->stopping = true;
        pthread_mutex_unlock(&st->lock);
        wake_thread(st);
        pthread_join(st->thread, NULL);
        release_leases(st);
    }
    if (st->reader_started) {
        pthread_mutex_lock(&st->lock);
        st->stopping = true;
        pthread_cond_broadcast(&st->read_wanted);
        pthread_mutex_unlock(&st->lock);
        pthread_join(st->reader, NULL);
    }
    for (size_t i = 0; i < st->n_answered; i++) {
        free(st->answered[i].owner_url);
        json_decref(st->answered[i].summary);
        json_decref(st->answered[i].record);
        json_decref(st->answered[i].spec);
        json_decref(st->answered[i].seats);
        json_decref(st->answered[i].actions);
        free(st->answered[i].player);
        free(st->answered[i].game);
        json_decref(st->answered[i].answer);
    }
    for (size_t i = 0; i < st->n_asked; i++) {
        free(st->asked[i].player);
        free(st->asked[i].game);
    }
    json_decref(st->owners);
    free(st->answered);
    free(st->asked);
    if (st->wake_fd >= 0)
        close(st->wake_fd);
    PQfinish(st->read);
    PQfinish(st->write);
    pthread_mutex_destroy(&st->lock);
    pthread_mutex_destroy(&st->read_lock);
    pthread_cond_destroy(&st->done);
    pthread_cond_destroy(&st->read_wanted);
    json_decref(st->batch);
    json_decref(st->queued);
    json_decref(st->epochs);
    json_decref(st->given_up);
    json_decref(st->lost);
    json_decref(st->claimed);
    json_decref(st->publish);
    json_decref(st->others);
    json_decref(st->origins);
    free(st->public_url);
    free(st);
}

/* ---------------------------------------------------------------------------
 * Commits.
 * ------------------------------------------------------------------------- */
static int failure(pg_store *st, asobi_error *err)
{
    return asobi_fail(err, ASOBI_E_IO, "%s", st->failure);
}

static int pg_commit_start(store *base, asobi_error *err)
{
    pg_store *st = (pg_store *)base;
    pthread_mutex_lock(&st->lock);
    int rc = st->failed ? failure(st, err) : ASOBI_OK;
    if (rc == ASOBI_OK && json_array_size(st->batch)) {
        json_array_append_new(st->queued, st->batch);
        st->in_flight++;
        st->handed++;
        st->batch = json_array();
    }
    pthread_mutex_unlock(&st->lock);
    if (rc == ASOBI_OK)
        wake_thread(st);
    return rc;
}

static bool pg_settled(store *base)
{
    pg_store *st = (pg_store *)base;
    pthread_mutex_lock(&st->lock);
    bool settled = st->in_flight == 0 && json_array_size(st->batch) == 0;
    pthread_mutex_unlock(&st->lock);
    return settled;
}

static uint64_t pg_batch_seq(store *base)
{
    pg_store *st = (pg_store *)base;
    pthread_mutex_lock(&st->lock);
    uint64_t seq = st->handed + (json_array_size(st->batch) > 0);
    pthread_mutex_unlock(&st->lock);
    return seq;
}

/* The last batch committed as the loop has collected it, not as the thread
 * has: a batch whose writes to a table were fenced counts as committed,
 * and the loop must learn that it lost the table (store_collect, then
 * drop it) before any update of that table can go out as committed. */
static uint64_t pg_committed_seq(store *base)
{
    pg_store *st = (pg_store *)base;
    pthread_mutex_lock(&st->lock);
    uint64_t seq = st->seen;
    pthread_mutex_unlock(&st->lock);
    return seq;
}

static int pg_flush(store *base, asobi_error *err)
{
    pg_store *st = (pg_store *)base;
    asobi_error ignored;
    int rc = pg_commit_start(base, err ? err : &ignored);
    pthread_mutex_lock(&st->lock);
    while (rc == ASOBI_OK && st->in_flight > 0)
        pthread_cond_wait(&st->done, &st->lock);
    if (rc == ASOBI_OK && st->failed)
        rc = failure(st, err ? err : &ignored);
    pthread_mutex_unlock(&st->lock);
    return rc;
}

static int pg_collect(store *base, store_events *ev, asobi_error *err)
{
    pg_store *st = (pg_store *)base;
    pthread_mutex_lock(&st->lock);
    if (st->failed) {
        int rc = failure(st, err);
        pthread_mutex_unlock(&st->lock);
        return rc;
    }
    /* leases not renewed in time: every table goes at once */
    if (st->heartbeats > 0 && mono_ms() > st->valid_until_ms) {
        const char *key;
        json_t *value, *tmp;
        json_object_foreach_safe(st->epochs, tmp, key, value)
            lose(st, strtoll(key, NULL, 10));
    }
    size_t n = json_array_size(st->lost), m = json_array_size(st->claimed);
    ev->lost = n ? calloc(n, sizeof *ev->lost) : NULL;
    ev->claimed = m ? calloc(m, sizeof *ev->claimed) : NULL;
    for (size_t i = 0; ev->lost && i < n; i++)
        ev->lost[ev->n_lost++] = json_integer_value(json_array_get(st->lost, i));
    for (size_t i = 0; ev->claimed && i < m; i++) {
        json_t *c = json_array_get(st->claimed, i);
        ev->claimed[ev->n_claimed++] = (store_claim){.id = json_integer_value(json_object_get(c, "id")),
                                                     .spec = json_incref(json_object_get(c, "spec")),
                                                     .seats = json_incref(json_object_get(c, "seats")),
                                                     .actions = json_incref(json_object_get(c, "actions"))};
    }
    json_array_clear(st->lost);
    json_array_clear(st->claimed);
    /* the reads done, copied out: the list keeps its room (made when they were asked) */
    ev->lookups = st->n_answered ? calloc(st->n_answered, sizeof *ev->lookups) : NULL;
    if (ev->lookups) {
        memcpy(ev->lookups, st->answered, st->n_answered * sizeof *ev->lookups);
        ev->n_lookups = st->n_answered;
        st->n_answered = 0;
    }
    st->seen = st->committed; /* with the tables those commits lost, handed over just now */
    ev->others_changed = st->others_changed;
    st->others_changed = false;
    pthread_mutex_unlock(&st->lock);
    asobi_error_clear(err);
    return ASOBI_OK;
}

static void pg_set_wake(store *base, void (*wake)(void *), void *ctx)
{
    pg_store *st = (pg_store *)base;
    pthread_mutex_lock(&st->lock);
    st->wake = wake;
    st->wake_ctx = ctx;
    pthread_mutex_unlock(&st->lock);
}

static bool pg_owns(store *base, int64_t table)
{
    pg_store *st = (pg_store *)base;
    char key[24];
    id_text(key, sizeof key, table);
    pthread_mutex_lock(&st->lock);
    bool owned = json_object_get(st->epochs, key) != NULL;
    pthread_mutex_unlock(&st->lock);
    return owned;
}

static void pg_publish_tables(store *base, const json_t *entries)
{
    pg_store *st = (pg_store *)base;
    json_t *copy = json_deep_copy(entries);
    if (!copy)
        return;
    pthread_mutex_lock(&st->lock);
    json_decref(st->publish);
    st->publish = copy;
    pthread_mutex_unlock(&st->lock);
    wake_thread(st);
}

static json_t *pg_other_tables(store *base)
{
    pg_store *st = (pg_store *)base;
    pthread_mutex_lock(&st->lock);
    json_t *others = st->others ? json_incref(st->others) : json_array();
    pthread_mutex_unlock(&st->lock);
    return others;
}

static bool pg_node_origin(store *base, const char *origin)
{
    pg_store *st = (pg_store *)base;
    bool found = false;
    size_t i;
    json_t *o;
    pthread_mutex_lock(&st->lock);
    json_array_foreach(st->origins, i, o) found |= strcmp(json_string_value(o), origin) == 0;
    pthread_mutex_unlock(&st->lock);
    return found;
}

static void pg_set_public_url(store *base, const char *url)
{
    pg_store *st = (pg_store *)base;
    char *copy = strdup(url);
    if (!copy)
        return;
    pthread_mutex_lock(&st->lock);
    free(st->public_url);
    st->public_url = copy;
    st->heartbeat_due_ms = 0; /* told to the other nodes now */
    pthread_mutex_unlock(&st->lock);
    wake_thread(st);
}

static char *pg_owner_url(store *base, int64_t table)
{
    pg_store *st = (pg_store *)base;
    char key[24];
    id_text(key, sizeof key, table);
    const char *params[1] = {key};
    asobi_error err;
    /* "" while the table is between owners (its lease lapsed, nobody took it yet) */
    pthread_mutex_lock(&st->read_lock);
    PGresult *r = run(st->read,
                      "SELECT CASE WHEN l.expires > now() THEN COALESCE(n.url, '') ELSE '' END"
                      " FROM asobi_leases l LEFT JOIN asobi_nodes n ON n.id = l.node WHERE l.table_id = $1",
                      1, params, PGRES_TUPLES_OK, &err, "finding a table's owner");
    pthread_mutex_unlock(&st->read_lock);
    char *url = r && PQntuples(r) == 1 ? strdup(PQgetvalue(r, 0, 0)) : NULL;
    PQclear(r);
    return url;
}

/* ---------------------------------------------------------------------------
 * Writes: appended to the open batch.
 * ------------------------------------------------------------------------- */
static int append(pg_store *st, json_t *w, asobi_error *err)
{
    if (!w || json_array_append_new(st->batch, w) != 0)
        return asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
    asobi_error_clear(err);
    return ASOBI_OK;
}

/* The next table id: from the reserved block, else the spare block the
 * thread reserved, else (the thread is behind: rare) one asked for now. */
static int next_table_id(pg_store *st, int64_t *id, asobi_error *err)
{
    if (st->next_id == 0 || st->next_id > st->last_id) {
        pthread_mutex_lock(&st->lock);
        int64_t spare = st->spare_id;
        st->spare_id = 0;
        pthread_mutex_unlock(&st->lock);
        if (!spare) {
            pthread_mutex_lock(&st->read_lock);
            PGresult *r = run(st->read, "SELECT nextval('asobi_table_ids')", 0, NULL, PGRES_TUPLES_OK, err, "table ids");
            pthread_mutex_unlock(&st->read_lock);
            if (!r)
                return ASOBI_E_IO;
            spare = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
            PQclear(r);
        } else {
            wake_thread(st); /* to reserve the next block */
        }
        st->next_id = spare;
        st->last_id = spare + ID_BLOCK - 1;
    }
    *id = st->next_id++;
    return ASOBI_OK;
}

static int pg_create_table(store *base, const json_t *spec, int64_t *id, asobi_error *err)
{
    pg_store *st = (pg_store *)base;
    if (next_table_id(st, id, err) != ASOBI_OK)
        return ASOBI_E_IO;
    /* owned once its batch commits: its lease is in it (epochs_of) */
    char *text = json_dumps(spec, JSON_COMPACT);
    json_t *w = text ? json_pack("{s:s, s:I, s:s}", "op", "table", "t", (json_int_t)*id, "spec", text) : NULL;
    free(text);
    return append(st, w, err);
}

static int pg_add_seat(store *base, int64_t table, int seat, const char *name, const char *token_hash,
                       asobi_error *err)
{
    return append((pg_store *)base,
                  json_pack("{s:s, s:I, s:i, s:s, s:s}", "op", "seat", "t", (json_int_t)table, "seat", seat, "name",
                            name, "hash", token_hash),
                  err);
}

static int pg_seat_account(store *base, int64_t table, int seat, int64_t account, asobi_error *err)
{
    return append((pg_store *)base,
                  json_pack("{s:s, s:I, s:i, s:I}", "op", "seat_account", "t", (json_int_t)table, "seat", seat,
                            "account", (json_int_t)account),
                  err);
}

static int pg_leave_seat(store *base, int64_t table, int seat, asobi_error *err)
{
    return append((pg_store *)base, json_pack("{s:s, s:I, s:i}", "op", "leave", "t", (json_int_t)table, "seat", seat),
                  err);
}

static int pg_add_action(store *base, int64_t table, int index, int seat, const char *action, const char *by,
                         int64_t clock_ms, asobi_error *err)
{
    return append((pg_store *)base,
                  json_pack("{s:s, s:I, s:i, s:i, s:s, s:s, s:I}", "op", "action", "t", (json_int_t)table, "i", index,
                            "seat", seat, "action", action, "by", by, "clock", (json_int_t)clock_ms),
                  err);
}

static int pg_finish(store *base, int64_t table, const char *summary, const char *record, const store_result *result,
                     asobi_error *err)
{
    return append((pg_store *)base,
                  json_pack("{s:s, s:I, s:s, s:s, s:o?}", "op", "finish", "t", (json_int_t)table, "summary", summary,
                            "record", record, "result", store_result_writes(result) ? result_json(result) : NULL),
                  err);
}

static int pg_player(store *base, const char *name, int64_t before, json_t **profile, asobi_error *err)
{
    pg_store *st = (pg_store *)base;
    pthread_mutex_lock(&st->read_lock);
    int rc = store_read_player(pg_rows, st->read, name, before, profile, err);
    pthread_mutex_unlock(&st->read_lock);
    return rc;
}

static int pg_leaderboard(store *base, const char *game, json_t **board, asobi_error *err)
{
    pg_store *st = (pg_store *)base;
    pthread_mutex_lock(&st->read_lock);
    int rc = store_read_leaderboard(pg_rows, st->read, game, board, err);
    pthread_mutex_unlock(&st->read_lock);
    return rc;
}

static bool pg_ratings_read_start(store *base, const char *player, const char *game, int64_t before, void *cookie)
{
    pg_store *st = (pg_store *)base;
    store_lookup l = {.cookie = cookie, .before = before, .player = player ? strdup(player) : NULL,
                      .game = game ? strdup(game) : NULL};
    if (!l.player && !l.game)
        return false;
    pthread_mutex_lock(&st->lock);
    bool ok = st->reader_started && lookups_room(&st->asked, &st->cap_asked, st->n_asked + 1) &&
              lookups_room(&st->answered, &st->cap_answered, st->n_answered + st->n_asked + 2);
    if (ok)
        st->asked[st->n_asked++] = l;
    pthread_cond_signal(&st->read_wanted);
    pthread_mutex_unlock(&st->lock);
    if (!ok) {
        free(l.player);
        free(l.game);
    }
    return ok;
}

static int pg_expire(store *base, int64_t table, asobi_error *err)
{
    return append((pg_store *)base, json_pack("{s:s, s:I}", "op", "expire", "t", (json_int_t)table), err);
}

static int pg_set_rematch(store *base, int64_t table, int64_t rematch, asobi_error *err)
{
    return append((pg_store *)base,
                  json_pack("{s:s, s:I, s:I}", "op", "rematch", "t", (json_int_t)table, "rematch", (json_int_t)rematch),
                  err);
}

/* ---------------------------------------------------------------------------
 * Reads (the loop's connection; what they read is committed).
 * ------------------------------------------------------------------------- */
/* The tables this node takes at its start: its first heartbeat's (those
 * leased to its name before, and its share of the unowned ones). */
static int pg_load_unfinished(store *base, store_table_fn on_table, void *ctx, asobi_error *err)
{
    pg_store *st = (pg_store *)base;
    pthread_mutex_lock(&st->lock);
    st->heartbeat_due_ms = 0;
    pthread_mutex_unlock(&st->lock);
    wake_thread(st);
    pthread_mutex_lock(&st->lock);
    while (st->heartbeats == 0)
        pthread_cond_wait(&st->done, &st->lock);
    json_t *claimed = st->claimed;
    st->claimed = json_array();
    pthread_mutex_unlock(&st->lock);
    int rc = ASOBI_OK;
    size_t i;
    json_t *c;
    json_array_foreach(claimed, i, c)
    {
        rc = on_table(ctx, json_integer_value(json_object_get(c, "id")), json_object_get(c, "spec"),
                      json_object_get(c, "seats"), json_object_get(c, "actions"));
        if (rc != ASOBI_OK)
            break;
    }
    json_decref(claimed);
    if (rc == ASOBI_OK)
        asobi_error_clear(err);
    return rc;
}

static int load_table_rows(pg_store *st, int64_t table, const char *const *params, json_t **spec, json_t **seats,
                           json_t **actions, json_t **summary, asobi_error *err);

static int pg_load_table(store *base, int64_t table, json_t **spec, json_t **seats, json_t **actions,
                         json_t **summary, asobi_error *err)
{
    pg_store *st = (pg_store *)base;
    *spec = *seats = *actions = *summary = NULL;
    char id[24];
    id_text(id, sizeof id, table);
    const char *params[1] = {id};
    pthread_mutex_lock(&st->read_lock);
    int rc = load_table_rows(st, table, params, spec, seats, actions, summary, err);
    pthread_mutex_unlock(&st->read_lock);
    return rc;
}

/* pg_load_table's reads (under read_lock). */
static int load_table_rows(pg_store *st, int64_t table, const char *const *params, json_t **spec, json_t **seats,
                           json_t **actions, json_t **summary, asobi_error *err)
{
    PGresult *r = run(st->read, "SELECT spec, finished, summary FROM asobi_tables WHERE id = $1 AND finished < 2", 1,
                      params, PGRES_TUPLES_OK, err, "reading a table");
    if (!r)
        return ASOBI_E_IO;
    if (PQntuples(r) != 1) {
        PQclear(r);
        return asobi_fail(err, ASOBI_E_BAD_ARGUMENT, "there is no table %lld", (long long)table);
    }
    bool finished = atoi(PQgetvalue(r, 0, 1)) == 1;
    *spec = json_loads(PQgetvalue(r, 0, 0), 0, NULL);
    *summary = finished && !PQgetisnull(r, 0, 2) ? json_loads(PQgetvalue(r, 0, 2), 0, NULL) : NULL;
    PQclear(r);
    if (!*spec || (finished && !*summary)) {
        json_decref(*spec);
        json_decref(*summary);
        *spec = *summary = NULL;
        return asobi_fail(err, ASOBI_E_IO, "database: table %lld cannot be read", (long long)table);
    }
    *seats = rows_of(st->read, true, table, err);
    *actions = *seats ? rows_of(st->read, false, table, err) : NULL;
    if (!*actions) {
        json_decref(*spec);
        json_decref(*summary);
        json_decref(*seats);
        *spec = *seats = *summary = NULL;
        return ASOBI_E_IO;
    }
    asobi_error_clear(err);
    return ASOBI_OK;
}

static int pg_load_finished(store *base, int64_t table, json_t **summary, json_t **record, asobi_error *err)
{
    pg_store *st = (pg_store *)base;
    char id[24];
    id_text(id, sizeof id, table);
    const char *params[1] = {id};
    pthread_mutex_lock(&st->read_lock);
    PGresult *r = run(st->read, "SELECT summary, record FROM asobi_tables WHERE id = $1 AND finished = 1", 1, params,
                      PGRES_TUPLES_OK, err, "reading a record");
    pthread_mutex_unlock(&st->read_lock);
    if (!r)
        return ASOBI_E_IO;
    int rc = ASOBI_E_BAD_ARGUMENT;
    if (PQntuples(r) == 1) {
        *summary = json_loads(PQgetvalue(r, 0, 0), 0, NULL);
        *record = json_loads(PQgetvalue(r, 0, 1), 0, NULL);
        rc = *summary && *record ? ASOBI_OK : ASOBI_E_IO;
    }
    PQclear(r);
    if (rc == ASOBI_E_BAD_ARGUMENT)
        return asobi_fail(err, rc, "there is no finished table %lld", (long long)table);
    if (rc != ASOBI_OK)
        return asobi_fail(err, rc, "database: table %lld's record cannot be read", (long long)table);
    asobi_error_clear(err);
    return ASOBI_OK;
}

static const store_ops pg_ops = {
    .name = "postgresql", .close = pg_close, .flush = pg_flush, .commit_start = pg_commit_start,
    .settled = pg_settled, .batch_seq = pg_batch_seq, .committed_seq = pg_committed_seq, .collect = pg_collect, .set_wake = pg_set_wake, .create_table = pg_create_table,
    .add_seat = pg_add_seat, .leave_seat = pg_leave_seat, .add_action = pg_add_action, .finish = pg_finish, .expire = pg_expire,
    .set_rematch = pg_set_rematch, .load_unfinished = pg_load_unfinished, .load_table = pg_load_table,
    .load_finished = pg_load_finished, .owner_url = pg_owner_url, .lookup_start = pg_lookup_start, .owned_elsewhere = pg_owned_elsewhere, .give_up = pg_give_up, .owns = pg_owns,
    .node_origin = pg_node_origin, .set_public_url = pg_set_public_url, .publish_tables = pg_publish_tables, .other_tables = pg_other_tables,
    .player = pg_player, .leaderboard = pg_leaderboard, .ratings_read_start = pg_ratings_read_start,
    .seat_account = pg_seat_account,
};

/* store_sqlite.c — the store (store.h) in one SQLite file, WAL mode, writes grouped into one transaction per flush, checkpoints on a thread of their own. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "server/store_backend.h"

/* Durability: WAL with synchronous=NORMAL makes every committed transaction
 * survive the death of the process (kill -9): the commit is in the WAL file
 * before sqlite3_step returns. Only a power cut may lose the last commits;
 * synchronous=FULL would fsync each action and is not worth the latency on
 * the event loop (docs/server.md says so).
 *
 * Seats and actions are WITHOUT ROWID tables: their primary key is the
 * b-tree itself, so an action's insert changes one page, not a table page
 * and an index page, and each commit writes half the WAL frames. (A
 * database made before this keeps its rowid tables; the queries are the
 * same for both.) */
/* Ratings' statements that read the accounts' tables (store_accounts.c):
 * an account by name (any case: name_key is its lower case), and its
 * seats at finished tables with their history rows (none: unrated). */
#define RATINGS_SQLITE_ACCOUNT "SELECT id, name, closed FROM accounts WHERE name_key = lower(?1)"
#define RATINGS_SQLITE_GAMES                                                                                          \
    "SELECT s.table_id, t.summary, s.seat, h.game, h.mu_before, h.sigma_before, h.mu, h.sigma"                       \
    " FROM seats s JOIN tables t ON t.id = s.table_id AND t.finished = 1"                                            \
    " LEFT JOIN rating_history h ON h.table_id = s.table_id AND h.account = s.account_id"                            \
    " WHERE s.account_id = ?1 AND s.table_id < ?2 ORDER BY s.table_id DESC LIMIT 20"
/* ... after the accounts' schema, which gives seats their account_id */
#define RATINGS_SQLITE_INDEX "CREATE INDEX IF NOT EXISTS seats_account ON seats(account_id, table_id);"

static const char *const schema =
    "PRAGMA journal_mode=WAL;"
    "PRAGMA synchronous=NORMAL;"
    "CREATE TABLE IF NOT EXISTS tables("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT, spec TEXT NOT NULL,"
    "  finished INTEGER NOT NULL DEFAULT 0, summary TEXT, record TEXT);"
    "CREATE TABLE IF NOT EXISTS seats("
    "  table_id INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, token_hash TEXT NOT NULL,"
    "  PRIMARY KEY(table_id, seat)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS actions("
    "  table_id INTEGER NOT NULL, idx INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,"
    "  by TEXT NOT NULL, clock_ms INTEGER NOT NULL, PRIMARY KEY(table_id, idx)) WITHOUT ROWID;"
    /* chat (issue 44): a table's lines, each its JSON (chat.c's chat_line_json), hidden = 1 once an operator
     * hid it (asobi chat ... hide): never loaded again */
    "CREATE TABLE IF NOT EXISTS chat("
    "  table_id INTEGER NOT NULL, idx INTEGER NOT NULL, line TEXT NOT NULL, hidden INTEGER NOT NULL DEFAULT 0,"
    "  PRIMARY KEY(table_id, idx)) WITHOUT ROWID;"
    /* chat hides (issue 44): each hide's news, in order, for running servers to poll (chat_hides.c); the
     * trigger writes it in the hide's own transaction, whoever hides */
    "CREATE TABLE IF NOT EXISTS chat_hides(seq INTEGER PRIMARY KEY AUTOINCREMENT, table_id INTEGER NOT NULL,"
    "  idx INTEGER NOT NULL);"
    "CREATE TRIGGER IF NOT EXISTS chat_hide_news AFTER UPDATE OF hidden ON chat"
    "  WHEN NEW.hidden = 1 AND OLD.hidden = 0"
    "  BEGIN INSERT INTO chat_hides(table_id, idx) VALUES(NEW.table_id, NEW.idx); END;"
    /* Ratings (issue 42; store.h, "Ratings"; store_ratings.c) */
    "CREATE TABLE IF NOT EXISTS ratings(account INTEGER NOT NULL, game TEXT NOT NULL, name TEXT NOT NULL,"
    "  mu REAL NOT NULL, sigma REAL NOT NULL, games INTEGER NOT NULL, PRIMARY KEY(account, game)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS ratings_board ON ratings(game, (mu - 3 * sigma));"
    "CREATE TABLE IF NOT EXISTS rating_history(table_id INTEGER NOT NULL, account INTEGER NOT NULL,"
    "  game TEXT NOT NULL, name TEXT NOT NULL, seat INTEGER NOT NULL, rank INTEGER NOT NULL,"
    "  mu_before REAL NOT NULL, sigma_before REAL NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL,"
    "  games INTEGER NOT NULL, PRIMARY KEY(table_id, account)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS rating_history_account ON rating_history(account, table_id);"
    "CREATE TABLE IF NOT EXISTS bot_records(account INTEGER NOT NULL, game TEXT NOT NULL, level TEXT NOT NULL,"
    "  wins INTEGER NOT NULL, losses INTEGER NOT NULL, draws INTEGER NOT NULL,"
    "  PRIMARY KEY(account, game, level)) WITHOUT ROWID;";

/* The ratings' statements (store_backend.h's store_rq; PostgreSQL's are the same but for the names). */
static const char *const ratings_queries[STORE_RQ_COUNT] = {
    [STORE_RQ_BOT_RECORD] = "INSERT INTO bot_records VALUES(?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(account, game, level)"
                            " DO UPDATE SET wins = wins + excluded.wins, losses = losses + excluded.losses,"
                            " draws = draws + excluded.draws",
    [STORE_RQ_RATED_ALREADY] = "SELECT 1 FROM rating_history WHERE table_id = ?1 LIMIT 1",
    [STORE_RQ_RATING_SEED] = "INSERT INTO ratings VALUES(?1, ?2, ?3, 25.0, 25.0 / 3.0, 0) ON CONFLICT DO NOTHING",
    [STORE_RQ_RATING_GET] = "SELECT mu, sigma, games FROM ratings WHERE account = ?1 AND game = ?2",
    [STORE_RQ_RATING_PUT] = "UPDATE ratings SET name = ?3, mu = ?4, sigma = ?5, games = ?6 WHERE account = ?1 AND game = ?2",
    [STORE_RQ_HISTORY_PUT] = "INSERT INTO rating_history VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    [STORE_RQ_ACCOUNT] = RATINGS_SQLITE_ACCOUNT,
    [STORE_RQ_RATINGS] = "SELECT game, mu, sigma, games FROM ratings WHERE account = ?1 ORDER BY game",
    [STORE_RQ_GAMES] = RATINGS_SQLITE_GAMES,
    [STORE_RQ_BOTS] = "SELECT game, level, wins, losses, draws FROM bot_records WHERE account = ?1 ORDER BY game, level",
    [STORE_RQ_HISTORY] = "SELECT game, table_id, mu, sigma FROM rating_history WHERE account = ?1"
                         " ORDER BY table_id DESC LIMIT 2000",
    [STORE_RQ_BOARD] = "SELECT a.name, r.mu, r.sigma, r.games FROM ratings r JOIN accounts a ON a.id = r.account"
                       " WHERE r.game = ?1 AND r.games >= 10 AND a.closed IS NULL"
                       " ORDER BY r.mu - 3 * r.sigma DESC, r.account LIMIT 100",
};

enum {
    Q_CREATE, Q_SEAT, Q_ACTION, Q_FINISH, Q_UNFINISHED, Q_SEATS_OF, Q_ACTIONS_OF, Q_FINISHED, Q_REMATCH,
    Q_TABLE, Q_EXPIRE, Q_LEAVE, Q_SEAT_ACCOUNT, Q_BEGIN, Q_COMMIT, /* prepared too: sqlite3_exec would parse them again at every flush */
    Q_COUNT
};
/* chat's statements (issue 44), apart from the others' */
enum { CQ_ADD, CQ_HIDE, CQ_OF, CQ_COUNT };
static const char *const chat_queries[CQ_COUNT] = {
    [CQ_ADD] = "INSERT INTO chat(table_id, idx, line) VALUES(?1, ?2, ?3)",
    /* a line, not a seat's kept mutes (chat.c, chat_mute_seat): hiding those would forget them */
    [CQ_HIDE] = "UPDATE chat SET hidden = 1 WHERE table_id = ?1 AND idx = ?2 AND json_extract(line, '$.mutes') IS NULL",
    [CQ_OF] = "SELECT line FROM chat WHERE table_id = ?1 AND hidden = 0 ORDER BY idx",
};
static const char *const queries[Q_COUNT] = {
    [Q_CREATE] = "INSERT INTO tables(spec) VALUES(?1)",
    [Q_SEAT] = "INSERT INTO seats(table_id, seat, name, token_hash) VALUES(?1, ?2, ?3, ?4)",
    [Q_ACTION] = "INSERT INTO actions(table_id, idx, seat, action, by, clock_ms) VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
    [Q_FINISH] = "UPDATE tables SET finished = 1, summary = ?2, record = ?3 WHERE id = ?1",
    [Q_UNFINISHED] = "SELECT id, spec FROM tables WHERE finished = 0 ORDER BY id",
    [Q_SEATS_OF] = "SELECT seat, name, token_hash, account_id, claimed FROM seats WHERE table_id = ?1 ORDER BY seat",
    [Q_ACTIONS_OF] = "SELECT seat, action, by, clock_ms FROM actions WHERE table_id = ?1 ORDER BY idx",
    [Q_FINISHED] = "SELECT summary, record FROM tables WHERE id = ?1 AND finished = 1",
    [Q_REMATCH] = "UPDATE tables SET summary = json_set(summary, '$.rematch', ?2) WHERE id = ?1 AND finished = 1",
    [Q_TABLE] = "SELECT spec, finished, summary FROM tables WHERE id = ?1",
    /* finished = 2: expired (no summary, no record): neither restored nor found */
    [Q_EXPIRE] = "UPDATE tables SET finished = 2 WHERE id = ?1 AND finished = 0",
    /* a seat left for good: its token hash emptied (store_leave_seat) */
    [Q_LEAVE] = "UPDATE seats SET token_hash = '' WHERE table_id = ?1 AND seat = ?2",
    /* accounts (issue 42): the signed-in person who took a seat */
    [Q_SEAT_ACCOUNT] = "UPDATE seats SET account_id = ?3 WHERE table_id = ?1 AND seat = ?2",
    [Q_BEGIN] = "BEGIN",
    [Q_COMMIT] = "COMMIT",
};

/* Checkpoints (copying the WAL's pages into the database file, then an
 * fsync of it) are the store's only slow work: with synchronous=NORMAL a
 * commit writes the WAL and syncs nothing. SQLite runs one inside the
 * commit that takes the WAL past 1000 pages, which would stall the event
 * loop for the copy and the fsync (measured: with people thinking at 1000
 * tables a checkpoint came every half second, and the clients' p99 fell
 * from 6.8-10.7 ms to 3.3-4.7 ms with checkpoints off). So the loop's
 * connection never checkpoints: its WAL hook (called after each commit with
 * the WAL's size, the hook SQLite's own automatic checkpoints use) only
 * wakes a thread with a connection of its own once the WAL holds
 * CHECKPOINT_PAGES, as many as SQLite would wait for, and that thread runs a
 * PASSIVE checkpoint: it never waits for the writer nor makes it wait, and
 * the writer starts the WAL over once everything in it has been copied.
 * After each checkpoint the thread rests CHECKPOINT_REST_MS: a busy writer
 * keeps the WAL above the mark while a checkpoint runs, and checkpoints back
 * to back (each with its fsyncs, each making the writer re-read its pages)
 * had cost the server a third more CPU flat out. A writer faster than the
 * disk could outrun the thread (the WAL is started over only when a
 * checkpoint has caught up with it), so at CHECKPOINT_PAGES_MAX the loop's
 * connection checkpoints itself, as SQLite would have. That checkpoint
 * finds the thread's still running when the disk is slower than the writes
 * (its fsyncs waiting behind another process's: seen as test_hall failing
 * now and then under ctest -j2, the WAL at 24 MB and growing), and SQLite
 * never waits for another checkpoint. So at CHECKPOINT_PAGES_HARD the loop
 * waits for the thread's to end and then copies the rest itself: the event
 * loop stalls, the backpressure SQLite's own checkpoints would have given,
 * and the WAL stays bounded whatever the disk (test_hall checks both). A
 * database in memory has no WAL and gets no thread. */
#define CHECKPOINT_PAGES 1000
#define CHECKPOINT_PAGES_MAX 2000
#define CHECKPOINT_PAGES_HARD 5000
#define CHECKPOINT_REST_MS 50

typedef struct sqlite_store {
    struct store base; /* its ops: first */
    sqlite3 *db;
    sqlite3_stmt *q[Q_COUNT];
    sqlite3_stmt *chat_q[CQ_COUNT];
    sqlite3 *ckpt_db; /* the checkpointer's connection; NULL: no checkpointer */
    pthread_t ckpt_thread;
    pthread_mutex_t ckpt_lock;
    pthread_cond_t ckpt_wake;
    pthread_cond_t ckpt_idle; /* signalled when the thread's checkpoint ends */
    bool ckpt_stopping;
    bool ckpt_due;     /* the WAL reached CHECKPOINT_PAGES since the last checkpoint began */
    bool ckpt_running; /* the thread is in a checkpoint */
    int hold_fd;   /* the file, flock()ed while the store is open (hold_file); -1: none */
    uint64_t commits; /* transactions committed (store_committed_seq) */
} sqlite_store;

static void *checkpointer_main(void *arg)
{
    sqlite_store *st = arg;
    pthread_mutex_lock(&st->ckpt_lock);
    for (;;) {
        while (!st->ckpt_due && !st->ckpt_stopping)
            pthread_cond_wait(&st->ckpt_wake, &st->ckpt_lock);
        if (st->ckpt_stopping)
            break;
        st->ckpt_due = false;
        st->ckpt_running = true;
        pthread_mutex_unlock(&st->ckpt_lock);
        sqlite3_wal_checkpoint_v2(st->ckpt_db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        pthread_mutex_lock(&st->ckpt_lock);
        st->ckpt_running = false;
        pthread_cond_broadcast(&st->ckpt_idle);
        pthread_mutex_unlock(&st->ckpt_lock);
        struct timespec rest = {0, CHECKPOINT_REST_MS * 1000000L};
        nanosleep(&rest, NULL);
        pthread_mutex_lock(&st->ckpt_lock);
    }
    pthread_mutex_unlock(&st->ckpt_lock);
    return NULL;
}

/* The loop connection's WAL hook, after each commit: wake the checkpointer
 * when the WAL is long enough (a lock and a signal, no disk work). */
static int on_wal_commit(void *arg, sqlite3 *db, const char *name, int pages)
{
    (void)name;
    sqlite_store *st = arg;
    if (pages >= CHECKPOINT_PAGES_MAX) {
        /* busy (the thread is at it) or done: the next commit sees */
        if (sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL) == SQLITE_BUSY &&
            pages >= CHECKPOINT_PAGES_HARD) {
            pthread_mutex_lock(&st->ckpt_lock);
            while (st->ckpt_running)
                pthread_cond_wait(&st->ckpt_idle, &st->ckpt_lock);
            pthread_mutex_unlock(&st->ckpt_lock);
            sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        }
    } else if (pages >= CHECKPOINT_PAGES) {
        pthread_mutex_lock(&st->ckpt_lock);
        st->ckpt_due = true;
        pthread_cond_signal(&st->ckpt_wake);
        pthread_mutex_unlock(&st->ckpt_lock);
    }
    return SQLITE_OK;
}

/* Start the checkpointer for the file at path; without it (in memory, or
 * no second connection or thread to be had) SQLite's own checkpoints stay. */
static void start_checkpointer(sqlite_store *st, const char *path)
{
    if (strcmp(path, ":memory:") == 0 || path[0] == '\0')
        return;
    /* A read first: a connection meets the WAL when it first reads, and a
     * checkpoint on one that never has does nothing. */
    if (sqlite3_open_v2(path, &st->ckpt_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
        sqlite3_exec(st->ckpt_db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) != SQLITE_OK) {
        sqlite3_close(st->ckpt_db);
        st->ckpt_db = NULL;
        return;
    }
    pthread_mutex_init(&st->ckpt_lock, NULL);
    pthread_cond_init(&st->ckpt_wake, NULL);
    pthread_cond_init(&st->ckpt_idle, NULL);
    if (pthread_create(&st->ckpt_thread, NULL, checkpointer_main, st) != 0) {
        pthread_mutex_destroy(&st->ckpt_lock);
        pthread_cond_destroy(&st->ckpt_wake);
        pthread_cond_destroy(&st->ckpt_idle);
        sqlite3_close(st->ckpt_db);
        st->ckpt_db = NULL;
        return;
    }
    sqlite3_wal_hook(st->db, on_wal_commit, st); /* replaces SQLite's automatic checkpoints */
}

static void stop_checkpointer(sqlite_store *st)
{
    if (!st->ckpt_db)
        return;
    sqlite3_wal_hook(st->db, NULL, NULL); /* the commits left (store_close's flush) wake nobody */
    pthread_mutex_lock(&st->ckpt_lock);
    st->ckpt_stopping = true;
    pthread_cond_signal(&st->ckpt_wake);
    pthread_mutex_unlock(&st->ckpt_lock);
    pthread_join(st->ckpt_thread, NULL);
    pthread_mutex_destroy(&st->ckpt_lock);
    pthread_cond_destroy(&st->ckpt_wake);
    pthread_cond_destroy(&st->ckpt_idle);
    sqlite3_close(st->ckpt_db);
    st->ckpt_db = NULL;
}

/* One server per database file: two would restore the same unfinished
 * tables and play them apart, each writing action numbers the other had
 * written. So the store holds an flock() on the file from open to close,
 * and a second store_open (in another process) is refused once a server
 * that is just stopping has had HOLD_WAIT_MS to let go. flock() is not
 * SQLite's locking (POSIX fcntl() locks, taken per transaction), so other
 * processes' SQLite, the sqlite3 shell or a backup, still reads the file
 * while the server runs. The descriptor is closed after SQLite's
 * connections (store_close): closing any descriptor of a file drops every
 * POSIX lock the process holds on it. A file system that cannot flock()
 * leaves the file unguarded rather than unusable. Returns false, with
 * *err, only when the file is held or cannot be opened. */
#define HOLD_WAIT_MS 2000
#define HOLD_STEP_MS 50

static bool hold_file(sqlite_store *st, const char *path, asobi_error *err)
{
    if (strcmp(path, ":memory:") == 0 || path[0] == '\0')
        return true;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        asobi_fail(err, ASOBI_E_IO, "database: %s: %s", path, strerror(errno));
        return false;
    }
    for (int waited = 0;; waited += HOLD_STEP_MS) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            break;
        if (errno == EINTR)
            continue;
        if (errno != EWOULDBLOCK) { /* no flock() here: go on unguarded */
            close(fd);
            return true;
        }
        if (waited >= HOLD_WAIT_MS) {
            close(fd);
            asobi_fail(err, ASOBI_E_IO, "database: %s is in use by another process (another asobi serve?)", path);
            return false;
        }
        struct timespec step = {0, HOLD_STEP_MS * 1000000L};
        nanosleep(&step, NULL);
    }
    st->hold_fd = fd;
    return true;
}

static int db_fail(sqlite_store *st, asobi_error *err, const char *what)
{
    return asobi_fail(err, ASOBI_E_IO, "database: %s: %s", what, sqlite3_errmsg(st->db));
}

static const store_ops sqlite_ops;
static void sqlite_close(store *base);
static int sqlite_flush(store *base, asobi_error *err);

store *store_sqlite_open(const char *path, asobi_error *err)
{
    sqlite_store *st = calloc(1, sizeof *st);
    if (!st) {
        asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
        return NULL;
    }
    st->base.ops = &sqlite_ops;
    st->hold_fd = -1;
    if (!hold_file(st, path, err)) {
        sqlite_close(&st->base);
        return NULL;
    }
    if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) !=
        SQLITE_OK) {
        db_fail(st, err, path);
        sqlite_close(&st->base);
        return NULL;
    }
    sqlite3_busy_timeout(st->db, 2000);
    if (sqlite3_exec(st->db, schema, NULL, NULL, NULL) != SQLITE_OK) {
        db_fail(st, err, path);
        sqlite_close(&st->base);
        return NULL;
    }
    if (store_accounts_schema_sqlite(st->db, err) != ASOBI_OK) {
        sqlite_close(&st->base);
        return NULL;
    }
    if (sqlite3_exec(st->db, RATINGS_SQLITE_INDEX, NULL, NULL, NULL) != SQLITE_OK) {
        db_fail(st, err, path);
        sqlite_close(&st->base);
        return NULL;
    }
    for (int i = 0; i < Q_COUNT; i++) {
        if (sqlite3_prepare_v3(st->db, queries[i], -1, SQLITE_PREPARE_PERSISTENT, &st->q[i], NULL) != SQLITE_OK) {
            db_fail(st, err, "preparing a query");
            sqlite_close(&st->base);
            return NULL;
        }
    }
    for (int i = 0; i < CQ_COUNT; i++) {
        if (sqlite3_prepare_v3(st->db, chat_queries[i], -1, SQLITE_PREPARE_PERSISTENT, &st->chat_q[i], NULL) !=
            SQLITE_OK) {
            db_fail(st, err, "preparing a query");
            sqlite_close(&st->base);
            return NULL;
        }
    }
    start_checkpointer(st, path);
    asobi_error_clear(err);
    return &st->base;
}

static void sqlite_close(store *base)
{
    sqlite_store *st = (sqlite_store *)base;
    if (!st)
        return;
    stop_checkpointer(st); /* first: the last connection's close checkpoints what is left */
    if (st->db)
        sqlite_flush(&st->base, NULL);
    for (int i = 0; i < Q_COUNT; i++)
        sqlite3_finalize(st->q[i]);
    for (int i = 0; i < CQ_COUNT; i++)
        sqlite3_finalize(st->chat_q[i]);
    sqlite3_close(st->db);
    if (st->hold_fd >= 0)
        close(st->hold_fd); /* last: see hold_file */
    free(st);
}

/* Bind a JSON value as its compact text. */
static int bind_json(sqlite3_stmt *q, int index, const json_t *value)
{
    char *text = json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!text)
        return SQLITE_NOMEM;
    return sqlite3_bind_text(q, index, text, -1, free);
}

/* Step a prepared statement that returns no rows, and reset it. */
static int step_once(sqlite3_stmt *q)
{
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    return rc;
}

static int sqlite_flush(store *base, asobi_error *err)
{
    sqlite_store *st = (sqlite_store *)base;
    if (sqlite3_get_autocommit(st->db))
        return ASOBI_OK; /* no transaction open: nothing written since */
    if (step_once(st->q[Q_COMMIT]) != SQLITE_DONE) {
        db_fail(st, err, "committing");
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
        return ASOBI_E_IO;
    }
    st->commits++;
    return ASOBI_OK;
}

/* Run a prepared write to its end (inside the open transaction, begun if
 * none is) and reset it, whatever happened. */
static int run_write(sqlite_store *st, sqlite3_stmt *q, asobi_error *err, const char *what)
{
    if (sqlite3_get_autocommit(st->db) && step_once(st->q[Q_BEGIN]) != SQLITE_DONE) {
        sqlite3_reset(q);
        sqlite3_clear_bindings(q);
        return db_fail(st, err, "beginning a transaction");
    }
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    if (rc != SQLITE_DONE)
        return db_fail(st, err, what);
    asobi_error_clear(err);
    return ASOBI_OK;
}

static int sqlite_create_table(store *base, const json_t *spec, int64_t *id, asobi_error *err)
{
    sqlite_store *st = (sqlite_store *)base;
    sqlite3_stmt *q = st->q[Q_CREATE];
    if (bind_json(q, 1, spec) != SQLITE_OK)
        return asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
    int rc = run_write(st, q, err, "creating a table");
    if (rc == ASOBI_OK)
        *id = sqlite3_last_insert_rowid(st->db);
    return rc;
}

static int sqlite_add_seat(store *base, int64_t table, int seat, const char *name, const char *token_hash,
                   asobi_error *err)
{
    sqlite_store *st = (sqlite_store *)base;
    sqlite3_stmt *q = st->q[Q_SEAT];
    sqlite3_bind_int64(q, 1, table);
    sqlite3_bind_int(q, 2, seat);
    sqlite3_bind_text(q, 3, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 4, token_hash, -1, SQLITE_TRANSIENT);
    return run_write(st, q, err, "adding a seat");
}

static int sqlite_leave_seat(store *base, int64_t table, int seat, asobi_error *err)
{
    sqlite_store *st = (sqlite_store *)base;
    sqlite3_stmt *q = st->q[Q_LEAVE];
    sqlite3_bind_int64(q, 1, table);
    sqlite3_bind_int(q, 2, seat);
    return run_write(st, q, err, "leaving a seat");
}

static int sqlite_seat_account(store *base, int64_t table, int seat, int64_t account, asobi_error *err)
{
    sqlite_store *st = (sqlite_store *)base;
    sqlite3_stmt *q = st->q[Q_SEAT_ACCOUNT];
    sqlite3_bind_int64(q, 1, table);
    sqlite3_bind_int(q, 2, seat);
    sqlite3_bind_int64(q, 3, account);
    return run_write(st, q, err, "keeping a seat's account");
}

static int sqlite_add_action(store *base, int64_t table, int index, int seat, const char *action, const char *by,
                     int64_t clock_ms, asobi_error *err)
{
    sqlite_store *st = (sqlite_store *)base;
    sqlite3_stmt *q = st->q[Q_ACTION];
    sqlite3_bind_int64(q, 1, table);
    sqlite3_bind_int(q, 2, index);
    sqlite3_bind_int(q, 3, seat);
    sqlite3_bind_text(q, 4, action, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 5, by, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 6, clock_ms);
    return run_write(st, q, err, "adding an action");
}

/* chat (issue 44) */
static int sqlite_add_chat(store *base, int64_t table, int index, const char *line, asobi_error *err)
{
    sqlite_store *st = (sqlite_store *)base;
    sqlite3_stmt *q = st->chat_q[CQ_ADD];
    sqlite3_bind_int64(q, 1, table);
    sqlite3_bind_int(q, 2, index);
    sqlite3_bind_text(q, 3, line, -1, SQLITE_TRANSIENT);
    return run_write(st, q, err, "adding a chat line");
}

static int sqlite_hide_chat(store *base, int64_t table, int index, asobi_error *err)
{
    sqlite_store *st = (sqlite_store *)base;
    sqlite3_stmt *q = st->chat_q[CQ_HIDE];
    sqlite3_bind_int64(q, 1, table);
    sqlite3_bind_int(q, 2, index);
    int rc = run_write(st, q, err, "hiding a chat line");
    if (rc == ASOBI_OK && sqlite3_changes(st->db) == 0)
        return asobi_fail(err, ASOBI_E_BAD_ARGUMENT, "table %lld has no chat line %d", (long long)table, index);
    return rc;
}

/* store_hide_chat_at's on a SQLite file, beside a server that may hold it:
 * a connection of its own that takes no hold (hold_file's flock), so the
 * hide is one short WAL write between the server's; the trigger
 * chat_hide_news writes the news that the servers poll (chat_hides.c). */
int store_sqlite_hide_chat(const char *path, int64_t table, int index, asobi_error *err)
{
    sqlite3 *db = NULL;
    int rc = ASOBI_OK;
    sqlite3_stmt *q = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
        sqlite3_busy_timeout(db, 5000) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA journal_mode=WAL;", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, chat_queries[CQ_HIDE], -1, &q, NULL) != SQLITE_OK) {
        rc = asobi_fail(err, ASOBI_E_IO, "database: %s: %s", path, db ? sqlite3_errmsg(db) : "no memory");
    } else {
        sqlite3_bind_int64(q, 1, table);
        sqlite3_bind_int(q, 2, index);
        if (sqlite3_step(q) != SQLITE_DONE)
            rc = asobi_fail(err, ASOBI_E_IO, "database: hiding a chat line: %s", sqlite3_errmsg(db));
        else if (sqlite3_changes(db) == 0)
            rc = asobi_fail(err, ASOBI_E_BAD_ARGUMENT, "table %lld has no chat line %d", (long long)table, index);
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
    if (rc == ASOBI_OK)
        asobi_error_clear(err);
    return rc;
}

static int sqlite_load_chat(store *base, int64_t table, json_t **lines, asobi_error *err)
{
    sqlite_store *st = (sqlite_store *)base;
    sqlite3_stmt *q = st->chat_q[CQ_OF];
    sqlite3_bind_int64(q, 1, table);
    *lines = json_array();
    int step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        const char *text = (const char *)sqlite3_column_text(q, 0);
        json_t *line = text ? json_loads(text, 0, NULL) : NULL;
        if (line)
            json_array_append_new(*lines, line);
    }
    sqlite3_reset(q);
    if (step != SQLITE_DONE) {
        json_decref(*lines);
        *lines = NULL;
        return db_fail(st, err, "reading a table's chat");
    }
    asobi_error_clear(err);
    return ASOBI_OK;
}

static int sqlite_set_rematch(store *base, int64_t table, int64_t rematch, asobi_error *err)
{
    sqlite_store *st = (sqlite_store *)base;
    sqlite3_stmt *q = st->q[Q_REMATCH];
    sqlite3_bind_int64(q, 1, table);
    sqlite3_bind_int64(q, 2, rematch);
    return run_write(st, q, err, "keeping a rematch");
}

static int sqlite_expire(store *base, int64_t table, asobi_error *err)
{
    sqlite_store *st = (sqlite_store *)base;
    sqlite3_stmt *q = st->q[Q_EXPIRE];
    sqlite3_bind_int64(q, 1, table);
    return run_write(st, q, err, "expiring a table");
}

/* store_ratings.c's statements on the loop's connection (inside the open
 * transaction when they write). */
static json_t *sqlite_rows(void *ctx, int query, const char *const *params, int n, asobi_error *err)
{
    sqlite_store *st = ctx;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, ratings_queries[query], -1, &q, NULL) != SQLITE_OK) {
        db_fail(st, err, "preparing a ratings query");
        return NULL;
    }
    for (int i = 0; i < n; i++)
        sqlite3_bind_text(q, i + 1, params[i], -1, SQLITE_TRANSIENT);
    json_t *rows = json_array();
    int step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        json_t *row = json_array();
        for (int c = 0; c < sqlite3_column_count(q); c++) {
            const char *text = (const char *)sqlite3_column_text(q, c);
            json_array_append_new(row, text ? json_string(text) : json_null());
        }
        json_array_append_new(rows, row);
    }
    sqlite3_finalize(q);
    if (step != SQLITE_DONE) {
        json_decref(rows);
        db_fail(st, err, "reading or writing ratings");
        return NULL;
    }
    return rows;
}

static int sqlite_player(store *base, const char *name, int64_t before, json_t **profile, asobi_error *err)
{
    return store_read_player(sqlite_rows, base, name, before, profile, err);
}

static int sqlite_leaderboard(store *base, const char *game, json_t **board, asobi_error *err)
{
    return store_read_leaderboard(sqlite_rows, base, game, board, err);
}

int store_sqlite_ratings_read(sqlite3 *db, const char *player, const char *game, int64_t before, json_t **out,
                              asobi_error *err)
{
    sqlite_store reader = {.db = db}; /* what sqlite_rows reads of a store */
    return player ? store_read_player(sqlite_rows, &reader, player, before, out, err)
                  : store_read_leaderboard(sqlite_rows, &reader, game, out, err);
}

/* The finish, and with a result what it means for the ratings, as one:
 * under a savepoint in the open transaction, so that a failure halfway
 * leaves neither (the table stays unfinished in the store, and a restore
 * replays it to the same end and finishes it then). */
static int sqlite_finish_row(sqlite_store *st, int64_t table, const char *summary, const char *record,
                             asobi_error *err);

static int sqlite_finish(store *base, int64_t table, const char *summary, const char *record,
                         const store_result *result, asobi_error *err)
{
    sqlite_store *st = (sqlite_store *)base;
    if (!store_result_writes(result))
        return sqlite_finish_row(st, table, summary, record, err);
    if (sqlite3_get_autocommit(st->db) && step_once(st->q[Q_BEGIN]) != SQLITE_DONE)
        return db_fail(st, err, "beginning a transaction");
    if (sqlite3_exec(st->db, "SAVEPOINT finish", NULL, NULL, NULL) != SQLITE_OK)
        return db_fail(st, err, "a savepoint");
    int rc = sqlite_finish_row(st, table, summary, record, err);
    if (rc == ASOBI_OK)
        rc = store_record_result(sqlite_rows, st, table, result, err);
    if (rc != ASOBI_OK)
        sqlite3_exec(st->db, "ROLLBACK TO finish", NULL, NULL, NULL);
    sqlite3_exec(st->db, "RELEASE finish", NULL, NULL, NULL);
    return rc;
}

static int sqlite_finish_row(sqlite_store *st, int64_t table, const char *summary, const char *record,
                             asobi_error *err)
{
    sqlite3_stmt *q = st->q[Q_FINISH];
    sqlite3_bind_int64(q, 1, table);
    if (sqlite3_bind_text(q, 2, summary, -1, SQLITE_STATIC) != SQLITE_OK ||
        sqlite3_bind_text(q, 3, record, -1, SQLITE_STATIC) != SQLITE_OK) {
        sqlite3_reset(q);
        sqlite3_clear_bindings(q);
        return asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
    }
    return run_write(st, q, err, "finishing a table"); /* unbinds the texts before returning */
}

static json_t *column_json(sqlite3_stmt *q, int col)
{
    const char *text = (const char *)sqlite3_column_text(q, col);
    return text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
}

/* The rows of one table's seats or actions as a JSON array. */
static json_t *rows_of(sqlite_store *st, int which, int64_t table)
{
    sqlite3_stmt *q = st->q[which];
    sqlite3_bind_int64(q, 1, table);
    json_t *rows = json_array();
    while (sqlite3_step(q) == SQLITE_ROW) {
        if (which == Q_SEATS_OF) {
            json_t *row = json_pack("{s:i, s:s, s:s}", "seat", sqlite3_column_int(q, 0), "name",
                                    (const char *)sqlite3_column_text(q, 1), "token_hash",
                                    (const char *)sqlite3_column_text(q, 2));
            if (row && sqlite3_column_type(q, 3) != SQLITE_NULL) { /* a signed-in person's seat (issue 42) */
                json_object_set_new(row, "account", json_integer(sqlite3_column_int64(q, 3)));
                if (sqlite3_column_int(q, 4))
                    json_object_set_new(row, "claimed", json_true());
            }
            json_array_append_new(rows, row);
        } else
            json_array_append_new(rows, json_pack("{s:i, s:s, s:s, s:I}", "seat", sqlite3_column_int(q, 0),
                                                  "action", (const char *)sqlite3_column_text(q, 1), "by",
                                                  (const char *)sqlite3_column_text(q, 2), "clock_ms",
                                                  (json_int_t)sqlite3_column_int64(q, 3)));
    }
    sqlite3_reset(q);
    return rows;
}

static int sqlite_load_unfinished(store *base, store_table_fn on_table, void *ctx, asobi_error *err)
{
    sqlite_store *st = (sqlite_store *)base;
    /* Collect the ids first: on_table may write (finish a table that a
     * replay ended), which must not run under an open read cursor. */
    sqlite3_stmt *q = st->q[Q_UNFINISHED];
    json_t *pending = json_array();
    int step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        json_t *spec = column_json(q, 1);
        json_array_append_new(pending, json_pack("{s:I, s:o?}", "id", (json_int_t)sqlite3_column_int64(q, 0),
                                                 "spec", spec));
    }
    sqlite3_reset(q);
    if (step != SQLITE_DONE) {
        json_decref(pending);
        return db_fail(st, err, "listing unfinished tables");
    }
    int rc = ASOBI_OK;
    size_t i;
    json_t *row;
    json_array_foreach(pending, i, row)
    {
        int64_t id = json_integer_value(json_object_get(row, "id"));
        json_t *seats = rows_of(st, Q_SEATS_OF, id), *actions = rows_of(st, Q_ACTIONS_OF, id);
        const json_t *spec = json_object_get(row, "spec");
        rc = spec ? on_table(ctx, id, spec, seats, actions)
                  : asobi_fail(err, ASOBI_E_IO, "database: table %lld has no readable description", (long long)id);
        json_decref(seats);
        json_decref(actions);
        if (rc != ASOBI_OK)
            break;
    }
    json_decref(pending);
    if (rc == ASOBI_OK)
        asobi_error_clear(err);
    return rc;
}

static int sqlite_load_table(store *base, int64_t table, json_t **spec, json_t **seats, json_t **actions, json_t **summary,
                     asobi_error *err)
{
    sqlite_store *st = (sqlite_store *)base;
    *spec = *seats = *actions = *summary = NULL;
    sqlite3_stmt *q = st->q[Q_TABLE];
    sqlite3_bind_int64(q, 1, table);
    int step = sqlite3_step(q);
    if (step == SQLITE_ROW) {
        *spec = column_json(q, 0);
        *summary = sqlite3_column_int(q, 1) ? column_json(q, 2) : NULL;
    }
    bool finished = step == SQLITE_ROW && sqlite3_column_int(q, 1);
    bool gone = step == SQLITE_ROW && sqlite3_column_int(q, 1) == 2; /* expired */
    sqlite3_reset(q);
    if (gone) {
        json_decref(*spec);
        *spec = NULL;
        step = SQLITE_DONE;
    }
    if (step == SQLITE_DONE)
        return asobi_fail(err, ASOBI_E_BAD_ARGUMENT, "there is no table %lld", (long long)table);
    if (step != SQLITE_ROW)
        return db_fail(st, err, "reading a table");
    if (!*spec || (finished && !*summary)) {
        json_decref(*spec);
        json_decref(*summary);
        *spec = *summary = NULL;
        return asobi_fail(err, ASOBI_E_IO, "database: table %lld cannot be read", (long long)table);
    }
    *seats = rows_of(st, Q_SEATS_OF, table);
    *actions = rows_of(st, Q_ACTIONS_OF, table);
    asobi_error_clear(err);
    return ASOBI_OK;
}

static int sqlite_load_finished(store *base, int64_t table, json_t **summary, json_t **record, asobi_error *err)
{
    sqlite_store *st = (sqlite_store *)base;
    sqlite3_stmt *q = st->q[Q_FINISHED];
    sqlite3_bind_int64(q, 1, table);
    int rc = ASOBI_E_BAD_ARGUMENT;
    if (sqlite3_step(q) == SQLITE_ROW) {
        *summary = column_json(q, 0);
        *record = column_json(q, 1);
        rc = *summary && *record ? ASOBI_OK : ASOBI_E_IO;
    }
    sqlite3_reset(q);
    if (rc == ASOBI_E_BAD_ARGUMENT)
        return asobi_fail(err, rc, "there is no finished table %lld", (long long)table);
    if (rc != ASOBI_OK)
        return asobi_fail(err, rc, "database: table %lld's record cannot be read", (long long)table);
    asobi_error_clear(err);
    return ASOBI_OK;
}

/* The asynchronous side of store.h: a commit to a local file is done at
 * once, so it is always settled and has nothing to report. */
static int sqlite_commit_start(store *base, asobi_error *err) { return sqlite_flush(base, err); }

static bool sqlite_settled(store *base)
{
    sqlite_store *st = (sqlite_store *)base;
    return sqlite3_get_autocommit(st->db);
}

/* The open transaction is the next batch; the committed ones are counted. */
static uint64_t sqlite_batch_seq(store *base)
{
    sqlite_store *st = (sqlite_store *)base;
    return st->commits + !sqlite3_get_autocommit(st->db);
}

static uint64_t sqlite_committed_seq(store *base) { return ((sqlite_store *)base)->commits; }

static int sqlite_collect(store *base, store_events *ev, asobi_error *err)
{
    (void)base;
    (void)ev;
    asobi_error_clear(err);
    return ASOBI_OK;
}

static void sqlite_set_wake(store *base, void (*wake)(void *), void *ctx)
{
    (void)base;
    (void)wake;
    (void)ctx;
}

static bool sqlite_owns(store *base, int64_t table)
{
    (void)base;
    (void)table;
    return true; /* one server per file: every table is its own */
}

static char *sqlite_owner_url(store *base, int64_t table)
{
    (void)base;
    (void)table;
    return NULL;
}

static const store_ops sqlite_ops = {
    .name = "sqlite", .close = sqlite_close, .flush = sqlite_flush, .commit_start = sqlite_commit_start,
    .settled = sqlite_settled, .batch_seq = sqlite_batch_seq, .committed_seq = sqlite_committed_seq,
    .collect = sqlite_collect, .set_wake = sqlite_set_wake,
    .create_table = sqlite_create_table, .add_seat = sqlite_add_seat, .leave_seat = sqlite_leave_seat, .add_action = sqlite_add_action,
    .finish = sqlite_finish, .expire = sqlite_expire, .set_rematch = sqlite_set_rematch,
    .load_unfinished = sqlite_load_unfinished, .load_table = sqlite_load_table, .load_finished = sqlite_load_finished,
    .owner_url = sqlite_owner_url, .owns = sqlite_owns,
    .add_chat = sqlite_add_chat, .hide_chat = sqlite_hide_chat, .load_chat = sqlite_load_chat,
    .player = sqlite_player, .leaderboard = sqlite_leaderboard,
    .seat_account = sqlite_seat_account,
};

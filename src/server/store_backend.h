/* store_backend.h — what a store backend provides (store_sqlite.c, store_pg.c) and how store.c dispatches to it. */
#ifndef ASOBI_SERVER_STORE_BACKEND_H
#define ASOBI_SERVER_STORE_BACKEND_H

#include "server/store.h"

/* Every call of store.h, one entry each; store.c checks the arguments'
 * common cases and calls through. A backend's struct begins with a
 * `struct store` (its ops), so a store * is the backend's own pointer. */
typedef struct store_ops {
    const char *name; /* "sqlite", "postgresql" */
    void (*close)(store *st);
    int (*flush)(store *st, asobi_error *err);
    int (*commit_start)(store *st, asobi_error *err);
    bool (*settled)(store *st);
    uint64_t (*batch_seq)(store *st);
    uint64_t (*committed_seq)(store *st);
    int (*collect)(store *st, store_events *ev, asobi_error *err);
    void (*set_wake)(store *st, void (*wake)(void *), void *ctx);
    int (*create_table)(store *st, const json_t *spec, int64_t *id, asobi_error *err);
    int (*add_seat)(store *st, int64_t table, int seat, const char *name, const char *token_hash, asobi_error *err);
    int (*leave_seat)(store *st, int64_t table, int seat, asobi_error *err);
    int (*add_action)(store *st, int64_t table, int index, int seat, const char *action, const char *by,
                      int64_t clock_ms, asobi_error *err);
    int (*finish)(store *st, int64_t table, const char *summary, const char *record, const store_result *result,
                  asobi_error *err);
    int (*expire)(store *st, int64_t table, asobi_error *err);
    int (*set_rematch)(store *st, int64_t table, int64_t rematch, asobi_error *err);
    int (*load_unfinished)(store *st, store_table_fn on_table, void *ctx, asobi_error *err);
    int (*load_table)(store *st, int64_t table, json_t **spec, json_t **seats, json_t **actions, json_t **summary,
                      asobi_error *err);
    int (*load_finished)(store *st, int64_t table, json_t **summary, json_t **record, asobi_error *err);
    char *(*owner_url)(store *st, int64_t table);
    bool (*lookup_start)(store *st, int64_t table, bool rows, void *cookie);
    bool (*owned_elsewhere)(store *st, int64_t table);
    void (*give_up)(store *st, int64_t table);
    bool (*owns)(store *st, int64_t table);
    void (*set_public_url)(store *st, const char *url);
    bool (*node_origin)(store *st, const char *origin);
    void (*publish_tables)(store *st, const json_t *entries);
    json_t *(*other_tables)(store *st);
    /* chat (issue 44) */
    int (*add_chat)(store *st, int64_t table, int index, const char *line, asobi_error *err);
    int (*hide_chat)(store *st, int64_t table, int index, asobi_error *err);
    int (*load_chat)(store *st, int64_t table, json_t **lines, asobi_error *err);
    /* ratings (store_ratings.c): the profile's and leaderboard's reads */
    int (*player)(store *st, const char *name, int64_t before, json_t **profile, asobi_error *err);
    int (*leaderboard)(store *st, const char *game, json_t **board, asobi_error *err);
    bool (*ratings_read_start)(store *st, const char *player, const char *game, int64_t before, void *cookie);
    /* accounts (store_accounts.c) */
    int (*seat_account)(store *st, int64_t table, int seat, int64_t account, asobi_error *err);
} store_ops;

struct store {
    const store_ops *ops;
};

/* Ratings (store_ratings.c): the statements each backend gives, one text
 * per query, parameters $1... as texts. Rows come back as a JSON array of
 * arrays of texts (NULL columns: null); a statement with no rows gives []. */
enum store_rq {
    STORE_RQ_BOT_RECORD,    /* account, game, level, wins, losses, draws: added to the account's record */
    STORE_RQ_RATED_ALREADY, /* table: a row when it has rating history */
    STORE_RQ_RATING_SEED,   /* account, game, name: a newcomer's row (none if there is one) */
    STORE_RQ_RATING_GET,    /* account, game: mu, sigma, games (PostgreSQL: locked to the commit) */
    STORE_RQ_RATING_PUT,    /* account, game, name, mu, sigma, games */
    STORE_RQ_HISTORY_PUT,   /* table, account, game, name, seat, rank, mu0, sigma0, mu, sigma, games */
    STORE_RQ_ACCOUNT,       /* name: id, name, closed (NULL: open) of the account so named (any case) */
    STORE_RQ_RATINGS,       /* account: game, mu, sigma, games */
    STORE_RQ_GAMES,         /* account, before: table, summary, seat, then history's game, mu0, sigma0, mu, sigma
                             * (NULLs: unrated), newest first, STORE_PROFILE_GAMES */
    STORE_RQ_BOTS,          /* account: game, level, wins, losses, draws */
    STORE_RQ_HISTORY,       /* account: game, table, mu, sigma, newest first */
    STORE_RQ_BOARD,         /* game: name, mu, sigma, games, best first, STORE_LEADERBOARD, none provisional */
    STORE_RQ_COUNT
};
typedef json_t *(*store_sql_fn)(void *ctx, int query, const char *const *params, int n, asobi_error *err);
/* What store_finish_result writes beside the finish (store.h), through sql. */
int store_record_result(store_sql_fn sql, void *ctx, int64_t table, const store_result *result, asobi_error *err);
/* Does result write anything (an account at the table)? */
bool store_result_writes(const store_result *result);
int store_read_player(store_sql_fn sql, void *ctx, const char *name, int64_t before, json_t **profile,
                      asobi_error *err);
int store_read_leaderboard(store_sql_fn sql, void *ctx, const char *game, json_t **board, asobi_error *err);
/* store_read_player (player set) or store_read_leaderboard (game) on a
 * connection of the caller's own to the SQLite file: a worker's
 * (ratings_api.c), never the loop's. */
struct sqlite3;
int store_sqlite_ratings_read(struct sqlite3 *db, const char *player, const char *game, int64_t before, json_t **out,
                              asobi_error *err);

store *store_sqlite_open(const char *path, asobi_error *err);
/* A connection to PostgreSQL at uri for any part of the server (the store,
 * accounts, jobs, chat hides), quiet: the server's own idempotent schema
 * statements ("already exists, skipping") raise no NOTICE on stderr. NULL
 * (err set) when it cannot connect. */
struct pg_conn *store_pg_connect(const char *uri, asobi_error *err);
store *store_pg_open(const char *uri, const store_options *opt, asobi_error *err);
/* store_hide_chat_at's, without joining the nodes. */
int store_pg_hide_chat(const char *uri, int64_t table, int index, asobi_error *err);
/* ... and on a SQLite file, beside a server holding it (no hold taken). */
int store_sqlite_hide_chat(const char *path, int64_t table, int index, asobi_error *err);

/* The accounts' schema (store_accounts.c): the accounts and sessions
 * tables, and the seats' account columns added to a database of before,
 * idempotently; run by each backend's open after its own schema. */
struct sqlite3;
struct pg_conn;
int store_accounts_schema_sqlite(struct sqlite3 *db, asobi_error *err);
int store_accounts_schema_pg(struct pg_conn *c, asobi_error *err);

#endif

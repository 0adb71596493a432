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
    int (*finish)(store *st, int64_t table, const char *summary, const char *record, asobi_error *err);
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
    /* accounts (store_accounts.c) */
    int (*seat_account)(store *st, int64_t table, int seat, int64_t account, asobi_error *err);
} store_ops;

struct store {
    const store_ops *ops;
};

store *store_sqlite_open(const char *path, asobi_error *err);
store *store_pg_open(const char *uri, const store_options *opt, asobi_error *err);
/* store_hide_chat_at's, without joining the nodes. */
int store_pg_hide_chat(const char *uri, int64_t table, int index, asobi_error *err);

/* The accounts' schema (store_accounts.c): the accounts and sessions
 * tables, and the seats' account columns added to a database of before,
 * idempotently; run by each backend's open after its own schema. */
struct sqlite3;
struct pg_conn;
int store_accounts_schema_sqlite(struct sqlite3 *db, asobi_error *err);
int store_accounts_schema_pg(struct pg_conn *c, asobi_error *err);

#endif

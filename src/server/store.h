/* store.h — where tables, seats and accepted actions are kept: one small interface (SQLite behind it today). */
#ifndef ASOBI_SERVER_STORE_H
#define ASOBI_SERVER_STORE_H

#include <stdint.h>

#include "asobi/asobi.h"

/* Why an interface: the server only ever needs these few operations, and a
 * later PostgreSQL store (several server nodes) must fit behind the same
 * calls. Every call is synchronous. Writes join one open transaction (group
 * commit: one disk write for every action of a loop turn); store_flush
 * commits it. The rule that makes this safe: nothing written is told to
 * anyone before store_flush has returned ASOBI_OK (the server flushes before
 * every byte it sends). Errors are ASOBI_E_IO with SQLite's message. */
typedef struct store store;

/* Open (creating if needed) the store at path; ":memory:" for tests. One
 * store per file: while one is open, another process's store_open is
 * refused (ASOBI_E_IO, "... is in use by another process ...") after two
 * seconds' wait; other readers of the file are not. */
store *store_open(const char *path, asobi_error *err);
/* Flushes, then closes. */
void store_close(store *st);
/* Commit every write since the last flush (nothing to do: ASOBI_OK). On an
 * error the writes are rolled back: the caller must not go on as if they
 * were kept (the server stops; a restart restores what was committed). */
int store_flush(store *st, asobi_error *err);

/* A new table from its description (a JSON object the store keeps as it is:
 * game, players, options, seed, bots, clock, created); *id is its number. */
int store_create_table(store *st, const json_t *spec, int64_t *id, asobi_error *err);
/* A person took a seat: the name and the hash of the token (never the token). */
int store_add_seat(store *st, int64_t table, int seat, const char *name, const char *token_hash,
                   asobi_error *err);
/* The index-th accepted action of a table; by is "human", "bot" or
 * "timeout"; clock_ms is the actor's remaining time after it (-1: no clock). */
int store_add_action(store *st, int64_t table, int index, int seat, const char *action, const char *by,
                     int64_t clock_ms, asobi_error *err);
/* The table is over: keep its summary and record (compact JSON texts); it is
 * no longer restored. */
int store_finish(store *st, int64_t table, const char *summary, const char *record, asobi_error *err);

/* An unfinished table expired (nobody joined it, or nobody came back): it
 * is neither restored nor loaded again, as if it had never been. */
int store_expire(store *st, int64_t table, asobi_error *err);

/* A finished table's rematch is table rematch: its stored summary says so
 * ("rematch": ID). */
int store_set_rematch(store *st, int64_t table, int64_t rematch, asobi_error *err);

/* Every unfinished table, oldest first: on_table gets its description, its
 * seats [{"seat","name","token_hash"}] and its actions
 * [{"seat","action","by","clock_ms"}] in order. A non-zero return from
 * on_table stops the walk and is returned. */
typedef int (*store_table_fn)(void *ctx, int64_t id, const json_t *spec, const json_t *seats,
                              const json_t *actions);
int store_load_unfinished(store *st, store_table_fn on_table, void *ctx, asobi_error *err);
/* One table, finished or not (new references): its description, seats and
 * actions as store_load_unfinished gives them, and *summary its stored
 * summary once it is finished (NULL before). ASOBI_E_BAD_ARGUMENT when there
 * is no table of that number. */
int store_load_table(store *st, int64_t table, json_t **spec, json_t **seats, json_t **actions, json_t **summary,
                     asobi_error *err);
/* A finished table's summary and record (new references); ASOBI_E_BAD_ARGUMENT
 * when there is no finished table of that number. */
int store_load_finished(store *st, int64_t table, json_t **summary, json_t **record, asobi_error *err);

#endif

/* jobs_store.h — the store's job table (reviews now, arena games later): queued, claimed under a lease, done with a cached result. */
#ifndef ASOBI_SERVER_JOBS_STORE_H
#define ASOBI_SERVER_JOBS_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "asobi/asobi.h"

/* Why a table of jobs, and why a connection of its own
 * ---------------------------------------------------
 * A review is minutes of search: it is asked on one node, may be run by
 * any node's workers, and its result is kept so that a second request
 * costs nothing. One table holds all three: a row per job (kind, key),
 * "queued", then "running" under a node's lease (claimed with FOR UPDATE
 * SKIP LOCKED on PostgreSQL, so two nodes never take one job and none
 * waits for another's lock), then "done" with its result (the cache) or
 * "failed" with why. A node that dies mid-job stops renewing its lease and
 * the job is claimed again once the lease lapses. `asobi arena` can queue
 * its games the same way: kind "arena", key the match and game number,
 * args the specs and seed, result the record (docs/server.md, "Reviews").
 *
 * Every call here is made on a worker thread, never on the loop (a read of
 * PostgreSQL is a round trip): the jobs store has its own connection to the
 * server's database (SQLite in WAL mode lets it read while the loop's
 * connection writes), one call at a time under its lock. */
typedef struct jobs_store jobs_store;

/* Open on the server's database (a file or a PostgreSQL URI; ":memory:"
 * gives a table of jobs of its own, without the tables' records: every
 * ask finds no table). node names this node in the leases. */
jobs_store *jobs_store_open(const char *where, const char *node, asobi_error *err);
void jobs_store_close(jobs_store *js);

/* A job's state as the table holds it. */
typedef struct jobs_row {
    char status[16]; /* "queued", "running", "done", "failed"; "" no such job */
    char *result;    /* done: the result; failed: why (malloc'd, or NULL) */
} jobs_row;

/* The finished table's stored summary and record (new references; NULL
 * when there is no finished table of that id). */
int jobs_store_finished_table(jobs_store *js, int64_t id, json_t **summary, json_t **record, asobi_error *err);
/* Jobs of a kind that are queued or running, every node's. */
int jobs_store_pending(jobs_store *js, const char *kind, int *count, asobi_error *err);
/* Queue job (kind, key) with args unless it exists; *row is its state after. */
int jobs_store_ask(jobs_store *js, const char *kind, const char *key, const char *args, bool create, jobs_row *row,
                   asobi_error *err);
/* Claim the oldest queued job of a kind (or a running one whose lease
 * lapsed) for lease_ms: true with its key and args (malloc'd), false when none. */
bool jobs_store_claim(jobs_store *js, const char *kind, int64_t lease_ms, char **key, char **args, asobi_error *err);
/* This node still runs the job: its lease lasts lease_ms more. */
int jobs_store_renew(jobs_store *js, const char *kind, const char *key, int64_t lease_ms, asobi_error *err);
/* The job ended: status "done" with its result, or "failed" with why. */
int jobs_store_end(jobs_store *js, const char *kind, const char *key, const char *status, const char *result,
                   asobi_error *err);
void jobs_row_free(jobs_row *row);

#endif

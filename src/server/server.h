/* server.h — `asobi serve`: the HTTP + WebSocket server around the tables (libwebsockets, one event loop). */
#ifndef ASOBI_SERVER_SERVER_H
#define ASOBI_SERVER_SERVER_H

#include <stdbool.h>
#include <stdint.h>

#include "server/limits.h"

#define SERVER_MAX_ORIGINS 16

/* The event loop under libwebsockets (--event-loop): server.c says why libev
 * is the default. The names are what the option takes and the start line
 * prints (server_event_loop_name). */
typedef enum server_event_loop { SERVER_LOOP_LIBEV, SERVER_LOOP_LIBUV, SERVER_LOOP_POLL } server_event_loop;
const char *server_event_loop_name(server_event_loop loop);
/* The loop a name stands for; -1 for another name. */
int server_event_loop_of(const char *name);

typedef struct server_config {
    const char *host;   /* the address to listen on: 127.0.0.1 by default */
    int port;           /* 0: any free port (the one chosen is printed) */
    const char *db;     /* the SQLite file */
    const char *web;    /* the folder of static files */
    int workers;        /* bot threads */
    int max_connections; /* open connections at most (sets the process's file limit: server.c) */
    server_event_loop loop; /* --event-loop: libev by default */
    int64_t grace_ms;   /* a disconnected seat on its turn is moved for after this */
    const char *allow_origin[SERVER_MAX_ORIGINS];
    int origins;
    const struct asobi_data_sets *card_sets; /* --card-sets: names a table's options may use; NULL: none */
    limits_config limits; /* what one client address may hold and do (its `connections` is max_connections) */
    bool allow_chosen_seeds; /* --allow-chosen-seeds: a client may choose a table's seed (docs/server.md) */
} server_config;

/* Restore the unfinished tables, listen, serve until SIGINT or SIGTERM.
 * Returns the process exit status (after printing why on failure). */
int server_run(const server_config *config);

#endif

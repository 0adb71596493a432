/* server.h — `asobi serve`: the HTTP + WebSocket server around the tables (libwebsockets, one event loop). */
#ifndef ASOBI_SERVER_SERVER_H
#define ASOBI_SERVER_SERVER_H

#include <stdbool.h>
#include <stdint.h>

#define SERVER_MAX_ORIGINS 16

typedef struct server_config {
    const char *host;   /* the address to listen on: 127.0.0.1 by default */
    int port;           /* 0: any free port (the one chosen is printed) */
    const char *db;     /* the SQLite file */
    const char *web;    /* the folder of static files */
    int workers;        /* bot threads */
    int max_connections; /* open connections at most (sets the process's file limit: server.c) */
    bool poll_loop;      /* --event-loop poll: libwebsockets' own poll() loop instead of libuv's */
    int64_t grace_ms;   /* a disconnected seat on its turn is moved for after this */
    const char *allow_origin[SERVER_MAX_ORIGINS];
    int origins;
    const struct asobi_data_sets *card_sets; /* --card-sets: names a table's options may use; NULL: none */
} server_config;

/* Restore the unfinished tables, listen, serve until SIGINT or SIGTERM.
 * Returns the process exit status (after printing why on failure). */
int server_run(const server_config *config);

#endif

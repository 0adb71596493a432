/* server.h — `asobi serve`: the HTTP + WebSocket server around the tables (libwebsockets, one event loop). */
#ifndef ASOBI_SERVER_SERVER_H
#define ASOBI_SERVER_SERVER_H

#include <stdbool.h>
#include <stdint.h>

#include "server/accounts.h"
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
    const char *db;     /* the SQLite file, or a PostgreSQL URI (several nodes: docs/server.md) */
    const char *public_url; /* --public-url: where clients reach this node (its tables' "ws"); NULL: none */
    const char *node;   /* --node: this node's name (PostgreSQL); NULL: host name and process id */
    int64_t lease_ms;   /* --lease: a node's hold on its tables, unrenewed (0: STORE_LEASE_MS) */
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
    /* The table life cycle and the bot workers (docs/server.md, "Limits"). */
    int64_t bot_deadline_ms;     /* --bot-deadline: a bot move running longer is abandoned for the heuristic's */
    int max_bot_tables;          /* --max-bot-tables: tables only bots play, at most (at least 1) */
    int64_t bot_table_pace_ms;   /* --bot-table-pace: such a table's bot moves start at least this far apart */
    int64_t open_expiry_ms;      /* --open-table-expiry: an open table nobody joined goes after this */
    int64_t idle_expiry_ms;      /* --idle-table-expiry: an unfinished table nobody is connected to goes after this */
    int max_spectators;          /* --max-spectators: spectators of one table at most */
    /* The game options that bound a game's length, held to a ceiling (docs/server.md, "Limits"):
     * a game as long as an option allows is as long to replay and to send. */
    int max_cycles;              /* --max-cycles: PSYCLE's max_cycles at most */
    int max_turns;               /* --max-turns: OCTAL's and Time Masters' max_turns at most */
    accounts_config accounts;    /* sign-ins, sign-ups and password hashes (accounts.h; docs/server.md, "Limits") */
} server_config;

/* The defaults of the options above (cmd_serve.c, docs/server.md). */
#define SERVER_BOT_DEADLINE_MS 5000
#define SERVER_MAX_BOT_TABLES 32
#define SERVER_BOT_TABLE_PACE_MS 200
#define SERVER_OPEN_EXPIRY_MS (30 * 60 * 1000)
#define SERVER_IDLE_EXPIRY_MS (2 * 60 * 60 * 1000)
#define SERVER_MAX_SPECTATORS 100
#define SERVER_MAX_CYCLES 200  /* twice PSYCLE's default: a few thousand actions at most, even of ties */
#define SERVER_MAX_TURNS 2000  /* twice OCTAL's default, Time Masters' own most */

/* Restore the unfinished tables, listen, serve until SIGINT or SIGTERM.
 * Returns the process exit status (after printing why on failure). */
int server_run(const server_config *config);

#endif

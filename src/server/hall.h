/* hall.h — the tables of `asobi serve` in memory and every request on them (HTTP API, a connection's messages), without sockets. */
#ifndef ASOBI_SERVER_HALL_H
#define ASOBI_SERVER_HALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "server/limits.h"
#include "server/reply.h"
#include "server/store.h"
#include "server/table.h"

/* Why a hall
 * ----------
 * Everything the server decides about a request lives here: which table a
 * path names, what a POST body asks, whether a message may act. The socket
 * side (server.c) only moves bytes and asks the hall. So the same decisions
 * can be driven without any socket: by the fuzz targets (fuzz/fuzz_http_api.c,
 * fuzz/fuzz_ws_message.c) and the unit tests. */

struct conn; /* the socket side's connections to a table (server.c) */

/* Finished tables being brought back from the store at once, at most (see
 * hall_reload_read): each holds its stored rows and queues a replay, so a
 * client opening sockets on many old tables waits its turn (its socket is
 * refused, and reconnects) instead of filling memory and the workers. */
#define HALL_RELOADS_MAX 16

typedef struct hall_slot {
    int64_t id; /* the table's (kept in an evicted slot until the slots are compacted) */
    table *t;   /* NULL: evicted */
    struct conn *conns;
    int64_t over_ms; /* when the table was seen over (for eviction) */
    bool send_due;   /* the socket side's: its connections' updates are to be asked for (server.c) */
    uint64_t written_seq; /* the socket side's: the store's batch holding this table's last writes (send.c) */
    limits_bucket seat_rate[ASOBI_MAX_SEATS]; /* each seat's messages, over all its connections (server.c) */
    /* the socket side's bot pacing and expiry (server.c) */
    int64_t paced_until_ms; /* a table only bots play starts no bot move before this */
    bool pace_waiting;      /* ... and has one waiting for it */
    int64_t quiet_ms;       /* since when nobody is connected (0: someone is) */
    /* the socket side's: the client address that made the table (a rematch
     * its table's), whose share of the workers its bots use (owner_known false: restored after a restart; then the table
     * counts as an address of its own) */
    unsigned char owner[LIMITS_KEY_BYTES];
    bool owner_known;
} hall_slot;

/* A private table's secret in a request: ?code=, else ?token=, else the
 * X-Asobi-Code header's (header may be NULL); "" for none. query is the
 * part after '?' (or NULL). */
#define HALL_SECRET_CAP (TOKEN_CHARS + 8)
void hall_request_secret(const char *query, const char *header, char *out, size_t cap);

typedef struct hall {
    store *store;
    /* What the store's reader read for the request being answered (PostgreSQL:
     * http_lookup_done), or NULL: get_table answers from it, not the store. */
    const store_lookup *found;
    /* The secret of the request being answered from its X-Asobi-Code header
     * (a watch code, an invite code or a seat's token; NULL: none): it opens
     * a private table as ?code= does (hall_http). */
    const char *secret;
    /* The tables in memory in increasing id, found by binary search: memory
     * and the loop's scans grow with the tables in memory, not with every
     * table the server ever held (ids only grow, and a server running for
     * weeks makes millions). An evicted table leaves a hole (t NULL) until
     * hall_add compacts the array. Iterate as
     * for (i = 0; i < n_slots; i++) if (slots[i].t) ... */
    hall_slot *slots;
    int64_t n_slots, cap_slots;
    int64_t tables_in_memory;
    uint64_t actions_accepted; /* people's, bots' and timeouts' */
    const asobi_data_sets *card_sets; /* `--card-sets DIR`: names a table's options may use (NULL: none) */
    bool allow_chosen_seeds; /* `--allow-chosen-seeds`: a POST may choose a table's seed (tests, research) */
    int64_t grace_ms;   /* `--grace`, told to every table it takes (their updates count it down; 0: none told) */
    int max_bot_tables; /* `--max-bot-tables`: unfinished tables only bots play, at most (0: no limit) */
    int max_cycles, max_turns; /* `--max-cycles`, `--max-turns`: the game options bounding a game's length, at most */
    /* The client address of the creation being answered (its limits key),
     * or NULL: the new table's slot takes it as its owner. */
    const unsigned char *maker;
    /* The signed-in account of the request being answered (accounts.h's
     * accounts_of; 0: a guest): a seat it takes keeps it. */
    int64_t account;
    const char *account_name; /* ... and its name (a rated table's seat is joined under it: ratings.h) */
    const char *public_url; /* `--public-url`: a table's summary and join reply say "ws" (NULL: they do not) */
    /* the finished tables being brought back: read, not yet taken or released */
    int64_t reloading[HALL_RELOADS_MAX];
    int n_reloading;
    /* Called after a table changed (created, joined, acted on): the socket
     * side tells the table's connections and hands due bot moves to its
     * workers. May be NULL. */
    void (*changed)(void *ctx, hall_slot *slot);
    void *ctx;
} hall;

/* The table id in a path PREFIX + digits + rest ("/api/tables/7/join"),
 * *rest what follows the digits; -1 when the path is not of that form. */
int64_t hall_path_id(const char *path, const char *prefix, const char **rest);

/* The slot of a table in memory, or NULL. */
hall_slot *hall_slot_of(hall *h, int64_t id);
/* Take a new or restored table: its slot (NULL: out of memory, the caller
 * keeps t). Slots may move: a slot pointer held across this call is stale. */
hall_slot *hall_add(hall *h, table *t);
/* Free a finished table (its record stays in the store). */
void hall_evict(hall *h, int64_t id);

/* A finished table that left memory (EVICT_AFTER_MS in server.c) comes back
 * when a WebSocket is opened on it, by replaying its stored actions. The
 * replay of a long game takes milliseconds, so it is split for the server:
 * read the rows (the loop with SQLite; with PostgreSQL the store's reader
 * thread, between hall_reload_begin and hall_reload_rows), replay them (a
 * worker: touches only r), take the table (the loop). */
typedef struct hall_reload {
    int64_t id;
    json_t *spec, *seats, *actions, *summary; /* as stored */
    table *t;                                 /* the replay's result; NULL: failed, err says why */
    asobi_error err;
} hall_reload;
enum {
    HALL_RELOAD_STARTED = 0, /* id is a finished table not in memory; r holds its rows */
    HALL_RELOAD_NONE = -1,   /* it is not (in memory already, being brought back already, no such
                                table, not finished); r holds nothing */
    HALL_RELOAD_BUSY = -2,   /* HALL_RELOADS_MAX are under way: nothing read, try again later */
};
/* One of the above. A started reload counts against HALL_RELOADS_MAX until
 * hall_reload_take or hall_reload_release. */
int hall_reload_read(hall *h, int64_t id, hall_reload *r);
/* hall_reload_read in two: the checks (STARTED: counted, nothing read yet),
 * then the rows read elsewhere and put in r: STARTED when they are a
 * finished table's, else NONE (r released). */
int hall_reload_begin(hall *h, int64_t id, hall_reload *r);
int hall_reload_rows(hall *h, hall_reload *r);
/* Is table id being brought back (read, not yet taken or released)? */
bool hall_reloading(const hall *h, int64_t id);
/* Build r->t from the rows (any thread; writes nothing to the store). */
void hall_reload_replay(hall_reload *r, store *st, int64_t now_ms);
/* Take r->t into memory (or find the table already back); releases r.
 * NULL: the table could not be brought back. Slots may move, as with hall_add. */
hall_slot *hall_reload_take(hall *h, hall_reload *r);
void hall_reload_release(hall *h, hall_reload *r);
/* All three at once: the table's slot, from memory or brought back (NULL: none). */
hall_slot *hall_slot_or_stored(hall *h, int64_t id, int64_t now_ms);

/* Free every table and the slots (not the store). */
void hall_close(hall *h);

/* Tables in one page of the list (GET /api/tables, the lobby's socket). */
#define HALL_PAGE_TABLES 100

/* GET /api/tables?before=ID: {"tables":[summary...]}, open or playing,
 * never a private or an abandoned table (table_leave), newest first, at most HALL_PAGE_TABLES of them
 * with ids below before (0: from the newest); "next": the before of the
 * next page, when there is one. Every node's tables (PostgreSQL): this
 * node's merged with the entries the others published (store_other_tables),
 * so every page, not only the first, lists the tables of every node. */
json_t *hall_tables_json(const hall *h, int64_t before);
/* Every table of this node that the list shows (no page bound), newest
 * first: what it publishes to the other nodes (PostgreSQL). */
json_t *hall_own_tables_json(const hall *h);
/* Add "ws", the absolute URL of the table's WebSocket on this node
 * (--public-url + /ws/tables/ID), to a summary or a reply; nothing without --public-url. */
void hall_add_ws(const hall *h, json_t *reply, int64_t id);

/* Unfinished tables only bots play (counted against max_bot_tables). */
int hall_bot_tables(const hall *h);

/* An HTTP request under /api (method GET or POST, path with its query if any,
 * the body as received; body_too_long when more than SERVER_MESSAGE_MAX
 * bytes came). Returns the status; *reply is the JSON body to send (on
 * refusal {"error":{...}} and e says why, for the log). */
int hall_http(hall *h, bool post, const char *path, const char *body, size_t len, bool body_too_long,
              int64_t now_ms, json_t **reply, srv_error *e);

/* A connection's hello at table id (docs/server.md, "WebSocket"):
 * {"type":"hello","token":T} or {"type":"hello","code":C}. Returns what it
 * opens: the seat T holds (>= 0), ASOBI_SPECTATOR for a code that opens the
 * table to watch (any code at a public table), or HALL_HELLO_REFUSED with e:
 * bad_request (no token or code string), bad_token (T holds no seat), not_found
 * (no such table, or a private one the code does not open). Nothing changes
 * here: the socket side seats the connection. HALL_HELLO_NOT when the message
 * is no hello. *token and *code (may be NULL) point into *msg, the parsed
 * message, for the caller to keep and free. */
#define HALL_HELLO_NOT (-100)
#define HALL_HELLO_REFUSED (-101)
int hall_hello(hall *h, int64_t id, const char *text, size_t len, json_t **msg, const char **token, const char **code,
               srv_error *e);

/* One WebSocket message from a connection of table id at seat (a seat, or
 * ASOBI_SPECTATOR). 0: accepted (the table changed); -1: refused, e says
 * why and nothing changed. *msg_id receives the message's "id" to echo in
 * the refusal (a new reference, or NULL). */
int hall_message(hall *h, int64_t id, int seat, const char *text, size_t len, int64_t now_ms, json_t **msg_id,
                 srv_error *e);

/* A finished game's replay, built once (the socket side caches it,
 * replays.c): its record's text (GET .../record's reply), the match (every
 * action's seat and text), and the all-seeing state after every
 * HALL_BOOK_EVERY actions, so that a step replays at most that many actions
 * and the log's, whatever the game's length (one at 100,000 actions replayed
 * all of them: 150-190 ms a step). Built and read on any thread: a book
 * touches nothing else. */
#define HALL_BOOK_EVERY 1000
typedef struct hall_book {
    int64_t table;
    int steps;                /* the game's actions */
    char *record_text;        /* compact JSON, as GET .../record answers */
    size_t record_len;
    asobi_match *match;
    asobi_state **snaps;      /* snaps[k]: after k * HALL_BOOK_EVERY actions */
    int n_snaps;
} hall_book;
/* Build b from a finished table's record (taken: freed here). ASOBI_OK, or
 * the error of a record that does not replay (b then holds nothing). */
int hall_book_build(hall_book *b, int64_t id, json_t *record, asobi_error *err);
/* The reply of GET .../replay?step=K for 0 <= step <= b->steps (NULL and err when out of memory). */
json_t *hall_book_step(const hall_book *b, int step, asobi_error *err);
void hall_book_free(hall_book *b);
/* The value of step= in a query ("step=12"): 0 and *step set (-1 when
 * absent), -1 when it is not an integer from 0 to max. */
int hall_query_step(const char *query, int max, int *step);

/* Bytes in one WebSocket message or HTTP body. */
#define SERVER_MESSAGE_MAX (64 * 1024)

#endif

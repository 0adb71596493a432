/* table.h — one game table of `asobi serve`: seats, joins, actions, bots, clocks, updates; no sockets here. */
#ifndef ASOBI_SERVER_TABLE_H
#define ASOBI_SERVER_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "asobi/asobi.h"
#include "server/reply.h"
#include "server/store.h"
#include "server/token.h"

/* Why no sockets: everything a table decides (who may sit, who may act,
 * what each viewer is told, when a clock runs out) is here and takes the
 * time as an argument (milliseconds of any monotonic clock), so the unit
 * tests drive it with an injected clock and without a network. server.c
 * only moves bytes and calls these functions on its one event-loop thread. */

#define TABLE_NAME_MAX 24      /* characters (code points) in a person's name */
#define TABLE_TIMEOUTS_HANDOVER 3 /* timeouts in a row that hand a seat to the bot */

typedef enum table_status { TABLE_OPEN, TABLE_PLAYING, TABLE_OVER } table_status;
typedef enum table_clock_kind { CLOCK_NONE, CLOCK_MOVE, CLOCK_FISCHER } table_clock_kind;

typedef struct table_seat {
    char *bot;          /* the bot's spec for a bot seat; NULL for a person's */
    bool taken;         /* a person joined (always true for a bot seat) */
    char name[4 * TABLE_NAME_MAX + 1];
    char token_hash[TOKEN_HASH_CHARS + 1];
    char invite_hash[TOKEN_HASH_CHARS + 1]; /* a private table's person's seat: its invite code's hash; "" otherwise */
    int connections;    /* open WebSockets of this seat */
    int64_t left_ms;    /* when the last one closed (grace starts) */
    int timeouts;       /* timeouts in a row */
    bool handed;        /* handed to the heuristic bot until the person is back */
    bool left;          /* the person left (table_leave): the heuristic plays it for good, the token holds nothing */
    bool busy;          /* a bot move for this seat is being computed */
    int64_t since_ms;   /* when this seat's clock started running */
    int64_t bank_ms;    /* Fischer: time left when the clock is not running */
    int64_t account;    /* the signed-in person's account (accounts.h, store_seat_account; 0: a guest's seat) */
} table_seat;

/* One accepted action as each viewer was told it: text[v] for seat v,
 * text[players] for spectators (asobi_state_public_text before applying),
 * and what it made happen, events[v] likewise (asobi_state_events: a JSON
 * array each, written into the log after the action). */
typedef struct table_event {
    int seat;
    const char *by; /* "human", "bot" or "timeout" */
    char **text;
    json_t **events;
} table_event;

typedef struct table {
    int64_t id;
    json_t *spec; /* as stored: game, players, options, seed, bots, clock, created, and when so
                     seed_chosen, private and invites (the codes' hashes, per seat) */
    asobi_match *match;
    int players;
    table_status status;
    table_clock_kind clock;
    int64_t move_ms, base_ms, increment_ms;
    table_seat seat[ASOBI_MAX_SEATS];
    table_event *log;
    int log_count, log_cap;
    int spectators;
    uint64_t version; /* bumped by every change a client may see */
    int64_t rematch;  /* the table of the rematch, once one was asked for (0: none) */
    bool seed_chosen; /* its creator chose the seed (a server with --allow-chosen-seeds): everyone is told */
    bool private_table; /* "private": unlisted, and each person's seat is joined with its invite code */
    char watch_hash[TOKEN_HASH_CHARS + 1]; /* a private table's watch code's hash (spec "watch"); "" otherwise */
    bool abandoned;   /* every person there left (table_leave): unlisted, and the socket side ends it as expired */
    int64_t grace_ms; /* the server's --grace, for the updates' countdown (0: not told; hall_add tells it) */
    bool rated;       /* a rated table (issue 42, spec "rated"): signed-in people only, its end moves their ratings */
    store *store;
} table;

/* A bot move to compute (on a worker): the state is a private copy. */
typedef struct table_job {
    int64_t table;
    int seat;
    int at;          /* the table's action count when the job was made */
    const char *by;  /* "bot" or "timeout" */
    char *spec;
    uint64_t seed;
    asobi_state *state;
    int id;          /* the result: an action id, or -1 */
    double ms;       /* how long the bot took */
    asobi_error err;
} table_job;

/* POST /api/tables: a new table from the request (see docs/server.md),
 * stored before it exists. NULL and e filled on refusal. A request's "seed"
 * is taken as it is (the hall decides whether a client may choose it) and
 * marks the table seed_chosen. */
table *table_create(store *st, const json_t *request, int64_t now_ms, srv_error *e);
/* The invite codes of a private table, one per person's seat ("" for a bot's
 * seat): shown once, to its creator; the table keeps only their hashes. */
typedef struct table_invites {
    char code[ASOBI_MAX_SEATS][TOKEN_CHARS + 1];
    char watch[TOKEN_CHARS + 1]; /* the watch code: opens the summary, the record and spectating, no seat */
} table_invites;
/* table_create, and a private table's codes into *invites (NULL: they are
 * dropped, as for a rematch, whose people take their seats without them). */
table *table_create_invited(store *st, const json_t *request, int64_t now_ms, table_invites *invites, srv_error *e);
/* A table from the store as it was (replaying its actions); NULL on error.
 * finished: the stored summary of a table the store holds as finished (its
 * rematch is taken from it and nothing is written), NULL for an unfinished
 * one (one whose replay ends is finished in the store then). */
table *table_restore(store *st, int64_t id, const json_t *spec, const json_t *seats, const json_t *actions,
                     const json_t *finished, int64_t now_ms, asobi_error *err);
void table_free(table *t);

/* POST /api/tables/ID/join: a person takes a seat (request.seat, or the
 * first free one; at a private table, the seat whose code request.invite
 * is). token receives the new token, shown once. */
int table_join(table *t, const json_t *request, int64_t now_ms, int *seat, char token[TOKEN_CHARS + 1],
               srv_error *e);
/* The rematch of a finished table: a new table (stored, with a new seed) of
 * the same game, players, options, bots and clock, where every person of
 * old holds the same seat under the same token, so it starts at once;
 * old->rematch names it (and the store keeps that). NULL and e on refusal
 * (game_not_over). */
table *table_rematch(table *old, int64_t now_ms, srv_error *e);
/* The seat whose token this is, or -1. */
int table_seat_of_token(const table *t, const char *token);
/* May a request carrying secret read this table (its summary, record,
 * replay; watch it)? Any table that is not private; a private one with its
 * watch code, any seat's invite code or a seat's token (NULL: none). Each
 * hash is compared in constant time. */
bool table_readable(const table *t, const char *secret);
/* The same, of a finished table's summary as the store keeps it
 * (table_stored_summary_text: a private one's "access" holds the hashes). */
bool table_summary_readable(const json_t *stored_summary, const char *secret);
/* POST /api/tables/ID/leave, {"token":T}: the person of T's seat leaves it (*seat set). The heuristic bot plays
 * the seat from now on, as for a leaver past --grace, and the token holds it no more; once no person holds a seat
 * of the table (every one left, free or a bot's) the table is abandoned (t->abandoned). In memory only: after a
 * restart a left seat is a leaver's like any other (the bot moves after --grace), an abandoned table was expired.
 * Refusals (nothing changed): bad_request, bad_token (403), game_over (409). */
int table_leave(table *t, const json_t *body, int *seat, srv_error *e);

/* A WebSocket of seat (or ASOBI_SPECTATOR) opened or closed. Opening hands
 * a handed seat back to its person. */
void table_connect(table *t, int seat, int64_t now_ms);
void table_disconnect(table *t, int seat, int64_t now_ms);

/* A person's action (a text or an id, as the engine protocol takes it) for
 * seat; written to the store before it returns 0 (kept at the store's next
 * flush, which comes before anyone is told). On refusal nothing changes and
 * e says why (the library's code and message). */
int table_act(table *t, int seat, const json_t *action, int64_t now_ms, srv_error *e);

/* The bot moves due now (bot seats, handed seats, clocks run out, seats
 * away longer than grace_ms on their turn): at most cap jobs, each seat
 * marked busy until table_job_done. */
int table_due_jobs(table *t, int64_t now_ms, int64_t grace_ms, table_job *jobs, int cap);
/* A job that stands in for late, whose bot is past its deadline: the same
 * seat, move and "by", a fresh copy of the state, spec instead of the
 * seat's bot (the heuristic, or random). The seat stays busy (this job now
 * holds it). 0, or -1 when out of memory or the table moved on. */
int table_standin_job(table *t, const table_job *late, const char *spec, table_job *job);
/* Is every seat a bot's (no person ever plays here)? */
bool table_bots_only(const table *t);
/* Does the bot of this spec search (ismcts: each move may take the server's
 * whole time budget), rather than answer at once (random, heuristic,
 * psycle-nash)? The tables with one are counted per address. */
bool table_bot_searches(const char *spec);
/* Do bots play here alone now: is every seat a bot's, handed or left, or
 * its person away (no connection for TABLE_AWAY_MS: a page that is loading
 * or reconnecting is not away)? The workers treat such a table as one only
 * bots play: paced, and behind the tables where a person waits. */
#define TABLE_AWAY_MS 10000
bool table_bots_alone(const table *t, int64_t now_ms);
/* Has a person taken a seat (or could none ever: a bots-only table)? */
bool table_joined(const table *t);
/* Seat k was taken by a signed-in person (accounts.h): the seat keeps the
 * account, in memory and in the store (in the batch of the seat's own
 * write, so both are kept or neither). */
int table_seat_account(table *t, int k, int64_t account, srv_error *e);
/* Compute a job's move (any thread: touches only the job). */
void table_job_run(table_job *job);
/* Play a finished job's move if the table has not moved on meanwhile;
 * 1 if played, 0 if stale, -1 on a store error (e). Frees the job's copy. */
int table_job_done(table *t, table_job *job, int64_t now_ms, srv_error *e);
void table_job_release(table_job *job);

/* When the next clock or grace deadline falls (INT64_MAX: none). */
int64_t table_next_deadline(const table *t, int64_t now_ms, int64_t grace_ms);

/* What a viewer (a seat or ASOBI_SPECTATOR) is sent: the "update" message
 * with the events from index log_from on. Built only from that viewer's
 * view, legal actions and public texts. */
json_t *table_update(const table *t, int viewer, int log_from, int64_t now_ms);
/* The same message built from another state of the same game (the tests
 * pass determinizations: what a viewer is sent must not change). */
json_t *table_update_of(const table *t, const asobi_state *state, int viewer, int log_from, int64_t now_ms);
/* table_update as the compact JSON text sent to the client, byte for byte
 * json_dumps(table_update(...), JSON_COMPACT), written straight from the
 * table and the state (one writer call sequence gives both: table.c), with
 * no tree built. malloc'd; its length in *len (len may be NULL); NULL when
 * out of memory. */
char *table_update_text(const table *t, int viewer, int log_from, int64_t now_ms, size_t *len);
/* The same text written into a buffer the caller keeps between messages,
 * after headroom bytes (asobi_vw_start_text_in: the server's send buffer,
 * LWS_PRE before the text): its length, 0 when out of memory (the buffer
 * then freed: *buf NULL, *cap 0). */
size_t table_update_text_in(const table *t, int viewer, int log_from, int64_t now_ms, char **buf, size_t *cap,
                            size_t headroom);
/* GET /api/tables/ID */
json_t *table_summary(const table *t);
/* The same as compact JSON text (malloc'd; NULL when out of memory), as the store keeps it. */
char *table_summary_text(const table *t);
/* The summary the store keeps of a finished table: table_summary's, and for
 * a private table "access": {"watch","invites","tokens"}, the hashes that
 * open it (table_summary_readable), taken out before any reply. */
char *table_stored_summary_text(const table *t);
/* The clock object of updates and summaries, or NULL without a clock. */
json_t *table_clock_json(const table *t, int64_t now_ms);
const char *table_status_name(table_status s);

/* A name a person may use: 1-24 printable characters of valid UTF-8. */
bool table_name_valid(const char *name, srv_error *e);

#endif

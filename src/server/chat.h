/* chat.h — a table's chat (issue 44): its lines, who may read which, mutes, its limits, its history in the store. */
#ifndef ASOBI_SERVER_CHAT_H
#define ASOBI_SERVER_CHAT_H

#include <stdbool.h>
#include <stdint.h>

#include "server/limits.h"
#include "server/reply.h"
#include "server/store.h"

/* Why a file of its own
 * ---------------------
 * Chat sits beside the game, never in it: a line changes no view, no
 * record and no replay's state, so it is not an action of the table's log.
 * The table only holds a chat_log (t->chat); what a line is, who may read
 * it, and how many one may say live here. The first half of chat.c has no
 * sockets (the fuzz target and the unit tests drive it); its second half is
 * the socket side's: a connection's messages in, lines out.
 *
 * Two channels. Seats talk in "players", spectators in "spectators". While
 * the game is in play a seat never reads the spectators' channel:
 * spectators see only public information, and could coach. Spectators read
 * both; once the game is over everyone reads both.
 *
 * A line is committed before anyone hears of it, as an action is: it goes
 * into the table's batch in the store (fenced like actions on several
 * nodes), and the connections send it once that batch is in. */

#define CHAT_TEXT_MAX 500       /* characters (code points) in a line */
#define CHAT_HISTORY_SENT 100   /* lines of history in a connection's first update */
#define CHAT_KEPT 400           /* lines kept in memory per table (the store keeps every one) */
#define CHAT_PER_TEN_SECONDS 5  /* --chat-lines-per-ten-seconds's default */
#define CHAT_PER_MINUTE_PER_ADDRESS 60 /* --chat-lines-per-minute-per-address's default */
#define CHAT_MUTE_SPECTATORS (1u << 31) /* a mute's bit for the spectators' channel (seat k's: 1 << k) */

struct table;

/* One line as every reader gets it (chat_line_json). */
typedef struct chat_line {
    int index;           /* 0, 1, ... in the table's chat (the operator's hide names it) */
    int seat;            /* the speaker's seat, or ASOBI_SPECTATOR */
    char name[100];      /* the seat's name, or a spectator's "#N" */
    char phrase[8];      /* a quick phrase's id ("gg"), "" for a text */
    char *text;          /* the text (NULL for a phrase) */
    int64_t at_ms;       /* when it was said (ms since 1970) */
    int move;            /* the table's log count then: it was said after that many actions */
} chat_line;

typedef struct chat_log {
    chat_line *lines;    /* the last CHAT_KEPT at least, oldest first */
    int n, cap;
    int next_index;      /* the index of the next line */
    int spectators;      /* spectators who spoke so far (their "#N") */
    uint32_t muted[8];   /* what seat k muted (ASOBI_MAX_SEATS): bit j for seat j, CHAT_MUTE_SPECTATORS */
    limits_bucket rate[8]; /* each seat's lines, over all its connections */
} chat_log;

/* A connection's side of the chat (the socket side's conn holds one). */
typedef struct chat_conn {
    bool history_sent;   /* its history went with an update ("chat": [...]) */
    bool history_over;   /* ... sent after the game was over (both channels) */
    int told;            /* the index of the first line not yet considered for it */
    uint32_t muted;      /* a spectator's mutes (a seat's are its seat's: chat_log.muted) */
    limits_bucket rate;  /* a spectator's lines */
    int number;          /* a spectator's "#N" once it spoke (0: not yet) */
} chat_conn;

/* The quick phrases' ids, "" ended; the page shows each in its reader's language. */
extern const char *const chat_phrases[];
bool chat_phrase_known(const char *id);

/* Is text (len bytes) a line one may say: 1-CHAT_TEXT_MAX characters of
 * valid UTF-8 without control characters? Refusals: chat_too_long, bad_request. */
bool chat_text_valid(const char *text, size_t len, srv_error *e);

/* A parsed chat or mute message. */
typedef enum chat_kind { CHAT_NOT_MINE, CHAT_SAY, CHAT_MUTE, CHAT_UNMUTE } chat_kind;
typedef struct chat_request {
    chat_kind kind;
    const char *text;    /* CHAT_SAY: the text (in msg), or NULL and phrase */
    size_t text_len;
    const char *phrase;
    int mute_seat;       /* CHAT_MUTE/UNMUTE: a seat, or -1 with spectators */
    bool mute_spectators;
} chat_request;
/* msg (a client's message object): not chat's (CHAT_NOT_MINE), or a valid
 * request (*req), or a refusal (-1, e: bad_request, chat_too_long,
 * unknown_phrase). The pointers in req point into msg. players: the table's. */
int chat_parse(const json_t *msg, int players, chat_request *req, srv_error *e);

/* May viewer (a seat or ASOBI_SPECTATOR; muted: its mutes) read line l of
 * table t now? */
bool chat_may_read(const struct table *t, const chat_line *l, int viewer, uint32_t muted);
/* The line as a message: {"type":"chat","index","channel","seat","name",
 * "text"|"phrase","at","move"}. */
json_t *chat_line_json(const chat_line *l);
/* The last CHAT_HISTORY_SENT lines viewer may read (an array). */
json_t *chat_history_json(const struct table *t, int viewer, uint32_t muted);
/* What seat muted (its chat_log's), 0 without a chat. */
uint32_t chat_seat_mutes(const struct table *t, int seat);

/* Say a line at t: kept in memory and written to the store (nothing told
 * yet). 0, or -1 and e (no_memory, the store's error). */
int chat_say(struct table *t, int seat, const char *name, const chat_request *req, int64_t at_ms, srv_error *e);
/* A mute or unmute by seat, kept with the table's chat when it changes its
 * mutes (at_ms: the wall clock); 0, or -1 with e: bad_request for one's own
 * seat, no_memory, or the store's refusal (the mutes then as they were). */
int chat_mute_seat(struct table *t, int seat, const chat_request *req, int64_t at_ms, srv_error *e);
/* Apply a mute or unmute to a set of mutes. */
uint32_t chat_mutes_after(uint32_t muted, const chat_request *req);

/* The table's stored lines back in memory (a restart, a takeover, a
 * finished table brought back). A line that cannot be read is skipped. */
void chat_restore(struct table *t, store *st);
/* Lines from the store's JSON (chat_restore's; the tests). */
void chat_restore_lines(struct table *t, const json_t *lines);
void chat_free(chat_log *c);
/* Line index leaves c's memory (an operator hid it); false: not there. */
bool chat_forget(chat_log *c, int index);

/* Hides reach running servers (chat_hides.c). `asobi chat hide` writes the
 * hide and its news (the store's chat_hides, numbered in order) in one
 * transaction, from any process: beside a server holding a SQLite file, or
 * on any PostgreSQL node. A thread of each server, with a connection of
 * its own, reads the news every CHAT_HIDES_POLL_MS and hands it to the
 * loop, which drops the line from the table's memory and sends each of the
 * table's connections a fresh history in its next update (chat_hidden):
 * no database read on the loop. It reads from the first news on at start
 * (a hide between a table's load and the thread's first read is not lost;
 * a line already gone is skipped). */
#define CHAT_HIDES_POLL_MS 2000
struct server;
bool chat_hides_start(struct server *s, char *why, size_t cap);
void chat_hides_stop(struct server *s);
/* On the loop, after a wake: the news the thread read. */
void chat_hides_drain(struct server *s);
/* On the loop: line index of table table_id leaves its memory and its readers' histories. */
void chat_hidden(struct server *s, int64_t table_id, int index);

#endif

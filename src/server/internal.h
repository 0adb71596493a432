/* internal.h — what the server's files share: its state (server, conn, http_req, jobs) and their calls into one another. */
#ifndef ASOBI_SERVER_INTERNAL_H
#define ASOBI_SERVER_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <libwebsockets.h>

#include "protocol/protocol.h"
#include "server/chat.h"
#include "server/accounts.h"
#include "server/hall.h"
#include "server/limits.h"
#include "server/server.h"
#include "server/store.h"
#include "server/table.h"

/* The files (server.c says how the pieces fit):
 *   server.c   start-up and shutdown, the loop's callback and its timers
 *   workers.c  the bot worker pool
 *   admit.c    connections per client address
 *   send.c     what leaves for WebSockets (updates, refusals, the lobby's list)
 *   ws.c       the WebSocket life cycle
 *   http.c     HTTP routing, the JSON API, static files
 *   metrics.c  GET /metrics
 * Everything here runs on the loop's thread, except what workers.c says. */

#define MESSAGE_MAX SERVER_MESSAGE_MAX
#define HTTP_CHUNK 16384          /* an HTTP reply is written in pieces of at most this */
#define REPLY_STALL_S 30          /* a reply's client that takes none of it for this long is closed */
/* The last descriptors under the file limit are kept for the server's own
 * files (the database, a static file being served): a connection accepted
 * on one of them is closed at once. So accept() never fails for want of a
 * descriptor, which would leave the listening socket readable and the loop
 * spinning on it (the library's accept loop does not back off). */
#define FD_RESERVE 32
/* A table's WebSocket closed because another node owns the table now:
 * ask its summary again and follow its "ws" (docs/server.md). */
#define CLOSE_MOVED 4001
#define HEADERS_MAX_BYTES 8192     /* its headers (431 beyond) */
#define LIB_HEADER_BYTES 16384     /* the library's room for a request's head: beyond it, it drops the connection */

/* ---------------------------------------------------------------------------
 * The state.
 * ------------------------------------------------------------------------- */
#define LATENCY_BUCKETS 12 /* metrics.c's latency_buckets */

typedef struct histogram {
    uint64_t count[LATENCY_BUCKETS];
    uint64_t total;
    double sum;
} histogram;

typedef struct outmsg {
    struct outmsg *next;
    size_t len;
    unsigned char *bytes; /* LWS_PRE bytes of headroom, then the message */
} outmsg;

/* A text sent alike to many connections (the lobby's list): one copy,
 * counted references, freed by the last connection done with it. */
typedef struct shared_text {
    int refs;
    size_t len;
    char text[];
} shared_text;

typedef struct conn {
    struct lws *wsi;
    bool lobby;          /* a /ws/lobby connection: told the list of tables, not a table */
    shared_text *list;   /* ... the list being sent to it, and how much of it is sent */
    size_t list_sent;
    int64_t table;
    int seat;            /* a seat, or ASOBI_SPECTATOR */
    struct conn *next;   /* in its table's list (or the server's waiting list) */
    bool waiting;        /* its finished table is being brought back from the store (a worker replays it) */
    char *token;         /* ... and the token it came with (the handshake's headers are gone by then) */
    char *code;          /* ... and the code (?code=: a private table's watch or invite code) */
    bool awaiting_hello; /* at a private table without a code: shown nothing until its hello (seat_connection) */
    int log_from;        /* the first event not yet sent */
    bool due;            /* an update is to be built and sent */
    bool closing;        /* send what is queued, then close */
    bool close_sent;     /* ... the close frame is written: close the socket */
    int close_status;
    char close_reason[64];
    outmsg *errors, *errors_tail;
    int errors_queued;
    char *rx;            /* the message being received */
    size_t rx_len;
    bool rx_too_long;
    double rate_tokens;  /* the token bucket: RATE_MAX a second, at most RATE_MAX at once */
    double rate_at;
    int64_t rate_second; /* messages in the current second, for closing floods */
    int rate_count;
    double act_received; /* when this connection's accepted act arrived (0: none pending) */
    limits_address *addr; /* the client's address (NULL: not counted) */
    bool spectating;     /* counted among its address's spectators */
    bool seated;         /* in its table's list (seat_connection) */
    bool heard;          /* has sent a message (a hello comes first: ws_hello) */
    chat_conn chat;      /* its chat: history sent, lines told, a spectator's mutes and rate (chat.c) */
} conn;

typedef hall_slot slot;

/* An HTTP request in progress (the protocol's per-session data). */
typedef struct http_req {
    conn *ws;            /* set once the connection became a WebSocket */
    char path[256];
    bool post;
    char *body;
    size_t body_len;
    bool body_too_long;
    int retry_after;     /* seconds, for a Retry-After header (0: none) */
    bool refused;        /* the head is refused (refusal): answered once any body is read */
    bool close_after;    /* ... and the connection closed then (its body's framing is not to be trusted) */
    srv_error refusal;
    char *location;      /* a Location header (a redirect to the table's owner: answer_elsewhere) */
    int held_status;     /* the reply waits for a commit (send_reply): its status and type, then */
    uint64_t need_seq;   /* ... the store's batch it waits for */
    bool in_held;        /* the connection (HTTP or WebSocket) is in the server's held list (hold) */
    uint64_t lookup;     /* the store's read it waits for (PostgreSQL: http_look_up; 0: none) */
    bool looked_up;      /* ... done: found holds what it read, and the request is answered from it */
    store_lookup found;
    bool answer_later;   /* answered outside its own callback: the reply goes out when writable */
    const char *held_type;
    char *reply;         /* the response body to write */
    shared_text *reply_shared; /* ... when it is a shared text's (the list of tables): not to be freed */
    size_t reply_len;
    size_t reply_sent;
    /* accounts (accounts.c) */
    bool del;                /* a DELETE (only the accounts' paths take one: /api/session, /api/me) */
    bool accounts_looked_up; /* its session cookie was looked up (accounts_look_up_first) */
    char set_cookie[192];    /* a Set-Cookie header ("": none) */
} http_req;

/* The bot lane's work of one client address (under the lock): the workers
 * are shared by address as well as by table (workers.c's take_job). */
typedef struct bot_owner {
    struct bot_owner *next;  /* in the server's list */
    unsigned char key[LIMITS_KEY_BYTES]; /* the address that made the tables (or asked for the replay) */
    int running;             /* its jobs on workers now: at most the server's bot_share */
    int queued;              /* its jobs waiting in the rings */
    uint64_t served;         /* the pool's count of takes when one of its jobs was last taken */
    limits_bucket seconds;   /* --bot-seconds-per-minute-per-address: its workers' time, spent as measured */
} bot_owner;

struct replay_job; /* replays.c's */
struct review_task; /* reviews.c's */
struct ratings_read; /* ratings_api.c's */

/* A worker's job: a bot's move, or (reload set) the replay of a finished
 * table that a connection brings back, or (replay set) a step or record of
 * a finished game asked for over HTTP. */
typedef struct job_node {
    struct job_node *next;
    table_job job;
    hall_reload *reload;
    struct replay_job *replay;
    struct review_task *review; /* a review's ask (fast lane) or search (the review lane: reviews.c) */
    struct ratings_read *ratings; /* a profile's or leaderboard's read on SQLite (fast lane: ratings_api.c) */
    bot_owner *owner;   /* the bot lane's jobs: whose work it is (NULL: the fast lane's, or let go when stuck) */
    bool fast;          /* the fast lane's: a reload, a timeout's or a handed seat's heuristic, a stand-in */
    bool bots_only;     /* a move at a table only bots play, or only bots and people away (at most half the workers) */
    int standin;        /* 0: the seat's own bot; 1: the heuristic standing in for an overdue one; 2: random */
    int64_t started_ms; /* when a worker took it (0: still queued) */
    bool abandoned;     /* past its deadline: its result is dropped when it comes (under the lock) */
} job_node;

/* The bot lane: one queue per table with bot moves waiting, the tables in
 * a ring. A worker takes the first move of the first table, and that table
 * goes to the back of the ring: a table's next move waits behind the other
 * tables' moves, never behind its own backlog. */
typedef struct table_queue {
    struct table_queue *next;
    int64_t table;     /* its table (a replay's request: a number below zero of its own) */
    bot_owner *owner;  /* whose work it is */
    job_node *head, *tail;
} table_queue;

typedef struct ring {
    table_queue *head, *tail;
} ring;

/* One worker thread (its fields under the lock). A thread whose job was
 * abandoned (stuck) no longer counts: another takes its place, and the
 * stuck one, should its job ever end, leaves if its lane is full again. */
typedef struct worker {
    struct server *s;
    pthread_t thread;
    bool fast_only;    /* serves the fast lane only */
    bool started;      /* the thread was created (and is to be joined) */
    bool exited;       /* ... and has left its loop: joined when the entry is used again */
    bool stuck;        /* its job is past its deadline */
    job_node *running;
} worker;

typedef struct server {
    server_config cfg;
    struct lws_context *context;
    struct lws_vhost *vhost;
    server_event_loop loop; /* the one serving (cfg.loop, or a fallback: server_run) */
    store *store;
    hall hall;          /* the tables in memory and what requests do to them */
    lws_sorted_usec_list_t tick;
    /* the tables changed since the loop last asked their sockets for room
     * to write (table_changed, on_send_due) */
    int64_t *send_due;
    size_t n_send_due, cap_send_due;
    /* what is being sent: LWS_PRE bytes, then an update's text
     * (conn_writable) or bytes copied there (write_copied) */
    char *send_buf;
    size_t send_cap;
    lws_sorted_usec_list_t send_sul;
    bool send_scheduled;
    char origins[SERVER_MAX_ORIGINS + 4][160]; /* ours (3 at most), --public-url's, --allow-origin's */
    int n_origins;
    /* The worker pool (under the lock). Two lanes: the fast one (reloads,
     * timeouts, handed seats, stand-ins for overdue bots: all quick) goes
     * first and has a thread of its own that bot searches never hold; the
     * bot lane is two rings of tables, those with people before those
     * only bots play, which hold at most bots_only_max workers at once;
     * in each, the address with the fewest workers (then the one served
     * longest ago) goes first, and one address holds at most bot_share
     * workers (take_job). */
    worker *workers; /* WORKER_ROOM per worker asked for: room for stuck ones' stand-ins */
    int n_workers;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    job_node *fast, *fast_tail, *done, *done_tail;
    ring people, bots_only;
    int bots_only_running, bots_only_max;
    bot_owner *owners;  /* the addresses with work queued or running, or bot time to pay back */
    int bot_share;      /* workers one address holds at most: half the --workers, at least one */
    uint64_t takes;     /* jobs taken from the rings so far */
    int64_t next_replay; /* the ring's key of the next replay request (below zero) */
    bool stopping;
    /* the connections that wait for a finished table being brought back
     * (hall_reloading) */
    conn *waiting;
    /* the lobby's sockets: the list of tables, built once per change and
     * pushed at most every LOBBY_EVERY_MS */
    conn *lobby;
    bool lobby_dirty;
    bool publish_due; /* this node's tables changed since it last told the other nodes (PostgreSQL) */
    int64_t lobby_sent_ms;
    shared_text *lobby_text; /* the list as last built (NULL: to build at the next push) */
    shared_text *list_text;  /* GET /api/tables's first page as last built (NULL: to build) */
    /* The update every spectator of one table is sent, built once per
     * change and sent as the same bytes to each (LWS_PRE bytes, then the
     * text): the table, its version and log, the first event told, and for a
     * table with a clock the millisecond it was built at. */
    char *spectator_buf;
    size_t spectator_cap, spectator_len;
    int64_t spectator_table, spectator_ms;
    uint64_t spectator_version;
    int spectator_log_count, spectator_log_from;
    /* metrics (loop thread only, except bot_time under the lock) */
    uint64_t refusals, connections, bytes_sent, updates_sent;
    /* what each client address holds and does (limits.c); pending[fd]: the
     * address of a connection accepted on fd, until the library binds it to
     * its connection (then the connection's opaque user data) */
    limits limits;
    limits_address **pending;
    int fd_limit;
    double limits_swept_at;
    uint64_t bots_overdue, tables_expired;
    histogram action_latency, bot_time;
    /* The connections with something to send that wait for the store's
     * commit (hold): asked for room to write when it is in (release_held). */
    struct held { struct lws *wsi; uint64_t need; } *held;
    size_t n_held, cap_held;
    /* HTTP requests about tables not in memory that wait for the store's
     * reader (PostgreSQL: the loop never waits on the network): answered
     * when the read is in (http_lookup_done). */
    struct looking { uint64_t id; struct lws *wsi; } *looking;
    size_t n_looking, cap_looking;
    uint64_t lookups_asked;
    uint64_t lobby_seq; /* the store's batch when the lobby's list was built (its sockets wait for it) */
    char own_url[96]; /* http://HOST:PORT: a PostgreSQL node's public URL without --public-url */
    struct replay_cache *replays; /* finished games' books (replays.c; NULL until the first) */
    /* Game reviews (reviews.c): the review lane, the lowest (taken when no
     * bot move waits), holds at most review_share workers. */
    struct reviews *reviews;
    job_node *review_q, *review_q_tail;
    int review_running, review_share;
    struct accounts *accounts;    /* sessions and the accounts' workers (accounts.c; NULL: none) */
    struct ratings_reader *ratings_reader; /* the workers' SQLite connection for ratings (ratings_api.c; NULL: none yet) */
    struct chat_hides *chat_hides; /* the thread polling operators' chat hides (chat_hides.c; NULL: none) */
} server;


static inline int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---------------------------------------------------------------------------
 * server.c
 * ------------------------------------------------------------------------- */
/* Starts the commit of every write not yet committed (or stops the server
 * when the store failed); then: is batch `need` (store_batch_seq) in? A
 * text is sent only once the batch holding what it tells is committed. */
bool committed_through(server *s, uint64_t need);
/* wsi has something to send once batch `need` is committed: it is asked for room to write then. */
void hold(server *s, struct lws *wsi, uint64_t need);
/* The store's news (a commit in, tables lost or taken, other nodes' changes): act on them. */
void store_news(server *s);

/* ---------------------------------------------------------------------------
 * workers.c
 * ------------------------------------------------------------------------- */
/* Start a thread for a lane that lacks one (under the lock). */
bool add_worker(server *s, bool fast_only);
/* Hand every bot move now due at this table to the workers. */
void schedule_bots(server *s, slot *sl);
/* A connection opened on a table not in memory: bring a finished one back (HALL_RELOAD_*). */
int reload_started(server *s, int64_t id);
/* The store's reader read the rows of a table being brought back (PostgreSQL). */
void reload_rows_read(server *s, store_lookup *l);
/* A table could not be brought back: its waiting connections are closed
 * (moved: it is another node's, close 4001; else not_found). */
void reload_refused(server *s, int64_t id, bool moved);
/* The workers' results, played on the loop (LWS_CALLBACK_EVENT_WAIT_CANCELLED). */
void drain_done(server *s);
/* Bot moves past --bot-deadline: abandoned, a stand-in moves. */
void stand_in_for_overdue_bots(server *s, int64_t now);
/* Stop the workers; false when a stuck one was left running. */
bool stop_workers(server *s);
/* Queue a replay job on the bot lane, as the work of address key: false when out of memory. */
bool queue_replay(server *s, struct replay_job *j, const unsigned char key[LIMITS_KEY_BYTES]);

/* ---------------------------------------------------------------------------
 * admit.c
 * ------------------------------------------------------------------------- */
/* A refusal's line in the log, within its address's share of lines
 * (--log-lines-per-second-per-address); beyond it the refusal is counted
 * and summed up once a second with the limits' (limits_tick): a client
 * looping on bad requests cannot fill the disk. a NULL: always logged. */
void log_refusal(server *s, limits_address *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* An HTTP reply written straight to the socket, before the library closes it (a refused connection or upgrade). */
void refuse_raw(int fd, const char *status, int retry_after, const char *code, const char *message);
/* A socket just accepted: 0 to take it, 1 to close it. */
int admit_connection(server *s, int fd);
/* The library made the connection of an accepted socket: it carries its address. */
void bind_address(server *s, struct lws *wsi);
/* A connection is gone: its address holds one less. */
void release_address(server *s, struct lws *wsi);
/* The client's address of a connection: what every per-address limit
 * counts (connections, creations, bot tables, spectators, messages, log
 * lines; NULL: not counted). Its peer's address, or behind a
 * --trusted-proxy the client its forwarded header names (client_from_head). */
limits_address *client_address(struct lws *wsi);
/* A request's head is in (HTTP, or a WebSocket's upgrade): from a trusted
 * proxy, the connection is its client's from now on. false: that client
 * holds too many connections (to refuse, 429). */
bool client_from_head(server *s, struct lws *wsi);

/* ---------------------------------------------------------------------------
 * send.c
 * ------------------------------------------------------------------------- */
void shared_text_drop(shared_text *t);
/* Every connection of the table gets an update when it can take one. */
void table_changed(server *s, slot *sl);
/* The hall's hook: a request changed a table. */
void hall_changed(void *ctx, hall_slot *sl);
void close_after_sending(conn *c, int status, const char *reason);
/* A refusal to this connection, not logged (queue_error) or logged (send_error). */
void queue_error(server *s, conn *c, const json_t *id, const srv_error *e);
void send_error(server *s, conn *c, const json_t *id, const srv_error *e);
/* Write bytes kept elsewhere through the loop's send buffer (LWS_PRE room before them). */
int write_copied(server *s, struct lws *wsi, const char *bytes, size_t len, enum lws_write_protocol kind);
/* The first page of GET /api/tables as one shared text. */
shared_text *tables_page(server *s);
/* This node's tables changed: the lists are built again when next asked
 * for, and the other nodes told (lobby_push); lists_changed: other nodes' did. */
void tables_changed(server *s);
void lists_changed(server *s);
/* Tell the lobby's sockets of the changes (at most every LOBBY_EVERY_MS). */
void lobby_push(server *s, int64_t now);
/* The connection can take one message; -1 to close. */
int conn_writable(server *s, conn *c);

/* ---------------------------------------------------------------------------
 * ws.c
 * ------------------------------------------------------------------------- */
/* A browser's request must come from our own address or an --allow-origin value. */
bool origin_allowed(server *s, struct lws *wsi);
/* LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: 0 to take the upgrade, 1 to refuse it. */
int ws_filter(server *s, struct lws *wsi);
void ws_established(server *s, struct lws *wsi, http_req *pss);
void ws_closed(server *s, http_req *pss);
void ws_receive(server *s, struct lws *wsi, conn *c, const void *in, size_t len);
/* A finished table is back from its replay: its waiting connections take their seats. */
void reload_done(server *s, hall_reload *r);

/* ---------------------------------------------------------------------------
 * http.c
 * ------------------------------------------------------------------------- */
void reply_drop(http_req *r);
/* A request's head is in (LWS_CALLBACK_HTTP), its body is in, its socket can take more. */
int http_request(server *s, struct lws *wsi, http_req *r, const char *uri);
int http_body_done(server *s, struct lws *wsi, http_req *r);
int http_writable(struct lws *wsi, http_req *r);
void http_reset(http_req *r);
void http_lookup_done(server *s, store_lookup *l);
void http_lookup_forget(server *s, struct lws *wsi);
/* The request waits for an answer made elsewhere (a worker's: replays.c):
 * its number (0: out of memory). The wait ends with its connection. */
uint64_t http_wait(server *s, struct lws *wsi, http_req *r);
/* The request waiting under number n, which waits no more (NULL: its connection is gone). */
struct lws *http_waiting(server *s, uint64_t n);
/* Answer with JSON text (taken, freed with the reply) or a shared text (one reference taken), or refuse. */
int http_answer(server *s, struct lws *wsi, http_req *r, int status, char *text, shared_text *shared);
int http_refuse(server *s, struct lws *wsi, http_req *r, const srv_error *e);

/* ---------------------------------------------------------------------------
 * replays.c
 * ------------------------------------------------------------------------- */
/* GET /api/tables/ID/replay?step=K or .../record (path with its query) of
 * a finished game: answered off the loop from a cached book (true, *rc
 * lws's verdict), or false: the rest of the API answers (a table not
 * finished or not found, or, PostgreSQL, its record still to be read). */
bool replays_answer(server *s, struct lws *wsi, http_req *r, const char *path, int *rc);
/* On a worker: build a book or a step's reply. */
void replay_job_run(struct replay_job *j);
/* On the loop: a worker's replay job is done. */
void replay_job_done(server *s, struct replay_job *j);
/* A job never run (the server stops). */
void replay_job_free(server *s, struct replay_job *j);
/* The cache's books (the workers are stopped). */
void replays_free(server *s);
/* The answer to a request that waited under serial (http_wait; its connection may be gone): JSON text
 * (taken) or a shared text, with status, or the refusal e. */
void answer_waiter(server *s, uint64_t serial, int status, char *text, shared_text *shared, const srv_error *e);

/* ---------------------------------------------------------------------------
 * reviews.c
 * ------------------------------------------------------------------------- */
/* POST /api/tables/ID/review {"seat":K} and GET .../review?seat=K (path with
 * its query): true (answered, or to be answered once a worker is back;
 * *rc lws's verdict), false for another path. */
bool reviews_answer(server *s, struct lws *wsi, http_req *r, const char *path, int *rc);
/* Open the job table (false with err); a claim when due (the tick). */
bool reviews_start(server *s, asobi_error *err);
void reviews_tick(server *s, int64_t now);
/* On a worker: a review's task; on the loop: it is done; never run (stopping). */
void review_task_run(server *s, struct review_task *t);
void review_task_done(server *s, struct review_task *t);
void review_task_free(server *s, struct review_task *t);
void reviews_free(server *s);
/* workers.c: queue a review's job (fast set: the fast lane; else the review lane). */
bool queue_review(server *s, job_node *node);

/* ---------------------------------------------------------------------------
 * chat.c (its socket side; chat.h has the rest)
 * ------------------------------------------------------------------------- */
/* A chat, mute or unmute message from c: handled (true), or not chat's. */
bool chat_message(server *s, conn *c, const char *text, size_t len);
/* Is c's next update to carry its chat history (its first; a seat's once the game is over)? */
bool chat_history_due(const conn *c, const table *t);
/* Has c lines of t it has not been told (perhaps not its to read)? */
bool chat_pending(const conn *c, const table *t);
/* conn_writable's, when no update is due: send c its next line (1), nothing
 * to send (0; an update may have become due), or -1 to close. */
int chat_writable(server *s, conn *c, table *t);
/* c's update (len bytes) with its chat history and mutes added ("chat",
 * "chat_muted"): a new buffer, the text after LWS_PRE bytes, *len its
 * length; NULL when out of memory. */
char *chat_with_history(conn *c, const table *t, const char *update, size_t *len);

/* ---------------------------------------------------------------------------
 * ratings_api.c (issue 42)
 * ------------------------------------------------------------------------- */
/* GET /api/players/NAME[?before=N] and GET /api/leaderboard/GAME (path with
 * its query): answered (true, *rc lws's verdict; PostgreSQL: once the
 * reader thread read it), or false: not one of these. */
bool ratings_answer(server *s, struct lws *wsi, http_req *r, const char *path, int *rc);
/* On a worker: a read on SQLite; on the loop: it is done (its request answered); never run (stopping). */
void ratings_read_run(server *s, struct ratings_read *j);
void ratings_read_done(server *s, struct ratings_read *j);
void ratings_read_free(struct ratings_read *j);
/* The workers' connection (the workers are stopped). */
void ratings_reader_free(server *s);
/* workers.c: queue a job on the fast lane (false: out of memory; the caller keeps it). */
bool queue_fast(server *s, job_node *node);

/* ---------------------------------------------------------------------------
 * metrics.c
 * ------------------------------------------------------------------------- */
void observe(histogram *h, double seconds);
/* GET /metrics's text (malloc'd), NULL when out of memory. */
char *metrics_text(server *s);

#endif

/* server.c — `asobi serve`: one libwebsockets event loop for HTTP, static files and WebSockets; bots on a worker pool. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libwebsockets.h>

#include "protocol/protocol.h"
#include "server/hall.h"
#include "server/limits.h"
#include "server/server.h"
#include "server/store.h"
#include "server/table.h"

/* How the pieces fit
 * ------------------
 * Everything that touches a table runs on the one event-loop thread (the
 * lws_service loop): HTTP requests, WebSocket messages, clock deadlines,
 * bots' results. Only bot moves leave it: a job holds a private copy of the
 * state, a worker thread computes the move and puts the job on the "done"
 * queue, and lws_cancel_service wakes the loop, which plays the move if the
 * table has not moved on. So no table needs a lock.
 *
 * What a client receives is built when its socket is writable: an update
 * is never queued, only marked due, and built from the table as it is then
 * with the events the client has not yet been told. A slow client thus
 * costs one flag, never a growing queue, and never stalls the others;
 * refusals (small) are queued up to a limit, beyond which the client is
 * disconnected. */

#define MESSAGE_MAX SERVER_MESSAGE_MAX
#define RATE_MAX 20               /* messages a second one connection may send */
#define RATE_CLOSE 100            /* ... and the count that closes it */
#define ERRORS_QUEUED_MAX 32      /* unread refusals before a connection is closed */
#define TICK_US (100 * 1000)      /* how often clocks and grace are checked */
#define HTTP_CHUNK 16384          /* an HTTP reply is written in pieces of at most this */
#define WORKER_ROOM 3             /* worker threads at most, per thread asked for (stuck ones and their stand-ins) */
#define REPLY_STALL_S 30          /* a reply's client that takes none of it for this long is closed */
#define SPECTATOR_CLOCK_MS 5      /* a clock's remaining times in a spectators' update are this fresh at least */
/* A finished table with nobody watching leaves memory after this (a page
 * reloaded at the end finds it still there); a connection to it later
 * brings it back from the store (reload_started). Its memory is what
 * bounds the server's: at 400 tables finished a second, a minute had held
 * 24,000 of them, 250 MB. */
#define EVICT_AFTER_MS (5 * 1000)
#define KEEPALIVE_IDLE_S 60        /* a silent connection's first TCP keepalive probe */
#define KEEPALIVE_INTERVAL_S 10    /* then a probe every 10 s */
#define KEEPALIVE_PROBES 3         /* and dropped after 3 unanswered: gone for good within 90 s */
#define LOBBY_EVERY_MS 500         /* the lobby's sockets hear of changes at most twice a second */
/* The last descriptors under the file limit are kept for the server's own
 * files (the database, a static file being served): a connection accepted
 * on one of them is closed at once. So accept() never fails for want of a
 * descriptor, which would leave the listening socket readable and the loop
 * spinning on it (the library's accept loop does not back off). */
#define FD_RESERVE 32
#define PATH_MAX_BYTES 255         /* a request's path (414 beyond) */
#define QUERY_MAX_BYTES 1024       /* its query (414 beyond) */
#define HEADERS_MAX_BYTES 8192     /* its headers (431 beyond) */
#define LIB_HEADER_BYTES 16384     /* the library's room for a request's head: beyond it, it drops the connection */

/* ---------------------------------------------------------------------------
 * Metrics (GET /metrics, Prometheus text).
 * ------------------------------------------------------------------------- */
static const double latency_buckets[] = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                         0.01,   0.025,   0.05,   0.1,   0.25,   1.0};
#define BUCKETS (sizeof latency_buckets / sizeof latency_buckets[0])

typedef struct histogram {
    uint64_t count[BUCKETS];
    uint64_t total;
    double sum;
} histogram;

static void observe(histogram *h, double seconds)
{
    for (size_t i = 0; i < BUCKETS; i++)
        if (seconds <= latency_buckets[i])
            h->count[i]++;
    h->total++;
    h->sum += seconds;
}

/* ---------------------------------------------------------------------------
 * Connections and tables as the loop sees them.
 * ------------------------------------------------------------------------- */
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

static void shared_text_drop(shared_text *t)
{
    if (t && --t->refs == 0)
        free(t);
}

/* m as compact JSON in a new shared text (one reference, the caller's); NULL when out of memory. */
static shared_text *shared_text_of(const json_t *m)
{
    char *text = m ? json_dumps(m, JSON_COMPACT) : NULL;
    size_t len = text ? strlen(text) : 0;
    shared_text *t = text ? malloc(sizeof *t + len) : NULL;
    if (t) {
        *t = (shared_text){.refs = 1, .len = len};
        memcpy(t->text, text, len);
    }
    free(text);
    return t;
}

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
    char *reply;         /* the response body to write */
    shared_text *reply_shared; /* ... when it is a shared text's (the list of tables): not to be freed */
    size_t reply_len;
    size_t reply_sent;
} http_req;

/* A worker's job: a bot's move, or (reload set) the replay of a finished
 * table that a connection brings back. */
typedef struct job_node {
    struct job_node *next;
    table_job job;
    hall_reload *reload;
    bool fast;          /* the fast lane's: a reload, a timeout's or a handed seat's heuristic, a stand-in */
    bool bots_only;     /* a move at a table only bots play (they share at most half the workers) */
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
    int64_t table;
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
    char origins[SERVER_MAX_ORIGINS + 3][160];
    int n_origins;
    /* The worker pool (under the lock). Two lanes: the fast one (reloads,
     * timeouts, handed seats, stand-ins for overdue bots: all quick) goes
     * first and has a thread of its own that bot searches never hold; the
     * bot lane is two rings of tables, those with people before those
     * only bots play, which hold at most bots_only_max workers at once. */
    worker *workers; /* WORKER_ROOM per worker asked for: room for stuck ones' stand-ins */
    int n_workers;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    job_node *fast, *fast_tail, *done, *done_tail;
    ring people, bots_only;
    int bots_only_running, bots_only_max;
    bool stopping;
    /* the connections that wait for a finished table being brought back
     * (hall_reloading) */
    conn *waiting;
    /* the lobby's sockets: the list of tables, built once per change and
     * pushed at most every LOBBY_EVERY_MS */
    conn *lobby;
    bool lobby_dirty;
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
} server;

static volatile sig_atomic_t stop_requested;
static server *the_server; /* for the signal handler's wake-up */

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Commit what the tables wrote since the last flush. Called before every
 * byte that leaves the server (an update, an HTTP reply), so nobody is ever
 * told of an action the database does not keep; the actions of one loop turn
 * share one commit. A database that cannot commit stops the server: the
 * tables in memory are ahead of it, and a restart restores what was kept. */
static void flush_or_stop(server *s)
{
    asobi_error err;
    if (store_flush(s->store, &err) != ASOBI_OK) {
        srv_log("%s: stopping, so that nothing the database does not keep is told to anyone", err.message);
        exit(1);
    }
}

/* ---------------------------------------------------------------------------
 * The worker pool.
 * ------------------------------------------------------------------------- */
/* Append n to a job queue (todo or done; under the lock). */
static void queue_append(job_node **head, job_node **tail, job_node *n)
{
    n->next = NULL;
    if (*tail)
        (*tail)->next = n;
    else
        *head = n;
    *tail = n;
}

/* The table's queue in ring r, or NULL. */
static table_queue *ring_find(ring *r, int64_t id)
{
    for (table_queue *q = r->head; q; q = q->next)
        if (q->table == id)
            return q;
    return NULL;
}

/* The first job of the ring's first table; that table goes to the back. */
static job_node *ring_take(ring *r)
{
    table_queue *q = r->head;
    if (!q)
        return NULL;
    job_node *n = q->head;
    q->head = n->next;
    if (!q->head)
        q->tail = NULL;
    r->head = q->next;
    if (!r->head)
        r->tail = NULL;
    if (q->head) { /* more moves of this table: behind every other table's */
        q->next = NULL;
        if (r->tail)
            r->tail->next = q;
        else
            r->head = q;
        r->tail = q;
    } else {
        free(q);
    }
    return n;
}

/* Append a bot job to its table's queue in ring r (under the lock); false
 * when out of memory. */
static bool ring_append(ring *r, job_node *n)
{
    table_queue *q = ring_find(r, n->job.table);
    if (!q) {
        q = calloc(1, sizeof *q);
        if (!q)
            return false;
        q->table = n->job.table;
        if (r->tail)
            r->tail->next = q;
        else
            r->head = q;
        r->tail = q;
    }
    queue_append(&q->head, &q->tail, n);
    return true;
}

/* The next job for worker w (under the lock), or NULL: the fast lane first,
 * then tables with people, then tables only bots play while they hold
 * fewer than bots_only_max workers. */
static job_node *take_job(server *s, const worker *w)
{
    job_node *n = s->fast;
    if (n) {
        s->fast = n->next;
        if (!s->fast)
            s->fast_tail = NULL;
        return n;
    }
    if (w->fast_only)
        return NULL;
    if ((n = ring_take(&s->people)) != NULL)
        return n;
    if (s->bots_only_running < s->bots_only_max && (n = ring_take(&s->bots_only)) != NULL)
        s->bots_only_running++;
    return n;
}

/* The threads of a lane that are not stuck (under the lock). */
static int lane_threads(const server *s, bool fast_only)
{
    int n = 0;
    for (int i = 0; i < s->n_workers; i++) {
        const worker *w = &s->workers[i];
        n += w->started && !w->exited && !w->stuck && w->fast_only == fast_only;
    }
    return n;
}

/* How many threads a lane should have: --workers for bot moves, one for the fast lane. */
static int lane_size(const server *s, bool fast_only) { return fast_only ? 1 : s->cfg.workers; }

static void *worker_main(void *arg);

/* Start a thread for a lane that lacks one (under the lock); false when
 * there is no room (every entry holds a stuck thread) or no thread. */
static bool add_worker(server *s, bool fast_only)
{
    for (int i = 0; i < s->n_workers; i++) {
        worker *w = &s->workers[i];
        if (w->started && !w->exited)
            continue;
        if (w->started)
            pthread_join(w->thread, NULL); /* it has left its loop: at once */
        *w = (worker){.s = s, .fast_only = fast_only};
        w->started = pthread_create(&w->thread, NULL, worker_main, w) == 0;
        return w->started;
    }
    return false;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    server *s = w->s;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        job_node *n = NULL;
        while (!s->stopping && !(n = take_job(s, w)))
            pthread_cond_wait(&s->wake, &s->lock);
        if (s->stopping) {
            if (n) /* taken just now: back to the front, for stop_workers to free */
                queue_append(&s->done, &s->done_tail, n);
            break;
        }
        n->started_ms = now_ms();
        w->running = n;
        pthread_mutex_unlock(&s->lock);
        if (n->reload)
            hall_reload_replay(n->reload, s->store, now_ms());
        else
            table_job_run(&n->job);
        pthread_mutex_lock(&s->lock);
        w->running = NULL;
        bool was_stuck = w->stuck;
        w->stuck = false;
        if (n->bots_only) {
            s->bots_only_running--;
            pthread_cond_broadcast(&s->wake); /* a bots-only move may start now */
        }
        queue_append(&s->done, &s->done_tail, n);
        /* the loop picks it up; under the lock, which the loop takes to say
         * it is stopping before it destroys the context */
        if (!s->stopping)
            lws_cancel_service(s->context);
        if (was_stuck && lane_threads(s, w->fast_only) > lane_size(s, w->fast_only))
            break; /* back from a stuck job: another thread took its place meanwhile */
    }
    w->exited = true;
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* Queue a job in its lane; false when out of memory (the caller keeps it). */
static bool enqueue(server *s, job_node *node)
{
    bool queued = true;
    pthread_mutex_lock(&s->lock);
    if (node->fast || node->reload)
        queue_append(&s->fast, &s->fast_tail, node);
    else
        queued = ring_append(node->bots_only ? &s->bots_only : &s->people, node);
    if (queued)
        pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    return queued;
}

/* Hand every bot move now due at this table to the workers. A table only
 * bots play starts its moves at most every --bot-table-pace: the tick
 * comes back for it (pace_waiting). */
static void schedule_bots(server *s, slot *sl)
{
    table *t = sl->t;
    bool bots_only = table_bots_only(t);
    int64_t now = now_ms();
    if (bots_only && now < sl->paced_until_ms) {
        sl->pace_waiting = t->status == TABLE_PLAYING;
        return;
    }
    sl->pace_waiting = false;
    table_job jobs[ASOBI_MAX_SEATS];
    int n = table_due_jobs(t, now, s->cfg.grace_ms, jobs, ASOBI_MAX_SEATS);
    if (n && bots_only)
        sl->paced_until_ms = now + s->cfg.bot_table_pace_ms;
    for (int i = 0; i < n; i++) {
        job_node *node = malloc(sizeof *node);
        /* a person's seat (a timeout, a grace move, a handed seat) gets the
         * heuristic, quick: the fast lane; a bot's seat its own bot */
        if (node)
            *node = (job_node){.job = jobs[i], .fast = !t->seat[jobs[i].seat].bot, .bots_only = bots_only};
        if (!node || !enqueue(s, node)) {
            t->seat[jobs[i].seat].busy = false;
            table_job_release(&jobs[i]);
            free(node);
        }
    }
}

/* A connection opened on table id, which is not in memory: HALL_RELOAD_STARTED
 * when it is a finished table being brought back, now or already (a worker
 * replays it; the connection waits for it in ws_established), else
 * HALL_RELOAD_NONE (no such table) or HALL_RELOAD_BUSY (too many under way). */
static int reload_started(server *s, int64_t id)
{
    if (hall_reloading(&s->hall, id))
        return HALL_RELOAD_STARTED;
    job_node *node = calloc(1, sizeof *node);
    hall_reload *r = malloc(sizeof *r);
    int rc = node && r ? hall_reload_read(&s->hall, id, r) : HALL_RELOAD_NONE;
    if (rc != HALL_RELOAD_STARTED) {
        free(node);
        free(r);
        return rc;
    }
    node->reload = r;
    node->fast = true;
    if (!enqueue(s, node)) {
        hall_reload_release(&s->hall, r);
        free(node);
        free(r);
        return HALL_RELOAD_NONE;
    }
    return HALL_RELOAD_STARTED;
}

/* ---------------------------------------------------------------------------
 * Connections per client address (limits.c keeps the counts).
 * ------------------------------------------------------------------------- */
/* A refusal's line in the log, within its address's share of lines
 * (--log-lines-per-second-per-address); beyond it the refusal is counted
 * and summed up once a second with the limits' (limits_tick): a client
 * looping on bad requests cannot fill the disk. a NULL: always logged. */
static void log_refusal(server *s, limits_address *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void log_refusal(server *s, limits_address *a, const char *fmt, ...)
{
    if (!limits_log_line(&s->limits, a, now_s()))
        return;
    va_list ap;
    va_start(ap, fmt);
    srv_vlog(fmt, ap);
    va_end(ap);
}

/* A refused connection is told why in a few bytes, best effort (it is
 * closed right after, whatever the socket took). */
static void refuse_socket(int fd, const char *code, const char *message)
{
    char body[256], reply[512];
    int n = snprintf(body, sizeof body, "{\"error\":{\"code\":\"%s\",\"message\":\"%s\"}}", code, message);
    int m = snprintf(reply, sizeof reply,
                     "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 10\r\n"
                     "Connection: close\r\nContent-Length: %d\r\n\r\n%s",
                     n, body);
    if (m > 0 && m < (int)sizeof reply && send(fd, reply, (size_t)m, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
        return; /* nobody to tell */
}

/* The address counted for fd's previous connection, if the library never
 * bound it to a connection (it failed to take it on): let go of it. */
static void release_pending(server *s, int fd)
{
    if (fd < 0 || fd >= s->fd_limit || !s->pending[fd])
        return;
    limits_disconnect(&s->limits, s->pending[fd], now_s());
    s->pending[fd] = NULL;
}

/* A connection was just accepted on fd (LWS_CALLBACK_FILTER_NETWORK_CONNECTION):
 * 0 to take it, 1 to close it (the library closes it). Refused: one past
 * --max-connections-per-address from its address or past --max-connections
 * in all, and any on the last FD_RESERVE descriptors. Not logged one by one
 * (a flood of them would fill the disk): counted, and summed up in the log
 * once a second (on_tick). The library's own limits per peer (ip_limit_wsi)
 * are not in Debian's build (LWS_WITH_PEER_LIMITS is off), hence limits.c;
 * the hook and the per-connection pointer are the library's. */
static int admit_connection(server *s, int fd)
{
    release_pending(s, fd);
    if (fd >= s->fd_limit - FD_RESERVE) {
        limits_refused(&s->limits, LIMIT_CONNECTIONS, NULL);
        refuse_socket(fd, "too_many_connections", "the server is full: try again later");
        return 1;
    }
    struct sockaddr_storage peer;
    socklen_t len = sizeof peer;
    unsigned char key[LIMITS_KEY_BYTES];
    char name[48];
    if (getpeername(fd, (struct sockaddr *)&peer, &len) != 0 ||
        !limits_key_of((struct sockaddr *)&peer, len, key, name, sizeof name))
        return 0; /* not an IP client: not counted */
    limits_address *a = limits_address_of(&s->limits, key, name);
    if (!a)
        return 1; /* out of memory */
    if (!limits_connect(&s->limits, a, now_s())) {
        refuse_socket(fd, "too_many_connections", "too many connections from your address: close some first");
        return 1;
    }
    s->pending[fd] = a;
    return 0;
}

/* The library made the connection of an accepted socket: it carries its
 * address from now on (the opaque user data stays through the upgrade to a
 * WebSocket; the protocol's per-session data does not). */
static void bind_address(server *s, struct lws *wsi)
{
    int fd = lws_get_socket_fd(wsi);
    if (fd < 0 || fd >= s->fd_limit || !s->pending[fd] || lws_get_opaque_user_data(wsi))
        return;
    lws_set_opaque_user_data(wsi, s->pending[fd]);
    s->pending[fd] = NULL;
}

/* A connection is gone (LWS_CALLBACK_WSI_DESTROY). */
static void release_address(server *s, struct lws *wsi)
{
    limits_address *a = lws_get_opaque_user_data(wsi);
    if (!a)
        return;
    lws_set_opaque_user_data(wsi, NULL);
    limits_disconnect(&s->limits, a, now_s());
}

/* ---------------------------------------------------------------------------
 * Sending.
 * ------------------------------------------------------------------------- */
/* The changed tables' connections ask for room to write, all at once,
 * after every event of the loop's turn is handled: the actions that arrived
 * together are then told in one update per connection, not one each. Under
 * libuv the loop hands over its events one socket at a time; asking for
 * room at each would send PSYCLE's two simultaneous choices as two updates
 * to each seat (measured: 2.06 updates per action at 10 tables flat out,
 * against 1.15 under poll, whose turns gather more). A timer of zero delay
 * runs at the start of the next turn, before the loop waits again. */
static int conn_writable(server *s, conn *c);

static void on_send_due(lws_sorted_usec_list_t *sul)
{
    server *s = lws_container_of(sul, server, send_sul);
    for (size_t i = 0; i < s->n_send_due; i++) {
        slot *sl = hall_slot_of(&s->hall, s->send_due[i]);
        if (!sl)
            continue;
        sl->send_due = false;
        for (conn *c = sl->conns; c; c = c->next) {
            if (!c->due)
                continue;
            /* A socket with nothing of ours still in the library's buffer
             * takes the update now: asking for room first costs two epoll_ctl
             * calls (POLLOUT on, then off) and a turn of the loop. Anything
             * else (a refusal queued, a close, bytes of ours still buffered,
             * a failed write) waits for the socket's writable callback. Not
             * lws_send_pipe_choked: it asks the kernel with a poll() per
             * socket, a system call per update, when a full socket buffer
             * needs no asking: lws_write keeps what the kernel did not take
             * and sends it when the socket is writable again. */
            if (c->errors || c->closing || lws_partial_buffered(c->wsi) || conn_writable(s, c) < 0)
                lws_callback_on_writable(c->wsi);
        }
    }
    s->n_send_due = 0;
    s->send_scheduled = false;
}

/* Every connection of the table gets an update when it can take one. */
static void tables_changed(server *s);

static void table_changed(server *s, slot *sl)
{
    tables_changed(s);
    for (conn *c = sl->conns; c; c = c->next)
        c->due = true;
    if (sl->conns && !sl->send_due) {
        if (s->n_send_due == s->cap_send_due) {
            size_t cap = s->cap_send_due ? 2 * s->cap_send_due : 64;
            int64_t *grown = realloc(s->send_due, cap * sizeof *grown);
            if (grown) {
                s->send_due = grown;
                s->cap_send_due = cap;
            }
        }
        if (s->n_send_due < s->cap_send_due) {
            s->send_due[s->n_send_due++] = sl->t->id;
            sl->send_due = true;
        } else { /* out of memory: ask now */
            for (conn *c = sl->conns; c; c = c->next)
                lws_callback_on_writable(c->wsi);
        }
    }
    if (s->n_send_due && !s->send_scheduled) {
        lws_sul_schedule(s->context, 0, &s->send_sul, on_send_due, 0);
        s->send_scheduled = true;
    }
    if (sl->t->status == TABLE_OVER && !sl->over_ms)
        sl->over_ms = now_ms();
    schedule_bots(s, sl);
}

/* The hall's hook: a request changed a table. */
static void hall_changed(void *ctx, hall_slot *sl) { table_changed(ctx, sl); }

static outmsg *outmsg_new(const char *text)
{
    size_t len = strlen(text);
    outmsg *m = malloc(sizeof *m);
    unsigned char *bytes = malloc(LWS_PRE + len);
    if (!m || !bytes) {
        free(m);
        free(bytes);
        return NULL;
    }
    memcpy(bytes + LWS_PRE, text, len);
    *m = (outmsg){NULL, len, bytes};
    return m;
}

static void close_after_sending(conn *c, int status, const char *reason)
{
    c->closing = true;
    c->close_status = status;
    snprintf(c->close_reason, sizeof c->close_reason, "%s", reason);
    lws_callback_on_writable(c->wsi);
}

/* A refusal to this connection, {"type":"error","id":N,"error":{...}},
 * without a line in the log (the limits' refusals: counted, summed up once
 * a second). The message's id is echoed at most in part (srv_echo_id). */
static void queue_error(server *s, conn *c, const json_t *id, const srv_error *e)
{
    s->refusals++;
    if (c->errors_queued >= ERRORS_QUEUED_MAX) {
        close_after_sending(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "too many unread messages");
        return;
    }
    json_t *msg = srv_error_json(e);
    json_object_set_new(msg, "type", json_string("error"));
    json_object_set_new(msg, "id", srv_echo_id(id));
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    outmsg *m = text ? outmsg_new(text) : NULL;
    free(text);
    if (!m)
        return;
    if (c->errors_tail)
        c->errors_tail->next = m;
    else
        c->errors = m;
    c->errors_tail = m;
    c->errors_queued++;
    lws_callback_on_writable(c->wsi);
}

/* A refusal to this connection, logged (log_refusal). */
static void send_error(server *s, conn *c, const json_t *id, const srv_error *e)
{
    log_refusal(s, c->addr, "refused (table %lld, %s %d): %s: %s", (long long)c->table,
                c->seat < 0 ? "spectator" : "seat", c->seat, e->code, e->message);
    queue_error(s, c, id, e);
}

/* Write bytes kept elsewhere (the lobby's list, an HTTP reply) through the
 * loop's send buffer: lws_write wants LWS_PRE bytes of room before them for
 * its header, so they are copied after that room. lws_write's verdict, -1
 * when out of memory. */
static int write_copied(server *s, struct lws *wsi, const char *bytes, size_t len, enum lws_write_protocol kind)
{
    if (s->send_cap < LWS_PRE + len + 1) {
        char *grown = realloc(s->send_buf, LWS_PRE + len + 1);
        if (!grown)
            return -1;
        s->send_buf = grown;
        s->send_cap = LWS_PRE + len + 1;
    }
    memcpy(s->send_buf + LWS_PRE, bytes, len);
    return lws_write(wsi, (unsigned char *)s->send_buf + LWS_PRE, len, kind);
}

/* The lobby's list as one shared text: {"type":"tables","tables":[...]},
 * the first page of GET /api/tables, built once per change for every socket. */
static shared_text *lobby_list(server *s)
{
    if (s->lobby_text)
        return s->lobby_text;
    json_t *m = hall_tables_json(&s->hall, 0);
    json_object_set_new(m, "type", json_string("tables"));
    s->lobby_text = shared_text_of(m);
    json_decref(m);
    return s->lobby_text;
}

/* The first page of GET /api/tables as one shared text, built once per
 * change of any table (table_changed lets it go) for every request: a loop
 * of requests does not build the list each time, and slow readers share
 * one copy instead of holding one each. */
static shared_text *tables_page(server *s)
{
    if (!s->list_text) {
        json_t *m = hall_tables_json(&s->hall, 0);
        s->list_text = shared_text_of(m);
        json_decref(m);
    }
    return s->list_text;
}

/* The tables changed: the list is built again when it is next asked for. */
static void tables_changed(server *s)
{
    s->lobby_dirty = true;
    shared_text_drop(s->list_text);
    s->list_text = NULL;
}

/* A lobby socket can take more of the list. It is written in frames of at
 * most HTTP_CHUNK bytes, each when the socket has taken the one before: a
 * socket that does not read holds a reference to the shared list and at
 * most one frame of its own in the library's buffer, never a copy of the
 * whole list (20 such sockets held 380 MB of their own copies when the
 * list was 31.5 MB). */
static int lobby_writable(server *s, conn *c)
{
    if (!c->list) {
        if (!c->due)
            return 0;
        if (!(c->list = lobby_list(s)))
            return -1;
        c->list->refs++;
        c->list_sent = 0;
        c->due = false;
    }
    size_t chunk = c->list->len - c->list_sent;
    if (chunk > HTTP_CHUNK)
        chunk = HTTP_CHUNK;
    bool last = c->list_sent + chunk == c->list->len;
    int kind = (c->list_sent ? LWS_WRITE_CONTINUATION : LWS_WRITE_TEXT) | (last ? 0 : LWS_WRITE_NO_FIN);
    if (write_copied(s, c->wsi, c->list->text + c->list_sent, chunk, (enum lws_write_protocol)kind) < 0)
        return -1;
    s->bytes_sent += chunk;
    c->list_sent += chunk;
    if (last) {
        shared_text_drop(c->list);
        c->list = NULL;
    }
    if (!last || c->due)
        lws_callback_on_writable(c->wsi);
    return 0;
}

/* The tables changed since the lobby's sockets last heard: tell them (at
 * most every LOBBY_EVERY_MS; the list is built anew for the next push). */
static void lobby_push(server *s, int64_t now)
{
    if (!s->lobby_dirty || now - s->lobby_sent_ms < LOBBY_EVERY_MS)
        return;
    s->lobby_dirty = false;
    s->lobby_sent_ms = now;
    shared_text_drop(s->lobby_text);
    s->lobby_text = NULL;
    for (conn *c = s->lobby; c; c = c->next) {
        c->due = true;
        lws_callback_on_writable(c->wsi);
    }
}

/* The update a spectator of t is sent, with the events from log_from on:
 * built once per change of the table (and again after SPECTATOR_CLOCK_MS
 * when it has a clock: the remaining times are those of the moment it is
 * sent, to a few milliseconds), then the
 * same bytes for every spectator told at once (500 spectators of one table
 * cost 7.3 ms of CPU per action when each had its own built). Its length
 * (the text at spectator_buf + LWS_PRE, room for the frame's header before
 * it, which lws_write fills alike for each), 0 when out of memory. */
static size_t spectator_update(server *s, const table *t, int log_from)
{
    int64_t now = now_ms();
    if (!s->spectator_len || s->spectator_table != t->id || s->spectator_version != t->version ||
        s->spectator_log_count != t->log_count || s->spectator_log_from != log_from ||
        (t->clock != CLOCK_NONE && now - s->spectator_ms > SPECTATOR_CLOCK_MS)) {
        s->spectator_len = table_update_text_in(t, ASOBI_SPECTATOR, log_from, now, &s->spectator_buf,
                                                &s->spectator_cap, LWS_PRE);
        s->spectator_table = t->id;
        s->spectator_version = t->version;
        s->spectator_log_count = t->log_count;
        s->spectator_log_from = log_from;
        s->spectator_ms = now;
    }
    return s->spectator_len;
}

/* The connection can take one message: a queued refusal first, else the
 * update if one is due. Returns -1 to close. */
static int conn_writable(server *s, conn *c)
{
    flush_or_stop(s);
    if (c->list) /* a list being sent in frames: nothing else in between */
        return lobby_writable(s, c);
    if (c->errors) {
        outmsg *m = c->errors;
        c->errors = m->next;
        if (!c->errors)
            c->errors_tail = NULL;
        c->errors_queued--;
        int n = lws_write(c->wsi, m->bytes + LWS_PRE, m->len, LWS_WRITE_TEXT);
        s->bytes_sent += m->len;
        free(m->bytes);
        free(m);
        if (n < 0)
            return -1;
        if (c->errors || c->due || c->closing)
            lws_callback_on_writable(c->wsi);
        return 0;
    }
    if (c->closing) {
        /* The close frame (RFC 6455 5.5.1: opcode 8, the status, the
         * reason), then the socket closed on the next turn. We write the
         * frame's bytes ourselves (LWS_WRITE_HTTP sends bytes as they are on
         * a WebSocket too) because the library's own polite close, started
         * by lws_close_reason and a -1, is cut short under the libuv loop:
         * Debian's build closes the connection a second time at once, as a
         * debug check, and the second close drops the frame. */
        if (c->close_sent)
            return -1;
        unsigned char frame[LWS_PRE + 4 + sizeof c->close_reason], *p = frame + LWS_PRE;
        size_t n = strlen(c->close_reason); /* < 126: a one-byte length */
        p[0] = 0x88;                        /* FIN, close */
        p[1] = (unsigned char)(2 + n);      /* a server's frame is not masked */
        p[2] = (unsigned char)(c->close_status >> 8);
        p[3] = (unsigned char)(c->close_status & 0xff);
        memcpy(p + 4, c->close_reason, n);
        if (lws_write(c->wsi, p, 4 + n, LWS_WRITE_HTTP) < 0)
            return -1;
        c->close_sent = true;
        lws_callback_on_writable(c->wsi);
        return 0;
    }
    if (c->lobby)
        return lobby_writable(s, c);
    slot *sl = hall_slot_of(&s->hall, c->table);
    if (!c->due || !sl)
        return 0;
    /* written into the loop's send buffer, after the room lws_write wants
     * for the frame's header; lws_write keeps what the kernel did not take,
     * so the buffer is free again for the next update */
    char *text;
    size_t len;
    if (c->seat == ASOBI_SPECTATOR) {
        len = spectator_update(s, sl->t, c->log_from);
        text = s->spectator_buf + LWS_PRE;
    } else {
        len = table_update_text_in(sl->t, c->seat, c->log_from, now_ms(), &s->send_buf, &s->send_cap, LWS_PRE);
        text = s->send_buf + LWS_PRE;
    }
    if (!len)
        return -1;
    int n = lws_write(c->wsi, (unsigned char *)text, len, LWS_WRITE_TEXT);
    if (n < 0)
        return -1;
    s->bytes_sent += len;
    s->updates_sent++;
    if (c->act_received > 0) {
        /* the update that shows the actor its own accepted action */
        observe(&s->action_latency, now_s() - c->act_received);
        c->act_received = 0;
    }
    c->due = false;
    c->log_from = sl->t->log_count;
    return 0;
}

/* ---------------------------------------------------------------------------
 * WebSockets: /ws/tables/ID[?token=T]
 * ------------------------------------------------------------------------- */
/* The table id of a /ws/tables/ID path, or -1. */
static int64_t ws_table_id(const char *path)
{
    const char *rest;
    int64_t id = hall_path_id(path, "/ws/tables/", &rest);
    return id > 0 && !*rest ? id : -1;
}

/* The value of the token argument of the request's query, if any. */
static bool query_token(struct lws *wsi, char *out, int cap)
{
    char frag[128];
    for (int i = 0; lws_hdr_copy_fragment(wsi, frag, sizeof frag, WSI_TOKEN_HTTP_URI_ARGS, i) > 0; i++) {
        if (strncmp(frag, "token=", 6) == 0) {
            snprintf(out, (size_t)cap, "%s", frag + 6);
            return true;
        }
    }
    return false;
}

/* Origin check: a browser's upgrade must come from our own address or an
 * --allow-origin value; programs that send no Origin are let through. */
static bool origin_allowed(server *s, struct lws *wsi)
{
    int len = lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN);
    if (len <= 0)
        return true;
    char origin[160];
    if (len >= (int)sizeof origin || lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) < 0)
        return false;
    for (int i = 0; i < s->n_origins; i++)
        if (strcmp(origin, s->origins[i]) == 0)
            return true;
    bool post = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0;
    log_refusal(s, lws_get_opaque_user_data(wsi), "refused a %s from origin %.100s (bad_origin)",
                post ? "POST" : "WebSocket", origin);
    return false;
}

static int ws_filter(server *s, struct lws *wsi)
{
    char path[256];
    if (lws_hdr_copy(wsi, path, sizeof path, WSI_TOKEN_GET_URI) < 0)
        return 1;
    if (!origin_allowed(s, wsi))
        return 1;
    int64_t id = ws_table_id(path);
    int reload = HALL_RELOAD_STARTED;
    if (strcmp(path, "/ws/lobby") != 0 && !hall_slot_of(&s->hall, id))
        reload = reload_started(s, id);
    if (reload == HALL_RELOAD_NONE) {
        log_refusal(s, lws_get_opaque_user_data(wsi), "refused a WebSocket to %.100s (not_found)", path);
        return 1;
    }
    if (reload == HALL_RELOAD_BUSY) {
        log_refusal(s, lws_get_opaque_user_data(wsi),
                    "refused a WebSocket to %.100s (busy: %d finished tables being brought back)", path,
                HALL_RELOADS_MAX);
        return 1;
    }
    return 0;
}

/* A table's connection takes its seat (by its token) or a spectator's
 * place, and is sent its first update. */
static void seat_connection(server *s, conn *c, const char *token)
{
    int64_t id = c->table;
    slot *sl = hall_slot_of(&s->hall, id);
    if (!sl) {
        srv_error e;
        srv_fail(&e, 404, "not_found", "there is no table %lld", (long long)id);
        send_error(s, c, NULL, &e);
        close_after_sending(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "not_found");
        return;
    }
    if (token) {
        int seat = table_seat_of_token(sl->t, token);
        if (seat < 0) {
            srv_error e;
            srv_fail(&e, 403, "bad_token", "that token holds no seat at table %lld", (long long)id);
            send_error(s, c, NULL, &e);
            close_after_sending(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "bad_token");
            return;
        }
        c->seat = seat;
    } else if (sl->t->spectators >= s->cfg.max_spectators) {
        srv_error e;
        srv_fail(&e, 503, "too_many_spectators", "table %lld has %d spectators already, the most it takes",
                 (long long)id, sl->t->spectators);
        queue_error(s, c, NULL, &e);
        close_after_sending(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "too_many_spectators");
        return;
    } else if (c->addr && !limits_spectate(&s->limits, c->addr, now_s())) {
        srv_error e;
        srv_fail(&e, 429, "too_many_spectators", "at most %d spectators' connections from one address "
                 "(--max-spectators-per-address)", s->limits.cfg.spectators_per_address);
        queue_error(s, c, NULL, &e);
        close_after_sending(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "too_many_spectators");
        return;
    } else {
        c->spectating = c->addr != NULL;
    }
    c->next = sl->conns;
    sl->conns = c;
    table_connect(sl->t, c->seat, now_ms());
    c->due = true;
    if (c->seat >= 0)
        table_changed(s, sl); /* "connected" changed for everyone */
    else
        lws_callback_on_writable(c->wsi);
}

static void ws_established(server *s, struct lws *wsi, http_req *pss)
{
    char path[256] = "", token[128];
    lws_hdr_copy(wsi, path, sizeof path, WSI_TOKEN_GET_URI);
    bool has_token = query_token(wsi, token, sizeof token);
    int64_t id = ws_table_id(path);
    conn *c = calloc(1, sizeof *c);
    if (!c)
        return;
    c->wsi = wsi;
    c->table = id;
    c->seat = ASOBI_SPECTATOR;
    c->addr = lws_get_opaque_user_data(wsi);
    pss->ws = c;
    s->connections++;
    if (strcmp(path, "/ws/lobby") == 0) {
        c->lobby = true;
        c->next = s->lobby;
        s->lobby = c;
        c->due = true;
        lws_callback_on_writable(wsi);
        return;
    }
    if (hall_reloading(&s->hall, id) && !hall_slot_of(&s->hall, id)) {
        c->waiting = true; /* reload_done seats it */
        c->token = has_token ? strdup(token) : NULL;
        if (has_token && !c->token) {
            close_after_sending(c, LWS_CLOSE_STATUS_UNEXPECTED_CONDITION, "no_memory");
            return;
        }
        c->next = s->waiting;
        s->waiting = c;
        return;
    }
    seat_connection(s, c, has_token ? token : NULL);
}

static void ws_closed(server *s, http_req *pss)
{
    conn *c = pss->ws;
    if (!c)
        return;
    pss->ws = NULL;
    s->connections--;
    if (c->spectating)
        limits_unspectate(&s->limits, c->addr, now_s());
    slot *sl = c->lobby || c->waiting ? NULL : hall_slot_of(&s->hall, c->table);
    for (conn **p = &s->waiting; c->waiting && *p; p = &(*p)->next) {
        if (*p == c) {
            *p = c->next;
            break;
        }
    }
    for (conn **p = &s->lobby; c->lobby && *p; p = &(*p)->next) {
        if (*p == c) {
            *p = c->next;
            break;
        }
    }
    if (sl) {
        for (conn **p = &sl->conns; *p; p = &(*p)->next) {
            if (*p == c) {
                *p = c->next;
                table_disconnect(sl->t, c->seat, now_ms());
                if (c->seat >= 0)
                    table_changed(s, sl);
                break;
            }
        }
    }
    while (c->errors) {
        outmsg *m = c->errors;
        c->errors = m->next;
        free(m->bytes);
        free(m);
    }
    shared_text_drop(c->list);
    free(c->rx);
    free(c->token);
    free(c);
}

/* One whole message from a client: the hall decides, this side answers. */
static void ws_message(server *s, conn *c, const char *text, size_t len)
{
    double started = now_s();
    srv_error e;
    json_t *id;
    if (c->lobby) {
        srv_fail(&e, 400, "unknown_type", "the lobby's socket takes no messages");
        send_error(s, c, NULL, &e);
        return;
    }
    if (c->waiting) {
        json_t *msg = json_loadb(text, len, 0, NULL);
        srv_fail(&e, 409, "table_loading", "the finished table is being read back from the database: wait for its "
                                            "first update");
        send_error(s, c, json_object_get(msg, "id"), &e);
        json_decref(msg);
        return;
    }
    if (hall_message(&s->hall, c->table, c->seat, text, len, now_ms(), &id, &e) == 0)
        c->act_received = started;
    else
        send_error(s, c, id, &e);
    json_decref(id);
}

/* A message over a rate limit: refused with rate_limited (the message is
 * dropped), counted, not logged (limits_summary sums them up). */
static void refuse_rate(server *s, conn *c, const char *fmt, ...)
{
    srv_error e;
    char why[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    srv_fail(&e, 429, "rate_limited", "%s", why);
    json_t *msg = json_loadb(c->rx, c->rx_len, 0, NULL);
    queue_error(s, c, json_is_object(msg) ? json_object_get(msg, "id") : NULL, &e);
    json_decref(msg);
}

/* May this connection's message be handled, as far as its seat (all of its
 * connections together: ten tabs of one seat are one person) and its
 * address (every connection from there) go? */
static bool message_allowed(server *s, conn *c, double now)
{
    slot *sl = c->seat >= 0 && !c->lobby && !c->waiting ? hall_slot_of(&s->hall, c->table) : NULL;
    return limits_message(&s->limits, c->addr, sl ? &sl->seat_rate[c->seat] : NULL, now);
}

static void ws_receive(server *s, struct lws *wsi, conn *c, const void *in, size_t len)
{
    if (c->closing)
        return;
    bool last = lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0;
    if (!c->rx_too_long) {
        if (c->rx_len + len > MESSAGE_MAX) {
            c->rx_too_long = true;
            free(c->rx);
            c->rx = NULL;
            c->rx_len = 0;
        } else {
            char *rx = realloc(c->rx, c->rx_len + len + 1);
            if (!rx)
                return;
            memcpy(rx + c->rx_len, in, len);
            c->rx = rx;
            c->rx_len += len;
        }
    }
    if (!last)
        return;
    srv_error e;
    if (c->rx_too_long) {
        srv_fail(&e, 413, "message_too_long", "a message may hold at most %d bytes", MESSAGE_MAX);
        send_error(s, c, NULL, &e);
        close_after_sending(c, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, "message_too_long");
        return;
    }
    /* At most RATE_MAX messages a second, as a token bucket (a burst of
     * RATE_MAX, then RATE_MAX a second): a burst is judged the same wherever
     * it falls across the clock's seconds. A flood closes the connection. */
    double now = now_s();
    c->rate_tokens += (now - c->rate_at) * RATE_MAX;
    if (c->rate_at == 0 || c->rate_tokens > RATE_MAX)
        c->rate_tokens = RATE_MAX;
    c->rate_at = now;
    int64_t second = now_ms() / 1000;
    if (second != c->rate_second) {
        c->rate_second = second;
        c->rate_count = 0;
    }
    c->rate_count++;
    if (c->rate_count > RATE_CLOSE) {
        close_after_sending(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "rate_limited");
    } else if (c->rate_tokens < 1) {
        limits_refused(&s->limits, LIMIT_MESSAGES_CONNECTION, c->addr);
        refuse_rate(s, c, "at most %d messages a second on one connection", RATE_MAX);
    } else if (!message_allowed(s, c, now)) {
        c->rate_tokens -= 1;
        refuse_rate(s, c, "%s", "too many messages from this seat or address: at most --messages-per-second-per-seat "
                                "and --messages-per-second-per-address");
    } else {
        c->rate_tokens -= 1;
        ws_message(s, c, c->rx, c->rx_len);
    }
    free(c->rx);
    c->rx = NULL;
    c->rx_len = 0;
}

/* ---------------------------------------------------------------------------
 * HTTP
 * ------------------------------------------------------------------------- */
/* Let go of the reply: freed, or one reference less to a shared one. */
static void reply_drop(http_req *r)
{
    if (r->reply_shared)
        shared_text_drop(r->reply_shared);
    else
        free(r->reply);
    r->reply = NULL;
    r->reply_shared = NULL;
}

static void set_reply(http_req *r, json_t *body)
{
    reply_drop(r);
    r->reply = json_dumps(body, JSON_COMPACT);
    r->reply_len = r->reply ? strlen(r->reply) : 0;
    json_decref(body);
}

static int send_headers(server *s, struct lws *wsi, http_req *r, int status, const char *type, size_t len)
{
    flush_or_stop(s); /* a created table or a taken seat is kept before it is announced */
    unsigned char buf[LWS_PRE + 512], *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf - 1;
    char retry[16];
    int retry_len = snprintf(retry, sizeof retry, "%d", r->retry_after);
    if (lws_add_http_common_headers(wsi, (unsigned int)status, type, len, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:", (const unsigned char *)"no-store",
                                    8, &p, end) ||
        (r->retry_after > 0 && lws_add_http_header_by_name(wsi, (const unsigned char *)"retry-after:",
                                                           (const unsigned char *)retry, retry_len, &p, end)) ||
        (r->close_after && lws_add_http_header_by_name(wsi, (const unsigned char *)"connection:",
                                                       (const unsigned char *)"close", 5, &p, end)) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    return 0;
}

static int http_writable(struct lws *wsi, http_req *r);

/* The body right after the headers, from the request's own callback, when it
 * is small and the socket has taken everything so far; the transaction is
 * then complete and a kept-alive connection reads its next request. Asking
 * for the writable callback instead (as a large body or a socket with bytes
 * still buffered does) costs a turn of the loop and, under libuv, about six
 * epoll_ctl calls: libuv removes and re-adds the socket at each change of
 * the events libwebsockets waits for (writable on, then off). */
static int send_body(struct lws *wsi, http_req *r)
{
    if (r->reply_len <= HTTP_CHUNK && !lws_partial_buffered(wsi))
        return http_writable(wsi, r);
    lws_callback_on_writable(wsi);
    return 0;
}

/* Answer with a JSON body (status 2xx) or an error. Returns lws's verdict. */
static int reply_json(server *s, struct lws *wsi, http_req *r, int status, json_t *body)
{
    set_reply(r, body);
    if (!r->reply || send_headers(s, wsi, r, status, "application/json", r->reply_len) < 0)
        return -1;
    return send_body(wsi, r);
}

static int reply_error(server *s, struct lws *wsi, http_req *r, const srv_error *e)
{
    s->refusals++;
    log_refusal(s, lws_get_opaque_user_data(wsi), "refused %s %.100s: %d %s: %s", r->post ? "POST" : "GET", r->path,
                e->status, e->code, e->message);
    return reply_json(s, wsi, r, e->status, srv_error_json(e));
}

static int reply_text(server *s, struct lws *wsi, http_req *r, const char *type, char *text)
{
    reply_drop(r);
    r->reply = text;
    r->reply_len = text ? strlen(text) : 0;
    if (!text || send_headers(s, wsi, r, 200, type, r->reply_len) < 0)
        return -1;
    return send_body(wsi, r);
}

static void metric_histogram(FILE *f, const char *name, const char *help, const histogram *h)
{
    fprintf(f, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
    for (size_t i = 0; i < BUCKETS; i++)
        fprintf(f, "%s_bucket{le=\"%g\"} %llu\n", name, latency_buckets[i], (unsigned long long)h->count[i]);
    fprintf(f, "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %.6f\n%s_count %llu\n", name, (unsigned long long)h->total, name,
            h->sum, name, (unsigned long long)h->total);
}

/* One metric of one value, in Prometheus' text format: its HELP, its TYPE, its sample. */
static void metric_value(FILE *f, const char *name, const char *type, const char *help, uint64_t value)
{
    fprintf(f, "# HELP %s %s\n# TYPE %s %s\n%s %llu\n", name, help, name, type, name, (unsigned long long)value);
}

static char *metrics_text(server *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    uint64_t by_status[3] = {0, 0, 0};
    for (int64_t i = 0; i < s->hall.n_slots; i++)
        if (s->hall.slots[i].t)
            by_status[s->hall.slots[i].t->status]++;
    fprintf(f, "# HELP asobi_tables Tables in memory by status.\n# TYPE asobi_tables gauge\n");
    for (int st = 0; st < 3; st++)
        fprintf(f, "asobi_tables{status=\"%s\"} %llu\n", table_status_name((table_status)st),
                (unsigned long long)by_status[st]);
    metric_value(f, "asobi_connections", "gauge", "Open WebSocket connections.", s->connections);
    metric_value(f, "asobi_actions_accepted_total", "counter", "Actions accepted (people, bots, timeouts).",
                 s->hall.actions_accepted);
    metric_value(f, "asobi_refusals_total", "counter", "Requests and messages refused.", s->refusals);
    fprintf(f, "# HELP asobi_limited_total Connections, requests and messages refused by a limit (docs/server.md, "
               "Limits).\n# TYPE asobi_limited_total counter\n");
    for (int k = 0; k < LIMIT_KINDS; k++)
        fprintf(f, "asobi_limited_total{limit=\"%s\"} %llu\n", limits_kind_name((limits_kind)k),
                (unsigned long long)s->limits.refused[k]);
    metric_value(f, "asobi_client_connections", "gauge", "Open connections (HTTP and WebSockets) of IP clients.",
                 (uint64_t)s->limits.connections);
    metric_value(f, "asobi_client_addresses", "gauge", "Client addresses the limits keep track of.",
                 (uint64_t)s->limits.addresses);
    metric_value(f, "asobi_updates_sent_total", "counter", "Update messages sent.", s->updates_sent);
    metric_value(f, "asobi_bot_moves_overdue_total", "counter",
                 "Bot moves abandoned past --bot-deadline (the heuristic moved instead).", s->bots_overdue);
    metric_value(f, "asobi_tables_expired_total", "counter", "Unfinished tables expired (nobody joined, nobody there).",
                 s->tables_expired);
    metric_value(f, "asobi_ws_bytes_sent_total", "counter", "WebSocket payload bytes sent.", s->bytes_sent);
    metric_histogram(f, "asobi_action_latency_seconds",
                     "From a person's act message received to the update showing it written to that person's "
                     "socket.",
                     &s->action_latency);
    pthread_mutex_lock(&s->lock);
    histogram bot = s->bot_time;
    pthread_mutex_unlock(&s->lock);
    metric_histogram(f, "asobi_bot_move_seconds", "Time a bot took to choose a move (on a worker).", &bot);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fprintf(f, "# HELP process_cpu_seconds_total CPU time of the server.\n# TYPE process_cpu_seconds_total counter\n"
               "process_cpu_seconds_total %.3f\n",
            (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
                (double)ru.ru_stime.tv_usec / 1e6);
    fprintf(f, "# HELP process_max_resident_bytes Peak resident memory.\n# TYPE process_max_resident_bytes gauge\n"
               "process_max_resident_bytes %lld\n",
            (long long)ru.ru_maxrss * 1024);
    fclose(f);
    return text;
}

/* The request's path with its query ("/api/tables?before=7"), as the hall
 * takes it: the library keeps the query's arguments apart, one fragment each. */
static void path_with_query(struct lws *wsi, const char *path, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "%s", path);
    char frag[128];
    for (int i = 0; n < cap && lws_hdr_copy_fragment(wsi, frag, sizeof frag, WSI_TOKEN_HTTP_URI_ARGS, i) > 0; i++)
        n += (size_t)snprintf(out + n, cap - n, "%c%s", i ? '&' : '?', frag);
}

/* Does a creation request ask for a table of bots only? (Its players
 * default to the game's fewest, as table_create reads it; a request it
 * would refuse may say anything here.) */
static bool asks_all_bots(const char *body, size_t len)
{
    json_t *req = json_loadb(body ? body : "", len, 0, NULL);
    const asobi_game_def *def = asobi_game_find(json_string_value(json_object_get(req, "game")));
    const json_t *players = json_object_get(req, "players"), *bots = json_object_get(req, "bots");
    json_int_t n = json_is_integer(players) ? json_integer_value(players) : def ? asobi_game_min_players(def) : 0;
    bool all = n > 0 && json_is_array(bots) && json_array_size(bots) == (size_t)n;
    for (size_t i = 0; all && i < (size_t)n; i++)
        all = json_is_string(json_array_get(bots, i));
    json_decref(req);
    return all;
}

/* Does a table still play (for the all-bot tables an address holds)? */
static bool table_alive(void *ctx, int64_t id)
{
    slot *sl = hall_slot_of(&((server *)ctx)->hall, id);
    return sl && sl->t->status != TABLE_OVER;
}

/* POST /api/tables from address a: within its limits (0), or refused (the
 * status; r's reply is the refusal): --tables-per-minute-per-address and
 * --table-burst-per-address (429 rate_limited, with Retry-After), and
 * --max-bot-tables-per-address for a table of bots only. */
static int creation_refused(server *s, http_req *r, limits_address *a, json_t **reply, srv_error *e)
{
    double retry_after = 0, now = now_s();
    if (!limits_create_table(&s->limits, a, now, &retry_after)) {
        r->retry_after = (int)retry_after + 1;
        srv_fail(e, 429, "rate_limited", "too many tables created from your address: try again in %d s",
                 r->retry_after);
    } else if (asks_all_bots(r->body, r->body_len) && !limits_bot_table_allowed(&s->limits, a, table_alive, s, now)) {
        r->retry_after = 10;
        srv_fail(e, 429, "too_many_bot_tables", "at most %d tables of bots only from one address at once "
                 "(--max-bot-tables-per-address)", s->limits.cfg.bot_tables_per_address);
    } else {
        return 0;
    }
    *reply = srv_error_json(e);
    return e->status;
}

/* A table was created for address a: if bots alone play it, a holds it. */
static void table_created(server *s, limits_address *a, const json_t *reply)
{
    slot *sl = hall_slot_of(&s->hall, json_integer_value(json_object_get(reply, "table")));
    if (!sl)
        return;
    for (int k = 0; k < sl->t->players; k++)
        if (!sl->t->seat[k].bot)
            return;
    limits_bot_table_made(&s->limits, a, sl->t->id, now_s());
}

/* /api/...: the hall answers, this side sends. The limits of the client's
 * address come first; their refusals are counted, not logged one by one. */
static int serve_api(server *s, struct lws *wsi, http_req *r)
{
    srv_error e;
    json_t *reply = NULL;
    limits_address *a = lws_get_opaque_user_data(wsi);
    bool creating = r->post && strcmp(r->path, "/api/tables") == 0;
    int status = creating && a ? creation_refused(s, r, a, &reply, &e) : 0;
    if (status) {
        s->refusals++;
        return reply ? reply_json(s, wsi, r, status, reply) : -1;
    }
    if (!r->post && strcmp(r->path, "/api/tables") == 0 && lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS) <= 0) {
        shared_text *list = tables_page(s);
        if (!list || send_headers(s, wsi, r, 200, "application/json", list->len) < 0)
            return -1;
        reply_drop(r);
        list->refs++;
        r->reply_shared = list;
        r->reply = list->text;
        r->reply_len = list->len;
        r->reply_sent = 0;
        return send_body(wsi, r);
    }
    char path[sizeof r->path + 256];
    path_with_query(wsi, r->path, path, sizeof path);
    status = hall_http(&s->hall, r->post, path, r->body, r->body_len, r->body_too_long, now_ms(), &reply, &e);
    if (status >= 400) {
        s->refusals++;
        log_refusal(s, a, "refused %s %.100s: %d %s: %s", r->post ? "POST" : "GET", r->path, e.status, e.code,
                    e.message);
    }
    if (!reply)
        return -1;
    if (creating && status == 201 && a)
        table_created(s, a, reply);
    return reply_json(s, wsi, r, status, reply);
}

static const char *mime_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    static const char *const types[][2] = {{".html", "text/html"},          {".js", "application/javascript"},
                                           {".css", "text/css"},            {".json", "application/json"},
                                           {".svg", "image/svg+xml"},       {".png", "image/png"},
                                           {".ico", "image/x-icon"},        {".txt", "text/plain"},
                                           {".woff2", "font/woff2"}};
    for (size_t i = 0; dot && i < sizeof types / sizeof types[0]; i++)
        if (strcmp(dot, types[i][0]) == 0)
            return types[i][1];
    return "application/octet-stream";
}

static int serve_static(server *s, struct lws *wsi, http_req *r)
{
    srv_error e;
    if (r->post || strstr(r->path, "..") || strchr(r->path, '\\')) {
        srv_fail(&e, 404, "not_found", "no such resource: %.80s", r->path);
        return reply_error(s, wsi, r, &e);
    }
    /* The browser client's table page answers every /t/ID (the table's id is read by the page); the icon
     * the pages link answers /favicon.ico too, which browsers ask for whatever the page says. */
    const char *page = strcmp(r->path, "/") == 0 ? "/index.html"
                       : strcmp(r->path, "/favicon.ico") == 0 ? "/favicon.svg"
                       : strncmp(r->path, "/t/", 3) == 0 && !strchr(r->path + 3, '/') ? "/table.html"
                                                                                     : r->path;
    char file[1024];
    snprintf(file, sizeof file, "%s%s", s->cfg.web, page);
    struct stat st;
    if (stat(file, &st) != 0 || !S_ISREG(st.st_mode)) { /* a folder (/js) is no resource either */
        srv_fail(&e, 404, "not_found", "no such resource: %.80s", r->path);
        return reply_error(s, wsi, r, &e);
    }
    int n = lws_serve_http_file(wsi, file, mime_of(file), NULL, 0);
    if (n < 0 || (n > 0 && lws_http_transaction_completed(wsi)))
        return -1;
    return 0;
}

static int serve_http(server *s, struct lws *wsi, http_req *r)
{
    if (strcmp(r->path, "/healthz") == 0)
        return reply_text(s, wsi, r, "application/json", strdup("{\"ok\":true}"));
    if (strcmp(r->path, "/metrics") == 0)
        return reply_text(s, wsi, r, "text/plain; version=0.0.4", metrics_text(s));
    if (strncmp(r->path, "/api/", 5) == 0 || strcmp(r->path, "/api") == 0)
        return serve_api(s, wsi, r);
    return serve_static(s, wsi, r);
}

/* A request's body is in: answer it. */
static int http_body_done(server *s, struct lws *wsi, http_req *r)
{
    if (r->refused)
        return reply_error(s, wsi, r, &r->refusal);
    return serve_http(s, wsi, r);
}

/* The bytes of the request's headers the library knows by name. */
static size_t headers_length(struct lws *wsi)
{
    size_t total = 0;
    for (int t = 0; t < WSI_TOKEN_COUNT; t++) {
        int n = lws_hdr_total_length(wsi, (enum lws_token_indexes)t);
        if (n > 0)
            total += (size_t)n;
    }
    return total;
}

/* Is the body declared JSON ("application/json", parameters allowed)? A
 * browser sends a cross-site POST without asking the server first only as
 * text/plain or a form: so no other site's page can create tables or take
 * seats in a visitor's name. */
static bool content_type_json(struct lws *wsi)
{
    static const char json_type[] = "application/json";
    char type[96];
    if (lws_hdr_copy(wsi, type, sizeof type, WSI_TOKEN_HTTP_CONTENT_TYPE) <= 0)
        return false;
    size_t n = sizeof json_type - 1;
    return strncasecmp(type, json_type, n) == 0 && (type[n] == '\0' || type[n] == ';' || type[n] == ' ');
}

/* Is the request's head refused? Then true, and e says why: a path or query
 * too long (414), headers too large (431; the library drops a head over
 * LIB_HEADER_BYTES without a word, it cannot hold it), Content-Length with
 * Transfer-Encoding (400: which one frames the body is in doubt, so the
 * connection is closed after the answer), a method other than GET and POST
 * (405), and for POST a foreign Origin (403) or a body that is not declared
 * JSON (415), or chunked (411). */
static bool head_refused(server *s, struct lws *wsi, http_req *r, size_t path_len, srv_error *e)
{
    static const enum lws_token_indexes others[] = {WSI_TOKEN_PUT_URI, WSI_TOKEN_DELETE_URI, WSI_TOKEN_PATCH_URI,
                                                     WSI_TOKEN_OPTIONS_URI, WSI_TOKEN_HEAD_URI};
    bool other_method = false;
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        other_method |= lws_hdr_total_length(wsi, others[i]) > 0;
    bool chunked = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0;
    bool length = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0;
    if (path_len > PATH_MAX_BYTES || lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS) > QUERY_MAX_BYTES) {
        srv_fail(e, 414, "uri_too_long", "a request's path may hold %d bytes and its query %d", PATH_MAX_BYTES,
                 QUERY_MAX_BYTES);
    } else if (headers_length(wsi) > HEADERS_MAX_BYTES) {
        srv_fail(e, 431, "headers_too_large", "a request's headers may hold %d bytes", HEADERS_MAX_BYTES);
    } else if (chunked && length) {
        srv_fail(e, 400, "bad_request", "Content-Length and Transfer-Encoding in one request");
        r->close_after = true;
    } else if (other_method) {
        srv_fail(e, 405, "method_not_allowed", "only GET and POST are served");
    } else if (r->post && !origin_allowed(s, wsi)) {
        srv_fail(e, 403, "bad_origin", "a POST from another site's page (its Origin is not this server's)");
    } else if (r->post && !content_type_json(wsi)) {
        srv_fail(e, 415, "unsupported_media_type", "a POST's body is JSON: send Content-Type: application/json");
    } else if (r->post && chunked) {
        srv_fail(e, 411, "length_required", "a request body needs a Content-Length");
        r->close_after = true;
    } else {
        return false;
    }
    return true;
}

/* A request's head is in: GET is answered now, POST once its body is in; a
 * refused head once any body is read (and dropped), or at once when its
 * framing is in doubt (then the connection is closed). */
static int http_request(server *s, struct lws *wsi, http_req *r, const char *uri)
{
    size_t path_len = strlen(uri);
    snprintf(r->path, sizeof r->path, "%s", uri);
    r->post = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0;
    bool body_coming = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0;
    if (head_refused(s, wsi, r, path_len, &r->refusal)) {
        r->refused = true;
        return body_coming && !r->close_after ? 0 : http_body_done(s, wsi, r);
    }
    if (r->post && body_coming)
        return 0; /* answered once the body is in (LWS_CALLBACK_HTTP_BODY_COMPLETION) */
    return serve_http(s, wsi, r); /* a POST without a body: an empty one */
}

static int http_writable(struct lws *wsi, http_req *r)
{
    if (!r->reply)
        return 0;
    size_t chunk = r->reply_len - r->reply_sent;
    if (chunk > HTTP_CHUNK)
        chunk = HTTP_CHUNK;
    bool last = r->reply_sent + chunk == r->reply_len;
    server *s = lws_context_user(lws_get_context(wsi));
    if (write_copied(s, wsi, r->reply + r->reply_sent, chunk, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) < 0)
        return -1;
    r->reply_sent += chunk;
    if (!last) {
        /* The library holds a request's headers under a timeout of its own
         * (10 s), which a reply written over many turns outlived: a
         * multi-megabyte reply to a client reading at its pace was cut
         * mid-body, silently. Each piece the client takes starts the
         * timeout afresh; a client that takes nothing for REPLY_STALL_S is
         * closed, and the log says what was cut (http_closed). */
        lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, REPLY_STALL_S);
        lws_callback_on_writable(wsi);
        return 0;
    }
    reply_drop(r);
    if (r->close_after)
        return -1; /* the library sends what it still holds, then closes */
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

static void http_reset(http_req *r)
{
    free(r->body);
    reply_drop(r);
    conn *ws = r->ws;
    memset(r, 0, sizeof *r);
    r->ws = ws;
}

/* ---------------------------------------------------------------------------
 * The loop's callback and its timers.
 * ------------------------------------------------------------------------- */
/* A finished table is back from its replay: the connections waiting for it
 * take their seats (or hear that it could not be brought back). */
static void reload_done(server *s, hall_reload *r)
{
    int64_t id = r->id;
    hall_reload_take(&s->hall, r);
    for (conn **p = &s->waiting; *p;) {
        conn *c = *p;
        if (c->table != id) {
            p = &c->next;
            continue;
        }
        *p = c->next;
        c->waiting = false;
        c->next = NULL;
        seat_connection(s, c, c->token);
        free(c->token);
        c->token = NULL;
    }
}

static void drain_done(server *s)
{
    pthread_mutex_lock(&s->lock);
    job_node *n = s->done;
    s->done = s->done_tail = NULL;
    pthread_mutex_unlock(&s->lock);
    while (n) {
        job_node *next = n->next;
        if (n->reload) {
            reload_done(s, n->reload);
            free(n->reload);
            free(n);
            n = next;
            continue;
        }
        pthread_mutex_lock(&s->lock);
        observe(&s->bot_time, n->job.ms / 1000.0);
        bool abandoned = n->abandoned;
        pthread_mutex_unlock(&s->lock);
        slot *sl = hall_slot_of(&s->hall, n->job.table);
        if (abandoned) {
            /* a stand-in played (or the table moved on): the seat is not this job's any more */
            srv_log("table %lld: the late move of seat %d's bot (%s, %.0f ms) is dropped", (long long)n->job.table,
                    n->job.seat, n->job.spec, n->job.ms);
            table_job_release(&n->job);
        } else if (sl) {
            if (n->job.id < 0)
                srv_log("table %lld: the bot of seat %d found no move: %s", (long long)n->job.table, n->job.seat,
                      n->job.err.message);
            srv_error e;
            int rc = table_job_done(sl->t, &n->job, now_ms(), &e);
            if (rc < 0)
                srv_log("table %lld: a bot's move was not stored: %s", (long long)sl->t->id, e.message);
            if (rc > 0)
                s->hall.actions_accepted++;
            table_changed(s, sl);
        } else {
            table_job_release(&n->job);
        }
        free(n);
        n = next;
    }
}

/* Once a second at most: one line for the limits' refusals since the last
 * (never a line each: a flood would fill the disk), and the addresses that
 * hold nothing any more are forgotten. */
static void limits_tick(server *s)
{
    char line[512];
    double now = now_s();
    if (limits_summary(&s->limits, now, line, sizeof line)) {
        srv_log("refused by the limits since the last such line: %s", line);
    }
    if (now - s->limits_swept_at >= 10) {
        limits_sweep(&s->limits, now);
        s->limits_swept_at = now;
    }
}

/* A bot move past --bot-deadline cannot be stopped (a worker thread that
 * is stuck cannot be killed safely), so it is left to finish and its
 * result dropped (abandoned); the seat plays a stand-in at once, on the
 * fast lane: the heuristic, or random when the heuristic itself overran.
 * A table never waits behind a bot for more than the deadline. */
static void stand_in_for_overdue_bots(server *s, int64_t now)
{
    table_job late[64];
    int standin[64], n = 0;
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < s->n_workers && n < 64; i++) {
        worker *w = &s->workers[i];
        job_node *r = w->running;
        if (!r || r->reload || r->abandoned || r->standin >= 2 || now - r->started_ms <= s->cfg.bot_deadline_ms)
            continue;
        r->abandoned = true;
        /* what names the move (the worker writes the result's fields meanwhile; the state and spec stay its) */
        late[n] = (table_job){.table = r->job.table, .seat = r->job.seat, .at = r->job.at, .by = r->job.by,
                              .seed = r->job.seed};
        /* the heuristic stands in, unless it is the heuristic that overran */
        standin[n++] = r->standin == 0 && strcmp(r->job.spec, "heuristic") != 0 ? 1 : 2;
        /* the thread may never come back: another takes its place in its lane, and
         * a move at a table only bots play no longer counts against their share */
        w->stuck = true;
        if (r->bots_only) {
            r->bots_only = false;
            s->bots_only_running--;
        }
        if (lane_threads(s, w->fast_only) < lane_size(s, w->fast_only) && !add_worker(s, w->fast_only))
            srv_log("no thread can take the place of a stuck worker: %d are stuck", s->n_workers);
    }
    pthread_mutex_unlock(&s->lock);
    for (int i = 0; i < n; i++) {
        const char *spec = standin[i] == 1 ? "heuristic" : "random";
        slot *sl = hall_slot_of(&s->hall, late[i].table);
        if (!sl)
            continue;
        s->bots_overdue++;
        srv_log("table %lld: the bot of seat %d is past its deadline of %.1f s: %s moves instead",
                (long long)late[i].table, late[i].seat, (double)s->cfg.bot_deadline_ms / 1000.0, spec);
        job_node *node = malloc(sizeof *node);
        if (node) {
            *node = (job_node){.fast = true, .standin = standin[i]};
            if (table_standin_job(sl->t, &late[i], spec, &node->job) != 0 || !enqueue(s, node)) {
                table_job_release(&node->job);
                free(node);
                node = NULL;
            }
        }
        if (!node) { /* the table moved on (or no memory): the seat is free for its next move */
            sl->t->seat[late[i].seat].busy = false;
            schedule_bots(s, sl);
        }
    }
}

/* An unfinished table goes when nobody joined it for --open-table-expiry
 * (since it was made) or nobody was connected to it for
 * --idle-table-expiry: marked in the store (never restored again) and freed. */
static bool expired(server *s, slot *sl, int64_t now)
{
    table *t = sl->t;
    if (t->status == TABLE_OVER)
        return false;
    if (sl->conns)
        sl->quiet_ms = 0;
    else if (!sl->quiet_ms)
        sl->quiet_ms = now;
    const char *why = NULL;
    if (sl->quiet_ms && now - sl->quiet_ms >= s->cfg.idle_expiry_ms)
        why = "nobody was connected to it";
    if (t->status == TABLE_OPEN && !table_joined(t)) {
        /* from when it was made (the wall clock's seconds: kept in the store, so across restarts) */
        int64_t created_ms = (int64_t)json_integer_value(json_object_get(t->spec, "created")) * 1000;
        if ((int64_t)time(NULL) * 1000 - created_ms >= s->cfg.open_expiry_ms)
            why = "nobody joined it";
    }
    if (!why)
        return false;
    asobi_error err;
    if (store_expire(s->store, t->id, &err) != ASOBI_OK) {
        srv_log("table %lld cannot expire: %s", (long long)t->id, err.message);
        return false;
    }
    srv_log("table %lld expired: %s for too long", (long long)t->id, why);
    s->tables_expired++;
    tables_changed(s);
    return true;
}

/* Every TICK_US: clocks that ran out, seats away past grace, bots past
 * their deadline, paced tables of bots, tables that expired, finished
 * tables nobody watches any more. */
static void on_tick(lws_sorted_usec_list_t *sul)
{
    server *s = lws_container_of(sul, server, tick);
    int64_t now = now_ms();
    stand_in_for_overdue_bots(s, now);
    for (int64_t i = 0; i < s->hall.n_slots; i++) {
        slot *sl = &s->hall.slots[i];
        if (!sl->t)
            continue;
        if (expired(s, sl, now)) {
            for (conn *c = sl->conns; c; c = c->next) /* spectators of a table nobody joined */
                close_after_sending(c, LWS_CLOSE_STATUS_GOINGAWAY, "table_expired");
            hall_evict(&s->hall, sl->id);
        } else if (sl->t->status == TABLE_PLAYING &&
                   ((sl->pace_waiting && now >= sl->paced_until_ms) ||
                    table_next_deadline(sl->t, now, s->cfg.grace_ms) <= now)) {
            uint64_t before = sl->t->version;
            schedule_bots(s, sl);
            if (sl->t->version != before)
                table_changed(s, sl);
        } else if (sl->t->status == TABLE_OVER && !sl->over_ms) {
            sl->over_ms = now; /* finished by a restore's replay */
        } else if (sl->t->status == TABLE_OVER && !sl->conns && now - sl->over_ms > EVICT_AFTER_MS) {
            bool busy = false;
            for (int k = 0; k < sl->t->players; k++)
                busy |= sl->t->seat[k].busy;
            if (!busy)
                hall_evict(&s->hall, sl->id); /* a hole: the slots stay where they are */
        }
    }
    flush_or_stop(s); /* bots' moves at tables nobody watches */
    lobby_push(s, now);
    limits_tick(s);
    if (stop_requested) {
        lws_cancel_service(s->context);
        return;
    }
    lws_sul_schedule(s->context, 0, &s->tick, on_tick, TICK_US);
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
    server *s = lws_context_user(lws_get_context(wsi));
    http_req *r = user;
    switch (reason) {
    case LWS_CALLBACK_HTTP:
        http_reset(r);
        return http_request(s, wsi, r, (const char *)in);
    case LWS_CALLBACK_HTTP_BODY:
        if (len == 0 || !in)
            return 0; /* "Content-Length: 0" comes as one empty piece */
        if (r->body_too_long || r->body_len + len > MESSAGE_MAX) {
            r->body_too_long = true;
            return 0;
        } else {
            char *b = realloc(r->body, r->body_len + len + 1);
            if (!b)
                return -1;
            memcpy(b + r->body_len, in, len);
            r->body = b;
            r->body_len += len;
        }
        return 0;
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        return http_body_done(s, wsi, r);
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return http_writable(wsi, r);
    case LWS_CALLBACK_HTTP_FILE_COMPLETION:
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    case LWS_CALLBACK_CLOSED_HTTP:
    case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
        if (r && r->reply && r->reply_sent < r->reply_len)
            srv_log("%s %.100s: the connection closed %zu bytes into a reply of %zu (the client stopped reading "
                    "for %d s, or went away)",
                    r->post ? "POST" : "GET", r->path, r->reply_sent, r->reply_len, REPLY_STALL_S);
        if (r) {
            free(r->body);
            reply_drop(r);
            r->body = NULL;
        }
        return 0;
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return ws_filter(s, wsi);
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        return admit_connection(s, (int)(lws_intptr_t)in);
    case LWS_CALLBACK_HTTP_BIND_PROTOCOL:
        bind_address(s, wsi);
        return 0;
    case LWS_CALLBACK_WSI_DESTROY:
        release_address(s, wsi);
        return 0;
    case LWS_CALLBACK_ESTABLISHED:
        memset(r, 0, sizeof *r);
        ws_established(s, wsi, r);
        return 0;
    case LWS_CALLBACK_RECEIVE:
        if (r->ws)
            ws_receive(s, wsi, r->ws, in, len);
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return r->ws ? conn_writable(s, r->ws) : 0;
    case LWS_CALLBACK_CLOSED:
        ws_closed(s, r);
        return 0;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        drain_done(s);
        return 0;
    default:
        return 0;
    }
}

static const struct lws_protocols protocols[] = {
    {"asobi", callback, sizeof(http_req), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0}, /* the end of the list */
};

/* ---------------------------------------------------------------------------
 * Starting and stopping.
 * ------------------------------------------------------------------------- */
static int restore_one(void *ctx, int64_t id, const json_t *spec, const json_t *seats, const json_t *actions)
{
    server *s = ctx;
    asobi_error err;
    table *t = table_restore(s->store, id, spec, seats, actions, NULL, now_ms(), &err);
    if (!t) {
        /* one broken table must not keep every other one offline */
        srv_log("table %lld cannot be restored: %s", (long long)id, err.message);
        return ASOBI_OK;
    }
    if (!hall_add(&s->hall, t)) {
        table_free(t);
        return asobi_fail(&err, ASOBI_E_NOMEM, "out of memory");
    }
    return ASOBI_OK;
}

static const char *const event_loop_names[] = {"libev", "libuv", "poll"};

const char *server_event_loop_name(server_event_loop loop)
{
    return (unsigned)loop < sizeof event_loop_names / sizeof *event_loop_names ? event_loop_names[loop] : "?";
}

int server_event_loop_of(const char *name)
{
    for (int i = 0; i < (int)(sizeof event_loop_names / sizeof *event_loop_names); i++)
        if (strcmp(name, event_loop_names[i]) == 0)
            return i;
    return -1;
}

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
    if (the_server && the_server->context)
        lws_cancel_service(the_server->context);
}

/* Under an event library's loop, a stop signal arrives through the
 * library's signal watcher, on the loop thread, between events: the place
 * libwebsockets wants its context destroyed from. This first destroy closes
 * every connection and handle; the loop then returns and server_run
 * finishes the job. libuv's plugin watches SIGINT and SIGTERM; libev's
 * watches SIGINT only, so there SIGTERM is sent on as SIGINT (to the
 * process, not to this thread: libev may read it from a signalfd, which
 * sees only the signals pending for the process or for the loop's thread). */
static void on_evlib_signal(void *handle, int sig)
{
    (void)handle;
    (void)sig;
    stop_requested = 1;
    if (the_server) { /* no worker wakes the loop any more: its context is going */
        pthread_mutex_lock(&the_server->lock);
        the_server->stopping = true;
        pthread_mutex_unlock(&the_server->lock);
    }
    if (the_server && the_server->context)
        lws_context_destroy(the_server->context);
}

static void sigterm_as_sigint(int sig)
{
    (void)sig;
    kill(getpid(), SIGINT);
}

/* Free a queue of jobs (the workers are stopped). */
static void free_jobs(server *s, job_node *n)
{
    while (n) {
        job_node *next = n->next;
        if (n->reload)
            hall_reload_release(&s->hall, n->reload);
        else
            table_job_release(&n->job);
        free(n->reload);
        free(n);
        n = next;
    }
}

static void free_ring(server *s, ring *r)
{
    while (r->head) {
        table_queue *q = r->head;
        r->head = q->next;
        free_jobs(s, q->head);
        free(q);
    }
    r->tail = NULL;
}

/* Stop the workers and free what they had not done. A worker still inside
 * an abandoned bot move (past its deadline: stuck) is waited for a few
 * seconds, then left to the end of the process; false then, and the server
 * keeps what that thread may still touch. */
static bool stop_workers(server *s)
{
    pthread_mutex_lock(&s->lock);
    s->stopping = true;
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    bool all = true;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 5;
    for (int i = 0; i < s->n_workers; i++)
        if (s->workers[i].started)
            all &= pthread_timedjoin_np(s->workers[i].thread, NULL, &until) == 0;
    if (!all) {
        srv_log("a worker is still inside a bot move past its deadline: not waiting for it");
        return false;
    }
    free_jobs(s, s->fast);
    free_jobs(s, s->done);
    free_ring(s, &s->people);
    free_ring(s, &s->bots_only);
    s->fast = s->done = NULL;
    free(s->workers);
    return true;
}

/* TCP keepalive (see the vhost's creation in server_run) set once, on the
 * listening socket: Linux copies a listener's socket options into every
 * socket it accepts, keepalive timer included. Given ka_time, the library
 * would make five setsockopt calls on each accepted socket instead: five of
 * the about 24 system calls a WebSocket costs the libraries (its accept,
 * fcntl, setsockopt and epoll_ctl calls), and flat out this server accepts
 * 800 WebSockets a second. The library does not hand out its listening
 * socket, so it is found among the process's first descriptors: the one
 * accepting connections on our port. 0: set; -1: not found. */
static int keepalive_on_listener(int port)
{
    for (int fd = 3; fd < 1024; fd++) {
        int accepting = 0;
        socklen_t len = sizeof accepting;
        struct sockaddr_storage addr;
        socklen_t addr_len = sizeof addr;
        if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &len) != 0 || !accepting ||
            getsockname(fd, (struct sockaddr *)&addr, &addr_len) != 0)
            continue;
        int bound = addr.ss_family == AF_INET    ? ntohs(((struct sockaddr_in *)&addr)->sin_port)
                    : addr.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&addr)->sin6_port)
                                                 : -1;
        if (bound != port)
            continue;
        int on = 1, idle = KEEPALIVE_IDLE_S, interval = KEEPALIVE_INTERVAL_S, probes = KEEPALIVE_PROBES;
        /* unacknowledged data gives up as late as an unanswered keepalive (as the library would set it) */
        unsigned int user_timeout_ms = 1000u * (KEEPALIVE_IDLE_S + KEEPALIVE_INTERVAL_S * KEEPALIVE_PROBES);
        if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on) != 0 ||
            setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle) != 0 ||
            setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval) != 0 ||
            setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &probes, sizeof probes) != 0 ||
            setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout_ms, sizeof user_timeout_ms) != 0)
            return -1;
        return 0;
    }
    return -1;
}

/* The process's file limit, sized to the connections we mean to serve.
 * libwebsockets sizes its fd-to-connection table by this limit, and the
 * build Debian ships checks, on every connection it closes, that no entry
 * of that table still holds the closed descriptor: a scan of the whole
 * table. Under a limit of 20,000 that scan was a fifth of the server's
 * instructions (each finished table closes five connections); under the
 * 1,048,576 some containers give, it would be milliseconds per close. So
 * the limit is what --max-connections needs (raised to it when the soft
 * limit is lower, as far as the hard limit allows), plus room for the
 * database, the log and the workers. Connections never reach it: one
 * past --max-connections, or on the last FD_RESERVE descriptors, is closed
 * as soon as it is accepted (admit_connection), since an accept() failing
 * for want of a descriptor would leave the loop spinning. Returns the
 * limit in force. */
static int set_file_limit(int max_connections)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 1024;
    rlim_t want = (rlim_t)(max_connections > 0 ? max_connections : 4096) + 64;
    if (rl.rlim_max != RLIM_INFINITY && want > rl.rlim_max)
        want = rl.rlim_max;
    rl.rlim_cur = want;
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
        srv_log("cannot set the file limit to %llu: %s", (unsigned long long)want, strerror(errno));
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 1 << 24)
        return 1 << 24;
    return (int)rl.rlim_cur;
}

/* The library's log lines (its errors only), at most one a second: a
 * condition that repeats at every turn of the loop (accept failing, a
 * client's request over the library's limits) must not fill the disk. The
 * lines left out are counted in the next one. */
static void library_log(int level, const char *line)
{
    (void)level;
    static double last;
    static unsigned long left_out;
    double now = now_s();
    if (now - last < 1.0) {
        left_out++;
        return;
    }
    last = now;
    char text[300];
    snprintf(text, sizeof text, "%s", line);
    text[strcspn(text, "\r\n")] = '\0';
    if (left_out)
        srv_log("libwebsockets: %s (and %lu more of its lines in the last second)", text, left_out);
    else
        srv_log("libwebsockets: %s", text);
    left_out = 0;
}

/* The per-address bookkeeping: its limits (the options), a random seed for
 * its hash (asobi_fresh_seed, as every seed: one guessed from the clock
 * would let a client pick addresses that collide), and room to carry an
 * accepted socket's address to its connection, one entry per descriptor
 * under the file limit. false (err says why) when either is missing. */
static bool limits_start(server *s, const server_config *cfg, int fd_limit, asobi_error *err)
{
    uint64_t seed = 0;
    if (asobi_fresh_seed(&seed, err) != ASOBI_OK)
        return false;
    limits_config lc = cfg->limits;
    lc.connections = cfg->max_connections;
    if (lc.connections > fd_limit - 64)
        lc.connections = fd_limit - 64 > 16 ? fd_limit - 64 : 16;
    limits_init(&s->limits, &lc, seed);
    s->fd_limit = fd_limit;
    s->pending = calloc((size_t)fd_limit, sizeof *s->pending);
    if (!s->pending)
        asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
    return s->pending != NULL;
}

int server_run(const server_config *cfg)
{
    server *s = calloc(1, sizeof *s);
    if (!s)
        return 1;
    s->cfg = *cfg;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->wake, NULL);
    asobi_error err;
    s->store = store_open(cfg->db, &err);
    if (!s->store) {
        fprintf(stderr, "asobi serve: %s\n", err.message);
        free(s);
        return 1;
    }
    s->hall.store = s->store;
    s->hall.card_sets = cfg->card_sets;
    s->hall.allow_chosen_seeds = cfg->allow_chosen_seeds;
    s->hall.max_bot_tables = cfg->max_bot_tables;
    s->hall.changed = hall_changed;
    s->hall.ctx = s;
    if (store_load_unfinished(s->store, restore_one, s, &err) != ASOBI_OK) {
        fprintf(stderr, "asobi serve: restoring the tables: %s\n", err.message);
        store_close(s->store);
        free(s);
        return 1;
    }
    int restored = (int)s->hall.tables_in_memory;
    if (store_flush(s->store, &err) != ASOBI_OK) { /* tables a replay finished */
        fprintf(stderr, "asobi serve: %s\n", err.message);
        store_close(s->store);
        free(s);
        return 1;
    }

    if (!limits_start(s, cfg, set_file_limit(cfg->max_connections), &err)) {
        fprintf(stderr, "asobi serve: %s\n", err.message);
        store_close(s->store);
        free(s);
        return 1;
    }
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.user = s;
    info.protocols = protocols;
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.max_http_header_data = LIB_HEADER_BYTES; /* room to answer 431 (HEADERS_MAX_BYTES) rather than drop */
    /* The loop. libev's and libuv's (Debian's libwebsockets-evlib-ev and
     * -uv plugins) wait with epoll, so a turn costs what happened, not the
     * number of sockets open; libwebsockets' own loop calls poll() over
     * every socket each turn, which at 1000 tables (2000 sockets) is most of
     * an action's system time. libev is the default: libuv's uv_poll_start
     * takes the socket out of epoll and puts it back at every change of the
     * events libwebsockets waits for (writable on, writable off: about 8
     * epoll_ctl calls per WebSocket and 6 per HTTP request, 1.4 a played
     * action in all), where libev gathers a turn's changes and makes one
     * EPOLL_CTL_MOD for what really changed (0.3 a played action; 6.8 system
     * calls per action become 5.8: docs/server.md). A loop whose plugin
     * cannot be loaded falls back to the next: libev, libuv, poll. Segfaults
     * stay crashes (no libuv handler for SIGSEGV/SIGFPE). */
    server_event_loop loop = cfg->loop;
    for (;;) {
        info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS | LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE;
        info.signal_cb = NULL;
        if (loop == SERVER_LOOP_LIBEV)
            info.options |= LWS_SERVER_OPTION_LIBEV;
        else if (loop == SERVER_LOOP_LIBUV)
            info.options |= LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_UV_NO_SIGSEGV_SIGFPE_SPIN;
        if (loop != SERVER_LOOP_POLL)
            info.signal_cb = on_evlib_signal;
        /* the library's error lines only; silent while a plugin is tried,
         * since a missing one is reported by us, with its package */
        lws_set_log_level(loop == SERVER_LOOP_POLL ? LLL_ERR : 0, library_log);
        s->context = lws_create_context(&info);
        if (s->context || loop == SERVER_LOOP_POLL)
            break;
        server_event_loop next = loop == SERVER_LOOP_LIBEV ? SERVER_LOOP_LIBUV : SERVER_LOOP_POLL;
        srv_log("the %s event loop is not available (package libwebsockets-evlib-%s); using %s",
                server_event_loop_name(loop), loop == SERVER_LOOP_LIBEV ? "ev" : "uv", server_event_loop_name(next));
        loop = next;
    }
    lws_set_log_level(LLL_ERR, library_log);
    s->loop = loop;
    if (s->context) {
        info.port = cfg->port;
        info.iface = cfg->host;
        info.vhost_name = "asobi";
        info.timeout_secs = 30;
        /* A peer that vanished (a phone out of coverage: no FIN ever comes)
         * is found by the kernel's TCP keepalive, not by the library's
         * validity timer: the library moves a connection's timer on every
         * message it receives, into one sorted list walked from its head,
         * so each message cost a walk over every connection's timer (8% of
         * the CPU at 1000 tables with people thinking). The kernel probes
         * a connection silent for KEEPALIVE_IDLE_S and drops it when
         * KEEPALIVE_PROBES probes in a row go unanswered; the table sees
         * the close, and --grace takes it from there. */
        static const lws_retry_bo_t no_validity_timer = {.secs_since_valid_ping = 0, .secs_since_valid_hangup = 0};
        info.retry_and_idle_policy = &no_validity_timer;
        s->vhost = lws_create_vhost(s->context, &info);
        if (s->vhost && keepalive_on_listener(lws_get_vhost_listen_port(s->vhost)) != 0) {
            /* not found (not expected): the library sets it on each socket */
            lws_vhost_destroy(s->vhost);
            info.ka_time = KEEPALIVE_IDLE_S;
            info.ka_interval = KEEPALIVE_INTERVAL_S;
            info.ka_probes = KEEPALIVE_PROBES;
            s->vhost = lws_create_vhost(s->context, &info);
        }
    }
    if (!s->context || !s->vhost) {
        fprintf(stderr, "asobi serve: cannot listen on %s:%d (is the port in use?)\n", cfg->host, cfg->port);
        if (s->context)
            lws_context_destroy(s->context);
        store_close(s->store);
        free(s->pending);
        free(s);
        return 1;
    }
    int port = lws_get_vhost_listen_port(s->vhost);
    const char *host = strchr(cfg->host, ':') ? NULL : cfg->host;
    snprintf(s->origins[s->n_origins++], sizeof s->origins[0], "http://%s:%d", host ? host : "localhost", port);
    if (strcmp(cfg->host, "127.0.0.1") == 0 || strcmp(cfg->host, "localhost") == 0) {
        snprintf(s->origins[s->n_origins++], sizeof s->origins[0], "http://localhost:%d", port);
        snprintf(s->origins[s->n_origins++], sizeof s->origins[0], "http://127.0.0.1:%d", port);
    }
    for (int i = 0; i < cfg->origins && s->n_origins < (int)(sizeof s->origins / sizeof s->origins[0]); i++)
        snprintf(s->origins[s->n_origins++], sizeof s->origins[0], "%s", cfg->allow_origin[i]);

    /* --workers threads for bot moves, and one more for the fast lane */
    s->n_workers = WORKER_ROOM * (cfg->workers + 1);
    s->workers = calloc((size_t)s->n_workers, sizeof *s->workers);
    s->bots_only_max = (cfg->workers + 1) / 2;
    if (!s->workers)
        s->n_workers = 0;
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < cfg->workers + 1; i++)
        add_worker(s, i == cfg->workers);
    pthread_mutex_unlock(&s->lock);

    the_server = s;
    if (s->loop == SERVER_LOOP_POLL) {
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
    } else if (s->loop == SERVER_LOOP_LIBEV) {
        signal(SIGTERM, sigterm_as_sigint);
    }
    signal(SIGPIPE, SIG_IGN);
    /* the restored tables' bots and clocks pick up where they were */
    for (int64_t i = 0; i < s->hall.n_slots; i++)
        if (s->hall.slots[i].t)
            schedule_bots(s, &s->hall.slots[i]);
    lws_sul_schedule(s->context, 0, &s->tick, on_tick, TICK_US);
    printf("asobi serve: listening on http://%s:%d (database %s, %d tables restored, %d workers, %s loop)\n",
           cfg->host, port, cfg->db, restored, cfg->workers, server_event_loop_name(s->loop));
    fflush(stdout);

    while (!stop_requested)
        if (lws_service(s->context, 0) < 0)
            break;

    srv_log("stopping");
    if (s->loop == SERVER_LOOP_POLL) {
        lws_sul_cancel(&s->tick);
        lws_sul_cancel(&s->send_sul);
    }
    pthread_mutex_lock(&s->lock);
    s->stopping = true; /* no worker wakes the loop any more */
    pthread_mutex_unlock(&s->lock);
    lws_context_destroy(s->context); /* under libev or libuv: the second and last call */
    bool stopped = stop_workers(s);
    hall_close(&s->hall);
    shared_text_drop(s->lobby_text);
    shared_text_drop(s->list_text);
    free(s->spectator_buf);
    free(s->send_due);
    free(s->send_buf);
    limits_free(&s->limits);
    free(s->pending);
    store_close(s->store);
    the_server = NULL;
    if (!stopped)
        return 0; /* a stuck worker still holds the lock and its job: both stay until the process ends */
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->wake);
    free(s);
    return 0;
}

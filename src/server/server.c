/* server.c — `asobi serve`: start-up and shutdown, the loop's callback and its timers (clocks, expiry, eviction). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "server/chat.h"
#include "server/internal.h"

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

#define TICK_US (100 * 1000)      /* how often clocks and grace are checked */
#define WORKER_ROOM 3             /* worker threads at most, per thread asked for (stuck ones and their stand-ins) */
/* A finished table with nobody watching leaves memory after this (a page
 * reloaded at the end finds it still there); a connection to it later
 * brings it back from the store (reload_started). Its memory is what
 * bounds the server's: at 400 tables finished a second, a minute had held
 * 24,000 of them, 250 MB. */
#define EVICT_AFTER_MS (5 * 1000)
#define KEEPALIVE_IDLE_S 60        /* a silent connection's first TCP keepalive probe */
#define KEEPALIVE_INTERVAL_S 10    /* then a probe every 10 s */
#define KEEPALIVE_PROBES 3         /* and dropped after 3 unanswered: gone for good within 90 s */

static volatile sig_atomic_t stop_requested;
static server *the_server; /* for the signal handler's wake-up */

/* Nothing leaves the server (an update, an HTTP reply) before what the
 * tables wrote is committed, so nobody is ever told of an action the
 * database does not keep; the actions of one loop turn share one commit.
 * With SQLite the commit is made here and now; with PostgreSQL the store's
 * thread makes it while the loop serves on, and the senders are held
 * (hold) until it is in (store_news). A database that cannot commit stops
 * the server: the tables in memory are ahead of it, and a restart (or
 * another node) restores what was kept. */
static void stop_for_the_store(const asobi_error *err)
{
    srv_log("%s: stopping, so that nothing the database does not keep is told to anyone", err->message);
    exit(1);
}

bool committed_through(server *s, uint64_t need)
{
    asobi_error err;
    if (store_commit_start(s->store, &err) != ASOBI_OK)
        stop_for_the_store(&err);
    return store_committed_seq(s->store) >= need;
}

void hold(server *s, struct lws *wsi, uint64_t need)
{
    /* Once in the list is enough (no scan of it: at 1000 tables it holds
     * thousands): released at its batch, a connection that still has to wait
     * is held again then. */
    http_req *r = lws_wsi_user(wsi);
    if (r && r->in_held)
        return;
    if (s->n_held == s->cap_held) {
        size_t cap = s->cap_held ? 2 * s->cap_held : 64;
        struct held *grown = realloc(s->held, cap * sizeof *grown);
        if (!grown) { /* out of memory: ask again at once (it is held again until the commit is in) */
            lws_callback_on_writable(wsi);
            return;
        }
        s->held = grown;
        s->cap_held = cap;
    }
    s->held[s->n_held++] = (struct held){wsi, need};
    if (r)
        r->in_held = true;
}

/* A connection is gone (LWS_CALLBACK_WSI_DESTROY): no longer held. */
static void unhold(server *s, struct lws *wsi)
{
    http_req *r = lws_wsi_user(wsi);
    if (r && !r->in_held)
        return;
    for (size_t i = 0; i < s->n_held; i++)
        if (s->held[i].wsi == wsi) {
            s->held[i] = s->held[--s->n_held];
            return;
        }
}

/* A commit is in: the held connections whose batch it was (or an earlier one) may send. */
static void release_held(server *s)
{
    uint64_t done = store_committed_seq(s->store);
    for (size_t i = 0; i < s->n_held;) {
        if (s->held[i].need <= done) {
            http_req *r = lws_wsi_user(s->held[i].wsi);
            if (r)
                r->in_held = false;
            lws_callback_on_writable(s->held[i].wsi);
            s->held[i] = s->held[--s->n_held];
        } else {
            i++;
        }
    }
}

/* The store's thread has news (a commit in, tables lost or taken): wake the
 * loop (LWS_CALLBACK_EVENT_WAIT_CANCELLED calls store_news). */
static void wake_loop(void *ctx)
{
    server *s = ctx;
    if (s->context)
        lws_cancel_service(s->context);
}

static int restore_one(void *ctx, int64_t id, const json_t *spec, const json_t *seats, const json_t *actions);

/* A table this node no longer owns (another node took it, or this node's
 * leases lapsed): it stops serving it at once. Its connections are closed
 * with CLOSE_MOVED, which tells a client to ask the table's summary where
 * it is now (its "ws") and connect there with the same token. */
static void drop_table(server *s, int64_t id)
{
    slot *sl = hall_slot_of(&s->hall, id);
    if (!sl)
        return;
    srv_log("table %lld is no longer this node's: its connections are sent to its new owner", (long long)id);
    for (conn *c = sl->conns; c; c = c->next)
        close_after_sending(c, CLOSE_MOVED, "moved");
    hall_evict(&s->hall, id);
    tables_changed(s);
}

/* A table this node took (its node died): restored from the store, its
 * bots and clocks picking up where they were. */
static void take_table(server *s, const store_claim *c)
{
    if (hall_slot_of(&s->hall, c->id))
        return;
    restore_one(s, c->id, c->spec, c->seats, c->actions);
    slot *sl = hall_slot_of(&s->hall, c->id);
    if (!sl)
        return;
    srv_log("table %lld is this node's now", (long long)c->id);
    table_changed(s, sl);
}

void store_news(server *s)
{
    store_events ev;
    asobi_error err;
    if (store_collect(s->store, &ev, &err) != ASOBI_OK)
        stop_for_the_store(&err);
    for (size_t i = 0; i < ev.n_lost; i++)
        drop_table(s, ev.lost[i]);
    for (size_t i = 0; i < ev.n_claimed; i++)
        take_table(s, &ev.claimed[i]);
    for (size_t i = 0; i < ev.n_lookups; i++) {
        if (ev.lookups[i].rows)
            reload_rows_read(s, &ev.lookups[i]);
        else
            http_lookup_done(s, &ev.lookups[i]);
    }
    if (ev.others_changed)
        lists_changed(s);
    store_events_free(&ev);
    committed_through(s, 0); /* what was written meanwhile: its commit starts */
    if (s->n_held)
        release_held(s);
}

/* ---------------------------------------------------------------------------
 * The loop's callback and its timers.
 * ------------------------------------------------------------------------- */
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
    if (t->abandoned) /* every person there left it (POST /api/tables/ID/leave): it ends now */
        why = "every person left it";
    if (!why)
        return false;
    asobi_error err;
    if (store_expire(s->store, t->id, &err) != ASOBI_OK) {
        srv_log("table %lld cannot expire: %s", (long long)t->id, err.message);
        return false;
    }
    srv_log("table %lld expired: %s%s", (long long)t->id, why, t->abandoned ? "" : " for too long");
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
    committed_through(s, 0); /* bots' moves at tables nobody watches: their commit starts */
    store_news(s); /* leases that lapsed, on the loop's clock */
    lobby_push(s, now);
    limits_tick(s);
    reviews_tick(s, now);
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
        if (!client_from_head(s, wsi)) {
            refuse_raw(lws_get_socket_fd(wsi), "429 Too Many Requests", 10, "too_many_connections",
                       "too many connections from your address: close some first");
            return -1;
        }
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
            free(r->location);
            reply_drop(r);
            http_lookup_forget(s, wsi);
            r->body = NULL;
            r->location = NULL;
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
        unhold(s, wsi);
        http_lookup_forget(s, wsi);
        release_address(s, wsi);
        return 0;
    case LWS_CALLBACK_ESTABLISHED: {
        bool in_held = r->in_held; /* the held list's: it still names this connection */
        memset(r, 0, sizeof *r);
        r->in_held = in_held;
        ws_established(s, wsi, r);
        return 0;
    }
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
        accounts_drain(s);
        chat_hides_drain(s);
        store_news(s);
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
        store_give_up(s->store, id); /* PostgreSQL: its lease goes, for a node that can */
        return ASOBI_OK;
    }
    chat_restore(t, s->store); /* its chat (PostgreSQL: read with its rows, off the loop) */
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
    store_options opt = {.node = cfg->node, .public_url = cfg->public_url, .lease_ms = cfg->lease_ms};
    s->store = store_open_with(cfg->db, &opt, &err);
    if (!s->store) {
        fprintf(stderr, "asobi serve: %s\n", err.message);
        free(s);
        return 1;
    }
    if (!reviews_start(s, &err)) {
        fprintf(stderr, "asobi serve: %s\n", err.message);
        reviews_free(s);
        store_close(s->store);
        free(s);
        return 1;
    }
    s->hall.store = s->store;
    s->hall.card_sets = cfg->card_sets;
    s->hall.allow_chosen_seeds = cfg->allow_chosen_seeds;
    s->hall.public_url = cfg->public_url;
    s->hall.max_bot_tables = cfg->max_bot_tables;
    s->hall.max_cycles = cfg->max_cycles;
    s->hall.max_turns = cfg->max_turns;
    s->hall.grace_ms = cfg->grace_ms;
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
    char why[200];
    if (!accounts_start(s, why, sizeof why) || !chat_hides_start(s, why, sizeof why)) {
        /* their threads wake the loop: after the context is made */
        fprintf(stderr, "asobi serve: %s\n", why);
        accounts_stop(s);
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
    if (store_is_postgresql(cfg->db) && (!cfg->public_url || !*cfg->public_url)) {
        /* a node without --public-url is reached where it listens */
        snprintf(s->own_url, sizeof s->own_url, "http://%s:%d", host ? host : "localhost", port);
        s->cfg.public_url = s->hall.public_url = s->own_url;
        store_set_public_url(s->store, s->own_url);
    }
    if (cfg->public_url && *cfg->public_url) { /* the origin of --public-url: this node's pages behind a front */
        const char *authority = strstr(cfg->public_url, "://");
        const char *end = authority ? strchr(authority + 3, '/') : NULL;
        int n = end ? (int)(end - cfg->public_url) : (int)strlen(cfg->public_url);
        snprintf(s->origins[s->n_origins++], sizeof s->origins[0], "%.*s", n, cfg->public_url);
    }
    for (int i = 0; i < cfg->origins && s->n_origins < (int)(sizeof s->origins / sizeof s->origins[0]); i++)
        snprintf(s->origins[s->n_origins++], sizeof s->origins[0], "%s", cfg->allow_origin[i]);

    /* --workers threads for bot moves, and one more for the fast lane */
    s->n_workers = WORKER_ROOM * (cfg->workers + 1);
    s->workers = calloc((size_t)s->n_workers, sizeof *s->workers);
    s->bots_only_max = (cfg->workers + 1) / 2;
    /* one address's workers at most (workers.c): half of them, at least one, unless told */
    s->bot_share = cfg->limits.bot_workers_per_address > 0    ? cfg->limits.bot_workers_per_address
                   : cfg->limits.bot_workers_per_address == 0 ? cfg->workers
                   : cfg->workers / 2 > 1                     ? cfg->workers / 2
                                                              : 1;
    /* reviews leave one worker to the tables' bots (reviews.c) */
    s->review_share = cfg->workers > 1 ? cfg->workers - 1 : 1;
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
    store_set_wake(s->store, wake_loop, s);
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
    store_set_wake(s->store, NULL, NULL);
    accounts_stop(s); /* its threads wake the loop: joined before the context goes */
    chat_hides_stop(s); /* the same */
    lws_context_destroy(s->context); /* under libev or libuv: the second and last call */
    bool stopped = stop_workers(s);
    if (stopped) {
        replays_free(s);
        reviews_free(s);
        ratings_reader_free(s);
    }
    hall_close(&s->hall);
    shared_text_drop(s->lobby_text);
    shared_text_drop(s->list_text);
    free(s->spectator_buf);
    free(s->send_due);
    free(s->send_buf);
    free(s->held);
    free(s->looking);
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

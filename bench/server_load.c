/* server_load.c — the load of bench/server_load.py in C: M 2-player PSYCLE tables on `asobi serve`, two WebSocket people each, random legal moves. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <jansson.h>
#include <libwebsockets.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* Usage: bench_server_load PORT M SECONDS WARMUP SEED [THINK_MS]
 *
 * Why C: Python clients (asyncio, websockets) answer slower than the server
 * does at a few hundred tables, so they measured themselves (docs/server.md).
 * Here one thread and one libwebsockets context drive every socket. Tables
 * are created and joined over HTTP as a browser would (blocking requests on
 * one kept-alive connection: three per finished table); each seat plays
 * a random legal id of its latest update and times it from the send to the
 * first update that shows its own action. After WARMUP seconds it counts for
 * SECONDS, then prints one JSON line: actions timed, tables finished, and the
 * latency quantiles. THINK_MS (default 0: flat out) makes each person think
 * before each move, uniformly between half and one and a half times that
 * many milliseconds, as people do; the latency is still timed from the send.
 * The server's side (CPU, memory, bytes) is read by
 * bench/server_load.py, which starts the server and this program. */

typedef struct seat_client {
    struct table_run *table;
    int seat;
    char token[64];
    struct lws *wsi;
    char *rx;
    size_t rx_len;
    int pending_id; /* the action to send when writable, -1: none */
    double sent_at; /* 0: no action awaiting its update */
    bool over, closed;
    bool orphan;    /* its table moved on: freed when its socket closes */
    json_t *legal;  /* the legal actions of its latest update */
    struct seat_client *prev, *next; /* every seat not yet freed (all_seats) */
    double retry_at; /* after a refusal: choose again from legal then (0: no retry due) */
    double act_at;   /* thinking: choose then (0: not thinking) */
} seat_client;

/* A table and its two people. A finished table is replaced at once by a
 * new one; its sockets close in the background (a closing handshake may
 * take a while), each seat_client freed by whichever comes last: the
 * table letting go of it, or its socket's close. */
typedef struct table_run {
    long id;
    seat_client *seat[2];
    bool live;
} table_run;

static int port;
static struct lws_context *context;
static double *latencies;
static size_t n_latencies, cap_latencies;
static long finished, errors;
static bool measuring, stopping;
static unsigned rng_state;
static struct seat_client *all_seats; /* freed at the end whatever their sockets did */
static double think_s; /* the mean time a person thinks before a move (0: none) */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/* The API's connection, kept open between requests (HTTP/1.1 keep-alive,
 * as a browser keeps its connection to the lobby): a new TCP connection
 * per request would make the server accept and close three sockets per
 * finished table, and the benchmark would measure the kernel's handshakes. */
static int http_fd = -1;

static int http_connect(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* One request and its reply on the kept connection: the reply's JSON body,
 * or NULL. *sent tells whether the request may have reached the server. */
static json_t *http_once(const char *req, size_t req_len, bool *sent)
{
    *sent = false;
    if (http_fd < 0 && (http_fd = http_connect()) < 0)
        return NULL;
    if (write(http_fd, req, req_len) != (ssize_t)req_len)
        return NULL;
    char buf[8192];
    size_t len = 0, want = 0;
    const char *body = NULL;
    ssize_t got;
    while (len < sizeof buf - 1 && (got = read(http_fd, buf + len, sizeof buf - 1 - len)) > 0) {
        *sent = true;
        len += (size_t)got;
        buf[len] = '\0';
        if (!body && (body = strstr(buf, "\r\n\r\n")) != NULL) {
            const char *cl = strcasestr(buf, "\r\ncontent-length:");
            body += 4;
            want = (size_t)(body - buf) + (cl && cl < body ? strtoul(cl + 17, NULL, 10) : 0);
        }
        if (body && len >= want)
            return json_loads(body, 0, NULL);
    }
    return NULL;
}

static json_t *http(const char *method, const char *path, const char *body)
{
    char req[1024];
    int n = snprintf(req, sizeof req,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                     "Content-Length: %zu\r\n\r\n%s",
                     method, path, port, body ? strlen(body) : 0, body ? body : "");
    bool sent;
    json_t *r = http_once(req, (size_t)n, &sent);
    if (!r && http_fd >= 0) { /* the server closed the kept connection: once more on a new one */
        close(http_fd);
        http_fd = -1;
        if (!sent)
            r = http_once(req, (size_t)n, &sent);
    }
    return r;
}

static void connect_seat(seat_client *c)
{
    char path[160];
    snprintf(path, sizeof path, "/ws/tables/%ld?token=%s", c->table->id, c->token);
    struct lws_client_connect_info ci;
    memset(&ci, 0, sizeof ci);
    ci.context = context;
    ci.address = "127.0.0.1";
    ci.port = port;
    ci.path = path;
    ci.host = "127.0.0.1";
    ci.local_protocol_name = "load";
    ci.userdata = c;
    ci.pwsi = &c->wsi;
    if (!lws_client_connect_via_info(&ci))
        errors++;
}

/* A new table with two people in it, both connecting. */
static bool start_table(table_run *t)
{
    json_t *r = http("POST", "/api/tables", "{\"game\":\"psycle\",\"players\":2}");
    t->id = r ? (long)json_integer_value(json_object_get(r, "table")) : 0;
    json_decref(r);
    if (t->id <= 0)
        return false;
    char path[96];
    snprintf(path, sizeof path, "/api/tables/%ld/join", t->id);
    for (int k = 0; k < 2; k++) {
        seat_client *c = t->seat[k] = calloc(1, sizeof *c);
        if (!c)
            return false;
        c->next = all_seats;
        if (all_seats)
            all_seats->prev = c;
        all_seats = c;
        c->table = t;
        c->seat = k;
        c->pending_id = -1;
        c->closed = true; /* no socket yet: let_go frees it at once */
        json_t *j = http("POST", path, k ? "{\"name\":\"B\"}" : "{\"name\":\"A\"}");
        const char *tok = json_string_value(json_object_get(j, "token"));
        snprintf(c->token, sizeof c->token, "%s", tok ? tok : "");
        json_decref(j);
        if (!tok)
            return false;
    }
    t->live = true;
    for (int k = 0; k < 2; k++) {
        t->seat[k]->closed = false;
        connect_seat(t->seat[k]);
    }
    return true;
}

static void seat_free(seat_client *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else
        all_seats = c->next;
    if (c->next)
        c->next->prev = c->prev;
    json_decref(c->legal);
    free(c->rx);
    free(c);
}

static void let_go(seat_client *c)
{
    if (!c)
        return;
    if (c->closed) {
        seat_free(c);
    } else {
        c->orphan = true;
    }
}

static void record_latency(double seconds)
{
    if (n_latencies == cap_latencies) {
        cap_latencies = cap_latencies ? cap_latencies * 2 : 4096;
        latencies = realloc(latencies, cap_latencies * sizeof *latencies);
    }
    latencies[n_latencies++] = seconds;
}

/* Choose a random legal action of the seat's latest update, to send when writable. */
static void choose(seat_client *c)
{
    if (json_array_size(c->legal) == 0 || c->sent_at > 0 || c->pending_id >= 0 || !c->wsi)
        return;
    if (think_s > 0 && c->act_at == 0) { /* think first: the main loop calls again then */
        c->act_at = now_s() + think_s * (0.5 + (double)(next_random() % 1000) / 1000.0);
        return;
    }
    c->act_at = 0;
    const json_t *pick = json_array_get(c->legal, next_random() % json_array_size(c->legal));
    c->pending_id = (int)json_integer_value(json_object_get(pick, "id"));
    lws_callback_on_writable(c->wsi);
}

/* An update (or an error) for this seat: time our action, pick the next. */
static void on_message(seat_client *c, const char *text, size_t len)
{
    json_t *m = json_loadb(text, len, 0, NULL);
    const char *type = json_string_value(json_object_get(m, "type"));
    if (type && strcmp(type, "error") == 0) {
        /* refused (a move crossing another's, or too fast): choose again a little later, from the
         * latest update, which may be all there is to come if the other seat waits for us */
        c->sent_at = 0;
        c->retry_at = now_s() + 0.06;
        errors++;
    } else if (type && strcmp(type, "update") == 0) {
        const json_t *log = json_object_get(m, "log");
        size_t i;
        const json_t *ev;
        json_array_foreach(log, i, ev)
        {
            if (c->sent_at > 0 && json_integer_value(json_object_get(ev, "seat")) == c->seat) {
                if (measuring)
                    record_latency(now_s() - c->sent_at);
                c->sent_at = 0;
            }
        }
        const char *status = json_string_value(json_object_get(m, "status"));
        json_decref(c->legal);
        c->legal = json_incref(json_object_get(m, "legal"));
        c->retry_at = 0;
        if (status && strcmp(status, "over") == 0)
            c->over = true;
        else
            choose(c);
    }
    json_decref(m);
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
    seat_client *c = user;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_RECEIVE: {
        char *rx = realloc(c->rx, c->rx_len + len + 1);
        if (!rx)
            return -1;
        memcpy(rx + c->rx_len, in, len);
        c->rx = rx;
        c->rx_len += len;
        if (lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0) {
            on_message(c, c->rx, c->rx_len);
            c->rx_len = 0;
        }
        if (c->over)
            return -1; /* the game is over: close; the loop starts a new table */
        return 0;
    }
    case LWS_CALLBACK_CLIENT_WRITEABLE: {
        if (c->pending_id < 0)
            return 0;
        unsigned char buf[LWS_PRE + 64];
        int n = snprintf((char *)buf + LWS_PRE, 64, "{\"type\":\"act\",\"action\":%d}", c->pending_id);
        c->pending_id = -1;
        c->sent_at = now_s();
        return lws_write(wsi, buf + LWS_PRE, (size_t)n, LWS_WRITE_TEXT) < n ? -1 : 0;
    }
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        errors++;
        /* fallthrough */
    case LWS_CALLBACK_CLIENT_CLOSED:
        if (c && c->orphan) {
            seat_free(c);
        } else if (c) {
            c->closed = true;
            c->over = true; /* a dropped seat ends its table for this load */
            c->wsi = NULL;
        }
        return 0;
    default:
        return 0;
    }
}

static const struct lws_protocols protocols[] = {
    {"load", callback, 0, 65536, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double quantile(double q)
{
    if (!n_latencies)
        return -1;
    size_t i = (size_t)(q * (double)n_latencies);
    return latencies[i < n_latencies ? i : n_latencies - 1] * 1000;
}

/* The loop must come round when a thought ends or a refused move is to be
 * tried again (retry_at), not only when a socket has news: a timer every
 * millisecond. Without it a table whose seat waits to retry (its partner has
 * chosen and waits too) sleeps until another table's socket wakes the loop,
 * which with few tables can be never: at 2 tables whole windows measured
 * nothing. */
#define TICKER_US 1000
static lws_sorted_usec_list_t ticker;

static void on_ticker(lws_sorted_usec_list_t *sul)
{
    lws_sul_schedule(context, 0, sul, on_ticker, TICKER_US);
}

int main(int argc, char **argv)
{
    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: bench_server_load PORT M SECONDS WARMUP SEED [THINK_MS]\n");
        return 2;
    }
    think_s = argc == 7 ? atof(argv[6]) / 1000.0 : 0;
    port = atoi(argv[1]);
    int m = atoi(argv[2]);
    double seconds = atof(argv[3]), warmup = atof(argv[4]);
    rng_state = (unsigned)strtoul(argv[5], NULL, 10) | 1u;
    signal(SIGPIPE, SIG_IGN);
    lws_set_log_level(LLL_ERR, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    info.fd_limit_per_thread = (unsigned)(2 * m + 64);
    context = lws_create_context(&info);
    table_run *tables = calloc((size_t)m, sizeof *tables);
    if (!context || !tables)
        return 1;
    for (int i = 0; i < m; i++)
        start_table(&tables[i]);
    lws_sul_schedule(context, 0, &ticker, on_ticker, TICKER_US);
    double start = now_s(), measured_from = start + warmup, end = measured_from + seconds;
    while (!stopping) {
        lws_service(context, 0);
        double now = now_s();
        if (!measuring && now >= measured_from)
            measuring = true;
        if (now >= end)
            break;
        for (int i = 0; i < m; i++) { /* a table over for both people: count it, start the next */
            table_run *t = &tables[i];
            for (int k = 0; t->live && k < 2; k++) {
                seat_client *c = t->seat[k];
                if (c->retry_at > 0 && now >= c->retry_at) {
                    c->retry_at = 0;
                    choose(c);
                }
                if (c->act_at > 0 && now >= c->act_at)
                    choose(c);
            }
            if (!t->live || (t->seat[0]->over && t->seat[1]->over)) {
                if (t->live && measuring)
                    finished++;
                t->live = false;
                let_go(t->seat[0]);
                let_go(t->seat[1]);
                t->seat[0] = t->seat[1] = NULL;
                start_table(t);
            }
        }
    }
    double elapsed = now_s() - measured_from;
    qsort(latencies, n_latencies, sizeof *latencies, by_value);
    printf("{\"tables\":%d,\"seconds\":%.1f,\"actions_timed\":%zu,\"tables_finished\":%ld,\"errors\":%ld,"
           "\"latency_p50_ms\":%.2f,\"latency_p99_ms\":%.2f,\"latency_max_ms\":%.2f}\n",
           m, elapsed, n_latencies, finished, errors, quantile(0.50), quantile(0.99), quantile(1.0));
    for (int i = 0; i < m; i++)
        for (int k = 0; k < 2; k++)
            let_go(tables[i].seat[k]); /* a seat with a socket: the context's teardown closes and frees it */
    lws_sul_cancel(&ticker);
    lws_context_destroy(context);
    while (all_seats) /* sockets the teardown closed without a callback (connecting, say) */
        seat_free(all_seats);
    free(tables);
    free(latencies);
    return 0;
}

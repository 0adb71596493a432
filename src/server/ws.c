/* ws.c — the WebSocket life cycle: the upgrade's checks, seating by token, messages in, rate limits, closing. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/internal.h"

#define RATE_MAX 20               /* messages a second one connection may send */
#define RATE_CLOSE 100            /* ... and the count that closes it */

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

/* The value of the argument name= ("token", "code") of the request's query, if any. */
static bool query_arg(struct lws *wsi, const char *name, char *out, int cap)
{
    char frag[128];
    size_t n = strlen(name);
    for (int i = 0; lws_hdr_copy_fragment(wsi, frag, sizeof frag, WSI_TOKEN_HTTP_URI_ARGS, i) > 0; i++) {
        if (strncmp(frag, name, n) == 0 && frag[n] == '=') {
            snprintf(out, (size_t)cap, "%s", frag + n + 1);
            return true;
        }
    }
    return false;
}

/* Origin check: a browser's upgrade must come from our own address or an
 * --allow-origin value; programs that send no Origin are let through. */
bool origin_allowed(server *s, struct lws *wsi)
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
    if (store_node_origin(s->store, origin)) /* another node's page (several nodes: PostgreSQL) */
        return true;
    bool post = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0;
    log_refusal(s, client_address(wsi), "refused a %s from origin %.100s (bad_origin)",
                post ? "POST" : "WebSocket", origin);
    return false;
}

/* Several nodes (PostgreSQL): is table id another live node's, as the last
 * heartbeat read the leases (no round trip on the loop)? Its WebSocket is
 * then refused with 421 Misdirected Request: the client asks the table's
 * summary again and follows its "ws" (docs/server.md, "Several nodes"). A
 * table the heartbeat has not seen yet goes the way of a finished one
 * (reload_started): its rows are read off the loop, and if it turns out to
 * be another node's its connection is closed with 4001 moved. */
static bool owned_elsewhere(server *s, int64_t id)
{
    return id > 0 && store_owned_elsewhere(s->store, id);
}

/* The upgrade's checks (LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION): 0 to take it, 1 to refuse it. */
int ws_filter(server *s, struct lws *wsi)
{
    char path[256];
    if (lws_hdr_copy(wsi, path, sizeof path, WSI_TOKEN_GET_URI) < 0)
        return 1;
    if (!client_from_head(s, wsi)) {
        refuse_raw(lws_get_socket_fd(wsi), "429 Too Many Requests", 10, "too_many_connections",
                   "too many connections from your address: close some first");
        return 1;
    }
    if (!origin_allowed(s, wsi))
        return 1;
    int64_t id = ws_table_id(path);
    if (strcmp(path, "/ws/lobby") != 0 && !hall_slot_of(&s->hall, id) && owned_elsewhere(s, id)) {
        log_refusal(s, client_address(wsi), "refused a WebSocket to %.100s (moved: not this node's)", path);
        refuse_raw(lws_get_socket_fd(wsi), "421 Misdirected Request", 1, "table_moved",
                   "this table is played on another node: ask its summary again and follow its ws");
        return 1;
    }
    int reload = HALL_RELOAD_STARTED;
    if (strcmp(path, "/ws/lobby") != 0 && !hall_slot_of(&s->hall, id))
        reload = reload_started(s, id);
    if (reload == HALL_RELOAD_NONE) {
        log_refusal(s, client_address(wsi), "refused a WebSocket to %.100s (not_found)", path);
        return 1;
    }
    if (reload == HALL_RELOAD_BUSY) {
        log_refusal(s, client_address(wsi),
                    "refused a WebSocket to %.100s (busy: %d finished tables being brought back)", path,
                HALL_RELOADS_MAX);
        return 1;
    }
    return 0;
}

#define HELLO_WAIT_S 10 /* a connection to a private table without a code has this long to say hello */

/* A table's connection takes its seat (by its token) or a spectator's
 * place, and is sent its first update. A spectator of a private table needs
 * its code (?code=: the watch code or a seat's invite code); without one
 * the connection waits for a hello with a seat's token or a code (the
 * page's seats send theirs so), and hears not_found otherwise. */
static void seat_connection(server *s, conn *c, const char *token, const char *code)
{
    int64_t id = c->table;
    slot *sl = hall_slot_of(&s->hall, id);
    if (sl && !token && !table_readable(sl->t, code)) {
        if (!c->heard) { /* a hello may come: wait for it, shown nothing */
            c->awaiting_hello = true;
            lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, HELLO_WAIT_S);
            return;
        }
        sl = NULL; /* a stranger: the table is not there for it */
    }
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
    c->seated = true;
    table_connect(sl->t, c->seat, now_ms());
    c->due = true;
    if (c->seat >= 0)
        table_changed(s, sl); /* "connected" changed for everyone */
    else
        lws_callback_on_writable(c->wsi);
}

void ws_established(server *s, struct lws *wsi, http_req *pss)
{
    char path[256] = "", token[128];
    lws_hdr_copy(wsi, path, sizeof path, WSI_TOKEN_GET_URI);
    bool has_token = query_arg(wsi, "token", token, sizeof token);
    char code[128];
    bool has_code = query_arg(wsi, "code", code, sizeof code);
    int64_t id = ws_table_id(path);
    conn *c = calloc(1, sizeof *c);
    if (!c)
        return;
    c->wsi = wsi;
    c->table = id;
    c->seat = ASOBI_SPECTATOR;
    c->addr = client_address(wsi);
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
        c->code = has_code ? strdup(code) : NULL;
        if ((has_token && !c->token) || (has_code && !c->code)) {
            close_after_sending(c, LWS_CLOSE_STATUS_UNEXPECTED_CONDITION, "no_memory");
            return;
        }
        c->next = s->waiting;
        s->waiting = c;
        return;
    }
    seat_connection(s, c, has_token ? token : NULL, has_code ? code : NULL);
}

void ws_closed(server *s, http_req *pss)
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
    free(c->code);
    free(c);
}

/* {"type":"hello","token":T}, a connection's first message: it takes T's
 * seat, as ?token=T in the URL would, with the token outside the URL (an
 * access log keeps URLs: docs/server.md, "WebSocket"). Until then it is a
 * spectator (from its seat it is sent the whole history again), or at a
 * private table it waits, shown nothing. {"type":"hello","code":C} opens a
 * private table to watch, as ?code=C would. true when the message was a
 * hello (answered here), false for any other. */
static bool ws_hello(server *s, conn *c, const char *text, size_t len)
{
    json_t *msg;
    const char *token, *code;
    srv_error e;
    int opens = hall_hello(&s->hall, c->table, text, len, &msg, &token, &code, &e);
    bool first = !c->heard && c->seat == ASOBI_SPECTATOR && !c->token && !c->code;
    c->heard = true;
    if (opens == HALL_HELLO_NOT) {
        json_decref(msg);
        if (c->awaiting_hello) /* a stranger at a private table: as if it were not there */
            seat_connection(s, c, NULL, NULL);
        c->awaiting_hello = false;
        return c->closing;
    }
    if (!first || (opens == HALL_HELLO_REFUSED && strcmp(e.code, "bad_request") == 0)) {
        if (!first)
            srv_fail(&e, 400, "bad_request", "a hello comes first, once, on a connection without a token");
        send_error(s, c, json_object_get(msg, "id"), &e);
        json_decref(msg);
        return true;
    }
    if (c->waiting) { /* a finished table being read back: seated with these when it is in */
        c->token = token ? strdup(token) : NULL;
        c->code = code ? strdup(code) : NULL;
        json_decref(msg);
        if (!c->token && !c->code)
            close_after_sending(c, LWS_CLOSE_STATUS_UNEXPECTED_CONDITION, "no_memory");
        return true;
    }
    if (c->awaiting_hello) { /* nothing shown yet: seated now, or told not_found (or bad_token) */
        c->awaiting_hello = false;
        lws_set_timeout(c->wsi, NO_PENDING_TIMEOUT, 0);
        seat_connection(s, c, token, token ? NULL : code);
        json_decref(msg);
        return true;
    }
    json_decref(msg);
    slot *sl = hall_slot_of(&s->hall, c->table);
    if (opens == ASOBI_SPECTATOR || !c->seated || !sl) /* a code on a connection that watches already */
        return true;
    if (opens < 0) {
        send_error(s, c, NULL, &e);
        close_after_sending(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, e.code);
        return true;
    }
    int64_t now = now_ms();
    if (c->spectating)
        limits_unspectate(&s->limits, c->addr, now_s());
    c->spectating = false;
    table_disconnect(sl->t, ASOBI_SPECTATOR, now); /* in the table's list as a spectator since it connected */
    c->seat = opens;
    table_connect(sl->t, opens, now);
    c->log_from = 0; /* the seat's whole history, from its own view */
    c->chat.history_sent = false; /* ... and its chat, as the seat reads it */
    c->due = true;
    table_changed(s, sl);
    return true;
}

/* One whole message from a client: the hall decides, this side answers. */
static void ws_message(server *s, conn *c, const char *text, size_t len)
{
    double started = now_s();
    srv_error e;
    json_t *id;
    bool hello = !c->lobby && ws_hello(s, c, text, len);
    c->heard = true;
    if (hello)
        return;
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
    if (chat_message(s, c, text, len)) /* chat, mute, unmute (chat.c) */
        return;
    if (hall_message(&s->hall, c->table, c->seat, text, len, now_ms(), &id, &e) == 0)
        c->act_received = started;
    else
        send_error(s, c, id, &e);
    json_decref(id);
}

/* A message over a rate limit: refused with rate_limited (the message is
 * dropped), counted, not logged (limits_summary sums them up). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
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

void ws_receive(server *s, struct lws *wsi, conn *c, const void *in, size_t len)
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

/* A finished table is back from its replay: the connections waiting for it
 * take their seats (or hear that it could not be brought back). */
void reload_refused(server *s, int64_t id, bool moved)
{
    if (!moved) {
        hall_reload r = {.id = id};
        asobi_fail(&r.err, ASOBI_E_BAD_ARGUMENT, "no finished table of that id");
        reload_done(s, &r); /* logged; its connections hear not_found */
        return;
    }
    for (conn **p = &s->waiting; *p;) {
        conn *c = *p;
        if (c->table != id) {
            p = &c->next;
            continue;
        }
        *p = c->next;
        c->waiting = false;
        c->next = NULL;
        free(c->token);
        free(c->code);
        c->token = c->code = NULL;
        close_after_sending(c, CLOSE_MOVED, "moved");
    }
}

void reload_done(server *s, hall_reload *r)
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
        seat_connection(s, c, c->token, c->code);
        free(c->token);
        free(c->code);
        c->token = c->code = NULL;
    }
}

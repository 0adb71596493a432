/* send.c — what leaves for WebSockets: updates marked due and built when writable, refusals, the lobby's list. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "server/internal.h"

#define ERRORS_QUEUED_MAX 32      /* unread refusals before a connection is closed */
#define SPECTATOR_CLOCK_MS 5      /* a clock's remaining times in a spectators' update are this fresh at least */
#define LOBBY_EVERY_MS 500         /* the lobby's sockets hear of changes at most twice a second */

void shared_text_drop(shared_text *t)
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

void table_changed(server *s, slot *sl)
{
    sl->written_seq = store_batch_seq(s->store); /* its updates wait for this batch's commit */
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
void hall_changed(void *ctx, hall_slot *sl) { table_changed(ctx, sl); }

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

void close_after_sending(conn *c, int status, const char *reason)
{
    c->closing = true;
    c->close_status = status;
    snprintf(c->close_reason, sizeof c->close_reason, "%s", reason);
    lws_callback_on_writable(c->wsi);
}

/* A refusal to this connection, {"type":"error","id":N,"error":{...}},
 * without a line in the log (the limits' refusals: counted, summed up once
 * a second). The message's id is echoed at most in part (srv_echo_id). */
void queue_error(server *s, conn *c, const json_t *id, const srv_error *e)
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
void send_error(server *s, conn *c, const json_t *id, const srv_error *e)
{
    log_refusal(s, c->addr, "refused (table %lld, %s %d): %s: %s", (long long)c->table,
                c->seat < 0 ? "spectator" : "seat", c->seat, e->code, e->message);
    queue_error(s, c, id, e);
}

/* Write bytes kept elsewhere (the lobby's list, an HTTP reply) through the
 * loop's send buffer: lws_write wants LWS_PRE bytes of room before them for
 * its header, so they are copied after that room. lws_write's verdict, -1
 * when out of memory. */
int write_copied(server *s, struct lws *wsi, const char *bytes, size_t len, enum lws_write_protocol kind)
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

/* The first page of the list of tables: this node's, and with PostgreSQL
 * the other nodes' as they published them (hall_tables_json merges them),
 * newest first. */
static json_t *tables_json(server *s) { return hall_tables_json(&s->hall, 0); }

/* The lobby's list as one shared text: {"type":"tables","tables":[...]},
 * the first page of GET /api/tables, built once per change for every socket. */
static shared_text *lobby_list(server *s)
{
    if (s->lobby_text)
        return s->lobby_text;
    s->lobby_seq = store_batch_seq(s->store);
    json_t *m = tables_json(s);
    json_object_set_new(m, "type", json_string("tables"));
    s->lobby_text = shared_text_of(m);
    json_decref(m);
    return s->lobby_text;
}

/* The first page of GET /api/tables as one shared text, built once per
 * change of any table (table_changed lets it go) for every request: a loop
 * of requests does not build the list each time, and slow readers share
 * one copy instead of holding one each. */
shared_text *tables_page(server *s)
{
    if (!s->list_text) {
        json_t *m = tables_json(s);
        s->list_text = shared_text_of(m);
        json_decref(m);
    }
    return s->list_text;
}

/* The tables changed: the list is built again when it is next asked for. */
void lists_changed(server *s)
{
    s->lobby_dirty = true;
    shared_text_drop(s->list_text);
    s->list_text = NULL;
}

/* This node's tables changed: the lists, and what it tells the other nodes. */
void tables_changed(server *s)
{
    lists_changed(s);
    s->publish_due = true;
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
void lobby_push(server *s, int64_t now)
{
    if (!s->lobby_dirty || now - s->lobby_sent_ms < LOBBY_EVERY_MS)
        return;
    s->lobby_dirty = false;
    s->lobby_sent_ms = now;
    if (s->publish_due) { /* the other nodes' lobbies too (PostgreSQL), as often at most */
        s->publish_due = false;
        json_t *mine = hall_own_tables_json(&s->hall); /* every page's: the others page them too */
        store_publish_tables(s->store, json_object_get(mine, "tables"));
        json_decref(mine);
    }
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
int conn_writable(server *s, conn *c)
{
    /* nothing is told before it is kept: the batch holding this table's last
     * writes (the lobby's: the batch when its list was built) must be in */
    slot *own = c->lobby || c->waiting ? NULL : hall_slot_of(&s->hall, c->table);
    uint64_t need = own ? own->written_seq
                    : c->lobby && (c->list || s->lobby_text) ? s->lobby_seq
                                                              : store_batch_seq(s->store);
    if (!committed_through(s, need)) {
        hold(s, c->wsi, need);
        return 0;
    }
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
        if (c->errors || c->due || c->closing || (own && chat_pending(c, own->t)))
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
    int chat = sl && !c->due ? chat_writable(s, c, sl->t) : 0; /* a chat line (chat.c) */
    if (chat)
        return chat < 0 ? -1 : 0;
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
    char *with_chat = NULL; /* a connection's first update carries its chat history (chat.c) */
    if (chat_history_due(c, sl->t) && !(with_chat = chat_with_history(c, sl->t, text, &len)))
        return -1;
    if (with_chat)
        text = with_chat + LWS_PRE;
    int n = lws_write(c->wsi, (unsigned char *)text, len, LWS_WRITE_TEXT);
    free(with_chat);
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
    if (chat_pending(c, sl->t))
        lws_callback_on_writable(c->wsi);
    return 0;
}

/* chat.c — a table's chat (chat.h): lines and who reads them, then the socket side: messages in, lines out. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/chat.h"
#include "server/internal.h"
#include "server/table.h"

const char *const chat_phrases[] = {"hi", "gl", "wp", "ty", "oops", "think", "gg", ""};

bool chat_phrase_known(const char *id)
{
    for (int i = 0; id && chat_phrases[i][0]; i++)
        if (strcmp(id, chat_phrases[i]) == 0)
            return true;
    return false;
}

/* Control characters are C0 (below U+0020), DEL and C1 (U+0080-U+009F):
 * a line is one line of plain text, and nothing in it may move a
 * terminal's cursor when an operator reads the store. */
bool chat_text_valid(const char *text, size_t len, srv_error *e)
{
    const unsigned char *p = (const unsigned char *)text, *end = p + len;
    int chars = 0;
    while (p < end) {
        uint32_t c;
        int n;
        if (p[0] < 0x80) {
            c = p[0];
            n = 1;
        } else if ((p[0] & 0xe0) == 0xc0) {
            c = p[0] & 0x1fu;
            n = 2;
        } else if ((p[0] & 0xf0) == 0xe0) {
            c = p[0] & 0x0fu;
            n = 3;
        } else if ((p[0] & 0xf8) == 0xf0) {
            c = p[0] & 0x07u;
            n = 4;
        } else {
            return srv_fail(e, 400, "bad_request", "a chat line must be valid UTF-8") == 0;
        }
        if (end - p < n)
            return srv_fail(e, 400, "bad_request", "a chat line must be valid UTF-8") == 0;
        for (int i = 1; i < n; i++) {
            if ((p[i] & 0xc0) != 0x80)
                return srv_fail(e, 400, "bad_request", "a chat line must be valid UTF-8") == 0;
            c = c << 6 | (p[i] & 0x3fu);
        }
        static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (c < least[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
            return srv_fail(e, 400, "bad_request", "a chat line must be valid UTF-8") == 0;
        if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f))
            return srv_fail(e, 400, "bad_request", "a chat line holds no control characters") == 0;
        p += n;
        chars++;
    }
    if (chars == 0)
        return srv_fail(e, 400, "bad_request", "a chat line holds 1 to %d characters", CHAT_TEXT_MAX) == 0;
    if (chars > CHAT_TEXT_MAX)
        return srv_fail(e, 400, "chat_too_long", "a chat line holds at most %d characters", CHAT_TEXT_MAX) == 0;
    return true;
}

int chat_parse(const json_t *msg, int players, chat_request *req, srv_error *e)
{
    memset(req, 0, sizeof *req);
    const char *type = json_string_value(json_object_get(msg, "type"));
    if (!type)
        return CHAT_NOT_MINE;
    if (strcmp(type, "chat") == 0) {
        const json_t *text = json_object_get(msg, "text"), *phrase = json_object_get(msg, "phrase");
        req->kind = CHAT_SAY;
        if ((text != NULL) == (phrase != NULL))
            return srv_fail(e, 400, "bad_request", "a chat message carries a \"text\" or a \"phrase\"");
        if (phrase) {
            req->phrase = json_string_value(phrase);
            if (!chat_phrase_known(req->phrase))
                return srv_fail(e, 400, "bad_request", "unknown phrase (docs/protocol.md, \"Chat\")");
            return CHAT_SAY;
        }
        if (!json_is_string(text))
            return srv_fail(e, 400, "bad_request", "\"text\" must be a string");
        req->text = json_string_value(text);
        req->text_len = json_string_length(text);
        if (memchr(req->text, '\0', req->text_len))
            return srv_fail(e, 400, "bad_request", "a chat line holds no control characters");
        return chat_text_valid(req->text, req->text_len, e) ? CHAT_SAY : -1;
    }
    if (strcmp(type, "mute") != 0 && strcmp(type, "unmute") != 0)
        return CHAT_NOT_MINE;
    req->kind = strcmp(type, "mute") == 0 ? CHAT_MUTE : CHAT_UNMUTE;
    const json_t *seat = json_object_get(msg, "seat"), *spectators = json_object_get(msg, "spectators");
    req->mute_seat = -1;
    if (seat && !spectators && json_is_integer(seat) && json_integer_value(seat) >= 0 &&
        json_integer_value(seat) < players) {
        req->mute_seat = (int)json_integer_value(seat);
        return req->kind;
    }
    if (spectators && !seat && json_is_true(spectators)) {
        req->mute_spectators = true;
        return req->kind;
    }
    return srv_fail(e, 400, "bad_request", "a %s names a \"seat\" of the table or \"spectators\": true", type);
}

bool chat_may_read(const table *t, const chat_line *l, int viewer, uint32_t muted)
{
    if (l->seat >= 0 && (muted & (1u << l->seat)))
        return false;
    if (l->seat < 0 && (muted & CHAT_MUTE_SPECTATORS))
        return false;
    /* the spectators' wall: while the game is in play no seat reads them */
    return l->seat >= 0 || viewer < 0 || t->status == TABLE_OVER;
}

json_t *chat_line_json(const chat_line *l)
{
    json_t *m = json_pack("{s:s, s:i, s:s, s:o, s:s, s:I, s:i}", "type", "chat", "index", l->index, "channel",
                          l->seat >= 0 ? "players" : "spectators", "seat",
                          l->seat >= 0 ? json_integer(l->seat) : json_null(), "name", l->name, "at",
                          (json_int_t)l->at_ms, "move", l->move);
    if (m && l->text)
        json_object_set_new(m, "text", json_string(l->text));
    else if (m)
        json_object_set_new(m, "phrase", json_string(l->phrase));
    return m;
}

uint32_t chat_seat_mutes(const table *t, int seat)
{
    return t->chat && seat >= 0 && seat < ASOBI_MAX_SEATS ? t->chat->muted[seat] : 0;
}

json_t *chat_history_json(const table *t, int viewer, uint32_t muted)
{
    json_t *a = json_array();
    const chat_log *c = t->chat;
    if (!c)
        return a;
    int first = c->n, count = 0;
    while (first > 0 && count < CHAT_HISTORY_SENT) {
        first--;
        if (chat_may_read(t, &c->lines[first], viewer, muted))
            count++;
    }
    for (int i = first; i < c->n; i++)
        if (chat_may_read(t, &c->lines[i], viewer, muted))
            json_array_append_new(a, chat_line_json(&c->lines[i]));
    return a;
}

static chat_log *chat_of(table *t)
{
    if (!t->chat)
        t->chat = calloc(1, sizeof *t->chat);
    return t->chat;
}

/* Room for one more line: past 2 * CHAT_KEPT the oldest CHAT_KEPT go. */
static chat_line *chat_append(chat_log *c)
{
    if (c->n >= 2 * CHAT_KEPT) {
        for (int i = 0; i < CHAT_KEPT; i++)
            free(c->lines[i].text);
        memmove(c->lines, c->lines + CHAT_KEPT, (size_t)(c->n - CHAT_KEPT) * sizeof *c->lines);
        c->n -= CHAT_KEPT;
    }
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 16;
        chat_line *grown = realloc(c->lines, (size_t)cap * sizeof *grown);
        if (!grown)
            return NULL;
        c->lines = grown;
        c->cap = cap;
    }
    chat_line *l = &c->lines[c->n];
    memset(l, 0, sizeof *l);
    return l;
}

int chat_say(table *t, int seat, const char *name, const chat_request *req, int64_t at_ms, srv_error *e)
{
    chat_log *c = chat_of(t);
    chat_line *l = c ? chat_append(c) : NULL;
    if (!l || (req->text && !(l->text = strndup(req->text, req->text_len))))
        return srv_fail(e, 500, "no_memory", "out of memory");
    l->index = c->next_index;
    l->seat = seat;
    snprintf(l->name, sizeof l->name, "%s", name);
    if (!req->text)
        snprintf(l->phrase, sizeof l->phrase, "%s", req->phrase);
    l->at_ms = at_ms;
    l->move = t->log_count;
    json_t *j = chat_line_json(l);
    char *line = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    asobi_error err;
    int rc = line ? store_add_chat(t->store, t->id, l->index, line, &err) : asobi_fail(&err, ASOBI_E_NOMEM, "out of memory");
    free(line);
    if (rc != ASOBI_OK) {
        free(l->text);
        return srv_fail_asobi(e, 500, &err);
    }
    c->n++;
    c->next_index++;
    return 0;
}

uint32_t chat_mutes_after(uint32_t muted, const chat_request *req)
{
    uint32_t bit = req->mute_spectators ? CHAT_MUTE_SPECTATORS : 1u << req->mute_seat;
    return req->kind == CHAT_MUTE ? muted | bit : muted & ~bit;
}

/* A seat's mutes are kept with the table's chat, as a row of their own
 * among its lines ({"index", "seat", "mutes": the whole set after the
 * change}), written like a line (the same batch, fenced alike on several
 * nodes), so that a restart or the node taking the table over knows them
 * (chat_restore_lines: the last row of a seat wins). The row takes a line's
 * index, which no reader ever sees: the numbering of lines has gaps, as it
 * has where an operator hid one. */
int chat_mute_seat(table *t, int seat, const chat_request *req, int64_t at_ms, srv_error *e)
{
    if (req->mute_seat == seat)
        return srv_fail(e, 400, "bad_request", "a seat cannot mute itself");
    chat_log *c = chat_of(t);
    if (!c)
        return srv_fail(e, 500, "no_memory", "out of memory");
    uint32_t mutes = chat_mutes_after(c->muted[seat], req);
    if (mutes == c->muted[seat])
        return 0; /* nothing changes: nothing to keep */
    json_t *j = json_pack("{s:i, s:i, s:I, s:I}", "index", c->next_index, "seat", seat, "mutes", (json_int_t)mutes,
                          "at", (json_int_t)at_ms);
    char *row = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    asobi_error err;
    int rc = row ? store_add_chat(t->store, t->id, c->next_index, row, &err)
                 : asobi_fail(&err, ASOBI_E_NOMEM, "out of memory");
    free(row);
    if (rc != ASOBI_OK)
        return srv_fail_asobi(e, 500, &err);
    c->next_index++;
    c->muted[seat] = mutes;
    return 0;
}

/* A kept mute row: the seat's set of mutes from then on. */
static void restore_mutes(table *t, const json_t *row)
{
    const json_t *seat = json_object_get(row, "seat"), *index = json_object_get(row, "index");
    json_int_t mutes = json_integer_value(json_object_get(row, "mutes"));
    chat_log *c = chat_of(t);
    if (!c || !json_is_integer(seat) || !json_is_integer(index))
        return;
    json_int_t k = json_integer_value(seat);
    if (k >= 0 && k < t->players && k < ASOBI_MAX_SEATS && mutes >= 0 && mutes <= (json_int_t)UINT32_MAX)
        c->muted[k] = (uint32_t)mutes;
    if (json_integer_value(index) >= c->next_index && json_integer_value(index) < INT32_MAX)
        c->next_index = (int)json_integer_value(index) + 1; /* its index is taken: no line may have it */
}

void chat_restore_lines(table *t, const json_t *lines)
{
    size_t i;
    const json_t *j;
    json_array_foreach(lines, i, j)
    {
        if (json_object_get(j, "mutes")) {
            restore_mutes(t, j);
            continue;
        }
        const json_t *seat = json_object_get(j, "seat"), *index = json_object_get(j, "index");
        const char *name = json_string_value(json_object_get(j, "name"));
        const char *text = json_string_value(json_object_get(j, "text"));
        const char *phrase = json_string_value(json_object_get(j, "phrase"));
        if (!json_is_integer(index) || !name || (!text && !chat_phrase_known(phrase)))
            continue;
        chat_log *c = chat_of(t);
        chat_line *l = c ? chat_append(c) : NULL;
        if (!l || (text && !(l->text = strdup(text))))
            return;
        l->index = (int)json_integer_value(index);
        l->seat = json_is_integer(seat) ? (int)json_integer_value(seat) : ASOBI_SPECTATOR;
        snprintf(l->name, sizeof l->name, "%s", name);
        if (!text)
            snprintf(l->phrase, sizeof l->phrase, "%s", phrase);
        l->at_ms = json_integer_value(json_object_get(j, "at"));
        l->move = (int)json_integer_value(json_object_get(j, "move"));
        c->n++;
        if (l->index >= c->next_index)
            c->next_index = l->index + 1;
        if (l->seat < 0 && name[0] == '#' && atoi(name + 1) > c->spectators)
            c->spectators = atoi(name + 1); /* a new spectator's "#N" follows the ones of before */
    }
}

void chat_restore(table *t, store *st)
{
    json_t *lines = NULL;
    asobi_error err;
    if (store_load_chat(st, t->id, &lines, &err) != ASOBI_OK)
        srv_log("table %lld: its chat cannot be read: %s", (long long)t->id, err.message);
    chat_restore_lines(t, lines);
    json_decref(lines);
}

bool chat_forget(chat_log *c, int index)
{
    for (int i = 0; c && i < c->n; i++) {
        if (c->lines[i].index != index)
            continue;
        free(c->lines[i].text);
        memmove(&c->lines[i], &c->lines[i + 1], (size_t)(c->n - i - 1) * sizeof *c->lines);
        c->n--;
        return true;
    }
    return false;
}

void chat_free(chat_log *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n; i++)
        free(c->lines[i].text);
    free(c->lines);
    free(c);
}

/* ---------------------------------------------------------------------------
 * The socket side: a connection's chat and mute messages, lines out.
 * ------------------------------------------------------------------------- */
static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint32_t conn_mutes(const table *t, const conn *c)
{
    return c->seat >= 0 ? chat_seat_mutes(t, c->seat) : c->chat.muted;
}

/* May c say one more line? Its seat's (or, a spectator, its connection's)
 * CHAT_PER_TEN_SECONDS, then its address's budget; a refusal is counted and
 * summed up in the log (limits_summary), never a line of its own. */
static bool chat_allowed(server *s, conn *c, table *t, srv_error *e)
{
    const limits_config *cfg = &s->limits.cfg;
    double now = now_s();
    chat_log *log = chat_of(t);
    limits_bucket *own = c->seat >= 0 && log ? &log->rate[c->seat] : &c->chat.rate;
    if (!limits_bucket_take(own, cfg->chat_per_ten_seconds / 10, cfg->chat_per_ten_seconds, now, NULL)) {
        limits_refused(&s->limits, LIMIT_CHAT, c->addr);
        srv_fail(e, 429, "rate_limited", "at most %g chat lines in 10 seconds (--chat-lines-per-ten-seconds)",
                 cfg->chat_per_ten_seconds);
        return false;
    }
    double per_minute = cfg->chat_per_minute_per_address;
    if (c->addr && !limits_bucket_take(&c->addr->chat, per_minute / 60, per_minute / 6, now, NULL)) {
        limits_refused(&s->limits, LIMIT_CHAT_ADDRESS, c->addr);
        srv_fail(e, 429, "rate_limited", "at most %g chat lines a minute from one address "
                 "(--chat-lines-per-minute-per-address)", per_minute);
        return false;
    }
    return true;
}

/* A line is said: every connection sends it once its batch is committed. */
static void chat_changed(server *s, slot *sl)
{
    sl->written_seq = store_batch_seq(s->store);
    for (conn *c = sl->conns; c; c = c->next)
        lws_callback_on_writable(c->wsi);
}

/* c's history goes again with its next update (its mutes changed). */
static void chat_history_again(conn *c)
{
    c->chat.history_sent = false;
    c->due = true;
    lws_callback_on_writable(c->wsi);
}

bool chat_message(server *s, conn *c, const char *text, size_t len)
{
    if (!memmem(text, len, "\"chat\"", 6) && !memmem(text, len, "mute\"", 5))
        return false; /* the actions' path parses nothing twice */
    json_t *msg = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
    slot *sl = hall_slot_of(&s->hall, c->table);
    chat_request req;
    srv_error e;
    int kind = json_is_object(msg) && sl ? chat_parse(msg, sl->t->players, &req, &e) : CHAT_NOT_MINE;
    const json_t *id = json_object_get(msg, "id");
    if (kind == CHAT_NOT_MINE) {
        json_decref(msg);
        return false;
    }
    table *t = sl->t;
    if (kind < 0) {
        send_error(s, c, id, &e);
    } else if (c->seat >= 0 && t->seat[c->seat].left) {
        srv_fail(&e, 403, "bad_token", "seat %d was left: it is the bot's now", c->seat);
        send_error(s, c, id, &e);
    } else if (kind == CHAT_SAY) {
        char name[16];
        if (c->seat < 0 && !c->chat.number && chat_of(t))
            c->chat.number = ++t->chat->spectators;
        snprintf(name, sizeof name, "#%d", c->chat.number);
        if (!chat_allowed(s, c, t, &e))
            queue_error(s, c, id, &e);
        else if (chat_say(t, c->seat, c->seat >= 0 ? t->seat[c->seat].name : name, &req, wall_ms(), &e) != 0)
            send_error(s, c, id, &e);
        else
            chat_changed(s, sl);
    } else if (c->seat >= 0) {
        /* a mute that changes the seat's set is kept, a row in the store: it
         * counts as a line against both chat limits (no flood of rows) */
        uint32_t mutes = chat_seat_mutes(t, c->seat);
        bool kept = req.mute_seat != c->seat && chat_mutes_after(mutes, &req) != mutes;
        if (kept && !chat_allowed(s, c, t, &e)) {
            queue_error(s, c, id, &e);
        } else if (chat_mute_seat(t, c->seat, &req, wall_ms(), &e) != 0) {
            send_error(s, c, id, &e);
        } else {
            sl->written_seq = store_batch_seq(s->store); /* its seat hears of it once it is kept */
            for (conn *o = sl->conns; o; o = o->next) /* the mute holds for the seat, wherever it connects */
                if (o->seat == c->seat)
                    chat_history_again(o);
        }
    } else {
        c->chat.muted = chat_mutes_after(c->chat.muted, &req);
        chat_history_again(c);
    }
    json_decref(msg);
    return true;
}

bool chat_history_due(const conn *c, const table *t)
{
    /* once the game is over a seat reads the spectators' lines too: its history goes again */
    return !c->chat.history_sent || (c->seat >= 0 && t->status == TABLE_OVER && !c->chat.history_over);
}

bool chat_pending(const conn *c, const table *t)
{
    return c->chat.history_sent && t->chat && c->chat.told < t->chat->next_index;
}

int chat_writable(server *s, conn *c, table *t)
{
    if (!c->chat.history_sent)
        return 0;
    if (chat_history_due(c, t)) {
        chat_history_again(c); /* the game is over: the spectators' lines are the seats' too */
        return 0;
    }
    if (!chat_pending(c, t))
        return 0;
    const chat_log *log = t->chat;
    uint32_t muted = conn_mutes(t, c);
    for (int i = 0; i < log->n; i++) {
        const chat_line *l = &log->lines[i];
        if (l->index < c->chat.told || !chat_may_read(t, l, c->seat, muted))
            continue;
        c->chat.told = l->index + 1;
        json_t *j = chat_line_json(l);
        char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
        json_decref(j);
        int n = text ? write_copied(s, c->wsi, text, strlen(text), LWS_WRITE_TEXT) : -1;
        if (text)
            s->bytes_sent += strlen(text);
        free(text);
        if (n < 0)
            return -1;
        if (chat_pending(c, t))
            lws_callback_on_writable(c->wsi);
        return 1;
    }
    c->chat.told = log->next_index;
    return 0;
}

char *chat_with_history(conn *c, const table *t, const char *update, size_t *len)
{
    uint32_t muted = conn_mutes(t, c);
    json_t *mutes = json_array();
    for (int k = 0; k < t->players; k++)
        if (muted & (1u << k))
            json_array_append_new(mutes, json_integer(k));
    json_t *extra = json_pack("{s:o, s:{s:o, s:b}}", "chat", chat_history_json(t, c->seat, muted), "chat_muted",
                              "seats", mutes, "spectators", (muted & CHAT_MUTE_SPECTATORS) != 0);
    char *more = extra ? json_dumps(extra, JSON_COMPACT) : NULL;
    json_decref(extra);
    size_t more_len = more ? strlen(more) : 0;
    /* update is an object "{...}" and so is more: "{...," + "...}" */
    char *out = more && *len >= 2 ? malloc(LWS_PRE + *len + more_len) : NULL;
    if (out) {
        memcpy(out + LWS_PRE, update, *len - 1);
        out[LWS_PRE + *len - 1] = ',';
        memcpy(out + LWS_PRE + *len, more + 1, more_len - 1);
        *len += more_len - 1;
        c->chat.history_sent = true;
        c->chat.history_over = t->status == TABLE_OVER;
        c->chat.told = t->chat ? t->chat->next_index : 0;
    }
    free(more);
    return out;
}

void chat_hidden(server *s, int64_t table_id, int index)
{
    hall_slot *sl = hall_slot_of(&s->hall, table_id);
    if (!sl || !sl->t || !chat_forget(sl->t->chat, index))
        return; /* not here, or gone already (the table was read after the hide) */
    for (conn *o = sl->conns; o; o = o->next) /* a fresh history, without it, in each reader's next update */
        chat_history_again(o);
}

/* http.c — HTTP: request heads checked, routing, the JSON API (through the hall), static files, replies in pieces. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "server/internal.h"

#define PATH_MAX_BYTES 255         /* a request's path (414 beyond) */
#define QUERY_MAX_BYTES 1024       /* its query (414 beyond) */

/* ---------------------------------------------------------------------------
 * HTTP
 * ------------------------------------------------------------------------- */
/* Let go of the reply: freed, or one reference less to a shared one. */
void reply_drop(http_req *r)
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

static int send_headers(struct lws *wsi, http_req *r, int status, const char *type, size_t len)
{
    unsigned char buf[LWS_PRE + 1024], *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf - 1;
    char retry[16];
    int retry_len = snprintf(retry, sizeof retry, "%d", r->retry_after);
    if (lws_add_http_common_headers(wsi, (unsigned int)status, type, len, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:", (const unsigned char *)"no-store",
                                    8, &p, end) ||
        (r->retry_after > 0 && lws_add_http_header_by_name(wsi, (const unsigned char *)"retry-after:",
                                                           (const unsigned char *)retry, retry_len, &p, end)) ||
        (r->close_after && lws_add_http_header_by_name(wsi, (const unsigned char *)"connection:",
                                                       (const unsigned char *)"close", 5, &p, end)) ||
        (r->set_cookie[0] && lws_add_http_header_by_name(wsi, (const unsigned char *)"set-cookie:",
                                                         (const unsigned char *)r->set_cookie,
                                                         (int)strlen(r->set_cookie), &p, end)) ||
        (r->location && lws_add_http_header_by_name(wsi, (const unsigned char *)"location:",
                                                    (const unsigned char *)r->location, (int)strlen(r->location),
                                                    &p, end)) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    return 0;
}

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

/* The reply (r->reply) is ready: its head and body go out once every write
 * is committed (a created table or a taken seat is kept before it is
 * announced); until then the request is held (server.c's hold), and
 * http_writable sends the head when the commit is in. */
static int send_reply(server *s, struct lws *wsi, http_req *r, int status, const char *type)
{
    uint64_t need = store_batch_seq(s->store);
    bool committed = committed_through(s, need);
    if (!committed || r->answer_later) {
        r->held_status = status;
        r->held_type = type;
        r->need_seq = need;
        if (committed)
            lws_callback_on_writable(wsi);
        else
            hold(s, wsi, need);
        return 0;
    }
    if (send_headers(wsi, r, status, type, r->reply_len) < 0)
        return -1;
    return send_body(wsi, r);
}

/* Answer with a JSON body (status 2xx) or an error. Returns lws's verdict. */
static int reply_json(server *s, struct lws *wsi, http_req *r, int status, json_t *body)
{
    set_reply(r, body);
    if (!r->reply)
        return -1;
    return send_reply(s, wsi, r, status, "application/json");
}

static int reply_error(server *s, struct lws *wsi, http_req *r, const srv_error *e)
{
    s->refusals++;
    log_refusal(s, client_address(wsi), "refused %s %.100s: %d %s: %s", r->post ? "POST" : r->del ? "DELETE" : "GET", r->path,
                e->status, e->code, e->message);
    return reply_json(s, wsi, r, e->status, srv_error_json(e));
}

static int reply_text(server *s, struct lws *wsi, http_req *r, const char *type, char *text)
{
    reply_drop(r);
    r->reply = text;
    r->reply_len = text ? strlen(text) : 0;
    if (!text)
        return -1;
    return send_reply(s, wsi, r, 200, type);
}

static void path_with_query(struct lws *wsi, const char *path, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "%s", path);
    char frag[128];
    for (int i = 0; n < cap && lws_hdr_copy_fragment(wsi, frag, sizeof frag, WSI_TOKEN_HTTP_URI_ARGS, i) > 0; i++)
        n += (size_t)snprintf(out + n, cap - n, "%c%s", i ? '&' : '?', frag);
}

/* What a creation request asks of bots: a table of bots only (*all; its
 * players default to the game's fewest, as table_create reads it), and a
 * searching bot in any seat (*slow). A request it would refuse may say
 * anything here. */
static void bots_asked(const char *body, size_t len, bool *all, bool *slow)
{
    json_t *req = json_loadb(body ? body : "", len, 0, NULL);
    const asobi_game_def *def = asobi_game_find(json_string_value(json_object_get(req, "game")));
    const json_t *players = json_object_get(req, "players"), *bots = json_object_get(req, "bots");
    json_int_t n = json_is_integer(players) ? json_integer_value(players) : def ? asobi_game_min_players(def) : 0;
    *all = n > 0 && json_is_array(bots) && json_array_size(bots) == (size_t)n;
    *slow = false;
    for (size_t i = 0; i < json_array_size(bots); i++) {
        const char *spec = json_string_value(json_array_get(bots, i));
        *all &= spec != NULL;
        *slow |= spec && table_bot_searches(spec);
    }
    json_decref(req);
}

/* Does a table still play (for the all-bot tables an address holds)? */
static bool table_alive(void *ctx, int64_t id)
{
    slot *sl = hall_slot_of(&((server *)ctx)->hall, id);
    return sl && sl->t->status != TABLE_OVER;
}

/* POST /api/tables from address a: within its limits (0), or refused (the
 * status; r's reply is the refusal): --tables-per-minute-per-address and
 * --table-burst-per-address (429 rate_limited, with Retry-After),
 * --max-bot-tables-per-address for a table of bots only and
 * --max-slow-bot-tables-per-address for one with a searching bot (429
 * too_many_bot_tables). */
static int creation_refused(server *s, http_req *r, limits_address *a, json_t **reply, srv_error *e)
{
    double retry_after = 0, now = now_s();
    bool all, slow;
    bots_asked(r->body, r->body_len, &all, &slow);
    if (!limits_create_table(&s->limits, a, now, &retry_after)) {
        r->retry_after = (int)retry_after + 1;
        srv_fail(e, 429, "rate_limited", "too many tables created from your address: try again in %d s",
                 r->retry_after);
    } else if (all && !limits_bot_table_allowed(&s->limits, a, table_alive, s, now)) {
        r->retry_after = 10;
        srv_fail(e, 429, "too_many_bot_tables", "at most %d tables of bots only from one address at once "
                 "(--max-bot-tables-per-address)", s->limits.cfg.bot_tables_per_address);
    } else if (slow && !limits_slow_table_allowed(&s->limits, a, table_alive, s, now)) {
        r->retry_after = 10;
        srv_fail(e, 429, "too_many_bot_tables", "at most %d unfinished tables with a searching bot from one "
                 "address at once (--max-slow-bot-tables-per-address)", s->limits.cfg.slow_bot_tables_per_address);
    } else {
        return 0;
    }
    *reply = srv_error_json(e);
    return e->status;
}

/* A table was created for address a (its bots are a's work: the hall made
 * a its owner): it counts among a's tables of bots only or with a searching bot. */
static void table_created(server *s, limits_address *a, const json_t *reply)
{
    slot *sl = hall_slot_of(&s->hall, json_integer_value(json_object_get(reply, "table")));
    if (!sl)
        return;
    bool all = true, slow = false;
    for (int k = 0; k < sl->t->players; k++) {
        all &= sl->t->seat[k].bot != NULL;
        slow |= sl->t->seat[k].bot && table_bot_searches(sl->t->seat[k].bot);
    }
    if (all)
        limits_bot_table_made(&s->limits, a, sl->t->id, now_s());
    if (slow)
        limits_slow_table_made(&s->limits, a, sl->t->id, now_s());
}

/* Several nodes (PostgreSQL): a request about an unfinished table that
 * another node owns (GET /api/tables/ID, POST .../join) is answered by a
 * 307 to the same path on that node (its --public-url; a browser behind one
 * front follows it, POST body and all), and one about a table between
 * owners (its node died, none took it yet) by 503 table_moving with
 * Retry-After. 1 when so answered (*rc is lws's verdict), 0 when this node
 * answers itself. Who owns it was read off the loop (look_up_first). */
static int answer_elsewhere(server *s, struct lws *wsi, http_req *r, const char *path, int *rc)
{
    const char *rest;
    int64_t id = hall_path_id(r->path, "/api/tables/", &rest);
    if (!store_is_postgresql(s->cfg.db) || id <= 0 || hall_slot_of(&s->hall, id) || (*rest && strcmp(rest, "/join")))
        return 0;
    char *url = !r->looked_up ? store_owner_url(s->store, id) /* SQLite: NULL */
                : r->found.owner_url ? strdup(r->found.owner_url) : NULL;
    if (!url)
        return 0; /* no unfinished table of that id: finished (the store has it) or none */
    const char *mine = s->cfg.public_url ? s->cfg.public_url : "";
    srv_error e;
    if (!*url || strcmp(url, mine) == 0) { /* between owners, or this node's and not yet restored */
        free(url);
        r->retry_after = 1;
        srv_fail(&e, 503, "table_moving", "table %lld is moving to another node: ask again in a second",
                 (long long)id);
        *rc = reply_json(s, wsi, r, e.status, srv_error_json(&e));
        return 1;
    }
    size_t n = strlen(url);
    while (n > 0 && url[n - 1] == '/')
        n--;
    free(r->location);
    r->location = malloc(n + strlen(path) + 1);
    if (!r->location) {
        free(url);
        *rc = -1;
        return 1;
    }
    snprintf(r->location, n + strlen(path) + 1, "%.*s%s", (int)n, url, path);
    json_t *body = json_pack("{s:s}", "location", r->location);
    free(url);
    *rc = reply_json(s, wsi, r, 307, body);
    return 1;
}

/* Several nodes (PostgreSQL): a request about a table that is not in
 * memory (GET /api/tables/ID, .../record, POST .../join) needs the
 * database (who owns it, a finished table's summary and record), which the
 * loop must never wait for: the store's reader thread reads it, and the
 * request waits (true) until http_lookup_done answers it from what was
 * read. False: answer now (the table is here, or it was read already, or
 * the store reads synchronously: SQLite). */
static bool look_up_first(server *s, struct lws *wsi, http_req *r)
{
    const char *rest;
    int64_t id = hall_path_id(r->path, "/api/tables/", &rest);
    if (r->looked_up || id <= 0 || hall_slot_of(&s->hall, id) ||
        (*rest && strcmp(rest, "/join") && strcmp(rest, "/record") && strcmp(rest, "/replay")))
        return false;
    uint64_t n = http_wait(s, wsi, r);
    if (n && !store_lookup_start(s->store, id, false, (void *)(uintptr_t)n)) {
        http_waiting(s, n); /* SQLite: read at once */
        n = 0;
    }
    return n != 0;
}

uint64_t http_wait(server *s, struct lws *wsi, http_req *r)
{
    if (s->n_looking == s->cap_looking) {
        size_t cap = s->cap_looking ? 2 * s->cap_looking : 16;
        struct looking *grown = realloc(s->looking, cap * sizeof *grown);
        if (!grown)
            return 0;
        s->looking = grown;
        s->cap_looking = cap;
    }
    uint64_t n = ++s->lookups_asked;
    s->looking[s->n_looking++] = (struct looking){n, wsi};
    r->lookup = n;
    /* the library's own timeout on a request's headers (10 s) would close a
     * request that waits longer (a long game's book being built on a busy
     * server): it waits REPLY_STALL_S, as a reply being written does */
    lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, REPLY_STALL_S);
    return n;
}

/* The request no longer waits for a read (answered, or its connection is gone). */
static struct lws *stop_looking(server *s, uint64_t n)
{
    for (size_t i = 0; i < s->n_looking; i++)
        if (s->looking[i].id == n) {
            struct lws *wsi = s->looking[i].wsi;
            s->looking[i] = s->looking[--s->n_looking];
            return wsi;
        }
    return NULL;
}

struct lws *http_waiting(server *s, uint64_t n)
{
    struct lws *wsi = stop_looking(s, n);
    http_req *r = wsi ? lws_wsi_user(wsi) : NULL;
    if (r)
        r->lookup = 0;
    return r ? wsi : NULL;
}

int http_answer(server *s, struct lws *wsi, http_req *r, int status, char *text, shared_text *shared)
{
    reply_drop(r);
    r->reply = shared ? shared->text : text;
    r->reply_len = shared ? shared->len : text ? strlen(text) : 0;
    r->reply_shared = shared;
    r->reply_sent = 0;
    if (!r->reply)
        return -1;
    return send_reply(s, wsi, r, status, "application/json");
}

int http_refuse(server *s, struct lws *wsi, http_req *r, const srv_error *e)
{
    return reply_error(s, wsi, r, e);
}

static void found_drop(http_req *r)
{
    free(r->found.owner_url);
    json_decref(r->found.summary);
    json_decref(r->found.record);
    free(r->found.player);
    free(r->found.game);
    json_decref(r->found.answer);
    memset(&r->found, 0, sizeof r->found);
}

void http_lookup_forget(server *s, struct lws *wsi)
{
    http_req *r = lws_wsi_user(wsi);
    if (!r)
        return;
    if (r->lookup)
        stop_looking(s, r->lookup);
    r->lookup = 0;
    found_drop(r);
}

static int serve_api(server *s, struct lws *wsi, http_req *r);

/* The store's reader read what a waiting request needs: it is answered
 * now, from that (its reply goes out when the socket is writable). */
void http_lookup_done(server *s, store_lookup *l)
{
    struct lws *wsi = stop_looking(s, (uint64_t)(uintptr_t)l->cookie);
    http_req *r = wsi ? lws_wsi_user(wsi) : NULL;
    if (!r)
        return; /* its connection went away meanwhile */
    found_drop(r);
    r->found = *l; /* taken over */
    memset(l, 0, sizeof *l);
    r->lookup = 0;
    r->looked_up = true;
    r->answer_later = true;
    if (serve_api(s, wsi, r) < 0)
        lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
}

/* /api/...: the hall answers, this side sends. The limits of the client's
 * address come first; their refusals are counted, not logged one by one. */
static int serve_api(server *s, struct lws *wsi, http_req *r)
{
    srv_error e;
    json_t *reply = NULL;
    limits_address *a = client_address(wsi);
    bool creating = r->post && strcmp(r->path, "/api/tables") == 0;
    int status = creating && a ? creation_refused(s, r, a, &reply, &e) : 0;
    if (status) {
        s->refusals++;
        return reply ? reply_json(s, wsi, r, status, reply) : -1;
    }
    if (!r->post && strcmp(r->path, "/api/tables") == 0 && lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS) <= 0) {
        shared_text *list = tables_page(s);
        if (!list)
            return -1;
        reply_drop(r);
        list->refs++;
        r->reply_shared = list;
        r->reply = list->text;
        r->reply_len = list->len;
        r->reply_sent = 0;
        return send_reply(s, wsi, r, 200, "application/json");
    }
    int rc;
    if (accounts_look_up_first(s, wsi, r))
        return 0; /* its session cookie is read first (accounts.c): served again then */
    if (accounts_answer(s, wsi, r, &rc))
        return rc; /* sign-up, sign-in, sign-out, /api/me (accounts.c) */
    char path[sizeof r->path + 256];
    path_with_query(wsi, r->path, path, sizeof path);
    if (reviews_answer(s, wsi, r, path, &rc))
        return rc; /* a game review, asked or read off the loop (reviews.c) */
    if (ratings_answer(s, wsi, r, path, &rc))
        return rc; /* a profile or a leaderboard (ratings_api.c) */
    if (replays_answer(s, wsi, r, path, &rc))
        return rc; /* a finished game's replay step or record, off the loop (replays.c) */
    if (look_up_first(s, wsi, r))
        return 0; /* answered by http_lookup_done */
    if (answer_elsewhere(s, wsi, r, path, &rc))
        return rc;
    s->hall.found = r->looked_up ? &r->found : NULL;
    char secret[64] = ""; /* a private table's code or token, outside the URL (docs/server.md) */
    int secret_len = lws_hdr_custom_copy(wsi, secret, sizeof secret, "x-asobi-code:", 13);
    s->hall.secret = secret_len > 0 ? secret : NULL;
    s->hall.maker = a ? a->key : NULL;
    account_ref who;
    s->hall.account = accounts_of(s, wsi, &who) == ACCOUNT_SIGNED_IN ? who.id : 0;
    s->hall.account_name = s->hall.account ? who.name : NULL;
    status = hall_http(&s->hall, r->post, path, r->body, r->body_len, r->body_too_long, now_ms(), &reply, &e);
    s->hall.found = NULL;
    s->hall.secret = NULL;
    s->hall.maker = NULL;
    s->hall.account = 0;
    s->hall.account_name = NULL;
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
    /* The browser client's table page answers every /t/ID (the table's id is read by the page), its profile
     * page every /u/NAME and its leaderboard /leaderboard (issue 42); the icon the pages link answers
     * /favicon.ico too, which browsers ask for whatever the page says. */
    const char *page = strcmp(r->path, "/") == 0 ? "/index.html"
                       : strcmp(r->path, "/favicon.ico") == 0 ? "/favicon.svg"
                       : strncmp(r->path, "/t/", 3) == 0 && !strchr(r->path + 3, '/') ? "/table.html"
                       : strncmp(r->path, "/u/", 3) == 0 && r->path[3] && !strchr(r->path + 3, '/') ? "/profile.html"
                       : strcmp(r->path, "/leaderboard") == 0 ? "/leaderboard.html"
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
int http_body_done(server *s, struct lws *wsi, http_req *r)
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
    static const enum lws_token_indexes others[] = {WSI_TOKEN_PUT_URI, WSI_TOKEN_PATCH_URI, WSI_TOKEN_OPTIONS_URI,
                                                     WSI_TOKEN_HEAD_URI};
    bool other_method = false;
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        other_method |= lws_hdr_total_length(wsi, others[i]) > 0;
    /* DELETE: signing out and closing an account only (accounts.c), held to
     * a POST's checks (its Origin; a body, if any, declared JSON) */
    other_method |= r->del && strcmp(r->path, "/api/session") != 0 && strcmp(r->path, "/api/me") != 0;
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
    } else if ((r->post || r->del) && !origin_allowed(s, wsi)) {
        srv_fail(e, 403, "bad_origin", "a POST from another site's page (its Origin is not this server's)");
    } else if ((r->post || (r->del && length)) && !content_type_json(wsi)) {
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
int http_request(server *s, struct lws *wsi, http_req *r, const char *uri)
{
    size_t path_len = strlen(uri);
    snprintf(r->path, sizeof r->path, "%s", uri);
    r->post = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0;
    r->del = lws_hdr_total_length(wsi, WSI_TOKEN_DELETE_URI) > 0;
    bool body_coming = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0;
    if (head_refused(s, wsi, r, path_len, &r->refusal)) {
        r->refused = true;
        return body_coming && !r->close_after ? 0 : http_body_done(s, wsi, r);
    }
    if ((r->post || r->del) && body_coming)
        return 0; /* answered once the body is in (LWS_CALLBACK_HTTP_BODY_COMPLETION) */
    return serve_http(s, wsi, r); /* a POST without a body: an empty one */
}

int http_writable(struct lws *wsi, http_req *r)
{
    if (!r->reply)
        return 0;
    server *s = lws_context_user(lws_get_context(wsi));
    if (r->held_status) { /* its head waited for a commit */
        if (!committed_through(s, r->need_seq)) {
            hold(s, wsi, r->need_seq);
            return 0;
        }
        int status = r->held_status;
        r->held_status = 0;
        if (send_headers(wsi, r, status, r->held_type, r->reply_len) < 0)
            return -1;
    }
    size_t chunk = r->reply_len - r->reply_sent;
    if (chunk > HTTP_CHUNK)
        chunk = HTTP_CHUNK;
    bool last = r->reply_sent + chunk == r->reply_len;
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

void http_reset(http_req *r)
{
    found_drop(r);
    free(r->body);
    free(r->location);
    reply_drop(r);
    conn *ws = r->ws;
    bool in_held = r->in_held; /* the held list's: it still names this connection */
    memset(r, 0, sizeof *r);
    r->ws = ws;
    r->in_held = in_held;
}

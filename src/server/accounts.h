/* accounts.h — who an HTTP request or a WebSocket is signed in as (its asobi_session cookie), answered from memory on the loop; the accounts' API and its workers (issue 42). */
#ifndef ASOBI_SERVER_ACCOUNTS_H
#define ASOBI_SERVER_ACCOUNTS_H

#include <stdbool.h>
#include <stdint.h>

#include "server/reply.h"
#include "server/store.h"

struct server;
struct lws;
struct http_req;

/*
 * How it fits
 * -----------
 * A person signs up (POST /api/accounts) or in (POST /api/session) and gets
 * a session: 256 random bits in the cookie `asobi_session`, kept in the
 * store only as their SHA-256 (like seat tokens), valid 30 days from its
 * last use. Everything slow happens on the accounts' own worker threads
 * (accounts.c), never on the event loop: the Argon2id hashes (password.h),
 * and every read and write of the accounts and sessions tables (each
 * worker holds its own store_accounts handle: store.h).
 *
 * So that the rest of the server can ask "who is this?" on the loop, with
 * neither a database read nor a password hash, the loop keeps a cache of
 * sessions in memory: session hash -> account (id, name), filled when this
 * node signs someone in, and by a lookup on a worker for a cookie it has
 * not seen (a session made on another node: PostgreSQL, several nodes; or
 * before a restart). A cookie that names no live session is remembered as
 * a guest's for a while too, so a client sending made-up cookies costs one
 * lookup per cookie per ACCOUNTS_RECHECK_S, queued with its own address's
 * work (fairly, bounded). An entry older than ACCOUNTS_RECHECK_S is still
 * answered from, and read again in the background: this moves the expiry
 * on (sliding, at most once a day a write) and lets a session revoked on
 * another node end here within ACCOUNTS_RECHECK_S. One revoked on this node
 * (sign-out, a password change, a closed account) ends at once.
 *
 * Every /api/ request with a cookie that the cache does not know waits for
 * its lookup before it is served (http.c's serve_api calls
 * accounts_look_up_first): so inside any /api/ handler, accounts_of never
 * says ACCOUNT_PENDING.
 */

#define ACCOUNT_NAME_MAX STORE_ACCOUNT_NAME_MAX /* 2 to 20 characters: letters, digits, '_' and '-' */
#define ACCOUNT_NAME_MIN 2
#define ACCOUNTS_COOKIE "asobi_session"
#define ACCOUNTS_SESSION_DAYS 30
#define ACCOUNTS_RECHECK_S 30     /* a cached session is read again in the background after this */
#define ACCOUNTS_CACHE_MAX 100000 /* sessions remembered at once; beyond it the oldest go (read again if used) */

/* The account a request is signed in as. */
typedef struct account_ref {
    int64_t id;                        /* the accounts table's id (store.h): what seats and ratings refer to */
    char name[ACCOUNT_NAME_MAX + 1];   /* as the person spelled it at sign-up */
} account_ref;

typedef enum account_state {
    ACCOUNT_GUEST = 0,  /* no cookie, or one that names no live session (expired, revoked, closed account) */
    ACCOUNT_SIGNED_IN,  /* *out is filled */
    ACCOUNT_PENDING,    /* the cookie is not known yet: a lookup is under way (never inside an /api/ handler) */
} account_state;

/* Who the request (an HTTP request, or a WebSocket while its handshake's
 * headers are still there: ws_filter and ws_established) is signed in as,
 * from its asobi_session cookie. On the loop; no database read, no
 * password hash (a SHA-256 of the cookie and a hash-table probe). A
 * WebSocket that needs its account for its whole life copies it at
 * ws_established: the headers are gone after. On ACCOUNT_PENDING (a
 * WebSocket whose cookie is not known yet) the lookup has been started;
 * treat it as a guest, or ask again once it is done. */
account_state accounts_of(struct server *s, struct lws *wsi, account_ref *out);

/* Is name an account name: 2 to 20 of ASCII letters, digits, '_' and '-'? */
bool accounts_name_ok(const char *name);

/* ---------------------------------------------------------------------------
 * The request bodies (account_body.c: no sockets, so fuzz/fuzz_account_body.c
 * drives it alone).
 * ------------------------------------------------------------------------- */
enum {
    ACCOUNTS_WANT_NAME = 1,         /* "name": an account name (accounts_name_ok), else 400 bad_name */
    ACCOUNTS_WANT_PASSWORD = 2,     /* "password": 8 to 256 characters, else 400 bad_password */
    ACCOUNTS_WANT_NEW_PASSWORD = 4, /* "new_password": the same */
    ACCOUNTS_WANT_TOKENS = 8,       /* "tokens": 1 to ACCOUNTS_CLAIM_MAX seat tokens (32 hex), else 400 bad_request */
};
#define ACCOUNTS_CLAIM_MAX 200 /* seat tokens one claim may name */
typedef struct accounts_body {
    char name[ACCOUNT_NAME_MAX + 1];
    const char *password, *new_password; /* inside doc */
    size_t password_len, new_password_len;
    const char *tokens[ACCOUNTS_CLAIM_MAX];
    size_t n_tokens;
    json_t *doc;
} accounts_body;
/* Read a JSON object with the fields asked for (others are ignored): true,
 * or false with e (400 bad_request, bad_name, bad_password). A password is
 * checked for its length only (NIST SP 800-63B: no rule on what it holds).
 * Free with accounts_body_free (which wipes the passwords) either way. */
bool accounts_read_body(const char *body, size_t len, unsigned want, accounts_body *out, srv_error *e);
void accounts_body_free(accounts_body *b);

/* ---------------------------------------------------------------------------
 * The accounts' options (asobi serve; docs/server.md, "Limits"). 0 for a
 * rate: no limit.
 * ------------------------------------------------------------------------- */
typedef struct accounts_config {
    double sign_ins_per_minute_per_address; /* --sign-ins-per-minute-per-address (a burst of as many) */
    double sign_ins_per_hour_per_name;      /* --sign-ins-per-hour-per-name (a burst of as many) */
    double sign_ups_per_hour_per_address;   /* --sign-ups-per-hour-per-address (a burst of as many) */
    int password_hashes;                    /* --password-hashes: Argon2id hashes at once (threads; ~19 MiB each) */
    int password_queue_per_address;         /* --password-queue-per-address: its hashes waiting at most */
} accounts_config;
#define ACCOUNTS_SIGN_INS_PER_MINUTE_PER_ADDRESS 30
#define ACCOUNTS_SIGN_INS_PER_HOUR_PER_NAME 30
#define ACCOUNTS_SIGN_UPS_PER_HOUR_PER_ADDRESS 20
#define ACCOUNTS_PASSWORD_HASHES 2
#define ACCOUNTS_PASSWORD_QUEUE_PER_ADDRESS 8
#define ACCOUNTS_QUEUE_MAX 512 /* jobs waiting, every address together: beyond, 503 busy */

/* What the loop's other files call (server.c, http.c). */
/* Start the workers, each with its store handle; false (with a message) when one cannot be had. */
bool accounts_start(struct server *s, char *message, size_t cap);
/* Stop them (the jobs still queued are dropped: their requests are closed with the server). */
void accounts_stop(struct server *s);
/* The workers' finished jobs, on the loop (LWS_CALLBACK_EVENT_WAIT_CANCELLED). */
void accounts_drain(struct server *s);
/* An /api/ request whose cookie the cache does not know: true when it
 * waits for the lookup (it is served again once it is done). */
bool accounts_look_up_first(struct server *s, struct lws *wsi, struct http_req *r);
/* The accounts' routes (/api/accounts, /api/session, /api/me,
 * /api/me/password, /api/me/claim): true when path is one (*rc: lws's
 * verdict), false for any other. */
bool accounts_answer(struct server *s, struct lws *wsi, struct http_req *r, int *rc);

#endif

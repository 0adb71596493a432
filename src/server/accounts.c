/* accounts.c — sign-up, sign-in and sessions: the session cache the loop answers from, the workers that hash passwords and read the store, the throttles (accounts.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "server/accounts.h"
#include "server/internal.h"
#include "server/password.h"
#include "server/token.h"

/* ---------------------------------------------------------------------------
 * The jobs. Each is one request's work (or a background lookup's), made on
 * the loop, run on a worker, and finished on the loop (accounts_drain). The
 * workers are at most cfg.password_hashes threads, so at most that many
 * Argon2id hashes (~19 MiB each) run at once, whatever comes in. Lookups and
 * sign-outs (no hash) are taken first. Hash jobs wait in one queue per
 * client address, the addresses in a ring: a worker takes the first job of
 * the first address, which goes to the back. One address sending a
 * thousand sign-ins waits behind its own, not in front of everyone's; and it
 * may have at most cfg.password_queue_per_address of them waiting (429 busy
 * beyond).
 * ------------------------------------------------------------------------- */
typedef enum job_kind { J_LOOKUP, J_SIGN_OUT, J_SIGN_UP, J_SIGN_IN, J_PASSWORD, J_CLOSE, J_CLAIM } job_kind;

typedef struct acct_job {
    struct acct_job *next;
    job_kind kind;
    struct acct_owner *owner; /* hash jobs: its address's queue */
    uint64_t wait;            /* the request waiting for it (http_wait's number; 0: none) */
    accounts_body body;       /* what the request sent (the passwords wiped with it) */
    char session_hash[TOKEN_HASH_CHARS + 1]; /* the request's session (lookup, sign-out, password, close) */
    account_ref who;          /* ... its account (password, close, claim) */
    /* the answer */
    int status;
    srv_error e;
    account_ref signed_in;    /* the account the job signed in (sign-up, sign-in), or found (lookup) */
    char new_token[SESSION_TOKEN_CHARS + 1]; /* a new session's token (sign-up, sign-in): the cookie */
    char new_hash[TOKEN_HASH_CHARS + 1];
    int claimed;
} acct_job;

typedef struct acct_owner {
    struct acct_owner *next; /* in the ring (or the free list) */
    unsigned char key[LIMITS_KEY_BYTES];
    acct_job *head, *tail;
    int queued;
    bool in_ring;
} acct_owner;

/* A cached session: what accounts_of answers from. */
typedef struct cached {
    struct cached *next;                 /* in its chain */
    char hash[TOKEN_HASH_CHARS + 1];
    account_ref who;                     /* id 0: a guest (no live session) */
    double checked_at;                   /* when the store last said so (now_s) */
    bool refreshing;                     /* a lookup is under way */
} cached;

#define CACHE_CHAINS 8192
#define THROTTLE_CHAINS 4096
#define THROTTLE_MAX 200000 /* keys remembered at once; beyond it, refused (fail closed) until the sweep */

/* A token bucket per key (an address, or a name in lower case). */
typedef struct throttle_entry {
    struct throttle_entry *next;
    unsigned char key[32];
    limits_bucket bucket;
} throttle_entry;

typedef struct throttle {
    throttle_entry *chain[THROTTLE_CHAINS];
    int count;
    double rate, burst; /* tokens a second, at most */
} throttle;

typedef struct accounts {
    server *s;
    accounts_config cfg;
    /* the workers (under lock) */
    pthread_t *threads;
    store_accounts **handles;
    int n_threads;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    acct_job *quick, *quick_tail; /* lookups and sign-outs */
    acct_owner *ring, *ring_tail; /* addresses with hash jobs waiting */
    acct_job *done, *done_tail;
    int queued;
    bool stopping;
    /* the loop's */
    cached *cache[CACHE_CHAINS];
    int cached_count;
    throttle sign_ins_address, sign_ins_name, sign_ups_address;
    double swept_at;
} accounts;

static uint64_t fnv(const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---------------------------------------------------------------------------
 * Throttles (the loop's): a bucket per key, forgotten once full again.
 * ------------------------------------------------------------------------- */
static bool throttle_take(throttle *t, const void *key, size_t n, double now, double *retry_after)
{
    if (t->rate <= 0)
        return true;
    unsigned char k[32] = {0};
    memcpy(k, key, n < sizeof k ? n : sizeof k);
    size_t i = fnv(k, sizeof k) % THROTTLE_CHAINS;
    throttle_entry *e = t->chain[i];
    while (e && memcmp(e->key, k, sizeof k) != 0)
        e = e->next;
    if (!e) {
        if (t->count >= THROTTLE_MAX || !(e = calloc(1, sizeof *e))) {
            *retry_after = 60;
            return false;
        }
        memcpy(e->key, k, sizeof k);
        e->next = t->chain[i];
        t->chain[i] = e;
        t->count++;
    }
    return limits_bucket_take(&e->bucket, t->rate, t->burst, now, retry_after);
}

static void throttle_sweep(throttle *t, double now, bool all)
{
    for (size_t i = 0; i < THROTTLE_CHAINS; i++)
        for (throttle_entry **p = &t->chain[i]; *p;) {
            throttle_entry *e = *p;
            if (all || limits_bucket_full(&e->bucket, t->rate, t->burst, now)) {
                *p = e->next;
                free(e);
                t->count--;
            } else {
                p = &e->next;
            }
        }
}

/* ---------------------------------------------------------------------------
 * The session cache (the loop's).
 * ------------------------------------------------------------------------- */
static cached **cache_slot(accounts *a, const char *hash)
{
    cached **p = &a->cache[fnv(hash, TOKEN_HASH_CHARS) % CACHE_CHAINS];
    while (*p && strcmp((*p)->hash, hash) != 0)
        p = &(*p)->next;
    return p;
}

/* Drop the oldest checked entries of one chain when the cache is full: the
 * memory stays bounded, and a dropped session is only read again. */
static void cache_make_room(accounts *a, const char *hash)
{
    if (a->cached_count < ACCOUNTS_CACHE_MAX)
        return;
    cached **chain = &a->cache[fnv(hash, TOKEN_HASH_CHARS) % CACHE_CHAINS];
    for (size_t i = 0; a->cached_count >= ACCOUNTS_CACHE_MAX && i < CACHE_CHAINS; i++) {
        cached **p = *chain ? chain : &a->cache[(fnv(hash, TOKEN_HASH_CHARS) + i) % CACHE_CHAINS];
        while (*p && !(*p)->refreshing) {
            cached *c = *p;
            *p = c->next;
            free(c);
            a->cached_count--;
            if (a->cached_count < ACCOUNTS_CACHE_MAX)
                return;
        }
        chain = &a->cache[(fnv(hash, TOKEN_HASH_CHARS) + i + 1) % CACHE_CHAINS];
    }
}

static void cache_set(accounts *a, const char *hash, const account_ref *who)
{
    cached **p = cache_slot(a, hash);
    if (!*p) {
        cache_make_room(a, hash);
        p = cache_slot(a, hash);
        cached *c = calloc(1, sizeof *c);
        if (!c)
            return;
        snprintf(c->hash, sizeof c->hash, "%s", hash);
        *p = c;
        a->cached_count++;
    }
    (*p)->who = who ? *who : (account_ref){0};
    (*p)->checked_at = now_s();
    (*p)->refreshing = false;
}

static void cache_drop(accounts *a, const char *hash)
{
    cached **p = cache_slot(a, hash);
    if (*p) {
        cached *c = *p;
        *p = c->next;
        free(c);
        a->cached_count--;
    }
}

/* Every session of an account but keep's (NULL: all) leaves the cache (a
 * password change, a closed account): on this node they end at once. */
static void cache_drop_account(accounts *a, int64_t id, const char *keep)
{
    for (size_t i = 0; i < CACHE_CHAINS; i++)
        for (cached **p = &a->cache[i]; *p;) {
            cached *c = *p;
            if (c->who.id == id && (!keep || strcmp(c->hash, keep) != 0)) {
                *p = c->next;
                free(c);
                a->cached_count--;
            } else {
                p = &c->next;
            }
        }
}

/* The request's session cookie: its token (false: none that could be one). */
static bool session_cookie(struct lws *wsi, char token[SESSION_TOKEN_CHARS + 1])
{
    char buf[SESSION_TOKEN_CHARS + 2];
    size_t max = sizeof buf;
    if (lws_http_cookie_get(wsi, ACCOUNTS_COOKIE, buf, &max) || max != SESSION_TOKEN_CHARS)
        return false;
    for (size_t i = 0; i < max; i++)
        if (!((buf[i] >= '0' && buf[i] <= '9') || (buf[i] >= 'a' && buf[i] <= 'f')))
            return false;
    memcpy(token, buf, SESSION_TOKEN_CHARS);
    token[SESSION_TOKEN_CHARS] = '\0';
    return true;
}

static bool queue_job(accounts *a, acct_job *j, limits_address *addr);

/* A lookup of hash on a worker, in the background or for request `wait`. */
static bool start_lookup(accounts *a, const char *hash, uint64_t wait, limits_address *addr)
{
    acct_job *j = calloc(1, sizeof *j);
    if (!j)
        return false;
    j->kind = J_LOOKUP;
    j->wait = wait;
    snprintf(j->session_hash, sizeof j->session_hash, "%s", hash);
    if (!queue_job(a, j, addr)) {
        free(j);
        return false;
    }
    return true;
}

/* What the cache says of the request's cookie, starting a lookup when it
 * says nothing (*hash: the cookie's hash, "" without one). */
static account_state cache_answer(accounts *a, struct lws *wsi, account_ref *out, char hash[TOKEN_HASH_CHARS + 1],
                                  bool start)
{
    char token[SESSION_TOKEN_CHARS + 1];
    hash[0] = '\0';
    memset(out, 0, sizeof *out);
    if (!a || !session_cookie(wsi, token))
        return ACCOUNT_GUEST;
    token_hash(token, hash);
    explicit_bzero(token, sizeof token);
    cached *c = *cache_slot(a, hash);
    if (!c) {
        if (start) {
            cache_set(a, hash, NULL); /* a guest until the store says otherwise */
            cached *made = *cache_slot(a, hash);
            if (made) {
                made->checked_at = 0;
                made->refreshing = start_lookup(a, hash, 0, client_address(wsi));
            }
        }
        return ACCOUNT_PENDING;
    }
    if (c->checked_at == 0 && c->refreshing)
        return ACCOUNT_PENDING; /* never read yet */
    if (!c->refreshing && now_s() - c->checked_at > ACCOUNTS_RECHECK_S)
        c->refreshing = start_lookup(a, hash, 0, client_address(wsi));
    if (!c->who.id)
        return ACCOUNT_GUEST;
    *out = c->who;
    return ACCOUNT_SIGNED_IN;
}

account_state accounts_of(server *s, struct lws *wsi, account_ref *out)
{
    char hash[TOKEN_HASH_CHARS + 1];
    return cache_answer(s->accounts, wsi, out, hash, true);
}

/* ---------------------------------------------------------------------------
 * The workers.
 * ------------------------------------------------------------------------- */
static bool queue_job(accounts *a, acct_job *j, limits_address *addr)
{
    bool quick = j->kind == J_LOOKUP || j->kind == J_SIGN_OUT;
    pthread_mutex_lock(&a->lock);
    if (a->stopping || a->queued >= ACCOUNTS_QUEUE_MAX) {
        pthread_mutex_unlock(&a->lock);
        return false;
    }
    if (quick) {
        if (a->quick_tail)
            a->quick_tail->next = j;
        else
            a->quick = j;
        a->quick_tail = j;
    } else {
        static const unsigned char nobody[LIMITS_KEY_BYTES];
        const unsigned char *key = addr ? addr->key : nobody;
        acct_owner *o = a->ring;
        while (o && memcmp(o->key, key, LIMITS_KEY_BYTES) != 0)
            o = o->next;
        if (!o) {
            if (!(o = calloc(1, sizeof *o))) {
                pthread_mutex_unlock(&a->lock);
                return false;
            }
            memcpy(o->key, key, LIMITS_KEY_BYTES);
        }
        if (a->cfg.password_queue_per_address > 0 && o->queued >= a->cfg.password_queue_per_address) {
            if (!o->in_ring)
                free(o);
            pthread_mutex_unlock(&a->lock);
            return false;
        }
        if (!o->in_ring) {
            o->in_ring = true;
            o->next = NULL;
            if (a->ring_tail)
                a->ring_tail->next = o;
            else
                a->ring = o;
            a->ring_tail = o;
        }
        if (o->tail)
            o->tail->next = j;
        else
            o->head = j;
        o->tail = j;
        o->queued++;
        j->owner = o;
    }
    a->queued++;
    pthread_cond_signal(&a->wake);
    pthread_mutex_unlock(&a->lock);
    return true;
}

/* Under the lock: the next job (quick ones first; then the ring's first
 * address's first job, and that address goes to the back). */
static acct_job *take_job(accounts *a)
{
    acct_job *j = a->quick;
    if (j) {
        a->quick = j->next;
        if (!a->quick)
            a->quick_tail = NULL;
    } else if (a->ring) {
        acct_owner *o = a->ring;
        a->ring = o->next;
        if (!a->ring)
            a->ring_tail = NULL;
        j = o->head;
        o->head = j->next;
        if (!o->head)
            o->tail = NULL;
        o->queued--;
        if (o->head) { /* to the back */
            o->next = NULL;
            if (a->ring_tail)
                a->ring_tail->next = o;
            else
                a->ring = o;
            a->ring_tail = o;
        } else {
            free(o);
        }
        j->owner = NULL;
    }
    if (j) {
        j->next = NULL;
        a->queued--;
    }
    return j;
}

static void fail_io(acct_job *j, const asobi_error *err)
{
    srv_log("accounts: %s", err->message);
    srv_fail(&j->e, 503, "busy", "the accounts' store failed: try again later");
    j->status = 503;
}

/* A new session for the job's signed-in account. */
static bool new_session(store_accounts *sa, acct_job *j)
{
    asobi_error err;
    if (!token_new_session(j->new_token)) {
        j->status = 503;
        srv_fail(&j->e, 503, "busy", "no randomness from the system: try again later");
        return false;
    }
    token_hash(j->new_token, j->new_hash);
    if (store_session_add(sa, j->new_hash, j->signed_in.id, wall_ms() + ACCOUNTS_SESSION_DAYS * 86400000LL, &err) !=
        ASOBI_OK) {
        fail_io(j, &err);
        return false;
    }
    return true;
}

static void bad_login(acct_job *j)
{
    j->status = 401;
    srv_fail(&j->e, 401, "bad_login", "wrong name or password");
}

/* Verify the password the request sent against the account of name (the
 * dummy hash when there is none, or it is closed: the same time either
 * way); true when it is the one, *found the account. */
static bool check_password(store_accounts *sa, acct_job *j, const char *name, store_account *found)
{
    asobi_error err;
    int rc = store_account_find(sa, name, found, &err);
    if (rc == ASOBI_E_IO) {
        fail_io(j, &err);
        return false;
    }
    bool usable = rc == ASOBI_OK && !found->closed_ms && found->password[0];
    password_result v = password_verify(j->body.password, j->body.password_len, usable ? found->password : NULL);
    if (v == PASSWORD_OK && usable)
        return true;
    if (v == PASSWORD_FAILED) {
        j->status = 503;
        srv_fail(&j->e, 503, "busy", "the server is out of memory for password checks: try again later");
    } else {
        bad_login(j);
    }
    return false;
}

static void run_job(store_accounts *sa, acct_job *j)
{
    asobi_error err;
    store_account acc;
    char encoded[PASSWORD_ENCODED_MAX];
    j->status = 200;
    switch (j->kind) {
    case J_LOOKUP: {
        int64_t expires, now = wall_ms();
        int rc = store_session_find(sa, j->session_hash, now, &acc, &expires, &err);
        if (rc == ASOBI_OK) {
            j->signed_in.id = acc.id;
            snprintf(j->signed_in.name, sizeof j->signed_in.name, "%s", acc.name);
            /* sliding: moved on at most once a day (a write per day of use, not per request) */
            if (expires - now < (ACCOUNTS_SESSION_DAYS - 1) * 86400000LL)
                store_session_touch(sa, j->session_hash, now + ACCOUNTS_SESSION_DAYS * 86400000LL, &err);
        } else if (rc == ASOBI_E_IO) {
            fail_io(j, &err);
        }
        break;
    }
    case J_SIGN_OUT:
        if (store_session_revoke(sa, j->session_hash, &err) != ASOBI_OK)
            fail_io(j, &err);
        break;
    case J_SIGN_UP: {
        password_result h = password_hash(j->body.password, j->body.password_len, encoded);
        if (h != PASSWORD_OK) {
            j->status = 503;
            srv_fail(&j->e, 503, "busy", "the server cannot hash a password now: try again later");
            break;
        }
        int64_t id;
        int rc = store_account_create(sa, j->body.name, encoded, wall_ms(), &id, &err);
        if (rc == ASOBI_E_BAD_ARGUMENT) {
            j->status = 409;
            srv_fail(&j->e, 409, "name_taken", "that name is taken");
            break;
        }
        if (rc != ASOBI_OK) {
            fail_io(j, &err);
            break;
        }
        j->signed_in.id = id;
        snprintf(j->signed_in.name, sizeof j->signed_in.name, "%s", j->body.name);
        if (new_session(sa, j))
            j->status = 201;
        break;
    }
    case J_SIGN_IN:
        if (!check_password(sa, j, j->body.name, &acc))
            break;
        j->signed_in.id = acc.id;
        snprintf(j->signed_in.name, sizeof j->signed_in.name, "%s", acc.name);
        /* parameters raised since this hash was made: store one at today's */
        if (password_needs_rehash(acc.password) &&
            password_hash(j->body.password, j->body.password_len, encoded) == PASSWORD_OK)
            store_account_set_password(sa, acc.id, encoded, &err);
        new_session(sa, j);
        break;
    case J_PASSWORD:
        if (!check_password(sa, j, j->who.name, &acc))
            break;
        if (password_hash(j->body.new_password, j->body.new_password_len, encoded) != PASSWORD_OK) {
            j->status = 503;
            srv_fail(&j->e, 503, "busy", "the server cannot hash a password now: try again later");
            break;
        }
        if (store_account_set_password(sa, acc.id, encoded, &err) != ASOBI_OK ||
            store_sessions_revoke(sa, acc.id, j->session_hash, &err) != ASOBI_OK)
            fail_io(j, &err);
        break;
    case J_CLOSE:
        if (!check_password(sa, j, j->who.name, &acc))
            break;
        if (store_account_close(sa, acc.id, wall_ms(), &err) != ASOBI_OK)
            fail_io(j, &err);
        break;
    case J_CLAIM: {
        char hashes[ACCOUNTS_CLAIM_MAX][TOKEN_HASH_CHARS + 1];
        const char *list[ACCOUNTS_CLAIM_MAX];
        for (size_t i = 0; i < j->body.n_tokens; i++) {
            token_hash(j->body.tokens[i], hashes[i]);
            list[i] = hashes[i];
        }
        if (store_claim_seats(sa, j->who.id, list, j->body.n_tokens, &j->claimed, &err) != ASOBI_OK)
            fail_io(j, &err);
        break;
    }
    }
    explicit_bzero(encoded, sizeof encoded);
}

static void job_free(acct_job *j);

typedef struct worker_arg {
    accounts *a;
    int index;
} worker_arg;

static void *worker_main(void *arg)
{
    worker_arg *w = arg;
    accounts *a = w->a;
    store_accounts *sa = a->handles[w->index];
    free(w);
    pthread_mutex_lock(&a->lock);
    for (;;) {
        acct_job *j = NULL;
        /* stopping: the jobs still queued are dropped (accounts_stop), not run: a
         * queue of hashes would hold the shutdown for as long as they take */
        while (!a->stopping && !(j = take_job(a)))
            pthread_cond_wait(&a->wake, &a->lock);
        if (a->stopping) {
            if (j) {
                pthread_mutex_unlock(&a->lock);
                job_free(j);
                pthread_mutex_lock(&a->lock);
            }
            break;
        }
        pthread_mutex_unlock(&a->lock);
        run_job(sa, j);
        accounts_body_free(&j->body); /* the passwords, wiped, as soon as they are done with */
        pthread_mutex_lock(&a->lock);
        if (a->done_tail)
            a->done_tail->next = j;
        else
            a->done = j;
        a->done_tail = j;
        lws_cancel_service(a->s->context); /* the loop drains (accounts_drain) */
    }
    pthread_mutex_unlock(&a->lock);
    return NULL;
}

bool accounts_start(server *s, char *message, size_t cap)
{
    accounts *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(message, cap, "out of memory");
        return false;
    }
    a->s = s;
    a->cfg = s->cfg.accounts;
    if (a->cfg.password_hashes < 1)
        a->cfg.password_hashes = 1;
    a->sign_ins_address = (throttle){.rate = a->cfg.sign_ins_per_minute_per_address / 60.0,
                                     .burst = a->cfg.sign_ins_per_minute_per_address};
    a->sign_ins_name = (throttle){.rate = a->cfg.sign_ins_per_hour_per_name / 3600.0,
                                  .burst = a->cfg.sign_ins_per_hour_per_name};
    a->sign_ups_address = (throttle){.rate = a->cfg.sign_ups_per_hour_per_address / 3600.0,
                                     .burst = a->cfg.sign_ups_per_hour_per_address};
    pthread_mutex_init(&a->lock, NULL);
    pthread_cond_init(&a->wake, NULL);
    s->accounts = a;
    int n = a->cfg.password_hashes;
    a->threads = calloc((size_t)n, sizeof *a->threads);
    a->handles = calloc((size_t)n, sizeof *a->handles);
    if (!a->threads || !a->handles) {
        snprintf(message, cap, "out of memory");
        return false;
    }
    for (int i = 0; i < n; i++) {
        asobi_error err;
        a->handles[i] = store_accounts_open(s->cfg.db, &err);
        worker_arg *w = a->handles[i] ? malloc(sizeof *w) : NULL;
        if (!a->handles[i]) {
            snprintf(message, cap, "accounts: %s", err.message);
            return false;
        }
        if (!w)
            return snprintf(message, cap, "out of memory"), false;
        *w = (worker_arg){a, i};
        if (pthread_create(&a->threads[i], NULL, worker_main, w) != 0) {
            free(w);
            snprintf(message, cap, "cannot start the accounts' threads");
            return false;
        }
        a->n_threads++;
    }
    return true;
}

static void job_free(acct_job *j)
{
    accounts_body_free(&j->body);
    explicit_bzero(j->new_token, sizeof j->new_token);
    free(j);
}

void accounts_stop(server *s)
{
    accounts *a = s->accounts;
    if (!a)
        return;
    pthread_mutex_lock(&a->lock);
    a->stopping = true;
    pthread_cond_broadcast(&a->wake);
    pthread_mutex_unlock(&a->lock);
    for (int i = 0; i < a->n_threads; i++)
        pthread_join(a->threads[i], NULL);
    acct_job *j;
    while ((j = take_job(a)))
        job_free(j);
    for (acct_job *next; a->done; a->done = next) {
        next = a->done->next;
        job_free(a->done);
    }
    for (int i = 0; a->handles && i < a->cfg.password_hashes; i++)
        store_accounts_close(a->handles[i]);
    for (size_t i = 0; i < CACHE_CHAINS; i++)
        for (cached *c = a->cache[i], *next; c; c = next) {
            next = c->next;
            free(c);
        }
    throttle_sweep(&a->sign_ins_address, 0, true);
    throttle_sweep(&a->sign_ins_name, 0, true);
    throttle_sweep(&a->sign_ups_address, 0, true);
    pthread_mutex_destroy(&a->lock);
    pthread_cond_destroy(&a->wake);
    free(a->threads);
    free(a->handles);
    free(a);
    s->accounts = NULL;
}

/* ---------------------------------------------------------------------------
 * The routes (the loop's side).
 * ------------------------------------------------------------------------- */
/* The Set-Cookie of a session (token) or of its end (NULL): HttpOnly (no
 * script reads it: an injected script cannot carry it off), SameSite=Lax (no
 * other site's POST carries it; the Origin check stays too), Path=/, and
 * Secure when the server is reached over https (--public-url). */
static void set_cookie(server *s, http_req *r, const char *token)
{
    bool secure = s->cfg.public_url && strncasecmp(s->cfg.public_url, "https://", 8) == 0;
    snprintf(r->set_cookie, sizeof r->set_cookie, "%s=%s; Path=/; Max-Age=%d; HttpOnly; SameSite=Lax%s",
             ACCOUNTS_COOKIE, token ? token : "", token ? ACCOUNTS_SESSION_DAYS * 86400 : 0,
             secure ? "; Secure" : "");
}

static int answer_json(server *s, struct lws *wsi, http_req *r, int status, json_t *body)
{
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    return http_answer(s, wsi, r, status, text, NULL);
}

static int refuse(server *s, struct lws *wsi, http_req *r, int status, const char *code, const char *message)
{
    srv_error e;
    srv_fail(&e, status, code, "%s", message);
    return http_refuse(s, wsi, r, &e);
}

/* Takes one from T's bucket for KEY (N bytes); when it is empty, answers
 * 429 with Retry-After (WHAT: the limit, for the message) and says true. */
static bool over_limit(server *s, struct lws *wsi, http_req *r, throttle *t, const void *key, size_t n, double now,
                       const char *what, int *rc)
{
    double retry = 0;
    if (throttle_take(t, key, n, now, &retry))
        return false;
    srv_error e;
    r->retry_after = (int)retry + 1;
    srv_fail(&e, 429, "rate_limited", "too many %s: try again in %d s", what, r->retry_after);
    *rc = http_refuse(s, wsi, r, &e);
    return true;
}

/* Hand the job to the workers; the request waits for it (accounts_drain answers). */
static int hand_over(server *s, struct lws *wsi, http_req *r, acct_job *j)
{
    limits_address *addr = client_address(wsi);
    j->wait = http_wait(s, wsi, r);
    if (!j->wait) {
        job_free(j);
        return -1;
    }
    if (!queue_job(s->accounts, j, addr)) {
        http_waiting(s, j->wait);
        job_free(j);
        r->retry_after = 2;
        return refuse(s, wsi, r, 429, "busy", "too many password checks waiting from your address: try again soon");
    }
    return 0;
}

static int read_body_or_refuse(server *s, struct lws *wsi, http_req *r, unsigned want, acct_job *j)
{
    srv_error e;
    if (r->body_too_long) {
        srv_fail(&e, 413, "body_too_long", "a request body may hold %d bytes", MESSAGE_MAX);
        http_refuse(s, wsi, r, &e);
        return 1;
    }
    if (!accounts_read_body(r->body, r->body_len, want, &j->body, &e)) {
        http_refuse(s, wsi, r, &e);
        return 1;
    }
    return 0;
}

bool accounts_look_up_first(server *s, struct lws *wsi, http_req *r)
{
    accounts *a = s->accounts;
    char hash[TOKEN_HASH_CHARS + 1];
    account_ref who;
    if (!a || r->accounts_looked_up || cache_answer(a, wsi, &who, hash, false) != ACCOUNT_PENDING)
        return false;
    /* not known: the request waits for a lookup of its own */
    cached **p = cache_slot(a, hash);
    if (!*p) {
        cache_set(a, hash, NULL);
        if (!*(p = cache_slot(a, hash)))
            return false;
        (*p)->checked_at = 0;
    }
    uint64_t n = http_wait(s, wsi, r);
    if (!n)
        return false;
    if (!start_lookup(a, hash, n, client_address(wsi))) {
        http_waiting(s, n);
        cache_drop(a, hash); /* asked again next time */
        return false;       /* served as a guest: the queue is full */
    }
    (*p)->refreshing = true;
    return true;
}

bool accounts_answer(server *s, struct lws *wsi, http_req *r, int *rc)
{
    accounts *a = s->accounts;
    const char *p = r->path;
    bool accounts_path = strcmp(p, "/api/accounts") == 0 || strcmp(p, "/api/session") == 0 ||
                         strcmp(p, "/api/me") == 0 || strcmp(p, "/api/me/password") == 0 ||
                         strcmp(p, "/api/me/claim") == 0;
    if (!accounts_path)
        return false;
    if (!a) {
        *rc = refuse(s, wsi, r, 503, "busy", "accounts are not served here");
        return true;
    }
    char hash[TOKEN_HASH_CHARS + 1];
    account_ref who;
    account_state state = cache_answer(a, wsi, &who, hash, false);
    limits_address *addr = client_address(wsi);
    double now = now_s();
    if (now - a->swept_at > 60) {
        throttle_sweep(&a->sign_ins_address, now, false);
        throttle_sweep(&a->sign_ins_name, now, false);
        throttle_sweep(&a->sign_ups_address, now, false);
        a->swept_at = now;
    }
    static const unsigned char nobody[LIMITS_KEY_BYTES];
    const unsigned char *key = addr ? addr->key : nobody;
    acct_job *j = calloc(1, sizeof *j);
    if (!j) {
        *rc = -1;
        return true;
    }
    snprintf(j->session_hash, sizeof j->session_hash, "%s", hash);
    j->who = who;
    bool signed_in = state == ACCOUNT_SIGNED_IN;
    bool sign_up = strcmp(p, "/api/accounts") == 0 && r->post, sign_in = strcmp(p, "/api/session") == 0 && r->post;
    if (sign_up || sign_in) {
        if (read_body_or_refuse(s, wsi, r, ACCOUNTS_WANT_NAME | ACCOUNTS_WANT_PASSWORD, j))
            goto answered;
        char lower[ACCOUNT_NAME_MAX + 1]; /* a name's bucket ignores case, as names do */
        size_t n = strlen(j->body.name);
        for (size_t i = 0; i <= n; i++)
            lower[i] = (char)(j->body.name[i] >= 'A' && j->body.name[i] <= 'Z' ? j->body.name[i] + 32
                                                                                 : j->body.name[i]);
        if (sign_up ? over_limit(s, wsi, r, &a->sign_ups_address, key, LIMITS_KEY_BYTES, now,
                                 "sign-ups from your address (--sign-ups-per-hour-per-address)", rc)
                    : over_limit(s, wsi, r, &a->sign_ins_address, key, LIMITS_KEY_BYTES, now,
                                 "sign-ins from your address (--sign-ins-per-minute-per-address)", rc) ||
                          over_limit(s, wsi, r, &a->sign_ins_name, lower, n, now,
                                     "sign-ins to this name (--sign-ins-per-hour-per-name)", rc))
            goto refused;
        j->kind = sign_up ? J_SIGN_UP : J_SIGN_IN;
        *rc = hand_over(s, wsi, r, j);
        return true;
    }
    if (strcmp(p, "/api/session") == 0 && r->del) {
        set_cookie(s, r, NULL); /* the browser forgets it whatever the store says */
        if (!hash[0]) {
            *rc = answer_json(s, wsi, r, 200, json_object());
            goto answered;
        }
        cache_drop(a, hash);
        j->kind = J_SIGN_OUT;
        *rc = hand_over(s, wsi, r, j);
        return true;
    }
    if (strcmp(p, "/api/me") == 0 && !r->post && !r->del) {
        if (!signed_in) {
            *rc = refuse(s, wsi, r, 401, "not_signed_in", "not signed in");
            goto answered;
        }
        char token[SESSION_TOKEN_CHARS + 1];
        if (session_cookie(wsi, token)) { /* the cookie's 30 days start again too (sliding) */
            set_cookie(s, r, token);
            explicit_bzero(token, sizeof token);
        }
        *rc = answer_json(s, wsi, r, 200, json_pack("{s:s}", "name", who.name));
        goto answered;
    }
    bool password = strcmp(p, "/api/me/password") == 0 && r->post, close = strcmp(p, "/api/me") == 0 && r->del,
         claim = strcmp(p, "/api/me/claim") == 0 && r->post;
    if (password || close || claim) {
        if (!signed_in) {
            *rc = refuse(s, wsi, r, 401, "not_signed_in", "not signed in");
            goto answered;
        }
        unsigned want = password ? ACCOUNTS_WANT_PASSWORD | ACCOUNTS_WANT_NEW_PASSWORD
                        : close  ? ACCOUNTS_WANT_PASSWORD
                                 : ACCOUNTS_WANT_TOKENS;
        if (read_body_or_refuse(s, wsi, r, want, j))
            goto answered;
        /* a password tried here counts as a sign-in: a stolen session must
         * not become a free guessing oracle for the account's password */
        if (!claim && over_limit(s, wsi, r, &a->sign_ins_address, key, LIMITS_KEY_BYTES, now,
                                 "password checks from your address (--sign-ins-per-minute-per-address)", rc))
            goto refused;
        j->kind = password ? J_PASSWORD : close ? J_CLOSE : J_CLAIM;
        *rc = hand_over(s, wsi, r, j);
        return true;
    }
    *rc = refuse(s, wsi, r, 405, "method_not_allowed", "that method is not served at this path");
answered:
refused:
    job_free(j);
    return true;
}

void accounts_drain(server *s)
{
    accounts *a = s->accounts;
    if (!a)
        return;
    pthread_mutex_lock(&a->lock);
    acct_job *list = a->done;
    a->done = a->done_tail = NULL;
    pthread_mutex_unlock(&a->lock);
    for (acct_job *j = list, *next; j; j = next) {
        next = j->next;
        /* the cache first: what the job changed holds before anyone is told */
        if (j->kind == J_LOOKUP && j->status == 200)
            cache_set(a, j->session_hash, &j->signed_in);
        else if (j->kind == J_LOOKUP) /* the store failed: asked again next time */
            cache_drop(a, j->session_hash);
        if ((j->kind == J_SIGN_UP || j->kind == J_SIGN_IN) && j->status < 300)
            cache_set(a, j->new_hash, &j->signed_in);
        if (j->kind == J_PASSWORD && j->status == 200)
            cache_drop_account(a, j->who.id, j->session_hash);
        if (j->kind == J_CLOSE && j->status == 200)
            cache_drop_account(a, j->who.id, NULL);
        struct lws *wsi = j->wait ? http_waiting(s, j->wait) : NULL;
        http_req *r = wsi ? lws_wsi_user(wsi) : NULL;
        if (r) {
            int rc;
            r->answer_later = true;
            if (j->kind == J_LOOKUP) { /* the request waited for its cookie: served now */
                r->accounts_looked_up = true;
                rc = http_body_done(s, wsi, r);
            } else if (j->status >= 400) {
                rc = http_refuse(s, wsi, r, &j->e);
            } else {
                json_t *body = json_object();
                if (j->kind == J_SIGN_UP || j->kind == J_SIGN_IN) {
                    set_cookie(s, r, j->new_token);
                    json_object_set_new(body, "name", json_string(j->signed_in.name));
                } else if (j->kind == J_PASSWORD) {
                    json_object_set_new(body, "name", json_string(j->who.name));
                } else if (j->kind == J_CLOSE) {
                    set_cookie(s, r, NULL);
                    json_object_set_new(body, "closed", json_string(j->who.name));
                } else if (j->kind == J_CLAIM) {
                    json_object_set_new(body, "claimed", json_integer(j->claimed));
                }
                rc = answer_json(s, wsi, r, j->status, body);
            }
            if (rc < 0)
                lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
        }
        job_free(j);
    }
}

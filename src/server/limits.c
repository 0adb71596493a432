/* limits.c — what one client address may hold and do in `asobi serve`: connections, table creations, bot tables, spectators, messages, replays. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/limits.h"

static const char *const kind_names[LIMIT_KINDS] = {
    "connections_per_address", "connections", "tables_per_address", "bot_tables_per_address",
    "slow_bot_tables_per_address", "replays_per_address", "spectators_per_address", "messages_per_connection", "messages_per_seat", "messages_per_address",
    "log_lines_per_address",
};

const char *limits_kind_name(limits_kind k)
{
    return (unsigned)k < LIMIT_KINDS ? kind_names[k] : "?";
}

/* Bring the bucket up to now: rate a second since it was last looked at,
 * never more than burst. A bucket never looked at is full. */
static void bucket_refill(limits_bucket *b, double rate, double burst, double now)
{
    if (b->at == 0 || now < b->at) {
        b->tokens = burst;
    } else {
        b->tokens += (now - b->at) * rate;
        if (b->tokens > burst)
            b->tokens = burst;
    }
    b->at = now;
}

bool limits_bucket_take(limits_bucket *b, double rate, double burst, double now, double *retry_after)
{
    if (rate <= 0)
        return true;
    if (burst < 1)
        burst = 1;
    bucket_refill(b, rate, burst, now);
    if (b->tokens >= 1) {
        b->tokens -= 1;
        return true;
    }
    if (retry_after)
        *retry_after = (1 - b->tokens) / rate;
    return false;
}

void limits_bucket_spend(limits_bucket *b, double rate, double burst, double now, double amount)
{
    if (rate <= 0)
        return;
    bucket_refill(b, rate, burst, now);
    b->tokens -= amount;
}

bool limits_bucket_left(limits_bucket *b, double rate, double burst, double now)
{
    if (rate <= 0)
        return true;
    bucket_refill(b, rate, burst, now);
    return b->tokens > 0;
}

bool limits_bucket_full(const limits_bucket *b, double rate, double burst, double now)
{
    return rate <= 0 || b->at == 0 || b->tokens + (now - b->at) * rate >= burst;
}

void limits_init(limits *l, const limits_config *cfg, uint64_t hash_seed)
{
    memset(l, 0, sizeof *l);
    l->cfg = *cfg;
    if (l->cfg.bot_tables_per_address > LIMITS_BOT_TABLES_MAX)
        l->cfg.bot_tables_per_address = LIMITS_BOT_TABLES_MAX;
    if (l->cfg.slow_bot_tables_per_address > LIMITS_BOT_TABLES_MAX)
        l->cfg.slow_bot_tables_per_address = LIMITS_BOT_TABLES_MAX;
    l->hash_seed = hash_seed;
}

void limits_free(limits *l)
{
    for (int i = 0; i < LIMITS_CHAINS; i++) {
        while (l->chain[i]) {
            limits_address *a = l->chain[i];
            l->chain[i] = a->next;
            free(a);
        }
    }
    l->addresses = 0;
}

bool limits_key_of(const struct sockaddr *sa, socklen_t len, unsigned char key[LIMITS_KEY_BYTES], char *name,
                   size_t name_cap)
{
    memset(key, 0, LIMITS_KEY_BYTES);
    if (sa->sa_family == AF_INET && len >= (socklen_t)sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        key[10] = key[11] = 0xff; /* as IPv4 in IPv6: ::ffff:a.b.c.d */
        memcpy(key + 12, &in->sin_addr, 4);
        inet_ntop(AF_INET, &in->sin_addr, name, (socklen_t)name_cap);
        return true;
    }
    if (sa->sa_family == AF_INET6 && len >= (socklen_t)sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
            memcpy(key, &in6->sin6_addr, 16);
            inet_ntop(AF_INET, in6->sin6_addr.s6_addr + 12, name, (socklen_t)name_cap);
            return true;
        }
        memcpy(key, &in6->sin6_addr, 8); /* the /64 */
        struct in6_addr prefix;
        memset(&prefix, 0, sizeof prefix);
        memcpy(&prefix, key, 8);
        char text[INET6_ADDRSTRLEN];
        inet_ntop(AF_INET6, &prefix, text, sizeof text);
        snprintf(name, name_cap, "%s/64", text);
        return true;
    }
    return false;
}

/* FNV-1a over the key, started from the server's random seed. */
static size_t chain_of(const limits *l, const unsigned char key[LIMITS_KEY_BYTES])
{
    uint64_t h = 1469598103934665603ULL ^ l->hash_seed;
    for (int i = 0; i < LIMITS_KEY_BYTES; i++) {
        h ^= key[i];
        h *= 1099511628211ULL;
    }
    h ^= h >> 29;
    return (size_t)(h % LIMITS_CHAINS);
}

limits_address *limits_address_of(limits *l, const unsigned char key[LIMITS_KEY_BYTES], const char *name)
{
    size_t c = chain_of(l, key);
    for (limits_address *a = l->chain[c]; a; a = a->next)
        if (memcmp(a->key, key, LIMITS_KEY_BYTES) == 0)
            return a;
    limits_address *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    memcpy(a->key, key, LIMITS_KEY_BYTES);
    snprintf(a->name, sizeof a->name, "%s", name ? name : "?");
    a->next = l->chain[c];
    l->chain[c] = a;
    l->addresses++;
    return a;
}

void limits_refused(limits *l, limits_kind k, const limits_address *a)
{
    l->refused[k]++;
    l->refused_unlogged[k]++;
    if (a)
        snprintf(l->last_refused, sizeof l->last_refused, "%s", a->name);
}

bool limits_connect(limits *l, limits_address *a, double now)
{
    if (l->cfg.connections > 0 && l->connections >= l->cfg.connections) {
        limits_refused(l, LIMIT_CONNECTIONS, a);
        return false;
    }
    if (l->cfg.connections_per_address > 0 && a->connections >= l->cfg.connections_per_address) {
        limits_refused(l, LIMIT_CONNECTIONS_PER_ADDRESS, a);
        return false;
    }
    a->connections++;
    l->connections++;
    a->used_at = now;
    return true;
}

void limits_disconnect(limits *l, limits_address *a, double now)
{
    if (a->connections > 0) {
        a->connections--;
        l->connections--;
    }
    a->used_at = now;
}

bool limits_create_table(limits *l, limits_address *a, double now, double *retry_after)
{
    a->used_at = now;
    if (limits_bucket_take(&a->tables, l->cfg.tables_per_minute / 60.0, l->cfg.table_burst, now, retry_after))
        return true;
    limits_refused(l, LIMIT_TABLES, a);
    return false;
}

/* May a make one more of the tables in list (max of them at once; 0: no
 * limit)? Those that no longer play are forgotten first. */
static bool tables_allowed(limits *l, limits_address *a, limits_tables *list, int max, limits_kind kind,
                           bool (*alive)(void *ctx, int64_t id), void *ctx, double now)
{
    int kept = 0;
    for (int i = 0; i < list->n; i++)
        if (alive(ctx, list->id[i]))
            list->id[kept++] = list->id[i];
    list->n = kept;
    a->used_at = now;
    if (max <= 0 || kept < max)
        return true;
    limits_refused(l, kind, a);
    return false;
}

static void table_made(limits_address *a, limits_tables *list, int64_t id, double now)
{
    if (list->n < LIMITS_BOT_TABLES_MAX)
        list->id[list->n++] = id;
    a->used_at = now;
}

bool limits_bot_table_allowed(limits *l, limits_address *a, bool (*alive)(void *ctx, int64_t id), void *ctx,
                              double now)
{
    return tables_allowed(l, a, &a->bot_tables, l->cfg.bot_tables_per_address, LIMIT_BOT_TABLES, alive, ctx, now);
}

void limits_bot_table_made(limits *l, limits_address *a, int64_t id, double now)
{
    (void)l;
    table_made(a, &a->bot_tables, id, now);
}

bool limits_slow_table_allowed(limits *l, limits_address *a, bool (*alive)(void *ctx, int64_t id), void *ctx,
                               double now)
{
    return tables_allowed(l, a, &a->slow_tables, l->cfg.slow_bot_tables_per_address, LIMIT_SLOW_BOT_TABLES, alive,
                          ctx, now);
}

void limits_slow_table_made(limits *l, limits_address *a, int64_t id, double now)
{
    (void)l;
    table_made(a, &a->slow_tables, id, now);
}

bool limits_replay(limits *l, limits_address *a, double now, double *retry_after)
{
    double rate = l->cfg.replays_per_second;
    a->used_at = now;
    if (limits_bucket_take(&a->replays, rate, 3 * rate, now, retry_after))
        return true;
    limits_refused(l, LIMIT_REPLAYS, a);
    return false;
}

bool limits_spectate(limits *l, limits_address *a, double now)
{
    a->used_at = now;
    if (l->cfg.spectators_per_address > 0 && a->spectators >= l->cfg.spectators_per_address) {
        limits_refused(l, LIMIT_SPECTATORS, a);
        return false;
    }
    a->spectators++;
    return true;
}

void limits_unspectate(limits *l, limits_address *a, double now)
{
    (void)l;
    if (a->spectators > 0)
        a->spectators--;
    a->used_at = now;
}

bool limits_message(limits *l, limits_address *a, limits_bucket *seat_bucket, double now)
{
    double per_seat = l->cfg.messages_per_seat, per_address = l->cfg.messages_per_address;
    /* The seat first: one person's ten tabs are one person. Its token is
     * spent even when the address refuses, as for a connection's. */
    if (seat_bucket && !limits_bucket_take(seat_bucket, per_seat, per_seat, now, NULL)) {
        limits_refused(l, LIMIT_MESSAGES_SEAT, a);
        return false;
    }
    if (a && !limits_bucket_take(&a->messages, per_address, 2 * per_address, now, NULL)) {
        limits_refused(l, LIMIT_MESSAGES_ADDRESS, a);
        return false;
    }
    if (a)
        a->used_at = now;
    return true;
}

bool limits_log_line(limits *l, limits_address *a, double now)
{
    double rate = l->cfg.log_lines_per_address;
    if (!a || limits_bucket_take(&a->log_lines, rate, 5 * rate, now, NULL))
        return true;
    limits_refused(l, LIMIT_LOG_LINES, a);
    return false;
}

bool limits_summary(limits *l, double now, char *line, size_t cap)
{
    if (now - l->summary_at < 1.0)
        return false;
    size_t len = 0;
    line[0] = '\0';
    for (int k = 0; k < LIMIT_KINDS; k++) {
        if (!l->refused_unlogged[k])
            continue;
        int n = snprintf(line + len, cap - len, "%s%llu %s", len ? ", " : "",
                         (unsigned long long)l->refused_unlogged[k], kind_names[k]);
        if (n > 0 && (size_t)n < cap - len)
            len += (size_t)n;
        l->refused_unlogged[k] = 0;
    }
    if (!len)
        return false;
    snprintf(line + len, cap - len, " (the last from %s)", l->last_refused);
    l->summary_at = now;
    return true;
}

void limits_sweep(limits *l, double now)
{
    double tables_rate = l->cfg.tables_per_minute / 60.0;
    for (int i = 0; i < LIMITS_CHAINS; i++) {
        for (limits_address **p = &l->chain[i]; *p;) {
            limits_address *a = *p;
            bool idle = !a->connections && !a->spectators && !a->bot_tables.n && !a->slow_tables.n &&
                        limits_bucket_full(&a->replays, l->cfg.replays_per_second, 3 * l->cfg.replays_per_second, now) &&
                        limits_bucket_full(&a->tables, tables_rate, l->cfg.table_burst, now) &&
                        limits_bucket_full(&a->messages, l->cfg.messages_per_address, 2 * l->cfg.messages_per_address, now) &&
                        limits_bucket_full(&a->log_lines, l->cfg.log_lines_per_address, 5 * l->cfg.log_lines_per_address, now);
            if (!idle) {
                p = &a->next;
                continue;
            }
            *p = a->next;
            free(a);
            l->addresses--;
        }
    }
}

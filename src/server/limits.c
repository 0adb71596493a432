/* limits.c — what one client address may hold and do in `asobi serve`: connections, table creations, bot tables, spectators, messages, replays. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/limits.h"

static const char *const kind_names[LIMIT_KINDS] = {
    "connections_per_address", "connections", "tables_per_address", "bot_tables_per_address",
    "slow_bot_tables_per_address", "replays_per_address", "spectators_per_address", "messages_per_connection", "messages_per_seat", "messages_per_address",
    "log_lines_per_address", "chat_per_seat", "chat_per_address",
    "profile_reads_per_address",
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

bool limits_ip_of_sockaddr(const struct sockaddr *sa, socklen_t len, limits_ip *ip)
{
    memset(ip, 0, sizeof *ip);
    if (sa->sa_family == AF_INET && len >= (socklen_t)sizeof(struct sockaddr_in)) {
        ip->b[10] = ip->b[11] = 0xff; /* as IPv4 in IPv6: ::ffff:a.b.c.d */
        memcpy(ip->b + 12, &((const struct sockaddr_in *)sa)->sin_addr, 4);
        return true;
    }
    if (sa->sa_family == AF_INET6 && len >= (socklen_t)sizeof(struct sockaddr_in6)) {
        memcpy(ip->b, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
        return true;
    }
    return false;
}

bool limits_ip_parse(const char *text, size_t len, limits_ip *ip)
{
    while (len && (*text == ' ' || *text == '\t'))
        text++, len--;
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
        len--;
    if (len >= 2 && text[0] == '"' && text[len - 1] == '"')
        text++, len -= 2;
    if (len >= 2 && text[0] == '[') { /* [v6] or [v6]:port */
        const char *close = memchr(text, ']', len);
        if (!close)
            return false;
        len = (size_t)(close - text) - 1;
        text++;
    } else {
        const char *colon = memchr(text, ':', len);
        if (colon && !memchr(colon + 1, ':', len - (size_t)(colon - text) - 1)) /* one colon: a.b.c.d:port */
            len = (size_t)(colon - text);
    }
    char buf[INET6_ADDRSTRLEN];
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, text, len);
    buf[len] = '\0';
    memset(ip, 0, sizeof *ip);
    struct in_addr v4;
    if (inet_pton(AF_INET, buf, &v4) == 1) {
        ip->b[10] = ip->b[11] = 0xff;
        memcpy(ip->b + 12, &v4, 4);
        return true;
    }
    return inet_pton(AF_INET6, buf, ip->b) == 1;
}

void limits_key_of(const limits_ip *ip, unsigned char key[LIMITS_KEY_BYTES], char *name, size_t name_cap)
{
    memset(key, 0, LIMITS_KEY_BYTES);
    if (IN6_IS_ADDR_V4MAPPED((const struct in6_addr *)ip->b)) {
        memcpy(key, ip->b, 16);
        inet_ntop(AF_INET, ip->b + 12, name, (socklen_t)name_cap);
        return;
    }
    memcpy(key, ip->b, 8); /* the /64 */
    struct in6_addr prefix;
    memset(&prefix, 0, sizeof prefix);
    memcpy(&prefix, key, 8);
    char text[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, &prefix, text, sizeof text);
    snprintf(name, name_cap, "%s/64", text);
}

bool limits_range_parse(const char *text, limits_range *out)
{
    limits_range range, *r = &range;
    const char *slash = strchr(text, '/');
    size_t len = slash ? (size_t)(slash - text) : strlen(text);
    char buf[INET6_ADDRSTRLEN];
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, text, len);
    buf[len] = '\0';
    memset(&r->ip, 0, sizeof r->ip);
    struct in_addr v4;
    bool is_v4 = inet_pton(AF_INET, buf, &v4) == 1;
    if (is_v4) {
        r->ip.b[10] = r->ip.b[11] = 0xff;
        memcpy(r->ip.b + 12, &v4, 4);
    } else if (inet_pton(AF_INET6, buf, r->ip.b) != 1) {
        return false;
    }
    int max = is_v4 ? 32 : 128, bits = max;
    if (slash) {
        char *end;
        long b = strtol(slash + 1, &end, 10);
        if (slash[1] < '0' || slash[1] > '9' || *end || b > max)
            return false;
        bits = (int)b;
    }
    r->bits = is_v4 ? bits + 96 : bits;
    *out = range;
    return true;
}

bool limits_range_has(const limits_range *r, const limits_ip *ip)
{
    int full = r->bits / 8, rest = r->bits % 8;
    if (memcmp(r->ip.b, ip->b, (size_t)full) != 0)
        return false;
    unsigned char mask = (unsigned char)(0xff << (8 - rest));
    return rest == 0 || ((r->ip.b[full] ^ ip->b[full]) & mask) == 0;
}

static bool trusted_ip(const limits_range *trusted, int n, const limits_ip *ip)
{
    for (int i = 0; i < n; i++)
        if (limits_range_has(&trusted[i], ip))
            return true;
    return false;
}

bool limits_trusted(const limits *l, const limits_ip *ip)
{
    return trusted_ip(l->cfg.trusted, l->cfg.n_trusted, ip);
}

/* The address of one element of a Forwarded header: its for= parameter. */
static bool forwarded_for(const char *elem, size_t len, limits_ip *ip)
{
    for (size_t i = 0; i < len;) {
        const char *pair = elem + i;
        const char *semi = memchr(pair, ';', len - i);
        size_t n = semi ? (size_t)(semi - pair) : len - i;
        while (n && (*pair == ' ' || *pair == '\t'))
            pair++, n--;
        if (n > 4 && strncasecmp(pair, "for=", 4) == 0)
            return limits_ip_parse(pair + 4, n - 4, ip);
        i += (size_t)(pair - (elem + i)) + n + 1;
    }
    return false;
}

limits_ip limits_client_of(const limits_range *trusted, int n_trusted, const limits_ip *peer, const char *xff,
                           const char *forwarded)
{
    limits_ip client = *peer;
    if (!trusted_ip(trusted, n_trusted, peer))
        return client; /* its header, if any, is whatever it chose to write */
    const char *chain = xff && *xff ? xff : forwarded;
    if (!chain)
        return client;
    /* from the right: each element was appended by the hop to its right */
    size_t end = strlen(chain);
    for (;;) {
        size_t start = end;
        while (start > 0 && chain[start - 1] != ',')
            start--;
        limits_ip hop;
        bool ok = chain == xff ? limits_ip_parse(chain + start, end - start, &hop)
                               : forwarded_for(chain + start, end - start, &hop);
        if (!ok)
            return client; /* no address where a trusted hop wrote one: the chain ends at that hop */
        client = hop;
        if (!trusted_ip(trusted, n_trusted, &hop) || start == 0)
            return client;
        end = start - 1;
    }
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
    if (l->cfg.connections_per_address > 0 && a->connections >= l->cfg.connections_per_address &&
        !a->trusted_proxy) {
        limits_refused(l, LIMIT_CONNECTIONS_PER_ADDRESS, a);
        return false;
    }
    a->connections++;
    l->connections++;
    a->used_at = now;
    return true;
}

bool limits_move(limits *l, limits_address *from, limits_address *to, double now)
{
    if (from == to)
        return true;
    if (l->cfg.connections_per_address > 0 && to->connections >= l->cfg.connections_per_address &&
        !to->trusted_proxy) {
        limits_refused(l, LIMIT_CONNECTIONS_PER_ADDRESS, to);
        return false;
    }
    limits_disconnect(l, from, now);
    l->connections++;
    to->connections++;
    to->used_at = now;
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

bool limits_profile_read(limits *l, limits_address *a, double now, double *retry_after)
{
    double rate = l->cfg.profile_reads_per_second;
    a->used_at = now;
    if (limits_bucket_take(&a->profile_reads, rate, 3 * rate, now, retry_after))
        return true;
    limits_refused(l, LIMIT_PROFILE_READS, a);
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
                        limits_bucket_full(&a->log_lines, l->cfg.log_lines_per_address, 5 * l->cfg.log_lines_per_address, now) &&
                        limits_bucket_full(&a->chat, l->cfg.chat_per_minute_per_address / 60,
                                           l->cfg.chat_per_minute_per_address / 6, now) &&
                        limits_bucket_full(&a->profile_reads, l->cfg.profile_reads_per_second,
                                           3 * l->cfg.profile_reads_per_second, now);
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

/* limits.h — what one client address may hold and do in `asobi serve`: connections, table creations, bot tables, spectators, messages, replays. */
#ifndef ASOBI_SERVER_LIMITS_H
#define ASOBI_SERVER_LIMITS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

/* Why per address
 * ---------------
 * Limits per connection do not hold a client back: it opens more
 * connections. So what a client may hold (connections, spectators' places,
 * all-bot tables) and how fast it may ask (tables, messages) is counted per
 * client address: an IPv4 address, or an IPv6 /64 (what one subscriber
 * gets; an address per request is free inside it). A household or a club
 * behind one NAT shares one address, which is why every default leaves
 * room for a few dozen people (docs/server.md, "Limits"). Nothing here
 * touches a socket: admit.c hands in addresses and the time. */

/* A token bucket: `rate` tokens a second, at most `burst` at once. A burst is
 * judged the same wherever it falls across the clock's seconds. */
typedef struct limits_bucket {
    double tokens;
    double at; /* when tokens was last brought up to date (0: never: full) */
} limits_bucket;

/* Take one token: true if there was one; else *retry_after (may be NULL)
 * receives the seconds until there is. rate <= 0: no limit. */
bool limits_bucket_take(limits_bucket *b, double rate, double burst, double now, double *retry_after);
/* Spend amount (any size: the bucket may go below zero, a debt paid back at
 * rate), and whether anything is left to spend (above zero). rate <= 0: no
 * limit (always something left). For what is measured only once spent,
 * such as a bot's seconds of work. */
void limits_bucket_spend(limits_bucket *b, double rate, double burst, double now, double amount);
bool limits_bucket_left(limits_bucket *b, double rate, double burst, double now);
/* Is the bucket full again (as if never used)? */
bool limits_bucket_full(const limits_bucket *b, double rate, double burst, double now);

#define LIMITS_KEY_BYTES 16

/* An IP address as 16 bytes: IPv6, or IPv4 as IPv4 in IPv6 (::ffff:a.b.c.d). */
typedef struct limits_ip {
    unsigned char b[16];
} limits_ip;

/* The address of a socket address; false for another family (such a client
 * is not counted, and none is refused for it). */
bool limits_ip_of_sockaddr(const struct sockaddr *sa, socklen_t len, limits_ip *ip);
/* The address a text names: "a.b.c.d", an IPv6 address, either with a port
 * ("a.b.c.d:p", "[v6]:p") or in brackets, quotes around it allowed (as
 * RFC 7239's Forwarded writes it). false for anything else (a host name,
 * "unknown", an obfuscated node). */
bool limits_ip_parse(const char *text, size_t len, limits_ip *ip);
/* The key an address is counted under (IPv4, or its IPv6 /64) and its printable name. */
void limits_key_of(const limits_ip *ip, unsigned char key[LIMITS_KEY_BYTES], char *name, size_t name_cap);

/* Proxies trusted to say who their client is (--trusted-proxy ADDR[/BITS]). */
typedef struct limits_range {
    limits_ip ip;
    int bits; /* of the 128 (an IPv4 range's bits + 96) */
} limits_range;
#define LIMITS_TRUSTED_MAX 16
/* "ADDR" or "ADDR/BITS" (IPv4 or IPv6): true and *r, or false. */
bool limits_range_parse(const char *text, limits_range *r);
bool limits_range_has(const limits_range *r, const limits_ip *ip);

/* The limits (asobi serve's options; 0 for a count or a rate: no limit). */
typedef struct limits_config {
    int connections_per_address; /* --max-connections-per-address */
    int connections;             /* --max-connections: every address together */
    double tables_per_minute;    /* --tables-per-minute-per-address: the creation bucket's rate */
    int table_burst;             /* --table-burst-per-address: ... and its size */
    int bot_tables_per_address;  /* --max-bot-tables-per-address: all-bot tables playing at once */
    int slow_bot_tables_per_address; /* --max-slow-bot-tables-per-address: unfinished tables with a searching bot */
    int bot_workers_per_address; /* --max-bot-workers-per-address: workers its jobs hold at once (workers.c's;
                                    below zero: half the --workers, at least one) */
    double bot_seconds_per_minute; /* --bot-seconds-per-minute-per-address: its bots' time on the workers
                                      (workers.c's bucket; a burst of one minute's worth) */
    double replays_per_second;   /* --replays-per-second-per-address: GET .../replay and .../record (a burst of 3 s) */
    int spectators_per_address;  /* --max-spectators-per-address: spectators' sockets at once */
    double messages_per_address; /* --messages-per-second-per-address (a burst of two seconds' worth) */
    double messages_per_seat;    /* --messages-per-second-per-seat (a burst of one second's worth) */
    double log_lines_per_address; /* --log-lines-per-second-per-address: its refusals' lines (a burst of 5 s) */
    /* chat (issue 44: chat.c) */
    double chat_per_ten_seconds;        /* --chat-lines-per-ten-seconds: a seat's or spectator connection's lines */
    double chat_per_minute_per_address; /* --chat-lines-per-minute-per-address (a burst of ten seconds' worth) */
    /* ratings (issue 42: ratings_api.c) */
    double profile_reads_per_second; /* --profile-reads-per-second-per-address: GET /api/players/NAME and
                                        /api/leaderboard/GAME (a burst of 3 s) */
    limits_range trusted[LIMITS_TRUSTED_MAX]; /* --trusted-proxy: whose forwarded header names the client */
    int n_trusted;
} limits_config;

/* What the limits refuse, for /metrics and the log's summary. */
typedef enum limits_kind {
    LIMIT_CONNECTIONS_PER_ADDRESS,
    LIMIT_CONNECTIONS,
    LIMIT_TABLES,
    LIMIT_BOT_TABLES,
    LIMIT_SLOW_BOT_TABLES,
    LIMIT_REPLAYS,
    LIMIT_SPECTATORS,
    LIMIT_MESSAGES_CONNECTION,
    LIMIT_MESSAGES_SEAT,
    LIMIT_MESSAGES_ADDRESS,
    LIMIT_LOG_LINES,
    LIMIT_CHAT,          /* chat (issue 44): a seat's or spectator connection's lines */
    LIMIT_CHAT_ADDRESS,  /* ... an address's */
    LIMIT_PROFILE_READS, /* ratings (issue 42): profiles and leaderboards read */
    LIMIT_KINDS
} limits_kind;
/* Its name in /metrics ({limit="..."}) and in the log. */
const char *limits_kind_name(limits_kind k);

#define LIMITS_BOT_TABLES_MAX 64 /* the most --max-bot-tables-per-address (and ...-slow-...) may be */

/* Tables an address made that count against one of its limits while they
 * play (forgotten once over: limits_tables_allowed asks). */
typedef struct limits_tables {
    int64_t id[LIMITS_BOT_TABLES_MAX];
    int n;
} limits_tables;

/* One client address and what it holds. */
typedef struct limits_address {
    struct limits_address *next; /* in its hash chain */
    unsigned char key[LIMITS_KEY_BYTES];
    char name[48];               /* printable, for the log */
    int connections;
    int spectators;
    limits_bucket tables;
    limits_bucket messages;
    limits_bucket log_lines;
    limits_bucket replays;
    limits_bucket chat;          /* its chat lines (chat.c) */
    limits_bucket profile_reads; /* its profiles and leaderboards read (ratings_api.c) */
    limits_tables bot_tables;    /* all-bot tables it created that may still play */
    limits_tables slow_tables;   /* tables with a searching bot it created that may still play */
    double used_at;              /* last taken or let go of something */
    bool trusted_proxy;          /* a --trusted-proxy: its connections are its clients', not its own (admit.c) */
} limits_address;

#define LIMITS_CHAINS 4096

typedef struct limits {
    limits_config cfg;
    limits_address *chain[LIMITS_CHAINS];
    uint64_t hash_seed;          /* random: nobody can aim many addresses at one chain */
    int addresses;
    int connections;             /* every address together */
    uint64_t refused[LIMIT_KINDS];         /* since the start (/metrics) */
    uint64_t refused_unlogged[LIMIT_KINDS]; /* since the last summary line */
    char last_refused[48];       /* the address refused last, for the summary */
    double summary_at;
} limits;

void limits_init(limits *l, const limits_config *cfg, uint64_t hash_seed);
/* Is ip within a --trusted-proxy range? */
bool limits_trusted(const limits *l, const limits_ip *ip);
void limits_free(limits *l);

/* Who the client of a connection from peer is. From a peer that is not a
 * trusted proxy, the peer itself, whatever it says. From a trusted one, the
 * right-most address of the forwarded chain (xff: X-Forwarded-For's
 * "client, proxy1, proxy2", each proxy appending who it heard from; else
 * forwarded: RFC 7239's Forwarded "for=client, for=proxy1") that is not
 * itself trusted: every hop to its right was appended by a proxy we trust,
 * and anything to its left the client may have written itself. A chain of
 * trusted proxies only: its left-most; an entry that is no address (where a
 * trusted hop wrote one, the chain is broken): the hop right of it. NULL
 * headers: the peer. */
limits_ip limits_client_of(const limits_range *trusted, int n_trusted, const limits_ip *peer, const char *xff,
                           const char *forwarded);
/* The entry of an address, made if missing (NULL: out of memory). */
limits_address *limits_address_of(limits *l, const unsigned char key[LIMITS_KEY_BYTES], const char *name);

/* A new connection from a: counted and true, or refused (false, counted
 * under LIMIT_CONNECTIONS_PER_ADDRESS or LIMIT_CONNECTIONS). A trusted
 * proxy's connections are not held to the per-address limit: each is its
 * client's once its request's head names the client (limits_move). */
bool limits_connect(limits *l, limits_address *a, double now);
void limits_disconnect(limits *l, limits_address *a, double now);
/* A connection counted under from is its client to's: counted there (true),
 * or refused as a new connection of to's would be (false, still from's). */
bool limits_move(limits *l, limits_address *from, limits_address *to, double now);

/* A table creation from a: true, or false with *retry_after in seconds. */
bool limits_create_table(limits *l, limits_address *a, double now, double *retry_after);

/* All-bot tables: may a create another one? alive(ctx, id) says whether
 * one it made still plays (those that ended are forgotten here). */
bool limits_bot_table_allowed(limits *l, limits_address *a, bool (*alive)(void *ctx, int64_t id), void *ctx,
                              double now);
void limits_bot_table_made(limits *l, limits_address *a, int64_t id, double now);
/* The same for tables with a slow (searching) bot: --max-slow-bot-tables-per-address. */
bool limits_slow_table_allowed(limits *l, limits_address *a, bool (*alive)(void *ctx, int64_t id), void *ctx,
                               double now);
void limits_slow_table_made(limits *l, limits_address *a, int64_t id, double now);

/* A replay's step or a record asked for by a: true, or false with *retry_after in seconds. */
bool limits_replay(limits *l, limits_address *a, double now, double *retry_after);
/* A profile or a leaderboard asked for by a (issue 42): true, or false with *retry_after in seconds. */
bool limits_profile_read(limits *l, limits_address *a, double now, double *retry_after);

/* A spectator's socket from a: counted and true, or refused. */
bool limits_spectate(limits *l, limits_address *a, double now);
void limits_unspectate(limits *l, limits_address *a, double now);

/* A message from a seat's connection (seat_bucket: that seat's, NULL for a
 * spectator or the lobby) from address a: true if it may be handled. */
bool limits_message(limits *l, limits_address *a, limits_bucket *seat_bucket, double now);

/* May a refusal of address a (NULL: not counted) have a line in the log?
 * Beyond its share it is only counted (LIMIT_LOG_LINES) and summed up: a
 * client cannot fill the disk by being refused. */
bool limits_log_line(limits *l, limits_address *a, double now);

/* Count a refusal (the callers above count their own). */
void limits_refused(limits *l, limits_kind k, const limits_address *a);

/* Once a second at most: the summary of the refusals since the last one,
 * written into line (false: nothing to say). Refusals of the limits are not
 * logged one by one: a flood must not fill the disk. */
bool limits_summary(limits *l, double now, char *line, size_t cap);

/* Forget addresses that hold nothing and whose buckets are full again (the
 * memory follows the clients present, not every client ever seen). */
void limits_sweep(limits *l, double now);

#endif

/* cmd_serve.c — `asobi serve`: the game server (HTTP + WebSockets + SQLite); see docs/server.md. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "asobi/review.h"
#include "server/chat.h"
#include "server/server.h"

#ifndef ASOBI_WEB_DIR
#define ASOBI_WEB_DIR "web"
#endif

/* The limits per client address by default: a household or a club behind
 * one address (a few dozen people, each with a lobby, a table and a few
 * HTTP connections; a burst of 30 tables; rematches; friends watching) is
 * never refused by them (docs/server.md, "Limits"). */
#define CONNECTIONS_PER_ADDRESS 256
#define TABLES_PER_MINUTE 60
#define TABLE_BURST 60
#define BOT_TABLES 4
#define SPECTATORS 64
#define MESSAGES_PER_ADDRESS 200
#define MESSAGES_PER_SEAT 20
#define LOG_LINES 10
/* A family playing 4 tables against searching bots at once stays under
 * both: 4 tables' bots thinking without a pause use 240 s a minute. */
#define SLOW_BOT_TABLES 8
#define BOT_SECONDS_PER_MINUTE 300
#define REPLAYS_PER_SECOND 20
#define PROFILE_READS_PER_SECOND 10

static void usage(FILE *out)
{
    fprintf(out,
            "usage: asobi serve [--port 8080] [--host 127.0.0.1] [--db FILE|postgresql://...] [--web DIR]\n"
            "                   [--public-url URL] [--node NAME] [--lease 10]\n"
            "                   [--workers N] [--grace 120] [--max-connections 4096] [--event-loop libev|libuv|poll]\n"
            "                   [--allow-origin URL]... [--trusted-proxy ADDR[/BITS]]... [--card-sets DIR]\n"
            "                   [--allow-chosen-seeds]\n"
            "                   [--max-connections-per-address N] [--tables-per-minute-per-address R]\n"
            "                   [--table-burst-per-address N] [--max-bot-tables-per-address N]\n"
            "                   [--max-spectators-per-address N] [--messages-per-second-per-address R]\n"
            "                   [--messages-per-second-per-seat R] [--log-lines-per-second-per-address R]\n"
            "                   [--max-slow-bot-tables-per-address N] [--bot-seconds-per-minute-per-address S]\n"
            "                   [--max-bot-workers-per-address N] [--replays-per-second-per-address R]\n"
            "                   [--chat-lines-per-ten-seconds N] [--chat-lines-per-minute-per-address N]\n"
            "                   [--bot-deadline 5] [--max-bot-tables 32] [--bot-table-pace 0.2]\n"
            "                   [--max-cycles %d] [--max-turns %d]\n"
            "                   [--open-table-expiry 1800] [--idle-table-expiry 7200] [--max-spectators 100]\n"
            "                   [--review-bot SPEC] [--max-queued-reviews %d] [--reviews-per-hour-per-address %d]\n"
            "                   [--sign-ins-per-minute-per-address R] [--sign-ins-per-hour-per-name R]\n"
            "                   [--sign-ups-per-hour-per-address R] [--password-hashes N]\n"
            "                   [--password-queue-per-address N] [--profile-reads-per-second-per-address R]\n\n"
            "The game server: tables over HTTP (/api/...), play over WebSockets (/ws/tables/ID),\n"
            "every accepted action kept in the SQLite database; unfinished tables are restored on start.\n"
            "  --port P          the port (0: any free one; the address is printed)\n"
            "  --host A          the address to listen on (127.0.0.1: this machine only)\n"
            "  --db FILE         the SQLite database (created if missing; default\n"
            "                    $XDG_DATA_HOME/asobi/asobi.db, else ~/.local/share/asobi/asobi.db),\n"
            "                    or a PostgreSQL URI (postgresql://USER@HOST/DB): several nodes share it\n"
            "  --public-url U    where clients reach this node (e.g. https://play.example/n/a): a table's\n"
            "                    \"ws\" is U/ws/tables/ID (PostgreSQL; docs/server.md, \"Several nodes\")\n"
            "  --node NAME       this node's name among the nodes (default: host name and process id)\n"
            "  --lease S         seconds a node's hold on its tables lasts unrenewed (default 10)\n"
            "  --web DIR         the static files served at / (default %s)\n"
            "  --workers N       threads for bot moves (default: one per core)\n"
            "  --grace S         seconds a disconnected seat may keep its turn before a bot moves for it\n"
            "  --max-connections N  open connections (WebSockets and HTTP) at most (default 4096)\n"
            "  --event-loop L    libev (default) or libuv (both wait with epoll, through libwebsockets'\n"
            "                    plugins), or poll (libwebsockets' own loop)\n"
            "  --allow-origin U  a browser origin (e.g. https://example.org) allowed besides our own; repeatable\n"
            "  --trusted-proxy A  a reverse proxy (an address or a CIDR range, IPv4 or IPv6) whose\n"
            "                    X-Forwarded-For (else Forwarded) names the client: its right-most address\n"
            "                    that is not itself trusted is the client's for every limit; repeatable\n"
            "                    (anyone else's header is ignored; docs/deploy.md)\n"
            "  --card-sets DIR   every DIR/NAME.json is a Time Masters card set a table may use by name\n"
            "  --allow-chosen-seeds  a client may choose a table's seed (\"seed\" at creation; whoever\n"
            "                    chooses it knows every hand): for tests, benchmarks and research only;\n"
            "                    such a table says so to everyone (\"seed_chosen\")\n"
            "  --bot-deadline S  a bot move running longer is abandoned: the heuristic moves instead (default 5)\n"
            "  --max-bot-tables N  tables only bots play, at most (default 32)\n"
            "  --bot-table-pace S  such a table's bot moves start at least S seconds apart (default 0.2)\n"
            "  --open-table-expiry S  an open table nobody joined goes after S seconds (default 1800)\n"
            "  --idle-table-expiry S  an unfinished table nobody is connected to goes after S seconds (default 7200)\n"
            "  --max-spectators N  spectators of one table at most (default 100)\n"
            "  --max-cycles N    a PSYCLE table's max_cycles at most (default %d): no endless games\n"
            "  --max-turns N     an OCTAL or Time Masters table's max_turns at most (default %d)\n"
            "  --review-bot SPEC  the judge of game reviews (default %s)\n"
            "  --max-queued-reviews N  reviews queued or running, every node's together (default %d)\n"
            "Limits per client address (an IPv4 address or an IPv6 /64; 0: no limit):\n"
            "  --max-connections-per-address N  open connections (default %d, or a quarter of\n"
            "                    --max-connections if that is fewer)\n"
            "  --tables-per-minute-per-address R  tables created a minute, over a burst of ... (default %d)\n"
            "  --table-burst-per-address N  ... tables at once (default %d)\n"
            "  --max-bot-tables-per-address N  tables of bots only playing at once (default %d)\n"
            "  --max-spectators-per-address N  spectators' connections (default %d)\n"
            "  --messages-per-second-per-address R  WebSocket messages a second, a burst of two seconds'\n"
            "                    worth (default %d)\n"
            "  --messages-per-second-per-seat R  a seat's messages a second over all its connections\n"
            "                    (default %d)\n"
            "  --log-lines-per-second-per-address R  log lines of its refusals, a burst of five seconds'\n"
            "                    worth (default %d; the rest are counted and summed up once a second)\n"
            "  --max-slow-bot-tables-per-address N  unfinished tables with a searching bot (default %d)\n"
            "  --max-bot-workers-per-address N  bot workers its bots and replays hold at once (default:\n"
            "                    half the --workers, at least one)\n"
            "  --bot-seconds-per-minute-per-address S  its bots' and replays' time on the workers, a burst\n"
            "                    of one minute's worth (default %d)\n"
            "  --replays-per-second-per-address R  replay steps and records asked for, a burst of three\n"
            "                    seconds' worth (default %d)\n"
            "  --reviews-per-hour-per-address R  game reviews asked, a burst of three (default %d)\n"
            "  --chat-lines-per-ten-seconds N  chat lines of one seat, or one spectator's connection, in\n"
            "                    ten seconds (default %d)\n"
            "  --chat-lines-per-minute-per-address N  chat lines a minute from one address, a burst of\n"
            "                    ten seconds' worth (default %d)\n"
            "Accounts (docs/server.md, \"Accounts and ratings\"; 0: no limit):\n"
            "  --sign-ins-per-minute-per-address R  sign-ins (and password checks) from one address a\n"
            "                    minute, a burst of as many (default %d)\n"
            "  --sign-ins-per-hour-per-name R  sign-ins to one name an hour, a burst of as many (default %d)\n"
            "  --sign-ups-per-hour-per-address R  accounts made from one address an hour (default %d)\n"
            "  --password-hashes N  Argon2id hashes at once, ~19 MiB each (default %d)\n"
            "  --password-queue-per-address N  an address's password checks waiting at most (default %d)\n"
            "  --profile-reads-per-second-per-address R  profiles and leaderboards read, a burst of three\n"
            "                    seconds' worth (default %d)\n"
            "See docs/server.md (\"Limits\").\n",
            SERVER_MAX_CYCLES, SERVER_MAX_TURNS, SERVER_MAX_QUEUED_REVIEWS, SERVER_REVIEWS_PER_HOUR, ASOBI_WEB_DIR,
            SERVER_MAX_CYCLES, SERVER_MAX_TURNS, ASOBI_REVIEW_DEFAULT_BOT, SERVER_MAX_QUEUED_REVIEWS,
            CONNECTIONS_PER_ADDRESS, TABLES_PER_MINUTE, TABLE_BURST, BOT_TABLES, SPECTATORS, MESSAGES_PER_ADDRESS,
            MESSAGES_PER_SEAT, LOG_LINES, SLOW_BOT_TABLES, BOT_SECONDS_PER_MINUTE, REPLAYS_PER_SECOND,
            SERVER_REVIEWS_PER_HOUR, CHAT_PER_TEN_SECONDS, CHAT_PER_MINUTE_PER_ADDRESS,
            ACCOUNTS_SIGN_INS_PER_MINUTE_PER_ADDRESS, ACCOUNTS_SIGN_INS_PER_HOUR_PER_NAME,
            ACCOUNTS_SIGN_UPS_PER_HOUR_PER_ADDRESS, ACCOUNTS_PASSWORD_HASHES, ACCOUNTS_PASSWORD_QUEUE_PER_ADDRESS,
            PROFILE_READS_PER_SECOND);
}

/* "--NAME" of a long option, for messages. */
static const char *longopts_name(const struct option *opts, int val)
{
    static char name[64];
    for (; opts->name; opts++)
        if (opts->val == val) {
            snprintf(name, sizeof name, "--%s", opts->name);
            return name;
        }
    return "option";
}

/* Creates the folders of PATH's parent, as mkdir -p would (new ones 0700: user data, as the XDG Base
 * Directory spec asks). False, with a message, when one cannot be made. */
static bool make_parents(char *path)
{
    for (char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        bool made = mkdir(path, 0700) == 0 || errno == EEXIST;
        if (!made)
            fprintf(stderr, "asobi serve: cannot create the folder %s: %s\n", path, strerror(errno));
        *slash = '/';
        if (!made)
            return false;
    }
    return true;
}

/* The database when --db is not given: where a user's data lives, never the current folder (a server started
 * in a repository would leave asobi.db there): $XDG_DATA_HOME/asobi/asobi.db, else (unset, empty or relative,
 * which the spec says to ignore) ~/.local/share/asobi/asobi.db, its folders created. NULL, with a message,
 * when there is neither or a folder cannot be made. The caller frees it. */
static char *default_db(void)
{
    const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME"), *base, *under;
    if (data && data[0] == '/')
        base = data, under = "/asobi/asobi.db";
    else if (home && home[0] == '/')
        base = home, under = "/.local/share/asobi/asobi.db";
    else {
        fprintf(stderr, "asobi serve: neither $XDG_DATA_HOME nor $HOME names a folder: give --db FILE\n");
        return NULL;
    }
    size_t size = strlen(base) + strlen(under) + 1;
    char *path = malloc(size);
    if (!path)
        return NULL;
    snprintf(path, size, "%s%s", base, under);
    if (!make_parents(path)) {
        free(path);
        return NULL;
    }
    return path;
}

int cli_serve(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"port", required_argument, NULL, 'p'},         {"host", required_argument, NULL, 'H'},
        {"db", required_argument, NULL, 'd'},           {"web", required_argument, NULL, 'w'},
        {"workers", required_argument, NULL, 'j'},      {"grace", required_argument, NULL, 'g'},
        {"allow-origin", required_argument, NULL, 'a'}, {"help", no_argument, NULL, 'h'},
        {"max-connections", required_argument, NULL, 'm'}, {"event-loop", required_argument, NULL, 'l'},
        {"max-connections-per-address", required_argument, NULL, 1000},
        {"tables-per-minute-per-address", required_argument, NULL, 1001},
        {"table-burst-per-address", required_argument, NULL, 1002},
        {"max-bot-tables-per-address", required_argument, NULL, 1003},
        {"max-spectators-per-address", required_argument, NULL, 1004},
        {"messages-per-second-per-address", required_argument, NULL, 1005},
        {"messages-per-second-per-seat", required_argument, NULL, 1006},
        {"log-lines-per-second-per-address", required_argument, NULL, 1007},
        {"max-slow-bot-tables-per-address", required_argument, NULL, 1008},
        {"bot-seconds-per-minute-per-address", required_argument, NULL, 1009},
        {"replays-per-second-per-address", required_argument, NULL, 1010},
        {"max-bot-workers-per-address", required_argument, NULL, 1011},
        {"chat-lines-per-ten-seconds", required_argument, NULL, 1310},
        {"chat-lines-per-minute-per-address", required_argument, NULL, 1311},
        {"profile-reads-per-second-per-address", required_argument, NULL, 1312},
        {"allow-chosen-seeds", no_argument, NULL, 'S'},
        CLI_CARD_SETS_OPTION,
        {"bot-deadline", required_argument, NULL, 1100},      {"max-bot-tables", required_argument, NULL, 1101},
        {"bot-table-pace", required_argument, NULL, 1102},    {"open-table-expiry", required_argument, NULL, 1103},
        {"idle-table-expiry", required_argument, NULL, 1104}, {"max-spectators", required_argument, NULL, 1105},
        {"public-url", required_argument, NULL, 1200},        {"node", required_argument, NULL, 1201},
        {"lease", required_argument, NULL, 1202},         {"trusted-proxy", required_argument, NULL, 1203},
        {"max-cycles", required_argument, NULL, 1106},        {"max-turns", required_argument, NULL, 1107},
        {"review-bot", required_argument, NULL, 1300},        {"max-queued-reviews", required_argument, NULL, 1301},
        {"reviews-per-hour-per-address", required_argument, NULL, 1302},
        /* accounts (accounts.h) */
        {"sign-ins-per-minute-per-address", required_argument, NULL, 1320},
        {"sign-ins-per-hour-per-name", required_argument, NULL, 1321},
        {"sign-ups-per-hour-per-address", required_argument, NULL, 1322},
        {"password-hashes", required_argument, NULL, 1323},
        {"password-queue-per-address", required_argument, NULL, 1324},
        {NULL, 0, NULL, 0},
    };
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    server_config cfg = {
        .host = "127.0.0.1",
        .port = 8080,
        .db = NULL, /* default_db() unless --db */
        .web = ASOBI_WEB_DIR,
        .workers = cores > 0 ? (int)cores : 1,
        .grace_ms = 120000,
        .max_connections = 4096,
        .limits = {.connections_per_address = -1, /* below: from --max-connections */
                   .tables_per_minute = TABLES_PER_MINUTE,
                   .table_burst = TABLE_BURST,
                   .bot_tables_per_address = BOT_TABLES,
                   .spectators_per_address = SPECTATORS,
                   .messages_per_address = MESSAGES_PER_ADDRESS,
                   .messages_per_seat = MESSAGES_PER_SEAT,
                   .log_lines_per_address = LOG_LINES,
                   .slow_bot_tables_per_address = SLOW_BOT_TABLES,
                   .bot_workers_per_address = -1, /* server.c: half the workers */
                   .bot_seconds_per_minute = BOT_SECONDS_PER_MINUTE,
                   .replays_per_second = REPLAYS_PER_SECOND,
                   .chat_per_ten_seconds = CHAT_PER_TEN_SECONDS,
                   .chat_per_minute_per_address = CHAT_PER_MINUTE_PER_ADDRESS,
                   .profile_reads_per_second = PROFILE_READS_PER_SECOND},
        .bot_deadline_ms = SERVER_BOT_DEADLINE_MS,
        .max_bot_tables = SERVER_MAX_BOT_TABLES,
        .bot_table_pace_ms = SERVER_BOT_TABLE_PACE_MS,
        .open_expiry_ms = SERVER_OPEN_EXPIRY_MS,
        .idle_expiry_ms = SERVER_IDLE_EXPIRY_MS,
        .max_spectators = SERVER_MAX_SPECTATORS,
        .max_cycles = SERVER_MAX_CYCLES,
        .max_turns = SERVER_MAX_TURNS,
        .max_queued_reviews = SERVER_MAX_QUEUED_REVIEWS,
        .reviews_per_hour = SERVER_REVIEWS_PER_HOUR,
        .accounts = {.sign_ins_per_minute_per_address = ACCOUNTS_SIGN_INS_PER_MINUTE_PER_ADDRESS,
                     .sign_ins_per_hour_per_name = ACCOUNTS_SIGN_INS_PER_HOUR_PER_NAME,
                     .sign_ups_per_hour_per_address = ACCOUNTS_SIGN_UPS_PER_HOUR_PER_ADDRESS,
                     .password_hashes = ACCOUNTS_PASSWORD_HASHES,
                     .password_queue_per_address = ACCOUNTS_PASSWORD_QUEUE_PER_ADDRESS},
    };
    int c;
    long v;
    const char *sets_dir = NULL;
    double seconds;
    optind = 1;
    while ((c = getopt_long(argc, argv, "p:H:d:w:j:g:a:C:m:l:Sh", longopts, NULL)) != -1) {
        switch (c) {
        case 'p':
            if (!cli_parse_long(optarg, 0, 65535, "--port", &v))
                return 2;
            cfg.port = (int)v;
            break;
        case 'H':
            cfg.host = optarg;
            break;
        case 'd':
            cfg.db = optarg;
            break;
        case 1200:
            cfg.public_url = optarg;
            break;
        case 1201:
            cfg.node = optarg;
            break;
        case 1202:
            if (!cli_parse_double(optarg, 0.5, 3600, "--lease", &seconds))
                return 2;
            cfg.lease_ms = (int64_t)(seconds * 1000.0);
            break;
        case 1203:
            if (cfg.limits.n_trusted == LIMITS_TRUSTED_MAX) {
                fprintf(stderr, "asobi serve: at most %d --trusted-proxy values\n", LIMITS_TRUSTED_MAX);
                return 2;
            }
            if (!limits_range_parse(optarg, &cfg.limits.trusted[cfg.limits.n_trusted])) {
                fprintf(stderr, "asobi serve: --trusted-proxy takes an address or a range (127.0.0.1, "
                                "10.0.0.0/8, fd00::/8), not \"%s\"\n", optarg);
                return 2;
            }
            cfg.limits.n_trusted++;
            break;
        case 'w':
            cfg.web = optarg;
            break;
        case 'j':
            if (!cli_parse_long(optarg, 1, 256, "--workers", &v))
                return 2;
            cfg.workers = (int)v;
            break;
        case 'g':
            if (!cli_parse_double(optarg, 0, 86400.0 * 7, "--grace", &seconds))
                return 2;
            cfg.grace_ms = (int64_t)(seconds * 1000.0);
            break;
        case 'm':
            if (!cli_parse_long(optarg, 16, 1000000, "--max-connections", &v))
                return 2;
            cfg.max_connections = (int)v;
            break;
        case 'l':
            if (server_event_loop_of(optarg) < 0) {
                fprintf(stderr, "asobi serve: --event-loop is libev, libuv or poll, not \"%s\"\n", optarg);
                return 2;
            }
            cfg.loop = (server_event_loop)server_event_loop_of(optarg);
            break;
        case 'a':
            if (cfg.origins == SERVER_MAX_ORIGINS) {
                fprintf(stderr, "asobi serve: at most %d --allow-origin values\n", SERVER_MAX_ORIGINS);
                return 2;
            }
            cfg.allow_origin[cfg.origins++] = optarg;
            break;
        case 'C':
            sets_dir = optarg;
            break;
        case 1000:
        case 1002:
        case 1003:
        case 1004:
        case 1008:
        case 1011:
            if (!cli_parse_long(optarg, 0, c == 1003 || c == 1008 ? LIMITS_BOT_TABLES_MAX : 1000000,
                                longopts_name(longopts, c), &v))
                return 2;
            *(c == 1000   ? &cfg.limits.connections_per_address
              : c == 1002 ? &cfg.limits.table_burst
              : c == 1003 ? &cfg.limits.bot_tables_per_address
              : c == 1008 ? &cfg.limits.slow_bot_tables_per_address
              : c == 1011 ? &cfg.limits.bot_workers_per_address
                          : &cfg.limits.spectators_per_address) = (int)v;
            break;
        case 1001:
        case 1005:
        case 1006:
        case 1007:
        case 1009:
        case 1010:
            if (!cli_parse_double(optarg, 0, 1e6, longopts_name(longopts, c), &seconds))
                return 2;
            *(c == 1001   ? &cfg.limits.tables_per_minute
              : c == 1005 ? &cfg.limits.messages_per_address
              : c == 1006 ? &cfg.limits.messages_per_seat
              : c == 1009 ? &cfg.limits.bot_seconds_per_minute
              : c == 1010 ? &cfg.limits.replays_per_second
                          : &cfg.limits.log_lines_per_address) = seconds;
            break;
        case 1310:
        case 1311:
        case 1312:
            if (!cli_parse_double(optarg, 0, 1e6, longopts_name(longopts, c), &seconds))
                return 2;
            *(c == 1310   ? &cfg.limits.chat_per_ten_seconds
              : c == 1311 ? &cfg.limits.chat_per_minute_per_address
                          : &cfg.limits.profile_reads_per_second) = seconds;
            break;
        case 1106:
        case 1107:
            if (!cli_parse_long(optarg, 1, 1000000, longopts_name(longopts, c), &v))
                return 2;
            *(c == 1106 ? &cfg.max_cycles : &cfg.max_turns) = (int)v;
            break;
        case 'S':
            cfg.allow_chosen_seeds = true;
            break;
        case 1320:
        case 1321:
        case 1322:
            if (!cli_parse_double(optarg, 0, 1e6, longopts_name(longopts, c), &seconds))
                return 2;
            *(c == 1320   ? &cfg.accounts.sign_ins_per_minute_per_address
              : c == 1321 ? &cfg.accounts.sign_ins_per_hour_per_name
                          : &cfg.accounts.sign_ups_per_hour_per_address) = seconds;
            break;
        case 1323:
        case 1324:
            if (!cli_parse_long(optarg, c == 1323 ? 1 : 0, c == 1323 ? 64 : 100000, longopts_name(longopts, c), &v))
                return 2;
            *(c == 1323 ? &cfg.accounts.password_hashes : &cfg.accounts.password_queue_per_address) = (int)v;
            break;
        case 1100:
            if (!cli_parse_double(optarg, 0.05, 3600, "--bot-deadline", &seconds))
                return 2;
            cfg.bot_deadline_ms = (int64_t)(seconds * 1000.0);
            break;
        case 1101:
            if (!cli_parse_long(optarg, 1, 1000000, "--max-bot-tables", &v))
                return 2;
            cfg.max_bot_tables = (int)v;
            break;
        case 1102:
            if (!cli_parse_double(optarg, 0, 3600, "--bot-table-pace", &seconds))
                return 2;
            cfg.bot_table_pace_ms = (int64_t)(seconds * 1000.0);
            break;
        case 1103:
            if (!cli_parse_double(optarg, 0.1, 86400.0 * 365, "--open-table-expiry", &seconds))
                return 2;
            cfg.open_expiry_ms = (int64_t)(seconds * 1000.0);
            break;
        case 1104:
            if (!cli_parse_double(optarg, 0.1, 86400.0 * 365, "--idle-table-expiry", &seconds))
                return 2;
            cfg.idle_expiry_ms = (int64_t)(seconds * 1000.0);
            break;
        case 1105:
            if (!cli_parse_long(optarg, 0, 1000000, "--max-spectators", &v))
                return 2;
            cfg.max_spectators = (int)v;
            break;
        case 1300:
            cfg.review_bot = optarg;
            break;
        case 1301:
            if (!cli_parse_long(optarg, 0, 1000000, "--max-queued-reviews", &v))
                return 2;
            cfg.max_queued_reviews = (int)v;
            break;
        case 1302:
            if (!cli_parse_double(optarg, 0, 1e6, "--reviews-per-hour-per-address", &seconds))
                return 2;
            cfg.reviews_per_hour = seconds;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (cfg.limits.connections_per_address < 0) /* a quarter at most: room for other addresses */
        cfg.limits.connections_per_address =
            cfg.max_connections / 4 < CONNECTIONS_PER_ADDRESS ? cfg.max_connections / 4 : CONNECTIONS_PER_ADDRESS;
    if (optind < argc) {
        fprintf(stderr, "asobi serve: unexpected argument \"%s\"\n", argv[optind]);
        usage(stderr);
        return 2;
    }
    char *db = cfg.db ? NULL : default_db();
    if (!cfg.db && !db)
        return 1;
    if (db)
        cfg.db = db;
    asobi_data_sets *sets = sets_dir ? cli_load_card_sets(sets_dir) : NULL;
    if (sets_dir && !sets) {
        free(db);
        return 1;
    }
    cfg.card_sets = sets;
    int status = server_run(&cfg);
    asobi_data_sets_free(sets);
    free(db);
    return status;
}

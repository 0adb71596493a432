/* store.h — where tables, seats and accepted actions are kept: one small interface, SQLite or PostgreSQL behind it. */
#ifndef ASOBI_SERVER_STORE_H
#define ASOBI_SERVER_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "asobi/asobi.h"

/* Why an interface: the server only ever needs these few operations, and
 * two backends fit behind them: SQLite (store_sqlite.c, one file, one
 * server) and PostgreSQL (store_pg.c, several server nodes sharing one
 * database, each table owned by one node under a lease: docs/server.md,
 * "Several nodes"). Writes join one open batch (group commit: one commit
 * for every action of a loop turn). The rule that makes this safe: nothing
 * written is told to anyone before its batch is committed.
 *
 * Two ways to commit. store_flush commits and returns when it is done (the
 * tests, start-up, shutdown). The server's loop instead starts the commit
 * (store_commit_start) and sends nothing while store_settled is false: with
 * SQLite the commit is done at once (a local file), with PostgreSQL a store
 * thread commits over the network while the loop serves on, and wakes the
 * loop (store_set_wake) when it is done; store_collect then says what came
 * of it. Reads are synchronous, but for store_lookup_start's (PostgreSQL:
 * on a reader thread). Errors are ASOBI_E_IO with the database's
 * message. */
typedef struct store store;

/* The options of a PostgreSQL store (several nodes); SQLite ignores them. */
typedef struct store_options {
    const char *node;       /* this node's name, unique among the nodes (NULL: host name and process id) */
    const char *public_url; /* where clients reach this node (--public-url), "" or NULL: none */
    int64_t lease_ms;       /* how long a table's lease lasts unrenewed (--lease); 0: STORE_LEASE_MS */
} store_options;
#define STORE_LEASE_MS 10000

/* Is where a PostgreSQL URI (postgresql:// or postgres://) rather than a file? */
bool store_is_postgresql(const char *where);

/* Open (creating if needed) the store at where: a PostgreSQL URI, or a
 * SQLite file (":memory:" for tests). One SQLite store per file: while one
 * is open, another process's store_open is refused (ASOBI_E_IO, "... is in
 * use by another process ...") after two seconds' wait; other readers of the
 * file are not. opt may be NULL (the defaults). */
store *store_open(const char *where, asobi_error *err);
store *store_open_with(const char *where, const store_options *opt, asobi_error *err);
/* "sqlite" or "postgresql". */
const char *store_backend_name(const store *st);
/* Flushes, then closes. */
void store_close(store *st);
/* Commit every write since the last flush (nothing to do: ASOBI_OK), and
 * wait for it. On an error the writes are rolled back: the caller must not
 * go on as if they were kept (the server stops; a restart restores what was
 * committed). Writes to tables the node no longer owns (PostgreSQL) are
 * dropped, not an error: store_collect reports those tables. */
int store_flush(store *st, asobi_error *err);

/* Start committing the writes since the last commit; does not wait (SQLite:
 * commits at once). ASOBI_E_IO when an earlier commit failed. */
int store_commit_start(store *st, asobi_error *err);
/* Is every write committed (none waiting, none under way)? */
bool store_settled(store *st);
/* Batches are numbered: store_batch_seq is the number of the batch that
 * holds the writes made so far (committed or not), store_committed_seq the
 * number of the last batch committed as far as the caller knows: with
 * PostgreSQL it moves at store_collect only, together with the tables
 * those commits lost (fenced writes count as committed: their tables must
 * be dropped before anything of theirs is sent). A text built now may be sent once
 * store_committed_seq reaches the store_batch_seq of now: the server waits
 * for its own table's writes only, not for every batch after them. */
uint64_t store_batch_seq(store *st);
uint64_t store_committed_seq(store *st);
/* What happened since the last call (PostgreSQL; SQLite: nothing). */
typedef struct store_claim {
    int64_t id;
    json_t *spec, *seats, *actions; /* as store_load_unfinished gives them */
} store_claim;
/* An asynchronous read's answer (store_lookup_start): what
 * store_owner_url and store_load_finished would have said of the table. */
typedef struct store_lookup {
    int64_t table;
    void *cookie;           /* the caller's, as given */
    bool rows;              /* asked for the table's rows (to bring it back) rather than its record */
    char *owner_url;        /* as store_owner_url (NULL: no unfinished table of that id) */
    json_t *summary, *record; /* a finished table's, as store_load_finished (NULL: none; no record with rows) */
    json_t *spec, *seats, *actions; /* with rows, a finished table's, as store_load_table (NULL: none) */
    /* a ratings read (store_ratings_read_start; table 0): what it asked, and its answer */
    char *player, *game;    /* a profile (player), else a leaderboard (game) */
    int64_t before;
    int answer_rc;          /* store_player's or store_leaderboard's return */
    json_t *answer;         /* ... and what it read (NULL unless ASOBI_OK) */
} store_lookup;
typedef struct store_events {
    store_lookup *lookups;  /* reads asked by store_lookup_start that are done */
    size_t n_lookups;
    int64_t *lost;          /* tables this node no longer owns (fenced, or its lease lapsed): stop serving them */
    size_t n_lost;
    store_claim *claimed;   /* unowned tables this node took: restore them */
    size_t n_claimed;
    bool others_changed;    /* other nodes' tables changed (their lobby entries) */
} store_events;
/* Collect the events (ev is filled; free it with store_events_free); an
 * error when a commit failed (the server stops, as for store_flush). */
int store_collect(store *st, store_events *ev, asobi_error *err);
void store_events_free(store_events *ev);
/* wake(ctx) is called from the store's thread when a commit ended or an
 * event is waiting (the server wakes its loop); never with SQLite. */
void store_set_wake(store *st, void (*wake)(void *), void *ctx);
/* The lobby across nodes (PostgreSQL; SQLite: nothing, an empty array).
 * store_publish_tables: this node's list entries (a JSON array of table
 * summaries) replace those it published before, and the other nodes are
 * told (one NOTIFY), on the store's thread; the server calls it at most
 * twice a second, never per action. store_other_tables: the entries the
 * other nodes published, as last read (a new reference). */
void store_publish_tables(store *st, const json_t *entries);
json_t *store_other_tables(store *st);
/* Is origin ("https://play.example") a live node's (its --public-url's)?
 * Every node accepts the others' pages (PostgreSQL; SQLite: never). */
bool store_node_origin(store *st, const char *origin);
/* This node's public URL, once known (a node without --public-url is
 * reached at its listening address, known once it listens). */
void store_set_public_url(store *st, const char *url);
/* Does this node own the table (SQLite: always)? */
bool store_owns(store *st, int64_t table);
/* PostgreSQL: the public URL (--public-url) of the node owning the
 * unfinished table, "" while it is between owners (or its node has no
 * URL), NULL when there is no unfinished table of that id (and always with
 * SQLite); a new string, to free. A read on the caller's thread. */
char *store_owner_url(store *st, int64_t table);

/* Reads that the loop must not wait for (PostgreSQL: a round trip over the
 * network, which a lock in the database may hold for any time). The
 * store's reader thread runs them on a connection of its own, and the
 * answer comes with store_collect (its events' lookups) after a wake.
 * False when the store reads synchronously (SQLite: a local file), or out
 * of memory: the caller then reads itself. */
bool store_lookup_start(store *st, int64_t table, bool rows, void *cookie);
/* PostgreSQL: is the table leased to another live node, as the last
 * heartbeat read the leases (no round trip: up to a third of the lease
 * old; a table created elsewhere since is not known yet)? SQLite: never. */
bool store_owned_elsewhere(store *st, int64_t table);

/* This node took a table (store_collect's claimed, or at start) and cannot
 * restore it (a spec or actions this version cannot replay): PostgreSQL
 * lets its lease go at the next heartbeat and never takes it again (a
 * node of another version may: no node spins on it); SQLite: nothing. */
void store_give_up(store *st, int64_t table);

/* A new table from its description (a JSON object the store keeps as it is:
 * game, players, options, seed, bots, clock, created); *id is its number. */
int store_create_table(store *st, const json_t *spec, int64_t *id, asobi_error *err);
/* A person took a seat: the name and the hash of the token (never the token). */
int store_add_seat(store *st, int64_t table, int seat, const char *name, const char *token_hash,
                   asobi_error *err);
/* The index-th accepted action of a table; by is "human", "bot" or
 * "timeout"; clock_ms is the actor's remaining time after it (-1: no clock). */
/* The person of a seat left it for good (POST .../leave): its row keeps
 * its name and an empty token hash, which no token matches, and a restore
 * reads it as left (the bot plays on: table_restore). No column of its
 * own, so the databases of before need no migration. */
int store_leave_seat(store *st, int64_t table, int seat, asobi_error *err);
int store_add_action(store *st, int64_t table, int index, int seat, const char *action, const char *by,
                     int64_t clock_ms, asobi_error *err);
/* The table is over: keep its summary and record (compact JSON texts); it is
 * no longer restored. */
int store_finish(store *st, int64_t table, const char *summary, const char *record, asobi_error *err);

/* store_finish, and what the game's end means for the people who played it
 * (ratings.c builds result from the table; NULL: as store_finish), in the
 * same transaction: see "Ratings" below. */
typedef struct store_result store_result;
int store_finish_result(store *st, int64_t table, const char *summary, const char *record,
                        const store_result *result, asobi_error *err);

/* An unfinished table expired (nobody joined it, or nobody came back): it
 * is neither restored nor loaded again, as if it had never been. */
int store_expire(store *st, int64_t table, asobi_error *err);

/* A finished table's rematch is table rematch: its stored summary says so
 * ("rematch": ID). */
int store_set_rematch(store *st, int64_t table, int64_t rematch, asobi_error *err);

/* Every unfinished table, oldest first: on_table gets its description, its
 * seats [{"seat","name","token_hash"}] and its actions
 * [{"seat","action","by","clock_ms"}] in order. A non-zero return from
 * on_table stops the walk and is returned. */
typedef int (*store_table_fn)(void *ctx, int64_t id, const json_t *spec, const json_t *seats,
                              const json_t *actions);
int store_load_unfinished(store *st, store_table_fn on_table, void *ctx, asobi_error *err);
/* One table, finished or not (new references): its description, seats and
 * actions as store_load_unfinished gives them, and *summary its stored
 * summary once it is finished (NULL before). ASOBI_E_BAD_ARGUMENT when there
 * is no table of that number. */
int store_load_table(store *st, int64_t table, json_t **spec, json_t **seats, json_t **actions, json_t **summary,
                     asobi_error *err);
/* A finished table's summary and record (new references); ASOBI_E_BAD_ARGUMENT
 * when there is no finished table of that number. */
int store_load_finished(store *st, int64_t table, json_t **summary, json_t **record, asobi_error *err);

/* Chat (issue 44: chat.h). store_add_chat: a table's index-th line, its JSON
 * text, written like an action (the same batch, fenced like it on several
 * nodes). store_hide_chat: an operator hid the line (`asobi chat hide`): it
 * is never loaded again (not fenced: it is no node's write). store_load_chat:
 * its lines not hidden, oldest first (*lines a new array). PostgreSQL reads a
 * table's chat off the loop where it reads its rows (a takeover, a finished
 * table brought back) and hands it over here without a round trip; any other
 * call reads it on the caller's thread (start-up, the command line). */
int store_add_chat(store *st, int64_t table, int index, const char *line, asobi_error *err);
int store_hide_chat(store *st, int64_t table, int index, asobi_error *err);
int store_load_chat(store *st, int64_t table, json_t **lines, asobi_error *err);
/* The operator's hide from the command line: opens the store at where for
 * this one write (PostgreSQL: one connection, never a node that takes
 * tables; SQLite: a connection that takes no hold, beside a running server).
 * The hide's news goes with it (chat_hides, polled by running servers:
 * chat.h's chat_hides_start). ASOBI_E_BAD_ARGUMENT when the table has no
 * such line. */
int store_hide_chat_at(const char *where, int64_t table, int index, asobi_error *err);
/* ---------------------------------------------------------------------------
 * Ratings (issue 42): rated tables, Weng-Lin ratings per account and game,
 * profiles and leaderboards. Both stores keep, beside the tables above:
 *   ratings(account, game, name, mu, sigma, games): one per account and game;
 *   rating_history(table_id, account, game, ...): one row per rated game and
 *     account (its rank, mu and sigma before and after), which also marks
 *     the table as rated;
 *   bot_records(account, game, level, wins, losses, draws): a signed-in
 *     person's games against the bots, by strength (never rated).
 * (PostgreSQL's carry the asobi_ prefix.) Every statement is CREATE ... IF
 * NOT EXISTS: a database of before gains them at its next open.
 * ------------------------------------------------------------------------- */
typedef struct store_seat_result {
    int64_t account;   /* the seat's person's account; 0: a guest's seat or a bot's */
    const char *name;  /* the person's name as it was (kept with the rating) */
    const char *level; /* a bot's seat: its strength ("easy", "medium", "strong"); NULL: a person's */
    int rank;          /* its place, 1 the best, ties equal (a seat left for good: last) */
} store_seat_result;
struct store_result {
    const char *game;  /* the rating's game: "psycle", "ninja", "octal", "timemasters" */
    bool rated;        /* a rated table: the accounts' ratings of the game move */
    int seats;
    store_seat_result seat[ASOBI_MAX_SEATS];
};
/* What store_finish_result writes beside the finish, in its transaction
 * (and so fenced with it: a finish a node may no longer write writes no
 * rating either):
 *   - rated, with 2 or more accounts, no account twice: every account's
 *     rating of the game is read (a newcomer's: asobi_rating_initial),
 *     updated by asobi_rating_update from the ranks, and written back with
 *     a history row. A table that has history rows is not rated again;
 *   - every account's seat against every bot's seat: a win, loss or draw
 *     by rank in bot_records, rated or not. */

/* A profile: {"name", "ratings": {GAME: {"mu","sigma","rating","games",
 * "provisional"}}, "games": [...], "bots": {GAME: {LEVEL: {"wins","losses",
 * "draws"}}}, "history": {GAME: [{"table","rating"}...]}} of the account
 * whose name is name (any case): its finished games newest first (tables
 * numbered below before; 0: from the newest), at most STORE_PROFILE_GAMES
 * (docs/server.md, "Ratings"). ASOBI_E_BAD_ARGUMENT: no such account. */
#define STORE_PROFILE_GAMES 20
#define STORE_HISTORY_POINTS 200
int store_player(store *st, const char *name, int64_t before, json_t **profile, asobi_error *err);
/* A game's leaderboard: {"game", "players": [{"name","rating","mu","sigma",
 * "games"}...]}, the top STORE_LEADERBOARD by rating (mu - 3 sigma),
 * players with fewer than ASOBI_RATING_PROVISIONAL_GAMES rated games left out. */
#define STORE_LEADERBOARD 100
int store_leaderboard(store *st, const char *game, json_t **board, asobi_error *err);
/* store_player (player set) or store_leaderboard (else, game) on the
 * reader thread, answered as a store_lookup (table 0: answer_rc, answer)
 * as store_lookup_start's are; false when the store reads synchronously
 * (SQLite), or out of memory: the caller then reads itself. */
bool store_ratings_read_start(store *st, const char *player, const char *game, int64_t before, void *cookie);

/* ---------------------------------------------------------------------------
 * Accounts and sessions (issue 42; store_accounts.c, both backends).
 *
 * A seat's account: the account of the signed-in person who took it (set
 * in the loop's batch, with the seat, so fenced like it), or of one who
 * claimed the seat afterwards with its token (store_claim_seats, never
 * rated: `claimed` set). Guests' seats have none. The seats' rows that
 * store_load_unfinished and store_load_table give carry "account" (the id)
 * when they have one, and "claimed": true when it came by a claim.
 * ------------------------------------------------------------------------- */
int store_seat_account(store *st, int64_t table, int seat, int64_t account, asobi_error *err);

/* The accounts' half of the store is a handle of its own, with its own
 * connection to the same database: its calls are synchronous reads and
 * writes (each its own transaction), made on the accounts' worker threads
 * (accounts.c) and by `asobi accounts`, never on the event loop. It takes
 * no hold on a SQLite file, so `asobi accounts` works beside a running
 * server (WAL: its short writes wait for the server's at most
 * busy_timeout). ":memory:" opens a database of its own (tests only). */
typedef struct store_accounts store_accounts;
store_accounts *store_accounts_open(const char *where, asobi_error *err);
void store_accounts_close(store_accounts *sa);

#define STORE_ACCOUNT_NAME_MAX 20
typedef struct store_account {
    int64_t id;
    char name[STORE_ACCOUNT_NAME_MAX + 1]; /* as given at sign-up */
    char password[160];                     /* the Argon2id encoded string (password.h); "" once closed */
    int64_t created_ms;                     /* wall clock, ms since 1970 */
    int64_t closed_ms;                      /* 0: open */
} store_account;

/* A new account (name already checked: accounts_name_ok); ASOBI_E_BAD_ARGUMENT
 * when the name is taken, ignoring case (closed accounts' names stay taken). */
int store_account_create(store_accounts *sa, const char *name, const char *password_hash, int64_t now_ms,
                         int64_t *id, asobi_error *err);
/* The account of that name, ignoring case (closed ones too): ASOBI_OK, or
 * ASOBI_E_BAD_ARGUMENT when there is none. */
int store_account_find(store_accounts *sa, const char *name, store_account *out, asobi_error *err);
int store_account_set_password(store_accounts *sa, int64_t id, const char *password_hash, asobi_error *err);
/* Closed: its password hash is erased and its sessions deleted; its row
 * (id, name) stays, so the name is never given to another and its finished
 * games keep meaning the same person. */
int store_account_close(store_accounts *sa, int64_t id, int64_t now_ms, asobi_error *err);
/* Every account, oldest first: [{"id","name","created","closed"}] (closed: ms or null). */
int store_accounts_list(store_accounts *sa, json_t **out, asobi_error *err);

/* Sessions: the SHA-256 of the cookie's token (token.h) and an expiry
 * (wall clock, ms). */
int store_session_add(store_accounts *sa, const char *session_hash, int64_t account, int64_t expires_ms,
                      asobi_error *err);
/* The open account of a session that has not expired at now_ms: ASOBI_OK
 * and *out, *expires_ms; ASOBI_E_BAD_ARGUMENT when there is none. */
int store_session_find(store_accounts *sa, const char *session_hash, int64_t now_ms, store_account *out,
                       int64_t *expires_ms, asobi_error *err);
/* The sliding expiry: the session lasts until expires_ms. */
int store_session_touch(store_accounts *sa, const char *session_hash, int64_t expires_ms, asobi_error *err);
int store_session_revoke(store_accounts *sa, const char *session_hash, asobi_error *err);
/* Every session of the account but keep_hash's (NULL: all of them); expired ones go too. */
int store_sessions_revoke(store_accounts *sa, int64_t account, const char *keep_hash, asobi_error *err);

/* A guest's seats join an account: each seat whose token hashes to one of
 * token_hashes, at a finished table, held by no account yet, gets the
 * account and `claimed` (such games never count for ratings). *claimed: how
 * many seats. */
int store_claim_seats(store_accounts *sa, int64_t account, const char *const *token_hashes, size_t n,
                      int *claimed, asobi_error *err);

#endif

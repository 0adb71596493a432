/* store_ratings.c — ratings in the store (store.h, "Ratings"): a game's end rated once, profiles and leaderboards, the same for SQLite and PostgreSQL. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asobi/rating.h"
#include "server/store_backend.h"

/* Why one file for both stores
 * ----------------------------
 * What is read and written is the same on both: only the SQL's table names
 * and placeholders differ. So each backend gives its statements (one text
 * per store_rq) and a way to run one (store_sql_fn: text parameters in,
 * rows of texts out), and everything else is here once: which seats a game
 * rates, the Weng-Lin update, the bot records, the JSON of a profile and a
 * leaderboard. The backend runs it where its writes go: SQLite inside the
 * open transaction, PostgreSQL on the store thread inside the transaction
 * whose asobi_apply stored the finish (store_pg.c, commit_batch). */

/* A number as a parameter: 17 digits give a double back exactly. */
static void real_text(char *out, size_t cap, double x) { snprintf(out, cap, "%.17g", x); }
static void int_text(char *out, size_t cap, long long x) { snprintf(out, cap, "%lld", x); }

/* A row's column as a number (NULL or not a number: 0). */
static double cell_real(const json_t *row, size_t col)
{
    const char *text = json_string_value(json_array_get(row, col));
    return text ? strtod(text, NULL) : 0.0;
}
static long long cell_int(const json_t *row, size_t col)
{
    const char *text = json_string_value(json_array_get(row, col));
    return text ? strtoll(text, NULL, 10) : 0;
}
static const char *cell_text(const json_t *row, size_t col)
{
    const char *text = json_string_value(json_array_get(row, col));
    return text ? text : "";
}

/* The seats whose ratings a game moves, *n of them in idx (ascending
 * account: every store locks the rows in one order, so two nodes rating
 * the same people never wait for each other in a circle). None unless the
 * table is rated, holds 2 or more accounts' seats and no account twice. */
static bool rated_seats(const store_result *r, int idx[ASOBI_MAX_SEATS], int *n)
{
    *n = 0;
    if (!r->rated || !r->game)
        return false;
    for (int s = 0; s < r->seats && s < ASOBI_MAX_SEATS; s++) {
        if (r->seat[s].account <= 0 || r->seat[s].level)
            continue;
        int k = *n;
        while (k > 0 && r->seat[idx[k - 1]].account > r->seat[s].account) {
            idx[k] = idx[k - 1];
            k--;
        }
        if (k > 0 && r->seat[idx[k - 1]].account == r->seat[s].account)
            return *n = 0, false;
        idx[k] = s;
        (*n)++;
    }
    return *n >= 2 ? true : (*n = 0, false);
}

/* Run a statement for its effect; its rows dropped. */
static int exec_rq(store_sql_fn sql, void *ctx, int q, const char *const *params, int n, asobi_error *err)
{
    json_t *rows = sql(ctx, q, params, n, err);
    if (!rows)
        return ASOBI_E_IO;
    json_decref(rows);
    return ASOBI_OK;
}

/* Each account's seat against each bot's: a win, a loss or a draw by rank. */
static int record_bots(store_sql_fn sql, void *ctx, const store_result *r, asobi_error *err)
{
    for (int i = 0; i < r->seats; i++) {
        if (r->seat[i].account <= 0 || r->seat[i].level)
            continue;
        for (int j = 0; j < r->seats; j++) {
            if (!r->seat[j].level)
                continue;
            char account[24];
            int_text(account, sizeof account, r->seat[i].account);
            bool win = r->seat[i].rank < r->seat[j].rank, loss = r->seat[i].rank > r->seat[j].rank;
            const char *params[6] = {account, r->game, r->seat[j].level, win ? "1" : "0", loss ? "1" : "0",
                                     !win && !loss ? "1" : "0"};
            if (exec_rq(sql, ctx, STORE_RQ_BOT_RECORD, params, 6, err) != ASOBI_OK)
                return ASOBI_E_IO;
        }
    }
    return ASOBI_OK;
}

/* The rated game's update: read (locking, on PostgreSQL) each rating,
 * Weng-Lin, write each back with its history row. */
static int rate(store_sql_fn sql, void *ctx, int64_t table, const store_result *r, asobi_error *err)
{
    int idx[ASOBI_MAX_SEATS], n;
    if (!rated_seats(r, idx, &n))
        return ASOBI_OK;
    char id[24];
    int_text(id, sizeof id, table);
    const char *by_table[1] = {id};
    json_t *done = sql(ctx, STORE_RQ_RATED_ALREADY, by_table, 1, err);
    if (!done)
        return ASOBI_E_IO;
    bool already = json_array_size(done) > 0;
    json_decref(done);
    if (already)
        return ASOBI_OK; /* once only, whatever asks again */
    asobi_rating before[ASOBI_MAX_SEATS], after[ASOBI_MAX_SEATS];
    int rank[ASOBI_MAX_SEATS];
    long long games[ASOBI_MAX_SEATS];
    for (int k = 0; k < n; k++) {
        const store_seat_result *p = &r->seat[idx[k]];
        char account[24];
        int_text(account, sizeof account, p->account);
        const char *params[3] = {account, r->game, p->name ? p->name : ""};
        if (exec_rq(sql, ctx, STORE_RQ_RATING_SEED, params, 3, err) != ASOBI_OK)
            return ASOBI_E_IO;
        json_t *rows = sql(ctx, STORE_RQ_RATING_GET, params, 2, err);
        if (!rows)
            return ASOBI_E_IO;
        const json_t *row = json_array_get(rows, 0);
        before[k] = row ? (asobi_rating){cell_real(row, 0), cell_real(row, 1)} : asobi_rating_initial();
        games[k] = row ? cell_int(row, 2) : 0;
        json_decref(rows);
        rank[k] = p->rank;
    }
    if (asobi_rating_update(before, rank, n, after, err) != ASOBI_OK)
        return asobi_fail(err, ASOBI_E_IO, "database: a stored rating cannot be updated: %s", err->message);
    for (int k = 0; k < n; k++) {
        const store_seat_result *p = &r->seat[idx[k]];
        char account[24], mu[32], sigma[32], played[24], seat[24], place[24], mu0[32], sigma0[32];
        int_text(account, sizeof account, p->account);
        real_text(mu, sizeof mu, after[k].mu);
        real_text(sigma, sizeof sigma, after[k].sigma);
        int_text(played, sizeof played, games[k] + 1);
        int_text(seat, sizeof seat, idx[k]);
        int_text(place, sizeof place, p->rank);
        real_text(mu0, sizeof mu0, before[k].mu);
        real_text(sigma0, sizeof sigma0, before[k].sigma);
        const char *put[6] = {account, r->game, p->name ? p->name : "", mu, sigma, played};
        const char *hist[11] = {id, account, r->game, p->name ? p->name : "", seat, place, mu0, sigma0, mu, sigma, played};
        if (exec_rq(sql, ctx, STORE_RQ_RATING_PUT, put, 6, err) != ASOBI_OK ||
            exec_rq(sql, ctx, STORE_RQ_HISTORY_PUT, hist, 11, err) != ASOBI_OK)
            return ASOBI_E_IO;
    }
    return ASOBI_OK;
}

int store_record_result(store_sql_fn sql, void *ctx, int64_t table, const store_result *result, asobi_error *err)
{
    if (!result || !result->game)
        return ASOBI_OK;
    if (record_bots(sql, ctx, result, err) != ASOBI_OK || rate(sql, ctx, table, result, err) != ASOBI_OK)
        return ASOBI_E_IO;
    asobi_error_clear(err);
    return ASOBI_OK;
}

bool store_result_writes(const store_result *result)
{
    if (!result || !result->game)
        return false;
    for (int s = 0; s < result->seats; s++)
        if (result->seat[s].account > 0)
            return true;
    return false;
}

/* {"mu","sigma","rating","games","provisional"}: a rating as profiles show it. */
static json_t *rating_json(double mu, double sigma, long long games)
{
    return json_pack("{s:f, s:f, s:f, s:I, s:b}", "mu", mu, "sigma", sigma, "rating",
                     asobi_rating_ordinal((asobi_rating){mu, sigma}), "games", (json_int_t)games, "provisional",
                     asobi_rating_provisional(games > 1000000 ? 1000000 : (int)games));
}

/* One finished game as a profile lists it, from its stored summary: the
 * table, the game, its players and their places, rated or not, and the
 * person's rating change (history: its row, or NULL). */
static json_t *game_entry(const json_t *row)
{
    json_t *summary = json_loads(cell_text(row, 1), 0, NULL);
    json_t *players = json_array();
    size_t i;
    json_t *seat;
    json_array_foreach(json_object_get(summary, "seats"), i, seat)
    {
        json_t *rank = json_object_get(seat, "rank");
        json_array_append_new(players, json_pack("{s:O?, s:O?, s:O?}", "name", json_object_get(seat, "name"),
                                                 "level", json_object_get(seat, "level"), "rank", rank));
    }
    bool rated = json_string_value(json_array_get(row, 3)) != NULL;
    json_t *change = json_null();
    if (rated) {
        asobi_rating was = {cell_real(row, 4), cell_real(row, 5)}, now = {cell_real(row, 6), cell_real(row, 7)};
        change = json_pack("{s:f, s:f, s:f}", "before", asobi_rating_ordinal(was), "after", asobi_rating_ordinal(now),
                           "delta", asobi_rating_ordinal(now) - asobi_rating_ordinal(was));
    }
    json_t *entry = json_pack("{s:I, s:O?, s:I, s:o, s:b, s:o, s:O?}", "table", (json_int_t)cell_int(row, 0), "game",
                              json_object_get(summary, "game"), "seat", (json_int_t)cell_int(row, 2), "players", players,
                              "rated", rated, "change", change, "created", json_object_get(summary, "created"));
    json_decref(summary);
    return entry;
}

int store_read_player(store_sql_fn sql, void *ctx, const char *name, int64_t before, json_t **profile,
                      asobi_error *err)
{
    *profile = NULL;
    const char *by_name[1] = {name};
    json_t *who = sql(ctx, STORE_RQ_ACCOUNT, by_name, 1, err);
    if (!who)
        return ASOBI_E_IO;
    if (json_array_size(who) == 0) {
        json_decref(who);
        return asobi_fail(err, ASOBI_E_BAD_ARGUMENT, "there is no player %s", name);
    }
    char account[24], below[24];
    int_text(account, sizeof account, cell_int(json_array_get(who, 0), 0));
    int_text(below, sizeof below, before > 0 ? before : INT64_MAX);
    json_t *out = json_pack("{s:s, s:o, s:o, s:o, s:o}", "name", cell_text(json_array_get(who, 0), 1), "ratings",
                            json_object(), "games", json_array(), "bots", json_object(), "history", json_object());
    if (out && json_string_value(json_array_get(json_array_get(who, 0), 2))) /* closed (DELETE /api/me) */
        json_object_set_new(out, "closed", json_true());
    json_decref(who);
    const char *one[1] = {account}, *two[2] = {account, below};
    json_t *ratings = out ? sql(ctx, STORE_RQ_RATINGS, one, 1, err) : NULL;
    json_t *games = ratings ? sql(ctx, STORE_RQ_GAMES, two, 2, err) : NULL;
    json_t *bots = games ? sql(ctx, STORE_RQ_BOTS, one, 1, err) : NULL;
    json_t *history = bots ? sql(ctx, STORE_RQ_HISTORY, one, 1, err) : NULL;
    if (!history) {
        json_decref(out);
        json_decref(ratings);
        json_decref(games);
        json_decref(bots);
        return ASOBI_E_IO;
    }
    size_t i;
    json_t *row;
    json_array_foreach(ratings, i, row) /* game, mu, sigma, games */
        json_object_set_new(json_object_get(out, "ratings"), cell_text(row, 0),
                            rating_json(cell_real(row, 1), cell_real(row, 2), cell_int(row, 3)));
    json_array_foreach(games, i, row) /* table, summary, seat, then its history row's game, mu0, sigma0, mu, sigma */
        json_array_append_new(json_object_get(out, "games"), game_entry(row));
    json_array_foreach(bots, i, row) /* game, level, wins, losses, draws */
    {
        json_t *per_game = json_object_get(json_object_get(out, "bots"), cell_text(row, 0));
        if (!per_game) {
            per_game = json_object();
            json_object_set_new(json_object_get(out, "bots"), cell_text(row, 0), per_game);
        }
        json_object_set_new(per_game, cell_text(row, 1),
                            json_pack("{s:I, s:I, s:I}", "wins", (json_int_t)cell_int(row, 2), "losses",
                                      (json_int_t)cell_int(row, 3), "draws", (json_int_t)cell_int(row, 4)));
    }
    json_array_foreach(history, i, row) /* game, table, mu, sigma, newest first: put oldest first */
    {
        json_t *points = json_object_get(json_object_get(out, "history"), cell_text(row, 0));
        if (!points) {
            points = json_array();
            json_object_set_new(json_object_get(out, "history"), cell_text(row, 0), points);
        }
        if (json_array_size(points) < STORE_HISTORY_POINTS)
            json_array_insert_new(points, 0,
                                  json_pack("{s:I, s:f}", "table", (json_int_t)cell_int(row, 1), "rating",
                                            asobi_rating_ordinal((asobi_rating){cell_real(row, 2), cell_real(row, 3)})));
    }
    json_decref(ratings);
    json_decref(games);
    json_decref(bots);
    json_decref(history);
    *profile = out;
    asobi_error_clear(err);
    return ASOBI_OK;
}

int store_read_leaderboard(store_sql_fn sql, void *ctx, const char *game, json_t **board, asobi_error *err)
{
    *board = NULL;
    const char *params[1] = {game};
    json_t *rows = sql(ctx, STORE_RQ_BOARD, params, 1, err); /* name, mu, sigma, games; best first */
    if (!rows)
        return ASOBI_E_IO;
    json_t *players = json_array();
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
    {
        double mu = cell_real(row, 1), sigma = cell_real(row, 2);
        json_array_append_new(players, json_pack("{s:s, s:f, s:f, s:f, s:I}", "name", cell_text(row, 0), "rating",
                                                 asobi_rating_ordinal((asobi_rating){mu, sigma}), "mu", mu, "sigma",
                                                 sigma, "games", (json_int_t)cell_int(row, 3)));
    }
    json_decref(rows);
    *board = json_pack("{s:s, s:o}", "game", game, "players", players);
    asobi_error_clear(err);
    return ASOBI_OK;
}

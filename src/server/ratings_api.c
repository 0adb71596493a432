/* ratings_api.c — GET /api/players/NAME (a profile) and GET /api/leaderboard/GAME, read off the loop on PostgreSQL (issue 42). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/internal.h"

/* The reads behind these pages are the store's (store_player,
 * store_leaderboard): with PostgreSQL a round trip, which the loop must
 * never wait for, so the store's reader thread runs them and the request
 * waits (http_wait) until its answer comes back as a store_lookup
 * (http_lookup_done, then here again with r->found); SQLite reads its
 * local file at once, as every other read of it is made. */

/* A name as accounts are named: 1 to 20 of letters, digits, '_' and '-'
 * (anything else names nobody, and is refused before any read). */
static bool name_shaped(const char *name)
{
    size_t n = strlen(name);
    return n >= 1 && n <= 20 && strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

/* ?before=N: the table number the games listed start below (0: the newest); -1 when it is not a number. */
static int64_t before_of(const char *path)
{
    const char *query = strchr(path, '?');
    const char *at = query ? strstr(query, "before=") : NULL;
    if (!at || (at[-1] != '?' && at[-1] != '&'))
        return 0;
    char *end;
    long long n = strtoll(at + 7, &end, 10);
    return end == at + 7 || (*end && *end != '&') || n < 0 ? -1 : (int64_t)n;
}

static int answer(server *s, struct lws *wsi, http_req *r, int rc, json_t *body, const asobi_error *err,
                  const char *what)
{
    srv_error e;
    if (rc == ASOBI_OK && body) {
        char *text = json_dumps(body, JSON_COMPACT);
        json_decref(body);
        return http_answer(s, wsi, r, 200, text, NULL);
    }
    json_decref(body);
    if (rc == ASOBI_E_BAD_ARGUMENT)
        srv_fail(&e, 404, "not_found", "there is no %s", what);
    else
        srv_fail(&e, 500, "internal", "%s", err && err->message[0] ? err->message : "the ratings could not be read");
    return http_refuse(s, wsi, r, &e);
}

bool ratings_answer(server *s, struct lws *wsi, http_req *r, const char *path, int *rc)
{
    bool player = strncmp(r->path, "/api/players/", 13) == 0;
    bool board = strncmp(r->path, "/api/leaderboard/", 17) == 0;
    if (r->post || (!player && !board))
        return false;
    const char *key = r->path + (player ? 13 : 17);
    const asobi_game_def *def = board ? asobi_game_find(key) : NULL;
    char what[64];
    snprintf(what, sizeof what, "%s %.24s", player ? "player" : "game", key);
    int64_t before = player ? before_of(path) : 0;
    srv_error e;
    if (before < 0) {
        srv_fail(&e, 400, "bad_request", "before=N takes a table number");
        return *rc = http_refuse(s, wsi, r, &e), true;
    }
    if ((player && !name_shaped(key)) || (board && (!def || strcmp(asobi_game_name(def), key) != 0)))
        return *rc = answer(s, wsi, r, ASOBI_E_BAD_ARGUMENT, NULL, NULL, what), true;
    if (r->looked_up) { /* the reader thread's answer (PostgreSQL) */
        json_t *body = r->found.answer;
        r->found.answer = NULL;
        return *rc = answer(s, wsi, r, r->found.answer_rc, body, NULL, what), true;
    }
    uint64_t n = http_wait(s, wsi, r);
    if (n && store_ratings_read_start(s->store, player ? key : NULL, board ? key : NULL, before, (void *)(uintptr_t)n)) {
        r->answer_later = true;
        return *rc = 0, true;
    }
    if (n)
        http_waiting(s, n); /* SQLite: read at once */
    json_t *body = NULL;
    asobi_error err;
    int got = player ? store_player(s->store, key, before, &body, &err) : store_leaderboard(s->store, key, &body, &err);
    return *rc = answer(s, wsi, r, got, body, &err, what), true;
}

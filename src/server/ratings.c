/* ratings.c — rated tables (issue 42): who may sit at one, and a finished table's places as the ratings read them. */
#include <string.h>

#include "server/ratings.h"

bool ratings_people_only(const json_t *bot_list, srv_error *e)
{
    size_t i;
    const json_t *bot;
    json_array_foreach(bot_list, i, bot) if (json_is_string(bot))
    {
        srv_fail(e, 400, "rated_needs_people", "a rated table seats only signed-in people: seat %zu is a bot's", i);
        return false;
    }
    return true;
}

bool ratings_may_create(const json_t *body, int64_t account, srv_error *e)
{
    if (!json_is_true(json_object_get(body, "rated")) || account > 0)
        return true;
    srv_fail(e, 401, "account_required", "a rated table is made by a signed-in person: sign in first");
    return false;
}

json_t *ratings_join_body(const table *t, const json_t *body, int64_t account, const char *name, srv_error *e)
{
    if (!t->rated || !json_is_object(body))
        return json_incref((json_t *)body);
    if (account <= 0 || !name) {
        srv_fail(e, 401, "account_required", "table %lld is rated: only signed-in people sit at it", (long long)t->id);
        return NULL;
    }
    for (int s = 0; s < t->players; s++)
        if (t->seat[s].account == account) {
            srv_fail(e, 409, "already_seated", "you hold seat %d of table %lld already", s, (long long)t->id);
            return NULL;
        }
    json_t *as = json_deep_copy(body);
    if (!as || json_object_set_new(as, "name", json_string(name)) != 0) {
        json_decref(as);
        srv_fail(e, 500, "no_memory", "out of memory");
        return NULL;
    }
    return as;
}

void ratings_result(const table *t, store_result *out)
{
    memset(out, 0, sizeof *out);
    out->game = json_string_value(json_object_get(t->spec, "game"));
    out->rated = t->rated;
    out->seats = t->players;
    asobi_result result;
    asobi_state_result(asobi_match_state(t->match), &result);
    int last = 0; /* the worst place held by a seat not left */
    for (int s = 0; s < t->players; s++)
        if (!t->seat[s].left && result.rank[s] > last)
            last = result.rank[s];
    for (int s = 0; s < t->players; s++) {
        const table_seat *ts = &t->seat[s];
        store_seat_result *r = &out->seat[s];
        r->account = ts->bot ? 0 : ts->account;
        r->name = ts->name;
        r->level = ts->bot ? asobi_bot_level(ts->bot) : NULL;
        r->rank = ts->left ? last + 1 : result.rank[s];
    }
}

/* store.c — store.h's calls, dispatched to the backend the store was opened with (SQLite file or PostgreSQL URI). */
#include <stdlib.h>
#include <string.h>

#include "server/store_backend.h"

bool store_is_postgresql(const char *where)
{
    return where && (strncmp(where, "postgresql://", 13) == 0 || strncmp(where, "postgres://", 11) == 0);
}

store *store_open_with(const char *where, const store_options *opt, asobi_error *err)
{
    static const store_options defaults = {0};
    if (store_is_postgresql(where))
        return store_pg_open(where, opt ? opt : &defaults, err);
    return store_sqlite_open(where, err);
}

store *store_open(const char *where, asobi_error *err) { return store_open_with(where, NULL, err); }

const char *store_backend_name(const store *st) { return st->ops->name; }

void store_close(store *st)
{
    if (st)
        st->ops->close(st);
}

int store_flush(store *st, asobi_error *err) { return st->ops->flush(st, err); }
int store_commit_start(store *st, asobi_error *err) { return st->ops->commit_start(st, err); }
bool store_settled(store *st) { return st->ops->settled(st); }
uint64_t store_batch_seq(store *st) { return st->ops->batch_seq(st); }
uint64_t store_committed_seq(store *st) { return st->ops->committed_seq(st); }

int store_collect(store *st, store_events *ev, asobi_error *err)
{
    memset(ev, 0, sizeof *ev);
    return st->ops->collect(st, ev, err);
}

void store_events_free(store_events *ev)
{
    for (size_t i = 0; i < ev->n_claimed; i++) {
        json_decref(ev->claimed[i].spec);
        json_decref(ev->claimed[i].seats);
        json_decref(ev->claimed[i].actions);
    }
    for (size_t i = 0; i < ev->n_lookups; i++) {
        free(ev->lookups[i].owner_url);
        json_decref(ev->lookups[i].summary);
        json_decref(ev->lookups[i].record);
        json_decref(ev->lookups[i].spec);
        json_decref(ev->lookups[i].seats);
        json_decref(ev->lookups[i].actions);
        free(ev->lookups[i].player);
        free(ev->lookups[i].game);
        json_decref(ev->lookups[i].answer);
    }
    free(ev->lookups);
    free(ev->claimed);
    free(ev->lost);
    memset(ev, 0, sizeof *ev);
}

void store_set_wake(store *st, void (*wake)(void *), void *ctx) { st->ops->set_wake(st, wake, ctx); }
bool store_owns(store *st, int64_t table) { return st->ops->owns(st, table); }

void store_publish_tables(store *st, const json_t *entries)
{
    if (st->ops->publish_tables)
        st->ops->publish_tables(st, entries);
}

json_t *store_other_tables(store *st) { return st->ops->other_tables ? st->ops->other_tables(st) : json_array(); }

bool store_node_origin(store *st, const char *origin)
{
    return st->ops->node_origin && st->ops->node_origin(st, origin);
}

void store_set_public_url(store *st, const char *url)
{
    if (st->ops->set_public_url)
        st->ops->set_public_url(st, url);
}
char *store_owner_url(store *st, int64_t table) { return st->ops->owner_url(st, table); }

bool store_lookup_start(store *st, int64_t table, bool rows, void *cookie)
{
    return st->ops->lookup_start && st->ops->lookup_start(st, table, rows, cookie);
}

void store_give_up(store *st, int64_t table)
{
    if (st->ops->give_up)
        st->ops->give_up(st, table);
}

bool store_owned_elsewhere(store *st, int64_t table)
{
    return st->ops->owned_elsewhere && st->ops->owned_elsewhere(st, table);
}

int store_create_table(store *st, const json_t *spec, int64_t *id, asobi_error *err)
{
    return st->ops->create_table(st, spec, id, err);
}

int store_add_seat(store *st, int64_t table, int seat, const char *name, const char *token_hash, asobi_error *err)
{
    return st->ops->add_seat(st, table, seat, name, token_hash, err);
}

int store_leave_seat(store *st, int64_t table, int seat, asobi_error *err)
{
    return st->ops->leave_seat(st, table, seat, err);
}

int store_add_action(store *st, int64_t table, int index, int seat, const char *action, const char *by,
                     int64_t clock_ms, asobi_error *err)
{
    return st->ops->add_action(st, table, index, seat, action, by, clock_ms, err);
}

int store_finish(store *st, int64_t table, const char *summary, const char *record, asobi_error *err)
{
    return st->ops->finish(st, table, summary, record, NULL, err);
}

int store_finish_result(store *st, int64_t table, const char *summary, const char *record,
                        const store_result *result, asobi_error *err)
{
    return st->ops->finish(st, table, summary, record, result, err);
}

int store_player(store *st, const char *name, int64_t before, json_t **profile, asobi_error *err)
{
    return st->ops->player(st, name, before, profile, err);
}

int store_leaderboard(store *st, const char *game, json_t **board, asobi_error *err)
{
    return st->ops->leaderboard(st, game, board, err);
}

bool store_ratings_read_start(store *st, const char *player, const char *game, int64_t before, void *cookie)
{
    return st->ops->ratings_read_start && st->ops->ratings_read_start(st, player, game, before, cookie);
}

int store_expire(store *st, int64_t table, asobi_error *err) { return st->ops->expire(st, table, err); }

int store_set_rematch(store *st, int64_t table, int64_t rematch, asobi_error *err)
{
    return st->ops->set_rematch(st, table, rematch, err);
}

int store_load_unfinished(store *st, store_table_fn on_table, void *ctx, asobi_error *err)
{
    return st->ops->load_unfinished(st, on_table, ctx, err);
}

int store_load_table(store *st, int64_t table, json_t **spec, json_t **seats, json_t **actions, json_t **summary,
                     asobi_error *err)
{
    return st->ops->load_table(st, table, spec, seats, actions, summary, err);
}

int store_load_finished(store *st, int64_t table, json_t **summary, json_t **record, asobi_error *err)
{
    return st->ops->load_finished(st, table, summary, record, err);
}

int store_add_chat(store *st, int64_t table, int index, const char *line, asobi_error *err)
{
    return st->ops->add_chat(st, table, index, line, err);
}

int store_hide_chat(store *st, int64_t table, int index, asobi_error *err)
{
    return st->ops->hide_chat(st, table, index, err);
}

int store_load_chat(store *st, int64_t table, json_t **lines, asobi_error *err)
{
    return st->ops->load_chat(st, table, lines, err);
}

int store_hide_chat_at(const char *where, int64_t table, int index, asobi_error *err)
{
    if (store_is_postgresql(where))
        return store_pg_hide_chat(where, table, index, err);
    return store_sqlite_hide_chat(where, table, index, err);
}

int store_seat_account(store *st, int64_t table, int seat, int64_t account, asobi_error *err)
{
    return st->ops->seat_account(st, table, seat, account, err);
}

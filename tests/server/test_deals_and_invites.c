/* test_deals_and_invites.c — issue 31 through the hall: a client chooses no seed unless the server allows it (and then everyone is told), and private tables' seats open with their invite codes only, across a restart. */
#define _GNU_SOURCE /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "server/hall.h"
#include "temp_db.h"

/* A hall over a store in a temporary file (reopened to play a restart). */
static char db_path[64];

static void open_hall(hall *h, bool allow_chosen_seeds)
{
    memset(h, 0, sizeof *h);
    srv_log_quiet = true;
    asobi_error err;
    h->store = store_open(db_path, &err);
    assert_non_null(h->store);
    h->allow_chosen_seeds = allow_chosen_seeds;
}

static void close_hall(hall *h)
{
    hall_close(h);
    store_close(h->store);
}

/* The server's start: every unfinished table back into the hall (server.c's restore_one). */
static int restore_one(void *ctx, int64_t id, const json_t *spec, const json_t *seats, const json_t *actions)
{
    hall *h = ctx;
    asobi_error err;
    table *t = table_restore(h->store, id, spec, seats, actions, NULL, 0, &err);
    assert_non_null(t);
    assert_non_null(hall_add(h, t));
    return 0;
}

static void restart(hall *h)
{
    bool allow = h->allow_chosen_seeds;
    assert_int_equal(store_flush(h->store, NULL), ASOBI_OK);
    close_hall(h);
    open_hall(h, allow);
    asobi_error err;
    assert_int_equal(store_load_unfinished(h->store, restore_one, h, &err), ASOBI_OK);
}

/* One HTTP request: its status; *reply its body (the caller frees it). */
static int http(hall *h, bool post, const char *path, const char *body, json_t **reply)
{
    srv_error e;
    int status = hall_http(h, post, path, body, body ? strlen(body) : 0, false, 0, reply, &e);
    assert_int_equal(store_flush(h->store, NULL), ASOBI_OK);
    return status;
}

static const char *code_of(const json_t *reply) { return json_string_value(json_object_get(json_object_get(reply, "error"), "code")); }

/* POST /api/tables: the new table's id (a 201 expected), its reply in *reply when wanted. */
static int64_t create(hall *h, const char *body, json_t **reply)
{
    json_t *r;
    assert_int_equal(http(h, true, "/api/tables", body, &r), 201);
    int64_t id = json_integer_value(json_object_get(r, "table"));
    if (reply)
        *reply = r;
    else
        json_decref(r);
    return id;
}

/* Is table id among GET /api/tables's (the lobby socket sends the same list)? */
static bool listed(hall *h, int64_t id)
{
    json_t *r;
    assert_int_equal(http(h, false, "/api/tables", NULL, &r), 200);
    bool found = false;
    size_t i;
    json_t *entry;
    json_array_foreach(json_object_get(r, "tables"), i, entry)
        found |= json_integer_value(json_object_get(entry, "table")) == id;
    json_decref(r);
    return found;
}

/* POST /api/tables/ID/join with body: the status; the refusal's code or the seat in *out. */
static int join(hall *h, int64_t id, const char *body, json_t **reply)
{
    char path[64];
    snprintf(path, sizeof path, "/api/tables/%lld/join", (long long)id);
    return http(h, true, path, body, reply);
}

static void refused(hall *h, int64_t id, const char *body, int status, const char *code)
{
    json_t *r;
    assert_int_equal(join(h, id, body, &r), status);
    assert_string_equal(code_of(r), code);
    json_decref(r);
}

/* ---- chosen seeds -------------------------------------------------------------- */

/* Issue 31.2: "The creator chooses the deal". A seed in POST /api/tables is
 * refused (seed_not_allowed) and makes no table; without --allow-chosen-seeds
 * a table's seed is the server's. With it the seed is taken, and the table
 * says so in its summary, the list and every viewer's update. */
static void test_a_chosen_seed_is_refused_unless_allowed_and_then_told(void **unused)
{
    (void)unused;
    temp_db_make(db_path, sizeof db_path, "deals");
    hall h;
    open_hall(&h, false);
    json_t *r;
    assert_int_equal(http(&h, true, "/api/tables", "{\"game\":\"ninja\",\"players\":2,\"seed\":42}", &r), 400);
    assert_string_equal(code_of(r), "seed_not_allowed");
    json_decref(r);
    assert_int_equal(h.tables_in_memory, 0);
    /* null is "no seed", as everywhere in the API */
    int64_t plain = create(&h, "{\"game\":\"ninja\",\"players\":2,\"seed\":null}", NULL);
    const table *t = hall_slot_of(&h, plain)->t;
    assert_false(t->seed_chosen);
    json_t *summary = table_summary(t);
    assert_null(json_object_get(summary, "seed_chosen"));
    json_decref(summary);
    close_hall(&h);

    open_hall(&h, true);
    int64_t chosen = create(&h, "{\"game\":\"ninja\",\"players\":2,\"seed\":42}", NULL);
    t = hall_slot_of(&h, chosen)->t;
    assert_int_equal(json_integer_value(json_object_get(t->spec, "seed")), 42);
    char path[64];
    snprintf(path, sizeof path, "/api/tables/%lld", (long long)chosen);
    assert_int_equal(http(&h, false, path, NULL, &r), 200);
    assert_true(json_is_true(json_object_get(r, "seed_chosen")));
    json_decref(r);
    assert_int_equal(http(&h, false, "/api/tables", NULL, &r), 200);
    assert_true(json_is_true(json_object_get(json_array_get(json_object_get(r, "tables"), 0), "seed_chosen")));
    json_decref(r);
    for (int v = ASOBI_SPECTATOR; v < 2; v++) {
        if (v == ASOBI_ALL_SEEING)
            continue;
        json_t *u = table_update(t, v, 0, 0);
        assert_true(json_is_true(json_object_get(u, "seed_chosen")));
        json_decref(u);
    }
    /* and it stays told after a restart */
    restart(&h);
    assert_true(hall_slot_of(&h, chosen)->t->seed_chosen);
    assert_false(hall_slot_of(&h, plain)->t->seed_chosen);
    close_hall(&h);
    temp_db_remove(db_path);
}

/* ---- private tables ------------------------------------------------------------ */

/* Does the database file (or its WAL) hold text? */
static bool file_holds(const char *path, const char *text)
{
    bool found = false;
    for (int side = 0; side < 2 && !found; side++) {
        char name[128];
        snprintf(name, sizeof name, "%s%s", path, side ? "-wal" : "");
        FILE *f = fopen(name, "rb");
        if (!f)
            continue;
        static char data[8 << 20];
        size_t n = fread(data, 1, sizeof data, f);
        fclose(f);
        found = memmem(data, n, text, strlen(text)) != NULL;
    }
    return found;
}

/* Issue 31.9: "Anyone can take a friend's seat". The attack: a stranger
 * reads the lobby's list and sits in a free seat. A private table gives its
 * creator one invite code per person's seat (null for a bot's), is never
 * listed, and refuses a join without the seat's code (invite_required) or
 * with a wrong one (bad_invite: a guess, another seat's code for this
 * seat), changing nothing. The code alone finds its seat. The database
 * keeps the codes' hashes only; after a restart the table is as private,
 * with the same codes. Public tables are as before. */
static void test_a_private_table_is_joined_with_its_seats_codes_only(void **unused)
{
    (void)unused;
    temp_db_make(db_path, sizeof db_path, "invites");
    hall h;
    open_hall(&h, false);
    json_t *made;
    int64_t id = create(&h, "{\"game\":\"octal\",\"players\":4,\"private\":true,\"bots\":[null,\"random\",null,null]}",
                        &made);
    const json_t *invites = json_object_get(made, "invites");
    assert_int_equal(json_array_size(invites), 4);
    assert_true(json_is_null(json_array_get(invites, 1)));
    char code[4][TOKEN_CHARS + 1];
    for (int s = 0; s < 4; s++) {
        if (s == 1)
            continue;
        const char *c = json_string_value(json_array_get(invites, (size_t)s));
        assert_non_null(c);
        assert_int_equal(strlen(c), TOKEN_CHARS);
        assert_int_equal(strspn(c, "0123456789abcdef"), TOKEN_CHARS);
        strcpy(code[s], c);
    }
    assert_string_not_equal(code[0], code[2]);
    json_decref(made);
    int64_t open_table = create(&h, "{\"game\":\"octal\",\"players\":3}", &made);
    assert_null(json_object_get(made, "invites")); /* a public table has none */
    json_decref(made);

    /* the stranger: not in the list, and no seat without its code */
    assert_false(listed(&h, id));
    assert_true(listed(&h, open_table));
    json_t *summary = table_summary(hall_slot_of(&h, id)->t);
    assert_true(json_is_true(json_object_get(summary, "private")));
    char *before = json_dumps(summary, JSON_COMPACT);
    json_decref(summary);
    refused(&h, id, "{\"name\":\"Eve\"}", 403, "invite_required");
    refused(&h, id, "{\"name\":\"Eve\",\"seat\":2}", 403, "invite_required");
    refused(&h, id, "{\"name\":\"Eve\",\"invite\":\"00000000000000000000000000000000\"}", 403, "bad_invite");
    refused(&h, id, "{\"name\":\"Eve\",\"invite\":\"\"}", 403, "bad_invite");
    refused(&h, id, "{\"name\":\"Eve\",\"invite\":7}", 400, "bad_request");
    char body[160];
    snprintf(body, sizeof body, "{\"name\":\"Eve\",\"seat\":2,\"invite\":\"%s\"}", code[0]); /* seat 0's code */
    refused(&h, id, body, 403, "bad_invite");
    snprintf(body, sizeof body, "{\"name\":\"Eve\",\"seat\":1,\"invite\":\"%s\"}", code[0]); /* a bot's seat */
    refused(&h, id, body, 403, "bad_invite");
    summary = table_summary(hall_slot_of(&h, id)->t);
    char *after = json_dumps(summary, JSON_COMPACT);
    json_decref(summary);
    assert_string_equal(before, after); /* refusals changed nothing */
    free(before);
    free(after);

    /* the friends: a code alone finds its seat; with its seat, that seat */
    json_t *r;
    snprintf(body, sizeof body, "{\"name\":\"Aki\",\"invite\":\"%s\"}", code[2]);
    assert_int_equal(join(&h, id, body, &r), 200);
    assert_int_equal(json_integer_value(json_object_get(r, "seat")), 2);
    json_decref(r);
    refused(&h, id, body, 409, "seat_taken"); /* a code opens its seat once */
    snprintf(body, sizeof body, "{\"name\":\"Ben\",\"seat\":0,\"invite\":\"%s\"}", code[0]);
    assert_int_equal(join(&h, id, body, &r), 200);
    assert_int_equal(json_integer_value(json_object_get(r, "seat")), 0);
    json_decref(r);
    assert_false(file_holds(db_path, code[0]) || file_holds(db_path, code[2]) || file_holds(db_path, code[3]));

    /* a restart: still private, still unlisted, seat 3 still opens with its code only */
    restart(&h);
    assert_true(hall_slot_of(&h, id)->t->private_table);
    assert_false(listed(&h, id));
    refused(&h, id, "{\"name\":\"Eve\"}", 403, "invite_required");
    snprintf(body, sizeof body, "{\"name\":\"Eve\",\"invite\":\"%s\"}", code[0]);
    refused(&h, id, body, 409, "seat_taken");
    snprintf(body, sizeof body, "{\"name\":\"Cy\",\"invite\":\"%s\"}", code[3]);
    assert_int_equal(join(&h, id, body, &r), 200);
    assert_int_equal(json_integer_value(json_object_get(r, "seat")), 3);
    json_decref(r);
    assert_int_equal(hall_slot_of(&h, id)->t->status, TABLE_PLAYING);
    assert_false(listed(&h, id)); /* playing, and still not in the list */

    /* a public table keeps today's joins: any free seat, no code needed (one given is not looked at) */
    assert_int_equal(join(&h, open_table, "{\"name\":\"Dan\"}", &r), 200);
    json_decref(r);
    snprintf(body, sizeof body, "{\"name\":\"Dee\",\"seat\":2,\"invite\":\"%s\"}", code[3]);
    assert_int_equal(join(&h, open_table, body, &r), 200);
    json_decref(r);
    close_hall(&h);
    temp_db_remove(db_path);
}

/* The rematch of a private table is private too (its people hold their
 * seats already, under their tokens). */
static void test_the_rematch_of_a_private_table_is_private(void **unused)
{
    (void)unused;
    temp_db_make(db_path, sizeof db_path, "invites");
    hall h;
    open_hall(&h, false);
    json_t *made;
    int64_t id = create(&h, "{\"game\":\"psycle\",\"players\":2,\"private\":true}", &made);
    char body[160];
    json_t *r;
    for (int s = 0; s < 2; s++) {
        snprintf(body, sizeof body, "{\"name\":\"P\",\"invite\":\"%s\"}",
                 json_string_value(json_array_get(json_object_get(made, "invites"), (size_t)s)));
        assert_int_equal(join(&h, id, body, &r), 200);
        json_decref(r);
    }
    json_decref(made);
    table *t = hall_slot_of(&h, id)->t;
    int ids[64];
    while (t->status == TABLE_PLAYING) {
        const asobi_state *s = asobi_match_state(t->match);
        for (int seat = 0; seat < 2; seat++) {
            if (!(asobi_state_to_move(s) & (1u << seat)) || asobi_state_legal(s, seat, ids) <= 0)
                continue;
            json_t *act = json_integer(ids[0]);
            srv_error e;
            assert_int_equal(table_act(t, seat, act, 0, &e), 0);
            json_decref(act);
            break;
        }
    }
    srv_error e;
    json_t *msg_id;
    assert_int_equal(hall_message(&h, id, 0, "{\"type\":\"rematch\"}", 18, 0, &msg_id, &e), 0);
    json_decref(msg_id);
    int64_t next = hall_slot_of(&h, id)->t->rematch;
    assert_true(next > id);
    assert_true(hall_slot_of(&h, next)->t->private_table);
    assert_int_equal(hall_slot_of(&h, next)->t->status, TABLE_PLAYING);
    assert_false(listed(&h, next));
    close_hall(&h);
    temp_db_remove(db_path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_chosen_seed_is_refused_unless_allowed_and_then_told),
        cmocka_unit_test(test_a_private_table_is_joined_with_its_seats_codes_only),
        cmocka_unit_test(test_the_rematch_of_a_private_table_is_private),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

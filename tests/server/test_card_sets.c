/* test_card_sets.c — `--card-sets DIR` (issue 13 point 2): card sets loaded from a folder, picked by name in options, over the protocol and the server. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "protocol/protocol.h"
#include "server/hall.h"

/* Issue 13 point 2: "Card sets come from the person running the command (a
 * command-line flag or a folder given at start), are named in options and
 * records by name plus a hash of their content, and travel inside records
 * as content ... over the protocol a card set is given as JSON content,
 * never as a path. Only regular files are ever opened, with a size limit." */

static const char *mini =
    "{\"title\":\"mini\",\"sphere_size\":3,\"cards\":[{\"name\":\"Zap\",\"type\":\"spell\",\"level\":0,\"cost\":1,"
    "\"copies\":8,\"effects\":[[\"draw\",1]]},{\"name\":\"A\",\"type\":\"spell\",\"level\":1,\"cost\":1,\"copies\":4},"
    "{\"name\":\"B\",\"type\":\"focus\",\"level\":2,\"copies\":4,\"effects\":[[\"ready\",2]]},{\"name\":\"C\",\"type\":"
    "\"timer\",\"level\":3,\"copies\":4,\"slots\":2,\"trigger\":\"set\",\"effects\":[[\"ephemeral\",1]]},{\"name\":\"D\","
    "\"type\":\"spell\",\"level\":4,\"cost\":3,\"copies\":4,\"effects\":[[\"draw\",2]]},{\"name\":\"E\",\"type\":\"spell\","
    "\"level\":5,\"cost\":4,\"copies\":4,\"effects\":[[\"slow\",2],[\"heavy\",1]]}]}";

static char dir[64];

static void put(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void drop(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unlink(path);
}

static int make_dir(void **unused)
{
    (void)unused;
    snprintf(dir, sizeof dir, "/tmp/asobi_card_sets_%d", (int)getpid());
    mkdir(dir, 0700);
    put("mini.json", mini);
    put("notes.txt", "not a card set: ignored (not .json)");
    return 0;
}

static int remove_dir(void **unused)
{
    (void)unused;
    drop("mini.json");
    drop("notes.txt");
    rmdir(dir);
    return 0;
}

static void test_a_folder_of_sets_is_listed_with_hashes(void **unused)
{
    (void)unused;
    asobi_error err;
    asobi_data_sets *sets = asobi_data_sets_load(dir, &err);
    if (!sets)
        fail_msg("%s", err.message);
    json_t *list = asobi_data_sets_list(sets);
    assert_int_equal(json_array_size(list), 1);
    const json_t *e = json_array_get(list, 0);
    assert_string_equal(json_string_value(json_object_get(e, "game")), "timemasters");
    assert_string_equal(json_string_value(json_object_get(e, "option")), "cards");
    assert_string_equal(json_string_value(json_object_get(e, "name")), "mini");
    assert_non_null(strstr(json_string_value(json_object_get(e, "hash")), "fnv1a64:"));
    json_decref(list);
    asobi_data_sets_free(sets);
}

/* Every file the folder holds is checked at start: a bad set, a FIFO (it
 * would block), a file over the size limit, two sets of one name. */
static void test_a_bad_folder_is_refused_naming_the_file(void **unused)
{
    (void)unused;
    asobi_error err;
    put("bad.json", "{\"title\":\"bad\",\"cards\":[{\"name\":\"X\",\"type\":\"spell\",\"level\":0,\"copies\":1}]}");
    assert_null(asobi_data_sets_load(dir, &err));
    assert_non_null(strstr(err.message, "bad.json"));
    assert_non_null(strstr(err.message, "level"));
    drop("bad.json");

    char fifo[128];
    snprintf(fifo, sizeof fifo, "%s/pipe.json", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_null(asobi_data_sets_load(dir, &err));
    assert_non_null(strstr(err.message, "not a regular file"));
    unlink(fifo);

    char *big = malloc(ASOBI_DATA_FILE_MAX + 2);
    memset(big, ' ', ASOBI_DATA_FILE_MAX + 1);
    big[ASOBI_DATA_FILE_MAX + 1] = '\0';
    put("big.json", big);
    free(big);
    assert_null(asobi_data_sets_load(dir, &err));
    assert_non_null(strstr(err.message, "larger than"));
    drop("big.json");

    char named[4096];
    snprintf(named, sizeof named, "{\"name\":\"mini\",%s", mini + 1);
    put("again.json", named);
    assert_null(asobi_data_sets_load(dir, &err));
    assert_non_null(strstr(err.message, "a second set named \"mini\""));
    drop("again.json");

    assert_null(asobi_data_sets_load("/nonexistent/asobi", &err));
    assert_int_equal(err.code, ASOBI_E_IO);
}

/* A name becomes the set's content; without a set of that name (and a path
 * is only a name here) it is refused, listing the names there are. */
static void test_options_name_a_set(void **unused)
{
    (void)unused;
    asobi_error err;
    asobi_data_sets *sets = asobi_data_sets_load(dir, &err);
    const asobi_game_def *tm = asobi_game_find("timemasters");
    json_t *opts = json_pack("{s:s}", "cards", "mini");
    assert_int_equal(asobi_game_options_resolve(tm, opts, sets, false, &err), ASOBI_OK);
    assert_string_equal(json_string_value(json_object_get(json_object_get(opts, "cards"), "title")), "mini");
    json_decref(opts);

    char path[128];
    snprintf(path, sizeof path, "%s/mini.json", dir); /* a real file: still never opened */
    opts = json_pack("{s:s}", "cards", path);
    assert_int_equal(asobi_game_options_resolve(tm, opts, sets, false, &err), ASOBI_E_BAD_OPTION);
    assert_non_null(strstr(err.message, "the sets loaded: \"mini\""));
    assert_non_null(strstr(err.message, "never as a path"));
    json_decref(opts);
    asobi_data_sets_free(sets);
}

static json_t *request(protocol_session *p, const char *line)
{
    json_t *reply = protocol_handle_line(p, line, strlen(line));
    assert_non_null(reply);
    return reply;
}

/* Over the protocol: "new" picks a set by name, "games" lists the sets, and
 * the record carries the content: it loads where no set was ever loaded. */
static void test_the_protocol_picks_a_set_by_name(void **unused)
{
    (void)unused;
    asobi_error err;
    asobi_data_sets *sets = asobi_data_sets_load(dir, &err);
    protocol_session *p = protocol_session_new();
    protocol_session_set_data_sets(p, sets);
    json_t *games = request(p, "{\"cmd\":\"games\"}");
    assert_int_equal(json_array_size(json_object_get(games, "card_sets")), 1);
    json_decref(games);
    json_t *r = request(p, "{\"cmd\":\"new\",\"game\":\"timemasters\",\"seed\":4,\"options\":{\"cards\":\"nope\"}}");
    assert_string_equal(json_string_value(json_object_get(json_object_get(r, "error"), "code")), "bad_option");
    json_decref(r);
    r = request(p, "{\"cmd\":\"new\",\"game\":\"timemasters\",\"seed\":4,\"options\":{\"cards\":\"mini\"}}");
    assert_true(json_is_true(json_object_get(r, "ok")));
    json_decref(r);
    r = request(p, "{\"cmd\":\"act\",\"seat\":0,\"action\":\"play Zap\"}");
    json_decref(r);
    json_t *rec = asobi_match_record(protocol_session_match(p));
    asobi_match *back = asobi_match_load(rec, &err); /* no sets here */
    if (!back)
        fail_msg("%s", err.message);
    assert_true(asobi_state_equal(asobi_match_state(back), asobi_match_state(protocol_session_match(p))));
    asobi_match_free(back);
    json_decref(rec);
    protocol_session_free(p);
    asobi_data_sets_free(sets);
}

/* asobi serve --card-sets: a table's options name a set; /api/games lists them. */
static void test_the_server_picks_a_set_by_name(void **unused)
{
    (void)unused;
    asobi_error err;
    asobi_data_sets *sets = asobi_data_sets_load(dir, &err);
    hall h = {0};
    srv_log_quiet = true;
    h.store = store_open(":memory:", &err);
    h.card_sets = sets;
    json_t *reply;
    srv_error e;
    const char *body = "{\"game\":\"timemasters\",\"players\":2,\"options\":{\"cards\":\"mini\"},\"bots\":[\"random\",null]}";
    assert_int_equal(hall_http(&h, true, "/api/tables", body, strlen(body), false, 0, &reply, &e), 201);
    json_int_t id = json_integer_value(json_object_get(reply, "table"));
    json_decref(reply);
    const table *t = hall_slot_of(&h, id)->t;
    assert_string_equal(json_string_value(json_object_get(json_object_get(asobi_match_options(t->match), "cards"), "title")),
                        "mini");
    body = "{\"game\":\"timemasters\",\"players\":2,\"options\":{\"cards\":\"/etc/hostname\"}}";
    assert_int_equal(hall_http(&h, true, "/api/tables", body, strlen(body), false, 0, &reply, &e), 400);
    assert_string_equal(e.code, "bad_option");
    json_decref(reply);
    assert_int_equal(hall_http(&h, false, "/api/games", NULL, 0, false, 0, &reply, &e), 200);
    assert_int_equal(json_array_size(json_object_get(reply, "card_sets")), 1);
    json_decref(reply);
    hall_close(&h);
    store_close(h.store);
    asobi_data_sets_free(sets);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_folder_of_sets_is_listed_with_hashes),
        cmocka_unit_test(test_a_bad_folder_is_refused_naming_the_file),
        cmocka_unit_test(test_options_name_a_set),
        cmocka_unit_test(test_the_protocol_picks_a_set_by_name),
        cmocka_unit_test(test_the_server_picks_a_set_by_name),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}

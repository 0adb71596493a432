/* test_engine_protocol.c — `asobi engine` end to end: every command, every error code, and errors change nothing. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conformance.h"
#include "protocol/protocol.h"

/* Run the engine on the given request lines (raw bytes, each without its
 * newline) and return its reply lines parsed. */
typedef struct session {
    json_t *replies[512];
    int count;
} session;

static void run_engine(const char *const *lines, const size_t *lens, int n, session *out)
{
    const char *binary = getenv("ASOBI_BINARY");
    assert_non_null(binary);
    char in_path[] = "/tmp/asobi_engine_in_XXXXXX", out_path[] = "/tmp/asobi_engine_out_XXXXXX";
    int in_fd = mkstemp(in_path), out_fd = mkstemp(out_path);
    assert_true(in_fd >= 0 && out_fd >= 0);
    FILE *in = fdopen(in_fd, "wb");
    for (int i = 0; i < n; i++) {
        fwrite(lines[i], 1, lens ? lens[i] : strlen(lines[i]), in);
        fputc('\n', in);
    }
    fclose(in);
    close(out_fd);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' engine < '%s' > '%s'", binary, in_path, out_path);
    assert_int_equal(system(cmd), 0);
    FILE *f = fopen(out_path, "rb");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    out->count = 0;
    while ((len = getline(&line, &cap, f)) > 0) {
        json_error_t jerr;
        json_t *j = json_loadb(line, (size_t)len, 0, &jerr);
        if (!j)
            fail_msg("reply %d is not JSON: %s", out->count, line);
        assert_true(out->count < 512);
        out->replies[out->count++] = j;
    }
    free(line);
    fclose(f);
    unlink(in_path);
    unlink(out_path);
}

static void free_session(session *s)
{
    for (int i = 0; i < s->count; i++)
        json_decref(s->replies[i]);
}

/* Does the JSON value equal the JSON text? */
static bool json_is(const json_t *value, const char *text)
{
    json_t *want = json_loads(text, JSON_DECODE_ANY, NULL);
    bool eq = json_equal(value, want);
    json_decref(want);
    return eq;
}

static bool ok(const json_t *reply) { return json_is_true(json_object_get(reply, "ok")); }

static const char *code(const json_t *reply)
{
    return json_string_value(json_object_get(json_object_get(reply, "error"), "code"));
}

static void expect_error(const session *s, int i, const char *want)
{
    const json_t *r = s->replies[i];
    if (ok(r) || !code(r) || strcmp(code(r), want) != 0) {
        char *text = json_dumps(r, 0);
        fail_msg("reply %d: expected error %s, got %s", i, want, text);
    }
    const char *msg = json_string_value(json_object_get(json_object_get(r, "error"), "message"));
    assert_non_null(msg);
    assert_true(strlen(msg) > 0);
}

static void expect_ok(const session *s, int i)
{
    if (!ok(s->replies[i])) {
        char *text = json_dumps(s->replies[i], 0);
        fail_msg("reply %d: expected ok, got %s", i, text);
    }
}

/* issue 2 §5: the commands, as specified. */
static void test_commands_as_specified(void **unused)
{
    (void)unused;
    const char *lines[] = {
        "{\"cmd\":\"games\"}",
        "{\"cmd\":\"new\",\"game\":\"psycle\",\"players\":3,\"seed\":42,\"options\":{}}",
        "{\"cmd\":\"legal\",\"seat\":0}",
        "{\"cmd\":\"act\",\"seat\":0,\"action\":\"play 3\"}",
        "{\"cmd\":\"act\",\"seat\":1,\"action\":2}",
        "{\"cmd\":\"view\",\"seat\":1}",
        "{\"cmd\":\"view\",\"seat\":null}",
        "{\"cmd\":\"view\"}",
        "{\"cmd\":\"result\"}",
        "{\"cmd\":\"record\"}",
        "{\"cmd\":\"view\",\"seat\":0,\"format\":\"text\"}",
        "{\"cmd\":\"suggest\",\"seat\":2,\"bot\":\"random\",\"seed\":1}",
        "{\"cmd\":\"legal\",\"seat\":0,\"id\":\"abc\"}",
    };
    session s;
    run_engine(lines, NULL, 13, &s);
    assert_int_equal(s.count, 13);
    for (int i = 0; i < s.count; i++)
        expect_ok(&s, i);
    const json_t *games = json_object_get(s.replies[0], "games");
    assert_true(json_array_size(games) >= 1);
    assert_true(json_is(json_object_get(s.replies[1], "to_move"), "[0,1,2]"));
    const json_t *actions = json_object_get(s.replies[2], "actions");
    assert_int_equal(json_array_size(actions), 6);
    assert_string_equal(json_string_value(json_object_get(json_array_get(actions, 3), "text")), "play 3");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(actions, 3), "id")), 3);
    assert_true(json_is(json_object_get(s.replies[4], "to_move"), "[2]"));
    const json_t *view = json_object_get(s.replies[5], "view");
    assert_string_equal(json_string_value(json_object_get(view, "game")), "psycle");
    assert_int_equal(json_integer_value(json_object_get(view, "seat")), 1);
    for (const char *const *f = (const char *const[]){"to_move", "cycle", "round", "target", "bonus", "players", "supply", NULL}; *f; f++)
        assert_non_null(json_object_get(view, *f));
    const json_t *p0 = json_array_get(json_object_get(view, "players"), 0);
    for (const char *const *f = (const char *const[]){"seat", "gems", "points", "victory_tiles", "hand", "hand_size", "played", NULL}; *f; f++)
        assert_non_null(json_object_get(p0, *f));
    assert_true(json_is_null(json_object_get(p0, "hand"))); /* seat 1 cannot see seat 0's hand */
    assert_true(json_is_null(json_object_get(json_object_get(s.replies[6], "view"), "seat")));
    assert_true(json_equal(json_object_get(s.replies[6], "view"), json_object_get(s.replies[7], "view")));
    const json_t *res = s.replies[8];
    assert_false(json_is_true(json_object_get(res, "terminal")));
    assert_int_equal(json_array_size(json_object_get(res, "scores")), 3);
    assert_int_equal(json_array_size(json_object_get(res, "ranks")), 3);
    assert_true(json_is_array(json_object_get(res, "winners")));
    const json_t *rec = json_object_get(s.replies[9], "record");
    assert_string_equal(json_string_value(json_object_get(rec, "game")), "psycle");
    assert_int_equal(json_integer_value(json_object_get(rec, "seed")), 42);
    assert_int_equal(json_array_size(json_object_get(rec, "actions")), 2);
    assert_true(json_is_string(json_object_get(s.replies[10], "text")));
    assert_non_null(json_object_get(json_object_get(s.replies[11], "action"), "text"));
    assert_string_equal(json_string_value(json_object_get(s.replies[12], "id")), "abc");
    free_session(&s);
}

/* issue 33: the act reply tells what the action made happen ("events"), as
 * the acting seat (or the "viewer" asked for) may know it; a bad viewer is
 * refused before anything is played. */
static void test_act_tells_the_events(void **unused)
{
    (void)unused;
    const char *lines[] = {
        "{\"cmd\":\"new\",\"game\":\"psycle\",\"players\":2,\"seed\":7}",
        "{\"cmd\":\"act\",\"seat\":0,\"action\":\"play 3\"}",
        "{\"cmd\":\"act\",\"seat\":1,\"action\":\"play 2\",\"viewer\":7}",
        "{\"cmd\":\"act\",\"seat\":1,\"action\":\"play 2\",\"viewer\":\"spectator\"}",
        "{\"cmd\":\"record\"}",
    };
    session s;
    run_engine(lines, NULL, 5, &s);
    assert_int_equal(s.count, 5);
    expect_ok(&s, 1);
    /* a face-down choice: nothing happens until the round's last card */
    assert_true(json_is(json_object_get(s.replies[1], "events"), "[]"));
    expect_error(&s, 2, "bad_request");
    expect_ok(&s, 3);
    const json_t *events = json_object_get(s.replies[3], "events");
    const json_t *reveal = json_array_get(events, 0);
    /* PSYCLE §6.3 "全員が一斉にカードを公開します": both cards, to the spectator too */
    assert_string_equal(json_string_value(json_object_get(reveal, "type")), "reveal");
    assert_true(json_is(json_object_get(reveal, "cards"), "[3,2]"));
    assert_true(strlen(json_string_value(json_object_get(reveal, "text"))) > 0);
    assert_int_equal(json_array_size(json_object_get(json_object_get(s.replies[4], "record"), "actions")), 2);
    free_session(&s);
}

/* issue 45 §2: act reads {"id":N} and {"text":T} as external bots' replies write them. */
static void test_act_takes_an_action_object(void **unused)
{
    (void)unused;
    const char *lines[] = {
        "{\"cmd\":\"new\",\"game\":\"psycle\",\"players\":2,\"seed\":7}",
        "{\"cmd\":\"act\",\"seat\":0,\"action\":{}}",
        "{\"cmd\":\"act\",\"seat\":0,\"action\":{\"id\":\"x\"}}",
        "{\"cmd\":\"act\",\"seat\":0,\"action\":{\"id\":3,\"text\":\"ignored\"}}",
        "{\"cmd\":\"act\",\"seat\":1,\"action\":{\"text\":\"play 2\"}}",
        "{\"cmd\":\"record\"}",
    };
    session s;
    run_engine(lines, NULL, 6, &s);
    assert_int_equal(s.count, 6);
    expect_error(&s, 1, "bad_request");
    expect_error(&s, 2, "illegal_action"); /* read as its text, as "action":"x" is */
    expect_ok(&s, 3);
    expect_ok(&s, 4);
    assert_true(json_is(json_object_get(json_object_get(s.replies[5], "record"), "actions"),
                        "[{\"seat\":0,\"action\":\"play 3\"},{\"seat\":1,\"action\":\"play 2\"}]"));
    free_session(&s);
}

/* issue 2 §5: a record loads back to the same game. */
static void test_load_replays_a_record(void **unused)
{
    (void)unused;
    const char *lines[] = {
        "{\"cmd\":\"new\",\"game\":\"psycle\",\"players\":2,\"seed\":7}",
        "{\"cmd\":\"act\",\"seat\":0,\"action\":\"play 5\"}",
        "{\"cmd\":\"act\",\"seat\":1,\"action\":\"play 1\"}",
        "{\"cmd\":\"view\"}",
        "{\"cmd\":\"load\",\"record\":{\"game\":\"psycle\",\"players\":2,\"seed\":7,\"options\":{},"
        "\"actions\":[{\"seat\":0,\"action\":\"play 5\"},{\"seat\":1,\"action\":\"play 1\"}]}}",
        "{\"cmd\":\"view\"}",
        "{\"cmd\":\"load\",\"record\":{\"game\":\"psycle\",\"players\":2,\"seed\":7,"
        "\"actions\":[{\"seat\":0,\"action\":\"play 5\"},{\"seat\":0,\"action\":\"play 1\"}]}}",
        "{\"cmd\":\"load\",\"record\":{\"game\":\"psycle\"}}",
        "{\"cmd\":\"view\"}",
    };
    session s;
    run_engine(lines, NULL, 9, &s);
    assert_int_equal(s.count, 9);
    expect_ok(&s, 4);
    assert_true(json_equal(json_object_get(s.replies[3], "view"), json_object_get(s.replies[5], "view")));
    expect_error(&s, 6, "bad_record");
    expect_error(&s, 7, "bad_record");
    /* a failed load keeps the game that was loaded before */
    assert_true(json_equal(json_object_get(s.replies[5], "view"), json_object_get(s.replies[8], "view")));
    free_session(&s);
}

/* issue 2 §5: every error has a stable code, and the game is untouched. Each
 * bad request is followed by a "record" and an all-seeing "view": both must
 * equal the ones taken before any bad request. */
static void test_errors_leave_the_game_untouched(void **unused)
{
    (void)unused;
    static char long_line[PROTOCOL_LINE_MAX + 100]; /* over the limit: refused, skipped */
    memset(long_line, ' ', sizeof long_line);
    memcpy(long_line, "{\"cmd\":\"games\",\"pad\":\"", 22);
    long_line[sizeof long_line - 2] = '"';
    long_line[sizeof long_line - 1] = '}';
    const char bad_utf8[] = "{\"cmd\":\"act\",\"seat\":0,\"action\":\"play \xff\xfe\"}";
    const char with_nul[] = "{\"cmd\":\"act\",\"seat\":0,\"action\":\"play\0 3\"}";
    static char deep[5000];
    for (int i = 0; i < 2400; i++) {
        deep[i] = '[';
    }
    deep[2400] = '\0';
    struct { const char *line; size_t len; const char *code; } bad[] = {
        {"nonsense", 0, "bad_json"},
        {"[1,2,3]", 0, "bad_json"},
        {"{\"cmd\":\"act\"", 0, "bad_json"},
        {bad_utf8, sizeof bad_utf8 - 1, "bad_json"},
        {with_nul, sizeof with_nul - 1, "bad_json"},
        {deep, 0, "bad_json"},
        {"{\"cmd\":\"act\",\"cmd\":\"act\"}", 0, "bad_json"},
        {long_line, sizeof long_line, "line_too_long"},
        {"{}", 0, "bad_request"},
        {"{\"cmd\":42}", 0, "bad_request"},
        {"{\"cmd\":\"teleport\"}", 0, "unknown_cmd"},
        {"{\"cmd\":\"act\",\"seat\":\"0\",\"action\":\"play 1\"}", 0, "bad_request"},
        {"{\"cmd\":\"act\",\"seat\":0.5,\"action\":\"play 1\"}", 0, "bad_request"},
        {"{\"cmd\":\"act\",\"seat\":0}", 0, "bad_request"},
        {"{\"cmd\":\"act\",\"seat\":0,\"action\":[1]}", 0, "bad_request"},
        {"{\"cmd\":\"act\",\"seat\":9,\"action\":\"play 1\"}", 0, "bad_seat"},
        {"{\"cmd\":\"act\",\"seat\":-1,\"action\":\"play 1\"}", 0, "bad_seat"},
        {"{\"cmd\":\"act\",\"seat\":99999999999999999,\"action\":\"play 1\"}", 0, "bad_seat"},
        {"{\"cmd\":\"legal\",\"seat\":7}", 0, "bad_seat"},
        {"{\"cmd\":\"view\",\"seat\":3}", 0, "bad_seat"},
        {"{\"cmd\":\"view\",\"seat\":0,\"format\":\"pdf\"}", 0, "bad_request"},
        {"{\"cmd\":\"act\",\"seat\":0,\"action\":\"play 1\"}", 0, "not_your_turn"},
        {"{\"cmd\":\"act\",\"seat\":1,\"action\":\"play 9\"}", 0, "illegal_action"},
        {"{\"cmd\":\"act\",\"seat\":1,\"action\":\"dance\"}", 0, "illegal_action"},
        {"{\"cmd\":\"act\",\"seat\":1,\"action\":\"\"}", 0, "illegal_action"},
        {"{\"cmd\":\"act\",\"seat\":1,\"action\":6}", 0, "illegal_action"},
        {"{\"cmd\":\"act\",\"seat\":1,\"action\":-1}", 0, "illegal_action"},
        {"{\"cmd\":\"act\",\"seat\":1,\"action\":9223372036854775807}", 0, "illegal_action"},
        {"{\"cmd\":\"act\",\"seat\":1,\"action\":\"play 99999999999999999999999\"}", 0, "illegal_action"},
        {"{\"cmd\":\"new\",\"game\":\"chess\",\"players\":2}", 0, "unknown_game"},
        {"{\"cmd\":\"new\",\"game\":\"psycle\",\"players\":1}", 0, "bad_players"},
        {"{\"cmd\":\"new\",\"game\":\"psycle\",\"players\":-5}", 0, "bad_players"},
        {"{\"cmd\":\"new\",\"game\":\"psycle\",\"players\":99999999999999}", 0, "bad_players"},
        {"{\"cmd\":\"new\",\"game\":\"psycle\",\"players\":\"3\"}", 0, "bad_request"},
        {"{\"cmd\":\"new\",\"game\":\"psycle\",\"players\":1e300}", 0, "bad_request"},
        {"{\"cmd\":\"new\",\"game\":\"psycle\",\"players\":2,\"seed\":\"x\"}", 0, "bad_request"},
        {"{\"cmd\":\"new\",\"game\":\"psycle\",\"players\":2,\"options\":{\"max_cycles\":0}}", 0, "bad_option"},
        {"{\"cmd\":\"new\",\"game\":\"psycle\",\"players\":2,\"options\":{\"max_cycles\":\"many\"}}", 0, "bad_option"},
        {"{\"cmd\":\"new\",\"game\":\"psycle\",\"players\":2,\"options\":{\"colour\":1}}", 0, "bad_option"},
        {"{\"cmd\":\"new\",\"game\":\"psycle\",\"players\":2,\"options\":[]}", 0, "bad_request"},
        {"{\"cmd\":\"new\",\"players\":2}", 0, "bad_request"},
        {"{\"cmd\":\"load\",\"record\":42}", 0, "bad_request"},
        {"{\"cmd\":\"suggest\",\"seat\":1,\"bot\":\"oracle\"}", 0, "bad_bot"},
        {"{\"cmd\":\"suggest\",\"seat\":0,\"bot\":\"random\"}", 0, "not_your_turn"},
    };
    int nbad = (int)(sizeof bad / sizeof bad[0]);
    const char *lines[512];
    size_t lens[512];
    int n = 0;
    lines[n] = "{\"cmd\":\"record\"}"; lens[n++] = 16; /* before any game */
    lines[n] = "{\"cmd\":\"new\",\"game\":\"psycle\",\"players\":3,\"seed\":5}"; lens[n] = strlen(lines[n]); n++;
    lines[n] = "{\"cmd\":\"act\",\"seat\":0,\"action\":\"play 2\"}"; lens[n] = strlen(lines[n]); n++;
    lines[n] = "{\"cmd\":\"record\"}"; lens[n] = strlen(lines[n]); n++;
    lines[n] = "{\"cmd\":\"view\"}"; lens[n] = strlen(lines[n]); n++;
    for (int i = 0; i < nbad; i++) {
        lines[n] = bad[i].line;
        lens[n++] = bad[i].len ? bad[i].len : strlen(bad[i].line);
        lines[n] = "{\"cmd\":\"record\"}"; lens[n] = strlen(lines[n]); n++;
        lines[n] = "{\"cmd\":\"view\"}"; lens[n] = strlen(lines[n]); n++;
    }
    session s;
    run_engine(lines, lens, n, &s);
    assert_int_equal(s.count, n); /* exactly one reply per request */
    expect_error(&s, 0, "no_game");
    const json_t *record = json_object_get(s.replies[3], "record");
    const json_t *view = json_object_get(s.replies[4], "view");
    assert_non_null(record);
    for (int i = 0; i < nbad; i++) {
        int at = 5 + 3 * i;
        expect_error(&s, at, bad[i].code);
        if (!json_equal(json_object_get(s.replies[at + 1], "record"), record) ||
            !json_equal(json_object_get(s.replies[at + 2], "view"), view))
            fail_msg("bad request %d (%s) changed the game", i, bad[i].code);
    }
    free_session(&s);
}

/* The two the tests above leave out (docs/protocol.md promises every
 * command and every error code): game_over, for an action at a finished
 * game (a whole game played here, loaded from its record), and quit,
 * answered ok before the engine exits, reading nothing after it. */
static void test_game_over_and_quit(void **unused)
{
    (void)unused;
    asobi_error err;
    json_t *options = json_pack("{s:i}", "max_cycles", 1);
    asobi_match *m = asobi_match_new("psycle", 2, options, 5, &err);
    json_decref(options);
    assert_non_null(m);
    asobi_rng rng;
    asobi_rng_seed(&rng, 5);
    int ids[64];
    while (!asobi_state_terminal(asobi_match_state(m))) {
        const asobi_state *st = asobi_match_state(m);
        int seat = __builtin_ctz(asobi_state_to_move(st));
        int n = asobi_state_legal(st, seat, ids);
        assert_int_equal(asobi_match_act(m, seat, ids[asobi_rng_below(&rng, (uint32_t)n)], &err), ASOBI_OK);
    }
    char *record = asobi_match_record_text(m, NULL);
    asobi_match_free(m);
    size_t cap = strlen(record) + 64;
    char *load = malloc(cap);
    snprintf(load, cap, "{\"cmd\":\"load\",\"record\":%s}", record);
    const char *lines[] = {
        load,
        "{\"cmd\":\"act\",\"seat\":0,\"action\":\"play 0\"}",
        "{\"cmd\":\"quit\"}",
        "{\"cmd\":\"games\"}",
    };
    session s;
    run_engine(lines, NULL, 4, &s);
    assert_int_equal(s.count, 3); /* nothing after quit */
    expect_ok(&s, 0);
    assert_true(json_is_true(json_object_get(s.replies[0], "terminal")));
    expect_error(&s, 1, "game_over");
    expect_ok(&s, 2);
    free_session(&s);
    free(load);
    free(record);
}

/* issue 44 §8: "undo" takes back; legal and view say whether it may; a
 * refusal is undo_not_allowed and changes nothing. PSYCLE, 3 seats: seat 0's
 * face-down choice may be withdrawn after seat 1's, until the last seat has
 * chosen (docs/protocol.md, "Taking back"). */
static void test_undo_takes_back_and_refuses(void **unused)
{
    (void)unused;
    const char *lines[] = {
        "{\"cmd\":\"new\",\"game\":\"psycle\",\"players\":3,\"seed\":42}", /* 0 */
        "{\"cmd\":\"legal\",\"seat\":0}",
        "{\"cmd\":\"act\",\"seat\":0,\"action\":\"play 3\"}",
        "{\"cmd\":\"legal\",\"seat\":0}",
        "{\"cmd\":\"view\",\"seat\":0}",
        "{\"cmd\":\"act\",\"seat\":1,\"action\":\"play 2\"}", /* 5 */
        "{\"cmd\":\"undo\",\"seat\":0}",
        "{\"cmd\":\"record\"}",
        "{\"cmd\":\"view\"}",
        "{\"cmd\":\"undo\",\"seat\":0}",
        "{\"cmd\":\"undo\",\"seat\":2}", /* 10 */
        "{\"cmd\":\"undo\"}",
        "{\"cmd\":\"undo\",\"seat\":7}",
        "{\"cmd\":\"view\"}",
        "{\"cmd\":\"record\"}",
        "{\"cmd\":\"act\",\"seat\":0,\"action\":\"play 1\"}", /* 15 */
        "{\"cmd\":\"act\",\"seat\":2,\"action\":\"play 0\"}",
        "{\"cmd\":\"undo\",\"seat\":2}",
        "{\"cmd\":\"undo\",\"seat\":0}",
        "{\"cmd\":\"legal\",\"seat\":0}",
        "{\"cmd\":\"view\",\"seat\":2}", /* 20 */
    };
    int n = (int)(sizeof lines / sizeof lines[0]);
    session s;
    run_engine(lines, NULL, n, &s);
    assert_int_equal(s.count, n);
    assert_true(json_is_false(json_object_get(s.replies[1], "undo")));
    assert_true(json_is_true(json_object_get(s.replies[3], "undo")));
    assert_true(json_is_true(json_object_get(s.replies[4], "undo")));
    expect_ok(&s, 6);
    assert_true(json_is(json_object_get(s.replies[6], "taken_back"), "{\"seat\":0,\"action\":\"play 3\"}"));
    assert_true(json_is(json_object_get(s.replies[6], "to_move"), "[0,2]"));
    assert_true(json_is(json_object_get(json_object_get(s.replies[7], "record"), "actions"),
                        "[{\"seat\":1,\"action\":\"play 2\"}]"));
    expect_error(&s, 9, "undo_not_allowed");  /* nothing left to take back */
    expect_error(&s, 10, "undo_not_allowed"); /* seat 2 has not acted */
    expect_error(&s, 11, "bad_request");
    expect_error(&s, 12, "bad_seat");
    assert_true(json_equal(json_object_get(s.replies[8], "view"), json_object_get(s.replies[13], "view")));
    assert_true(json_equal(s.replies[7], s.replies[14]));
    expect_ok(&s, 16);                         /* the last choice: the round is revealed */
    expect_error(&s, 17, "undo_not_allowed"); /* it revealed the round */
    expect_error(&s, 18, "undo_not_allowed"); /* and every choice of it is final */
    assert_true(json_is_false(json_object_get(s.replies[19], "undo")));
    assert_true(json_is_false(json_object_get(s.replies[20], "undo")));
    free_session(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commands_as_specified),
        cmocka_unit_test(test_act_tells_the_events),
        cmocka_unit_test(test_act_takes_an_action_object),
        cmocka_unit_test(test_load_replays_a_record),
        cmocka_unit_test(test_errors_leave_the_game_untouched),
        cmocka_unit_test(test_game_over_and_quit),
        cmocka_unit_test(test_undo_takes_back_and_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

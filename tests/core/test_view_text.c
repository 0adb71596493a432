/* test_view_text.c — a view as text (asobi_state_view_text) is byte for byte json_dumps of the view as a tree, and both are today's views. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"
#include "repetitions.h"
#include "view_writer.h"

/* ---- the writer on its own ---------------------------------------------------- */

/* The writer's text (built by calls on a text writer) and its tree (the same
 * calls on a tree writer), each dumped: both must equal json_dumps of the
 * expected tree, and of expected_text when given. */
static void check_writer(void (*calls)(asobi_vw *w, const void *arg), const void *arg, const json_t *expected,
                         const char *expected_text)
{
    char *want = json_dumps(expected, JSON_COMPACT);
    assert_non_null(want);
    if (expected_text)
        assert_string_equal(want, expected_text);

    /* the smallest buffer (every call grows it), then a roomy one (none
     * does): the text must not depend on where the writer ran out of room */
    asobi_vw w;
    char *text = NULL;
    for (int roomy = 0; roomy < 2; roomy++) {
        free(text);
        assert_true(asobi_vw_start_text(&w, roomy ? 1 << 16 : 1));
        calls(&w, arg);
        size_t len = 0;
        text = asobi_vw_finish_text(&w, &len);
        assert_non_null(text);
        assert_string_equal(text, want);
        assert_int_equal(len, strlen(want));
    }

    assert_true(asobi_vw_start_tree(&w));
    calls(&w, arg);
    json_t *tree = asobi_vw_finish_tree(&w);
    assert_non_null(tree);
    char *dumped = json_dumps(tree, JSON_COMPACT);
    assert_string_equal(dumped, want);

    free(dumped);
    json_decref(tree);
    free(text);
    free(want);
}

/* A string as a value, as a key and in an array: {"value":S,S:"v","list":[S]}
 * (less when jansson refuses S as not UTF-8). */
static void string_calls(asobi_vw *w, const void *arg)
{
    vw_str(w, "value", arg);
    vw_str(w, arg, "v");
    vw_array_begin(w, "list");
    vw_str(w, NULL, arg);
    vw_array_end(w);
}

static void check_string(const char *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "value", json_string(s)); /* NULL when not UTF-8: then nothing is set */
    json_object_set_new(o, s, json_string("v"));
    json_t *a = json_array();
    json_array_append_new(a, json_string(s));
    json_object_set_new(o, "list", a);
    check_writer(string_calls, s, o, NULL);
    json_decref(o);
}

/* Every byte 0x01-0x7F alone and inside text, escaped as json_dumps escapes
 * it: \" \\ \b \f \n \r \t, \u00XX (upper-case) for other controls, '/' and
 * 0x7F as they are. */
static void test_every_ascii_byte_is_escaped_as_json_dumps_does(void **unused)
{
    (void)unused;
    for (int c = 1; c < 0x80; c++) {
        char alone[2] = {(char)c, '\0'};
        char inside[8] = {'a', (char)c, 'b', (char)c, (char)c, 'z', '\0'};
        check_string(alone);
        check_string(inside);
    }
    /* the escapes spelled out, so that jansson's own printing is pinned too */
    const char *all = "\"\\/\b\f\n\r\t\x01\x1f\x7f";
    json_t *e = json_pack("{s:s, s:s, s:[s]}", "value", all, all, "v", "list", all);
    check_writer(string_calls, all, e,
                 "{\"value\":\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0001\\u001F\x7f\","
                 "\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0001\\u001F\x7f\":\"v\","
                 "\"list\":[\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0001\\u001F\x7f\"]}");
    json_decref(e);
}

/* Keys and values from empty to longer than the writer's first buffer
 * (256 bytes), plain, or ending in a byte to escape, in UTF-8 (whole or
 * cut short: left out), or in '/' (kept as it is). */
static void test_long_strings_print_as_json_dumps_does(void **unused)
{
    (void)unused;
    static const int lengths[] = {0, 1, 2, 63, 64, 127, 128, 253, 254, 255, 256, 257, 300};
    static const char *const tails[] = {"", "\"", "\n", "\xc3\xa9", "\xe6\x99", "/"};
    char s[400];
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        for (size_t k = 0; k < sizeof tails / sizeof tails[0]; k++) {
            memset(s, 'a' + (int)(i % 26), (size_t)lengths[i]);
            strcpy(s + lengths[i], tails[k]);
            check_string(s);
        }
    }
}

/* UTF-8 passes through as it is; text that is not UTF-8 is left out with its
 * member, as jansson refuses it. */
static void test_utf8_passes_and_bad_utf8_is_left_out(void **unused)
{
    (void)unused;
    static const char *const good[] = {
        "", "\xc3\xa9", "\xe6\x99\x82\xe8\xa8\x88", "\xf0\x9f\x98\x80", "\xef\xbf\xbf", "\xf4\x8f\xbf\xbf",
        "a\xc2\x80z", "\xe5\xb7\xbb\xe7\x89\xa9\"\n\xe3\x82\xbf", "\xdf\xbf\xe0\xa0\x80\xf0\x90\x80\x80",
    };
    static const char *const bad[] = {
        "\x80",         "a\xbf",           "\xc0\x80",          "\xc1\xbf",         "\xc2",
        "\xe6\x99",     "\xe0\x80\x80",    "\xed\xa0\x80",      "\xed\xbf\xbf",     "\xf0\x80\x80\x80",
        "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff",          "ok\xe6\x99z",      "\xc3\xa9\xc3",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        json_t *j = json_string(good[i]);
        assert_non_null(j); /* jansson takes it */
        json_decref(j);
        check_string(good[i]);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *j = json_string(bad[i]);
        assert_null(j); /* jansson refuses it */
        check_string(bad[i]);
    }
}

static void values_calls(asobi_vw *w, const void *arg)
{
    (void)arg;
    static const long long ints[] = {0, 1, 9, 10, 99, 100, 12345, -1, -9, -10, -100, INT_MAX, INT_MIN,
                                     LLONG_MAX, LLONG_MIN};
    vw_array_begin(w, "ints");
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        vw_int(w, NULL, ints[i]);
    vw_array_end(w);
    vw_bool(w, "t", true);
    vw_bool(w, "f", false);
    vw_null(w, "n");
    vw_seats(w, "none", 0);
    vw_seats(w, "some", 0x5);
    vw_seats(w, "ends", 0x80000001u);
    vw_seats(w, "all", 0xffffffffu);
    vw_object_begin(w, "empty_object");
    vw_object_end(w);
    vw_array_begin(w, "empty_array");
    vw_array_end(w);
    vw_array_begin(w, "nested");
    vw_array_begin(w, NULL);
    vw_array_end(w);
    vw_object_begin(w, NULL);
    vw_array_begin(w, "x");
    vw_object_begin(w, NULL);
    vw_null(w, "y");
    vw_object_end(w);
    vw_seats(w, NULL, 0x2);
    vw_array_end(w);
    vw_int(w, "z", -7);
    vw_object_end(w);
    vw_null(w, NULL);
    vw_array_end(w);
}

static void test_values_and_nesting_print_as_json_dumps_does(void **unused)
{
    (void)unused;
    json_t *all = json_array();
    for (int i = 0; i < 32; i++)
        json_array_append_new(all, json_integer(i));
    json_t *e = json_pack("{s:[IIIIIIIIIIIIIII], s:b, s:b, s:n, s:o, s:o, s:o, s:o, s:{}, s:[], s:[[], {s:[{s:n}, o], s:i}, n]}",
                          "ints", 0LL, 1LL, 9LL, 10LL, 99LL, 100LL, 12345LL, -1LL, -9LL, -10LL, -100LL,
                          (long long)INT_MAX, (long long)INT_MIN, LLONG_MAX, LLONG_MIN, "t", 1, "f", 0, "n",
                          "none", asobi_json_seats(0), "some", asobi_json_seats(0x5), "ends",
                          asobi_json_seats(0x80000001u), "all", all, "empty_object", "empty_array", "nested",
                          "x", "y", asobi_json_seats(0x2), "z", -7);
    assert_non_null(e);
    check_writer(values_calls, NULL, e,
                 "{\"ints\":[0,1,9,10,99,100,12345,-1,-9,-10,-100,2147483647,-2147483648,"
                 "9223372036854775807,-9223372036854775808],\"t\":true,\"f\":false,\"n\":null,"
                 "\"none\":[],\"some\":[0,2],\"ends\":[0,31],\"all\":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,"
                 "16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31],\"empty_object\":{},\"empty_array\":[],"
                 "\"nested\":[[],{\"x\":[{\"y\":null},[1]],\"z\":-7},null]}");
    json_decref(e);
}

/* Misuse makes the writer fail (NULL), in either backend, never a wrong text. */
static void misuse_key_in_array(asobi_vw *w)
{
    vw_array_begin(w, "a");
    vw_int(w, "k", 1);
    vw_array_end(w);
}
static void misuse_no_key_in_object(asobi_vw *w) { vw_int(w, NULL, 1); }
static void misuse_unclosed(asobi_vw *w) { vw_object_begin(w, "o"); }
static void misuse_extra_end(asobi_vw *w) { vw_object_end(w); }
static void misuse_wrong_end(asobi_vw *w)
{
    vw_array_begin(w, "a");
    vw_object_end(w);
}
static void misuse_too_deep(asobi_vw *w)
{
    vw_array_begin(w, "a");
    for (int i = 0; i < ASOBI_VW_MAX_DEPTH; i++)
        vw_array_begin(w, NULL);
    for (int i = 0; i < ASOBI_VW_MAX_DEPTH; i++)
        vw_array_end(w);
    vw_array_end(w);
}
static void misuse_container_key_not_utf8(asobi_vw *w)
{
    vw_array_begin(w, "\xff");
    vw_int(w, NULL, 1);
    vw_array_end(w);
}

static void test_misuse_fails_in_both_backends(void **unused)
{
    (void)unused;
    void (*const cases[])(asobi_vw *) = {misuse_key_in_array, misuse_no_key_in_object, misuse_unclosed,
                                         misuse_extra_end,    misuse_wrong_end,        misuse_too_deep,
                                         misuse_container_key_not_utf8};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        asobi_vw w;
        assert_true(asobi_vw_start_text(&w, 64));
        cases[i](&w);
        vw_int(&w, "after", 1); /* does nothing once failed */
        assert_null(asobi_vw_finish_text(&w, NULL));
        assert_true(asobi_vw_start_tree(&w));
        cases[i](&w);
        vw_int(&w, "after", 1);
        assert_null(asobi_vw_finish_tree(&w));
    }
}

/* ---- the games' views ------------------------------------------------------------ */

/* The configurations played: every game with its defaults, and options that
 * reach other fields (the caps, THE OCTAL's single mode and ranks, a Time
 * Masters card set from a file whose title and a card name need escapes). */
typedef struct view_config {
    const char *game;
    const char *options; /* JSON text; "cards" for the card set from a file */
} view_config;

static const view_config configs[] = {
    {"psycle", NULL},
    {"psycle", "{\"max_cycles\":1}"},
    {"ninja", NULL},
    {"octal", NULL},
    {"octal", "{\"mode\":\"single\",\"max_turns\":30}"},
    {"octal", "{\"ranks\":3,\"max_turns\":60}"},
    {"timemasters", NULL},
    {"timemasters", "{\"max_turns\":6}"},
    {"timemasters", "cards"},
};
#define CONFIGS (int)(sizeof configs / sizeof configs[0])

/* FNV-1a (64 bits) over every view's text with its NUL, of the first
 * GOLDEN_GAMES games of each configuration and player count: the same loop
 * run with json_dumps(asobi_state_view(), JSON_COMPACT) against the code of
 * commit 798f94c, before views had a writer. A view that changes by one byte
 * changes its hash. (A count the options refuse plays nothing: the offset
 * basis.) */
#define GOLDEN_GAMES 3
#define MAX_STEPS 400
static const struct golden {
    int config, players;
    uint64_t hash;
} goldens[] = {
    {0, 2, 0x730277f56bbffb7bULL}, /* psycle defaults: 332 views, 80 steps, 3 terminal */
    {0, 3, 0x0c6b015578484d86ULL}, /* psycle defaults: 615 views, 120 steps, 3 terminal */
    {0, 4, 0x093a5f54c545a08aULL}, /* psycle defaults: 978 views, 160 steps, 3 terminal */
    {1, 2, 0x7947615095059181ULL}, /* psycle {"max_cycles":1}: 132 views, 30 steps, 3 terminal */
    {1, 3, 0xc3cb00c1d1b6ce02ULL}, /* psycle {"max_cycles":1}: 240 views, 45 steps, 3 terminal */
    {1, 4, 0x5dc8e8b8383ffb4eULL}, /* psycle {"max_cycles":1}: 378 views, 60 steps, 3 terminal */
    {2, 2, 0x74491f171138a3b1ULL}, /* ninja defaults: 796 views, 196 steps, 3 terminal */
    {2, 3, 0x85d55538619559c9ULL}, /* ninja defaults: 1875 views, 372 steps, 3 terminal */
    {2, 4, 0x65dd022606766579ULL}, /* ninja defaults: 2958 views, 490 steps, 3 terminal */
    {2, 5, 0x89e4d7d2d343fcc3ULL}, /* ninja defaults: 4263 views, 606 steps, 3 terminal */
    {3, 3, 0x343d83e10e3fd310ULL}, /* octal defaults: 410 views, 79 steps, 3 terminal (changed by issue 30) */
    {3, 4, 0x5e01d9f0aac0d2abULL}, /* octal defaults: 324 views, 51 steps, 3 terminal */
    {3, 5, 0x12ad58f99dff864bULL}, /* octal defaults: 714 views, 99 steps, 3 terminal (changed by issue 30) */
    {3, 6, 0xb582e536409079dbULL}, /* octal defaults: 1392 views, 171 steps, 3 terminal (changed by issue 30) */
    {4, 3, 0xe2aec2779170cb18ULL}, /* octal {"mode":"single","max_turns":30}: 440 views, 85 steps, 3 terminal (changed by issue 30) */
    {4, 4, 0x2715e09cfe1846d3ULL}, /* octal {"mode":"single","max_turns":30}: 564 views, 91 steps, 3 terminal (changed by issue 30) */
    {4, 5, 0x67ff3d8791581d6cULL}, /* octal {"mode":"single","max_turns":30}: 742 views, 103 steps, 3 terminal (changed by issue 30) */
    {4, 6, 0xa2f632fba186e355ULL}, /* octal {"mode":"single","max_turns":30}: 872 views, 106 steps, 3 terminal */
    {5, 3, 0xcbf29ce484222325ULL}, /* octal {"ranks":3,"max_turns":60}: refused for 3 players */
    {5, 4, 0xcbf29ce484222325ULL}, /* octal {"ranks":3,"max_turns":60}: refused for 4 players */
    {5, 5, 0x0ec51597afabf350ULL}, /* octal {"ranks":3,"max_turns":60}: 1365 views, 192 steps, 3 terminal (changed by issue 30) */
    {5, 6, 0x664efa4608a8772fULL}, /* octal {"ranks":3,"max_turns":60}: 1640 views, 202 steps, 3 terminal (changed by issue 30) */
    {6, 2, 0x49a02e95673889d9ULL}, /* timemasters defaults (issue 30: 3720 views, 927 steps, 3 terminal); changed by issue 40 (no cap of 6 timers or 8 recurrent Kè, ruling 25 refuses a loop's repeat) */
    {6, 3, 0xd33c626d021fc972ULL}, /* timemasters defaults: 5740 views, 1145 steps, 2 terminal (changed by issue 30) */
    {6, 4, 0xca7d0a8f7ccbb6d2ULL}, /* timemasters defaults: 6834 views, 1136 steps, 2 terminal (changed by issue 30) */
    {7, 2, 0x74dc19e1aa44c5f5ULL}, /* timemasters {"max_turns":6}: 356 views, 86 steps, 3 terminal (changed by issue 30) */
    {7, 3, 0x0c5d07c52b8e12b8ULL}, /* timemasters {"max_turns":6}: 375 views, 72 steps, 3 terminal (changed by issue 30) */
    {7, 4, 0x9c94ce7121cbee38ULL}, /* timemasters {"max_turns":6}: 456 views, 73 steps, 3 terminal (changed by issue 30) */
    {8, 2, 0x7ea210184fd4a87bULL}, /* timemasters cards: 4476 views, 1116 steps, 1 terminal (changed by issue 30) */
    {8, 3, 0x0a7aa457231aae52ULL}, /* timemasters cards: 4970 views, 991 steps, 3 terminal (changed by issue 30) */
    {8, 4, 0xd6300e02099da246ULL}, /* timemasters cards: 5940 views, 987 steps, 2 terminal (changed by issue 30) */
};

static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* Our card set read from its file, as a command line reads it, with a title
 * and a first card's name that need every kind of escape. */
static json_t *card_set_options(void)
{
    const char *dir = getenv("ASOBI_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/games/timemasters/cards_ours.json", dir ? dir : ".");
    json_t *c;
    asobi_error err;
    if (asobi_read_data_file(path, &c, &err) != ASOBI_OK)
        fail_msg("%s", err.message);
    json_object_set_new(c, "title", json_string("\"\\/\t\n\x01\x1f\x7f\xe6\x99\x82\xc3\xa9 set"));
    json_object_set_new(json_array_get(json_object_get(c, "cards"), 0), "name",
                        json_string("Sug\"ges/tion\\\xe6\x99\x82"));
    json_t *o = json_object();
    json_object_set_new(o, "cards", c);
    return o;
}

/* Every viewer's view of state as text equals json_dumps of its tree; the
 * texts go into *hash and into *step (this step's views alone); with print,
 * each viewer's text is printed too (a golden failure's first differing
 * update). */
static void check_views(const asobi_state *s, uint64_t *hash, uint64_t *step, bool print)
{
    int players = asobi_state_players(s);
    for (int viewer = ASOBI_SPECTATOR; viewer < players; viewer++) {
        json_t *tree = asobi_state_view(s, viewer);
        assert_non_null(tree);
        char *want = json_dumps(tree, JSON_COMPACT);
        assert_non_null(want);
        size_t len = 0;
        char *text = asobi_state_view_text(s, viewer, &len);
        assert_non_null(text);
        if (strcmp(text, want) != 0)
            fail_msg("%s, %d players, viewer %d: the text\n%s\nis not the tree's\n%s",
                     asobi_game_name(asobi_state_game(s)), players, viewer, text, want);
        assert_int_equal(len, strlen(text));
        *hash = fnv1a(*hash, text, len + 1);
        *step = fnv1a(*step, text, len + 1);
        if (print)
            print_message("  viewer %d (%s): %s\n", viewer,
                          viewer == ASOBI_SPECTATOR ? "spectator" : viewer < 0 ? "all-seeing" : "a seat", text);
        free(text);
        free(want);
        json_decref(tree);
    }
}

/* Where a golden failure is: the hash of each step's views (16 bits of it)
 * of every golden game, one line per game, in tests/core/view_text_steps.txt
 * ("CONFIG PLAYERS GAME: hhhh hhhh ..."). When a configuration's hash is not
 * today's, the steps are compared and the first step whose views differ is
 * printed, every viewer's text as it is now, with the action before it: so
 * that recapturing the hashes is a decision about a change seen, not a
 * number copied. ASOBI_VIEW_STEPS_OUT=FILE writes the file anew (with the
 * hashes printed in the failures, the recapture). */
#define STEP_MASK 0xffffu

/* Plays golden game g of configuration c for p players, checking every
 * view; the steps' hashes go to steps[] (when not NULL) and their count is
 * returned; -1 when the count is refused. With print_step >= 0, that step's
 * views are printed with the action that led to it. */
static int play_game(const asobi_game_def *def, const json_t *options, int c, int p, int g, uint64_t *hash,
                     uint32_t *steps, int print_step)
{
    uint64_t seed = 1000003ULL * (uint64_t)(c + 1) + 7919ULL * (uint64_t)p + (uint64_t)g;
    asobi_state *s = asobi_state_new(def, p, options, seed, NULL);
    if (!s)
        return -1; /* a count these options refuse */
    asobi_rng rng;
    asobi_rng_seed(&rng, seed ^ 0x9e3779b97f4a7c15ULL);
    int ids[asobi_game_max_actions(def)];
    int step = 0;
    for (;; step++) {
        uint64_t one = 0xcbf29ce484222325ULL;
        check_views(s, hash, &one, step == print_step);
        if (steps)
            steps[step] = (uint32_t)(one & STEP_MASK);
        uint32_t m = asobi_state_to_move(s);
        if (!m || step == MAX_STEPS)
            break;
        int k = (int)asobi_rng_below(&rng, (uint32_t)__builtin_popcount(m));
        int seat = 0;
        for (;; seat++)
            if (((m >> seat) & 1u) && k-- == 0)
                break;
        int n = asobi_state_legal(s, seat, ids);
        int action = ids[asobi_rng_below(&rng, (uint32_t)n)];
        if (step + 1 == print_step) {
            char text[256];
            asobi_state_action_text(s, seat, action, text, sizeof text);
            print_message("  (the step after seat %d's \"%s\")\n", seat, text);
        }
        asobi_state_apply_unchecked(s, seat, action);
    }
    asobi_state_free(s);
    return step + 1;
}

/* The golden steps' file: its path. */
static const char *steps_path(char *path, size_t cap)
{
    const char *dir = getenv("ASOBI_SOURCE_DIR");
    snprintf(path, cap, "%s/tests/core/view_text_steps.txt", dir ? dir : ".");
    return path;
}

/* The line of game g of configuration c for p players in the steps' file,
 * into want[] (at most MAX_STEPS + 1); its count, or -1 when missing. */
static int golden_steps(int c, int p, int g, uint32_t *want)
{
    char path[1024];
    FILE *f = fopen(steps_path(path, sizeof path), "r");
    if (!f)
        return -1;
    char line[8 * (MAX_STEPS + 8)];
    int n = -1;
    while (n < 0 && fgets(line, sizeof line, f)) {
        int lc, lp, lg, at;
        if (sscanf(line, "%d %d %d:%n", &lc, &lp, &lg, &at) != 3 || lc != c || lp != p || lg != g)
            continue;
        n = 0;
        char *q = line + at, *end;
        for (unsigned long v = strtoul(q, &end, 16); end != q && n <= MAX_STEPS; v = strtoul(q, &end, 16)) {
            want[n++] = (uint32_t)v;
            q = end;
        }
    }
    fclose(f);
    return n;
}

/* A configuration's hash is not today's: the first step whose views differ
 * from the golden steps', printed as it is now. */
static void print_first_difference(const asobi_game_def *def, const json_t *options, int c, int p, int games)
{
    for (int g = 0; g < games; g++) {
        uint32_t have[MAX_STEPS + 1], want[MAX_STEPS + 1];
        uint64_t scratch = 0;
        int n = play_game(def, options, c, p, g, &scratch, have, -1), m = golden_steps(c, p, g, want);
        if (m < 0) {
            print_error("no golden steps for game %d in tests/core/view_text_steps.txt\n", g);
            return;
        }
        for (int i = 0; i < n || i < m; i++)
            if (i >= n || i >= m || have[i] != want[i]) {
                print_error("game %d (seed %llu): the first step whose views differ from the golden ones is step %d "
                            "(of %d now, %d then)%s\n", g,
                            (unsigned long long)(1000003ULL * (uint64_t)(c + 1) + 7919ULL * (uint64_t)p + (uint64_t)g),
                            i, n, m, i < n ? "; its views now:" : "");
                if (i < n)
                    play_game(def, options, c, p, g, &scratch, NULL, i);
                return;
            }
    }
    print_error("every golden game's steps hash as before (the difference is where two steps' 16 bits agree)\n");
}

/* Random games of every configuration at every player count: at every step,
 * for every viewer (each seat, the spectator, the all-seeing), the text is
 * the tree's; the first GOLDEN_GAMES games' texts hash to today's. */
static void test_every_view_as_text_is_the_tree_and_today(void **unused)
{
    (void)unused;
    /* the golden games always; more with ASOBI_TEST_SCALE above 1. Under the
     * sanitizers a tenth of them (at least one), and no hash: the views' code
     * is the same in both builds and the normal build holds it to today's
     * texts; the sanitizers look for memory errors along any game's views. */
#ifdef ASOBI_UNDER_SANITIZER
    const bool golden = false;
    int games = test_reps(GOLDEN_GAMES);
#else
    const bool golden = true;
    int games = test_reps(GOLDEN_GAMES) > GOLDEN_GAMES ? test_reps(GOLDEN_GAMES) : GOLDEN_GAMES;
#endif
    const char *out_path = getenv("ASOBI_VIEW_STEPS_OUT");
    FILE *out = out_path ? fopen(out_path, "w") : NULL;
    if (out_path && !out)
        fail_msg("ASOBI_VIEW_STEPS_OUT=%s cannot be written", out_path);
    size_t checked = 0;
    bool failed = false;
    int stale_steps = 0;
    for (int c = 0; c < CONFIGS; c++) {
        const asobi_game_def *def = asobi_game_find(configs[c].game);
        assert_non_null(def);
        json_t *options = NULL;
        if (configs[c].options && strcmp(configs[c].options, "cards") == 0)
            options = card_set_options();
        else if (configs[c].options)
            options = json_loads(configs[c].options, 0, NULL);
        for (int p = asobi_game_min_players(def); p <= asobi_game_max_players(def); p++) {
            uint64_t hash = 0xcbf29ce484222325ULL;
            for (int g = 0; g < games; g++) {
                uint64_t scratch = 0;
                uint32_t steps[MAX_STEPS + 1];
                int n = play_game(def, options, c, p, g, g < GOLDEN_GAMES ? &hash : &scratch, steps, -1);
                if (n < 0)
                    break;
                /* the steps' file is the hashes' own account: it must agree with them (a recapture of one
                 * without the other would leave the next failure pointing at the wrong step) */
                uint32_t want[MAX_STEPS + 1];
                if (golden && !out && g < GOLDEN_GAMES &&
                    (golden_steps(c, p, g, want) != n || memcmp(want, steps, (size_t)n * sizeof *steps) != 0))
                    stale_steps++;
                if (out && g < GOLDEN_GAMES) {
                    fprintf(out, "%d %d %d:", c, p, g);
                    for (int i = 0; i < n; i++)
                        fprintf(out, " %04x", (unsigned)steps[i]);
                    fputc('\n', out);
                }
            }
            bool found = false;
            for (size_t i = 0; i < sizeof goldens / sizeof goldens[0]; i++)
                if (goldens[i].config == c && goldens[i].players == p) {
                    found = true;
                    if (golden && goldens[i].hash != hash) {
                        print_error("%s %s, %d players: the views hash to 0x%016llx, not today's 0x%016llx\n",
                                    configs[c].game, configs[c].options ? configs[c].options : "(defaults)", p,
                                    (unsigned long long)hash, (unsigned long long)goldens[i].hash);
                        print_first_difference(def, options, c, p, GOLDEN_GAMES);
                        failed = true;
                    }
                }
            if (!found)
                fail_msg("no golden hash for configuration %d, %d players", c, p);
            checked++;
        }
        json_decref(options);
    }
    if (out)
        fclose(out);
    if (failed)
        fail_msg("the views are not today's (above: each configuration's first differing step, as it is now)");
    if (stale_steps)
        fail_msg("%d golden games' steps in tests/core/view_text_steps.txt are not their views' (recapture them with "
                 "ASOBI_VIEW_STEPS_OUT=FILE)", stale_steps);
    assert_int_equal(checked, sizeof goldens / sizeof goldens[0]);
}

/* The viewers asobi_state_view refuses, asobi_state_view_text refuses too;
 * len may be NULL. */
static void test_view_text_refuses_what_the_view_refuses(void **unused)
{
    (void)unused;
    for (int g = 0; g < asobi_game_count(); g++) {
        const asobi_game_def *def = asobi_game_at(g);
        int p = asobi_game_min_players(def);
        asobi_state *s = asobi_state_new(def, p, NULL, 5, NULL);
        assert_non_null(s);
        static const int bad[] = {-3, -100, INT_MIN, INT_MAX};
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            assert_null(asobi_state_view(s, bad[i]));
            assert_null(asobi_state_view_text(s, bad[i], NULL));
        }
        assert_null(asobi_state_view(s, p));
        assert_null(asobi_state_view_text(s, p, NULL));
        char *text = asobi_state_view_text(s, 0, NULL);
        assert_non_null(text);
        json_t *v = asobi_state_view(s, 0);
        char *want = json_dumps(v, JSON_COMPACT);
        assert_string_equal(text, want);
        free(want);
        json_decref(v);
        free(text);
        asobi_state_free(s);
    }
}

/* jansson's allocations through a counter that refuses them after a while. */
static long allocations_left = -1; /* -1: no limit */
static void *limited_malloc(size_t size)
{
    if (allocations_left == 0)
        return NULL;
    if (allocations_left > 0)
        allocations_left--;
    return malloc(size);
}

/* The tree backend meets every allocation failure jansson can have, at
 * every point of a view: asobi_state_view returns NULL (or, once enough is
 * allowed, the whole view), never a part, never a crash or a leak (the
 * sanitizer build checks leaks). */
static void test_view_tree_survives_allocation_failures(void **unused)
{
    (void)unused;
    static const char *const games[] = {"psycle", "ninja", "octal", "timemasters"};
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
        const asobi_game_def *def = asobi_game_find(games[g]);
        int p = asobi_game_max_players(def);
        asobi_state *s = asobi_state_new(def, p, NULL, 11, NULL);
        assert_non_null(s);
        asobi_rng rng;
        asobi_rng_seed(&rng, 3);
        int ids[asobi_game_max_actions(def)];
        for (int step = 0; step < 40 && !asobi_state_terminal(s); step++) {
            int seat = __builtin_ctz(asobi_state_to_move(s));
            int n = asobi_state_legal(s, seat, ids);
            asobi_state_apply_unchecked(s, seat, ids[asobi_rng_below(&rng, (uint32_t)n)]);
        }
        char *want = asobi_state_view_text(s, ASOBI_ALL_SEEING, NULL);
        assert_non_null(want);
        bool whole = false;
        for (long limit = 0; !whole; limit++) {
            json_set_alloc_funcs(limited_malloc, free);
            allocations_left = limit;
            json_t *v = asobi_state_view(s, ASOBI_ALL_SEEING);
            allocations_left = -1;
            char *text = v ? json_dumps(v, JSON_COMPACT) : NULL;
            json_set_alloc_funcs(malloc, free);
            if (v) {
                assert_non_null(text);
                assert_string_equal(text, want);
                whole = true;
            }
            free(text);
            json_decref(v);
            assert_true(limit < 100000);
        }
        free(want);
        asobi_state_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_ascii_byte_is_escaped_as_json_dumps_does),
        cmocka_unit_test(test_utf8_passes_and_bad_utf8_is_left_out),
        cmocka_unit_test(test_long_strings_print_as_json_dumps_does),
        cmocka_unit_test(test_values_and_nesting_print_as_json_dumps_does),
        cmocka_unit_test(test_misuse_fails_in_both_backends),
        cmocka_unit_test(test_view_text_refuses_what_the_view_refuses),
        cmocka_unit_test(test_view_tree_survives_allocation_failures),
        cmocka_unit_test(test_every_view_as_text_is_the_tree_and_today),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

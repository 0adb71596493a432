/* test_timemasters_cards.c — our card set honours seed 003, and card files load (or are refused) as documented. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tm_sim.h"

static const tm_table *ours(void) { return &tm_default_table; }

static const tm_card *card_named(const tm_table *t, const char *name)
{
    for (int k = 0; k < t->kinds; k++)
        if (strcmp(t->card[k].name, name) == 0)
            return &t->card[k];
    fail_msg("no card %s", name);
    return NULL;
}

/* seed 003 §コンポーネント: "全部で39種類のスペルがあります", "フォーカスは5種類あります",
 * "タイマーの下部には1個もしくは2個のスロットがあり"; §セットアップ: "スフィアレベル(1~5)に応じた
 * カード20枚", and the starting ten. */
static void test_our_set_honours_the_seed(void **unused)
{
    (void)unused;
    const tm_table *t = ours();
    char msg[160];
    assert_int_equal(tm_table_check(t, msg, sizeof msg), 0);
    int spells = 0, focuses = 0, per_level[6] = {0};
    for (int k = 0; k < t->kinds; k++) {
        const tm_card *c = &t->card[k];
        spells += c->type == TM_SPELL;
        focuses += c->type == TM_FOCUS;
        if (c->type == TM_TIMER)
            assert_true(c->slots == 1 || c->slots == 2);
        per_level[c->level] += c->copies;
    }
    assert_int_equal(spells, 39);
    assert_int_equal(focuses, 5);
    assert_int_equal(per_level[0], 10);
    for (int l = 1; l <= 5; l++)
        assert_int_equal(per_level[l], 20);
    assert_int_equal(t->sphere_size, 10);
    assert_int_equal(card_named(t, "Suggestion")->copies, 2);
    assert_int_equal(card_named(t, "Recovery")->copies, 2);
    assert_int_equal(card_named(t, "Energy")->copies, 2);
    assert_int_equal(card_named(t, "Concentration")->copies, 3);
    assert_int_equal(card_named(t, "Small Timer")->slots, 1);
}

/* The named cards keep the seed's effects. */
static void test_named_cards_keep_the_seed_effects(void **unused)
{
    (void)unused;
    const tm_card *c = card_named(ours(), "Cerebral Cleaning");
    assert_int_equal(c->n_effects, 1);
    assert_int_equal(c->fx[0][0], TM_FX_REMOVE);
    assert_int_equal(c->fx[0][1], 2);
    c = card_named(ours(), "Time Heaviness");
    assert_int_equal(c->n_effects, 1);
    assert_int_equal(c->fx[0][0], TM_FX_HEAVY);
    assert_int_equal(c->fx[0][1], 1);
    c = card_named(ours(), "Slow Down");
    assert_int_equal(c->n_effects, 1);
    assert_int_equal(c->fx[0][0], TM_FX_SLOW);
    assert_int_equal(c->fx[0][1], 3);
}

/* The amount of primitive fx in a card's effect list (0 if none). */
static int fx_amount(const tm_card *c, int fx)
{
    int n = 0;
    for (int e = 0; e < c->n_effects; e++)
        n += c->fx[e][0] == fx ? c->fx[e][1] : 0;
    return n;
}

/* §2-C: "フォーカスカードをプレイすると、自分の灰色の循環のKe1個を金色に戻すなど、主にKeを回復することが
 * できます(より高いレベルのフォーカスカードはさらに強力な効果を持っています)" (issue 30, point 3; ruling
 * 24): one focus per level 0-4, each readying Kè first, and each level's effect stronger than the
 * level below: every primitive at least as much, and not the same list (the earlier set had
 * "ready 2" at levels 2, 3 and 4). */
static void test_higher_focuses_are_stronger(void **unused)
{
    (void)unused;
    const tm_card *below = NULL;
    for (int level = 0; level <= 4; level++) {
        const tm_card *f = NULL;
        for (int k = 0; k < ours()->kinds; k++)
            if (ours()->card[k].type == TM_FOCUS && ours()->card[k].level == level) {
                assert_null(f); /* one focus kind per level */
                f = &ours()->card[k];
            }
        assert_non_null(f);
        assert_int_equal(f->fx[0][0], TM_FX_READY); /* "主にKeを回復" */
        if (below) {
            bool more = false;
            for (int fx = TM_FX_NONE + 1; fx < TM_FX_COUNT; fx++) {
                assert_true(fx_amount(f, fx) >= fx_amount(below, fx)); /* never weaker */
                more |= fx_amount(f, fx) > fx_amount(below, fx);
            }
            if (!more)
                fail_msg("%s (level %d) does no more than %s (level %d)", f->name, level, below->name, level - 1);
        }
        below = f;
    }
}

/* Issue 11, point 11: our set uses only mechanisms the seed describes. Sphere access:
 * "注意:カードを獲得できる意識スフィアのレベルはスペルカードをプレイして獲得できるアクセスポイント数で
 * 決定されます" (no card adds access points); §2-C: "自分の捨て札置き場にあるフォーカスカードを取り戻し"
 * (cards come back from the discard as focuses only, never spells). Neither "access" nor "recall" is an
 * effect primitive any more: our table has none, and a card file naming one is refused. */
static void test_only_the_seeds_mechanisms(void **unused)
{
    (void)unused;
    static const int seeds[] = {TM_FX_EPHEMERAL, TM_FX_READY, TM_FX_NEW_KE, TM_FX_DRAW, TM_FX_REMOVE,
                                TM_FX_FOCUS_BACK, TM_FX_HEAVY, TM_FX_SLOW, TM_FX_LIGHT};
    assert_int_equal(TM_FX_COUNT, 1 + (int)(sizeof seeds / sizeof seeds[0]));
    for (int k = 0; k < ours()->kinds; k++)
        for (int e = 0; e < ours()->card[k].n_effects; e++) {
            bool known = false;
            for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++)
                known |= ours()->card[k].fx[e][0] == seeds[i];
            assert_true(known);
        }
    assert_int_equal(tm_fx_from_name("access"), -1);
    assert_int_equal(tm_fx_from_name("recall"), -1);
    assert_int_equal(tm_fx_from_name("focus_back"), TM_FX_FOCUS_BACK);
}

/* Higher levels: dearer and stronger spells (the average cost and the total
 * amount of effects grow with the sphere level, 1 to 5). */
static void test_effects_grow_with_level(void **unused)
{
    (void)unused;
    double prev_cost = -1, prev_power = -1;
    for (int l = 1; l <= 5; l++) {
        double cost = 0, power = 0;
        int n = 0;
        for (int k = 0; k < ours()->kinds; k++) {
            const tm_card *c = &ours()->card[k];
            if (c->type != TM_SPELL || c->level != l)
                continue;
            cost += c->cost;
            for (int e = 0; e < c->n_effects; e++)
                power += c->fx[e][1];
            n++;
        }
        cost /= n;
        power /= n;
        assert_true(cost >= prev_cost);
        assert_true(power >= prev_power);
        prev_cost = cost;
        prev_power = power;
    }
}

static char *source_path(const char *rel)
{
    const char *dir = getenv("ASOBI_SOURCE_DIR");
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/%s", dir ? dir : ".", rel);
    return buf;
}

/* Options with the card set read from a file, as the command line does. */
static json_t *options_from_file(const char *path)
{
    json_t *o = json_pack("{s:s}", "cards", path);
    asobi_error err;
    if (asobi_game_options_read_files(asobi_game_find("timemasters"), o, &err) != ASOBI_OK)
        fail_msg("%s", err.message);
    return o;
}

static asobi_state *state_with(const json_t *options, uint64_t seed)
{
    asobi_error err;
    asobi_state *s = asobi_state_new(asobi_game_find("timemasters"), 2, options, seed, &err);
    if (!s)
        fail_msg("%s", err.message);
    return s;
}

/* Our own set written as a card file loads to the very same table. */
static void test_card_file_of_our_set_loads_identically(void **unused)
{
    (void)unused;
    json_t *o = options_from_file(source_path("tests/games/timemasters/cards_ours.json"));
    asobi_state *a = state_with(o, 42);
    const tm_table *t = &tm_of(a)->table;
    assert_int_equal(t->kinds, ours()->kinds);
    assert_int_equal(t->sphere_size, ours()->sphere_size);
    assert_memory_equal(t->card, ours()->card, sizeof t->card);

    /* and a game with it is the same game as with the default, byte for byte but the title */
    asobi_state *b = new_state("timemasters", 2, NULL, 42);
    memcpy(tm_of(a)->table.title, tm_of(b)->table.title, sizeof tm_of(a)->table.title);
    assert_true(asobi_state_equal(a, b));
    asobi_state_free(a);
    asobi_state_free(b);
    json_decref(o);
}

static const char *write_file(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/asobi_tm_cards_%d.json", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* A card set given as content is refused with bad_option and a message that
 * names the field (issue 13 point 3). */
static void refused_set(const char *set, const char *why)
{
    json_error_t jerr;
    json_t *content = json_loads(set, 0, &jerr);
    if (!content)
        fail_msg("test set is not JSON: %s", jerr.text);
    json_t *o = json_pack("{s:o}", "cards", content);
    asobi_error err;
    asobi_state *s = asobi_state_new(asobi_game_find("timemasters"), 2, o, 1, &err);
    json_decref(o);
    if (s)
        fail_msg("a card set was accepted: %s", set);
    assert_int_equal(err.code, ASOBI_E_BAD_OPTION);
    if (!strstr(err.message, why))
        fail_msg("expected \"%s\" in \"%s\"", why, err.message);
}

#define MINI_START "{\"name\":\"Zap\",\"type\":\"spell\",\"level\":0,\"cost\":1,\"copies\":8,\"effects\":[[\"draw\",1]]}"
#define MINI_LEVELS                                                                                \
    "{\"name\":\"A\",\"type\":\"spell\",\"level\":1,\"cost\":1,\"copies\":4},"                     \
    "{\"name\":\"B\",\"type\":\"focus\",\"level\":2,\"copies\":4,\"effects\":[[\"ready\",2]]},"    \
    "{\"name\":\"C\",\"type\":\"timer\",\"level\":3,\"copies\":4,\"slots\":2,\"trigger\":\"set\",\"effects\":[[\"ephemeral\",1]]}," \
    "{\"name\":\"D\",\"type\":\"spell\",\"level\":4,\"cost\":3,\"copies\":4,\"effects\":[[\"draw\",2]]}," \
    "{\"name\":\"E\",\"type\":\"spell\",\"level\":5,\"cost\":4,\"copies\":4,\"effects\":[[\"slow\",2],[\"heavy\",1]]}"
#define MINI_SET "{\"title\":\"mini\",\"sphere_size\":3,\"cards\":[" MINI_START "," MINI_LEVELS "]}"

static void test_small_card_file_plays(void **unused)
{
    (void)unused;
    const char *path = write_file(MINI_SET);
    json_t *o = options_from_file(path);
    asobi_state *s = state_with(o, 1);
    tm_state *t = tm_of(s);
    assert_string_equal(t->table.title, "mini");
    assert_int_equal(t->n_sphere[0], 3);
    assert_int_equal(t->n_aside[0], 1);
    assert_int_equal(t->p[0].n_hand + t->p[0].n_deck, 8);
    asobi_state_free(s);
    char *opts = json_dumps(o, JSON_COMPACT);
    conformance_spec spec = {.game = "timemasters", .players = 2, .options_json = opts, .games = 30,
                             .seed = 99, .deep_every = 5};
    conformance_run(&spec);
    free(opts);
    json_decref(o);
    unlink(path);
}

/* A set's title is shown in views (card_set) and kept in the state's flat table: up to 63 bytes, longer
 * cut at a character boundary (docs/rules/timemasters.md, the card-file format). */
static void test_titles_are_kept_to_63_bytes_whole_characters(void **unused)
{
    (void)unused;
    static tm_table t; /* large: off the stack */
    const char *ours = "asobi set (our own design), as a card file"; /* 42 bytes: whole */
    json_t *set = json_loads(MINI_SET, 0, NULL);
    json_object_set_new(set, "title", json_string(ours));
    assert_int_equal(tm_table_from_json(set, &t, NULL), ASOBI_OK);
    assert_string_equal(t.title, ours);
    char long_title[2 * 40 + 1] = ""; /* 40 two-byte characters: 80 bytes */
    for (int i = 0; i < 40; i++)
        strcat(long_title, "\xc3\xa9"); /* é */
    json_object_set_new(set, "title", json_string(long_title));
    assert_int_equal(tm_table_from_json(set, &t, NULL), ASOBI_OK);
    assert_int_equal(strlen(t.title), 62); /* 31 whole characters: the 32nd would need byte 64 */
    assert_memory_equal(t.title, long_title, 62);
    json_decref(set);
}

static void test_bad_card_files_are_refused(void **unused)
{
    (void)unused;
    refused_set("{\"cards\": []}", "\"cards\"");
    refused_set("{\"cards\":[" MINI_START "]}", "level 1 holds");
    refused_set("{\"cards\":[" MINI_LEVELS "]}", "starting deck");
    refused_set("{\"cards\":[" MINI_START "," MINI_START "," MINI_LEVELS "]}", "two cards are named");
    refused_set("{\"cards\":[{\"name\":\"X\",\"type\":\"spell\",\"level\":0,\"effects\":[[\"teleport\",1]]}]}",
                "\"effects\"");
    /* issue 11, point 11: the invented primitives are gone */
    refused_set("{\"cards\":[{\"name\":\"X\",\"type\":\"spell\",\"level\":0,\"effects\":[[\"access\",1]]}]}",
                "known primitive");
    refused_set("{\"cards\":[{\"name\":\"X\",\"type\":\"spell\",\"level\":0,\"effects\":[[\"recall\",1]]}]}",
                "known primitive");
    refused_set("{\"cards\":[{\"name\":\"X\",\"type\":\"card\",\"level\":0}]}", "\"type\" is spell, focus or timer");
    refused_set("{\"cards\":[{\"name\":\"X\",\"type\":\"timer\",\"level\":0,\"slots\":3}]}", "\"slots\"");
    refused_set("{\"cards\":[{\"name\":\"X\",\"type\":\"spell\",\"level\":7}]}", "\"level\"");
    refused_set("{\"cards\":[{\"name\":\"X\",\"type\":\"focus\",\"level\":0,\"cost\":2}," MINI_LEVELS "]}",
                "\"cost\"");
    refused_set("{\"cards\":[{\"type\":\"spell\",\"level\":0}]}", "\"name\"");
    /* ruling 26: the state's 32 timers in play are never met; a set letting one player own more (1
     * starting, 8 at each of the five levels: 41) is refused */
    refused_set("{\"sphere_size\":8,\"cards\":[" MINI_START ",{\"name\":\"T0\",\"type\":\"timer\",\"level\":0,"
                "\"slots\":1},{\"name\":\"T1\",\"type\":\"timer\",\"level\":1,\"copies\":8,\"slots\":1},"
                "{\"name\":\"T2\",\"type\":\"timer\",\"level\":2,\"copies\":8,\"slots\":1},"
                "{\"name\":\"T3\",\"type\":\"timer\",\"level\":3,\"copies\":8,\"slots\":1},"
                "{\"name\":\"T4\",\"type\":\"timer\",\"level\":4,\"copies\":8,\"slots\":1},"
                "{\"name\":\"T5\",\"type\":\"timer\",\"level\":5,\"copies\":8,\"slots\":1}]}",
                "could own 41 timers");
    /* a file that is not JSON, read by the command line, names the file's problem */
    json_t *o = json_pack("{s:s}", "cards", write_file("not json"));
    asobi_error err;
    assert_int_equal(asobi_game_options_read_files(asobi_game_find("timemasters"), o, &err), ASOBI_E_BAD_OPTION);
    assert_non_null(strstr(err.message, "option cards"));
    json_decref(o);
    unlink(write_file(""));
}

/* Issue 13 point 3: "Time Masters card names with double spaces or tabs are
 * accepted but their action text never parses ... A malformed card file (a
 * level-0 timer, an empty key) is accepted into a game that ends at once".
 * Every set is refused naming the field, or plays. */
static void test_names_that_cannot_be_typed_and_unknown_fields_are_refused(void **unused)
{
    (void)unused;
    refused_set("{\"cards\":[{\"name\":\"Big  Zap\",\"type\":\"spell\",\"level\":0,\"copies\":8}," MINI_LEVELS "]}",
                "\"name\": no double spaces");
    refused_set("{\"cards\":[{\"name\":\"Big\\tZap\",\"type\":\"spell\",\"level\":0,\"copies\":8}," MINI_LEVELS "]}",
                "\"name\": no tabs");
    refused_set("{\"cards\":[{\"name\":\" Zap\",\"type\":\"spell\",\"level\":0,\"copies\":8}," MINI_LEVELS "]}",
                "\"name\": no spaces around");
    refused_set("{\"cards\":[{\"name\":\"Zap\",\"\":1,\"type\":\"spell\",\"level\":0,\"copies\":8}," MINI_LEVELS "]}",
                "unknown field \"\"");
    refused_set("{\"\":0,\"cards\":[" MINI_START "," MINI_LEVELS "]}", "unknown field \"\"");
    refused_set("{\"cards\":[{\"name\":\"Zap\",\"type\":\"spell\",\"level\":0,\"copies\":0}," MINI_LEVELS "]}",
                "\"copies\"");
    refused_set("{\"cards\":[{\"name\":\"Zap\",\"type\":\"spell\",\"level\":0,\"copeis\":8}," MINI_LEVELS "]}",
                "unknown field \"copeis\"");
    /* a starting deck of one level-0 timer: nobody could ever play a spell,
     * earn an access point and score */
    refused_set("{\"cards\":[{\"name\":\"T\",\"type\":\"timer\",\"level\":0}," MINI_LEVELS "]}",
                "starting deck (level 0) needs a spell");
    refused_set("{\"cards\":[{\"name\":\"Zap\",\"type\":\"spell\",\"level\":0,\"cost\":5}," MINI_LEVELS "]}",
                "starting deck (level 0) needs a spell");
}

/* Issue 13 point 2: a card set is never a path chosen by whoever sends the
 * options; the command line reads only regular files of bounded size. */
static void test_a_card_set_is_never_a_path(void **unused)
{
    (void)unused;
    asobi_error err;
    json_t *o = json_pack("{s:s}", "cards", "/etc/hostname");
    assert_null(asobi_state_new(asobi_game_find("timemasters"), 2, o, 1, &err));
    assert_int_equal(err.code, ASOBI_E_BAD_OPTION);
    assert_non_null(strstr(err.message, "never a file name"));
    json_decref(o);

    const asobi_game_def *tm = asobi_game_find("timemasters");
    char fifo[64];
    snprintf(fifo, sizeof fifo, "/tmp/asobi_tm_fifo_%d", (int)getpid());
    assert_int_equal(mkfifo(fifo, 0600), 0);
    const char *not_regular[] = {fifo, "/dev/stdin", "/dev/zero", "/tmp"};
    for (size_t i = 0; i < sizeof not_regular / sizeof *not_regular; i++) {
        o = json_pack("{s:s}", "cards", not_regular[i]);
        /* returns at once (a FIFO without a writer would block a plain open) */
        assert_int_equal(asobi_game_options_read_files(tm, o, &err), ASOBI_E_BAD_OPTION);
        if (!strstr(err.message, "not a regular file"))
            fail_msg("%s: %s", not_regular[i], err.message);
        json_decref(o);
    }
    unlink(fifo);

    /* too large: refused without reading it whole */
    const char *path = write_file("");
    FILE *f = fopen(path, "w");
    for (unsigned i = 0; i <= ASOBI_DATA_FILE_MAX; i += 8)
        fputs("        ", f);
    fclose(f);
    o = json_pack("{s:s}", "cards", path);
    assert_int_equal(asobi_game_options_read_files(tm, o, &err), ASOBI_E_BAD_OPTION);
    assert_non_null(strstr(err.message, "larger than"));
    json_decref(o);
    unlink(path);
}

/* Issue 12: "a Time Masters record made with --opt cards=FILE stores the
 * card table itself ... so it replays on another machine"; issue 13: named
 * by name plus a hash of their content. */
static void test_records_carry_the_card_set(void **unused)
{
    (void)unused;
    char path[64];
    snprintf(path, sizeof path, "/tmp/minicards_%d.json", (int)getpid());
    FILE *f = fopen(path, "w");
    fputs(MINI_SET, f);
    fclose(f);
    json_t *o = options_from_file(path);
    asobi_error err;
    asobi_match *m = asobi_match_new("timemasters", 2, o, 7, &err);
    assert_non_null(m);
    asobi_rng rng;
    asobi_rng_seed(&rng, 3);
    int ids[TM_ACTIONS];
    for (int step = 0; step < 60 && !asobi_state_terminal(asobi_match_state(m)); step++) {
        const asobi_state *s = asobi_match_state(m);
        int seat = __builtin_ctz(asobi_state_to_move(s));
        int n = asobi_state_legal(s, seat, ids);
        assert_int_equal(asobi_match_act(m, seat, ids[asobi_rng_below(&rng, (uint32_t)n)], &err), ASOBI_OK);
    }
    json_t *rec = asobi_match_record(m);
    unlink(path); /* "another machine": the file is gone */
    const json_t *cards = json_object_get(json_object_get(rec, "options"), "cards");
    assert_true(json_is_object(cards));
    assert_non_null(strstr(json_string_value(json_object_get(cards, "name")), "minicards_"));
    assert_int_equal(strncmp(json_string_value(json_object_get(cards, "hash")), "fnv1a64:", 8), 0);
    assert_int_equal(json_array_size(json_object_get(cards, "cards")), 6);
    char *text = json_dumps(rec, 0);
    json_t *back = json_loads(text, 0, NULL);
    asobi_match *again = asobi_match_load(back, &err);
    if (!again)
        fail_msg("%s", err.message);
    assert_true(asobi_state_equal(asobi_match_state(m), asobi_match_state(again)));
    /* the same set always has the same hash, and an edited set no longer matches it */
    json_t *rec2 = asobi_match_record(again);
    assert_true(json_equal(rec, rec2));
    json_t *edited = json_object_get(json_object_get(back, "options"), "cards");
    json_object_set_new(json_array_get(json_object_get(edited, "cards"), 1), "cost", json_integer(2));
    assert_null(asobi_match_load(back, &err));
    assert_non_null(strstr(err.message, "\"hash\" does not match"));
    free(text);
    json_decref(rec);
    json_decref(rec2);
    json_decref(back);
    json_decref(o);
    asobi_match_free(m);
    asobi_match_free(again);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_our_set_honours_the_seed),
        cmocka_unit_test(test_named_cards_keep_the_seed_effects),
        cmocka_unit_test(test_higher_focuses_are_stronger),
        cmocka_unit_test(test_effects_grow_with_level),
        cmocka_unit_test(test_only_the_seeds_mechanisms),
        cmocka_unit_test(test_card_file_of_our_set_loads_identically),
        cmocka_unit_test(test_small_card_file_plays),
        cmocka_unit_test(test_titles_are_kept_to_63_bytes_whole_characters),
        cmocka_unit_test(test_bad_card_files_are_refused),
        cmocka_unit_test(test_names_that_cannot_be_typed_and_unknown_fields_are_refused),
        cmocka_unit_test(test_a_card_set_is_never_a_path),
        cmocka_unit_test(test_records_carry_the_card_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

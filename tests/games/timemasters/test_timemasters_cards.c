/* test_timemasters_cards.c — our card set honours seed 003, and card files load (or are refused) as documented. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
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
    /* focuses recover Kè (§2-C "自分の灰色の循環のKe1個を金色に戻すなど、主にKeを回復することができます"),
     * and "より高いレベルのフォーカスカードはさらに強力な効果を持っています": each focus above level 0
     * does more than the starting one, and none does less than a focus of a lower level
     * (docs/rules/timemasters.md, ruling 24) */
    int last = 0, last_ready = 0, start_power = -1;
    for (int k = 0; k < ours()->kinds; k++) {
        const tm_card *f = &ours()->card[k];
        if (f->type != TM_FOCUS)
            continue;
        assert_int_equal(f->fx[0][0], TM_FX_READY);
        int power = 0;
        for (int e = 0; e < f->n_effects; e++)
            power += f->fx[e][1];
        if (f->level == 0)
            start_power = power;
        else
            assert_true(power > start_power);
        assert_true(power >= last);
        assert_true(f->fx[0][1] >= last_ready);
        last = power;
        last_ready = f->fx[0][1];
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

/* Our own set written as a card file loads to the very same table. */
static void test_card_file_of_our_set_loads_identically(void **unused)
{
    (void)unused;
    tm_table t;
    asobi_error err;
    const char *path = source_path("tests/games/timemasters/cards_ours.json");
    if (tm_table_load(path, &t, &err) != ASOBI_OK)
        fail_msg("%s", err.message);
    assert_int_equal(t.kinds, ours()->kinds);
    assert_int_equal(t.sphere_size, ours()->sphere_size);
    assert_memory_equal(t.card, ours()->card, sizeof t.card);

    /* and a game with it is the same game as with the default, byte for byte but the title */
    char opts[1200];
    snprintf(opts, sizeof opts, "{\"cards\": \"%s\"}", path);
    asobi_state *a = new_state("timemasters", 2, opts, 42);
    asobi_state *b = new_state("timemasters", 2, NULL, 42);
    memcpy(tm_of(a)->table.title, tm_of(b)->table.title, sizeof tm_of(a)->table.title);
    assert_true(asobi_state_equal(a, b));
    asobi_state_free(a);
    asobi_state_free(b);
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

static void refused_file(const char *text, const char *why)
{
    char opts[200];
    snprintf(opts, sizeof opts, "{\"cards\": \"%s\"}", write_file(text));
    json_t *o = json_loads(opts, 0, NULL);
    asobi_error err;
    asobi_state *s = asobi_state_new(asobi_game_find("timemasters"), 2, o, 1, &err);
    json_decref(o);
    if (s)
        fail_msg("a card file was accepted: %s", text);
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

static void test_small_card_file_plays(void **unused)
{
    (void)unused;
    const char *path = write_file("{\"title\":\"mini\",\"sphere_size\":3,\"cards\":[" MINI_START "," MINI_LEVELS "]}");
    char opts[200];
    snprintf(opts, sizeof opts, "{\"cards\": \"%s\"}", path);
    asobi_state *s = new_state("timemasters", 2, opts, 1);
    tm_state *t = tm_of(s);
    assert_string_equal(t->table.title, "mini");
    assert_int_equal(t->n_sphere[0], 3);
    assert_int_equal(t->n_aside[0], 1);
    assert_int_equal(t->p[0].n_hand + t->p[0].n_deck, 8);
    asobi_state_free(s);
    conformance_spec spec = {.game = "timemasters", .players = 2, .options_json = opts, .games = 30,
                             .seed = 99, .deep_every = 5};
    conformance_run(&spec);
    unlink(path);
}

static void test_bad_card_files_are_refused(void **unused)
{
    (void)unused;
    refused_file("not json", "card file");
    refused_file("{\"cards\": []}", "\"cards\" list");
    refused_file("{\"cards\":[" MINI_START "]}", "level 1 holds");
    refused_file("{\"cards\":[" MINI_LEVELS "]}", "starting deck");
    refused_file("{\"cards\":[" MINI_START "," MINI_START "," MINI_LEVELS "]}", "two cards are named");
    refused_file("{\"cards\":[{\"name\":\"X\",\"type\":\"spell\",\"level\":0,\"effects\":[[\"teleport\",1]]}]}",
                 "known primitive");
    /* issue 11, point 11: the invented primitives are gone */
    refused_file("{\"cards\":[{\"name\":\"X\",\"type\":\"spell\",\"level\":0,\"effects\":[[\"access\",1]]}]}",
                 "known primitive");
    refused_file("{\"cards\":[{\"name\":\"X\",\"type\":\"spell\",\"level\":0,\"effects\":[[\"recall\",1]]}]}",
                 "known primitive");
    refused_file("{\"cards\":[{\"name\":\"X\",\"type\":\"card\",\"level\":0}]}", "spell, focus or timer");
    refused_file("{\"cards\":[{\"name\":\"X\",\"type\":\"timer\",\"level\":0,\"slots\":3}]}", "slots");
    refused_file("{\"cards\":[{\"name\":\"X\",\"type\":\"spell\",\"level\":7}]}", "level");
    refused_file("{\"cards\":[{\"name\":\"X\",\"type\":\"focus\",\"level\":0,\"cost\":2}," MINI_LEVELS "]}",
                 "spells only");
    refused_file("{\"cards\":[{\"type\":\"spell\",\"level\":0}]}", "name");
    asobi_error err;
    json_t *o = json_pack("{s:s}", "cards", "/nonexistent/cards.json");
    assert_null(asobi_state_new(asobi_game_find("timemasters"), 2, o, 1, &err));
    assert_int_equal(err.code, ASOBI_E_BAD_OPTION);
    json_decref(o);
    unlink(write_file(""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_our_set_honours_the_seed),
        cmocka_unit_test(test_named_cards_keep_the_seed_effects),
        cmocka_unit_test(test_effects_grow_with_level),
        cmocka_unit_test(test_only_the_seeds_mechanisms),
        cmocka_unit_test(test_card_file_of_our_set_loads_identically),
        cmocka_unit_test(test_small_card_file_plays),
        cmocka_unit_test(test_bad_card_files_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_ninja_events.c — NINJA SCROLL TRICK's events (docs/protocol.md, "Events"): tricks won, tiles turned up, round scores, the shadow. */
#include "ninja_test.h"
#include "event_checks.h"

/* A rigged 3-player deal, start player seat 0 (as test_ninja_rules.c's). */
static const char *const DEAL3[] = {
    "fire-1 fire-7 water-2 water-5 wood-3 metal-4 metal-5",
    "fire-2 fire-3 water-7 wood-1 wood-6 metal-1 earth-1",
    "fire-4 fire-6 water-1 water-3 wood-7 metal-7 earth-7",
};
static const char *const OPENS3[] = {
    "fire-7 water-5 metal-5",
    "fire-2 fire-3 earth-1",
    "water-1 wood-7 metal-7",
};

/* seed 002 勝負フェーズ: "力比べに勝ったプレイヤーは…カードに乗っていた巻物タイルがあれば回収し、獲得点と
 * します。勝ち取った巻物タイルは自身の前に表向きに公開します。(獲得点の情報は他のプレイヤーからも常に
 * 見えています。)" Seat 2's fire-6 takes the trick and the +1 lying on seat 1's fire-3: every viewer is
 * told the winner, its card, the tile and its points. */
static void test_trick_winner_and_tiles_are_told(void **unused)
{
    (void)unused;
    for (int viewer = ASOBI_SPECTATOR; viewer < 3; viewer++) {
        asobi_state *st = new_state("ninja", 3, "{\"start_player\": 0}", 42);
        rig_deal(st, DEAL3, NULL);
        prepare(st, "metal", OPENS3);
        apply_all(st, "0:play fire-1; 1:play fire-3");
        json_t *events = act_told(st, 2, "play fire-6", viewer);
        const json_t *won = find(events, "trick_won");
        assert_non_null(won);
        assert_int_equal(json_integer_value(json_object_get(won, "seat")), 2);
        assert_false(json_is_true(json_object_get(won, "shadow")));
        assert_string_equal(json_string_value(json_object_get(won, "card")), "fire-6");
        assert_int_equal(json_array_size(json_object_get(won, "tiles")), 1);
        assert_int_equal(json_integer_value(json_array_get(json_object_get(won, "tiles"), 0)), 1);
        assert_int_equal(json_integer_value(json_object_get(won, "points")), 1);
        assert_int_equal(json_array_size(json_object_get(won, "cards")), 3);
        assert_string_equal(json_string_value(json_object_get(won, "text")),
                            "Seat 3 wins the trick with fire-6 and takes the tile +1 (now 1 point).");
        json_decref(events);
        asobi_state_free(st);
    }
}

/* Play the first legal action of whoever is to move until pred holds for
 * the events (as viewer) of the action just played; those events. */
static json_t *play_until(asobi_state *st, int viewer, bool (*pred)(const json_t *events), asobi_state **before)
{
    int ids[NINJA_MAX_ACTIONS];
    for (int step = 0; step < 1000 && !asobi_state_terminal(st); step++) {
        int seat = __builtin_ctz(asobi_state_to_move(st));
        int n = asobi_state_legal(st, seat, ids);
        assert_true(n > 0);
        asobi_state_copy(*before, st);
        asobi_error err;
        assert_int_equal(asobi_state_apply(st, seat, ids[n - 1], &err), ASOBI_OK);
        json_t *events = asobi_state_events(*before, seat, ids[n - 1], st, viewer);
        if (pred(events))
            return events;
        json_decref(events);
    }
    fail_msg("the awaited event never came");
    return NULL;
}

static bool has_round_end(const json_t *events) { return find(events, "round_end") != NULL; }
static bool has_flip(const json_t *events) { return find(events, "tile_flipped") != NULL; }
static bool has_flip_start(const json_t *events) { return find(events, "flip_start") != NULL; }

/* 次のラウンドの用意: "獲得した巻物タイルはそのままにし、各プレイヤーは新たにテーブル中央の巻物タイルの
 * 山からランダムに3枚引きます。現段階で1番得点の低いプレイヤーが…次ラウンドのスタートプレイヤーと
 * なります。" The round's end tells everybody's points; each seat learns the tiles it drew, the others
 * how many ("巻物タイルは周りのプレイヤーから内容が見えないように"); then who starts. And 準備フェーズ 5)
 * 巻物を開く: "今1番獲得点が高いプレイヤーは伏せて置いた自分の巻物タイルから1枚表向きに開きます" —
 * the tile turned up is told to all. */
static void test_round_end_draws_and_flips(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("ninja", 3, "{\"start_player\": 0}", 7);
    asobi_state *before = asobi_state_clone(st);
    json_t *events = play_until(st, 1, has_round_end, &before);
    const ninja_state *s = ns(st);
    const json_t *end = find(events, "round_end");
    assert_int_equal(json_integer_value(json_object_get(end, "round")), 1);
    for (int p = 0; p < 3; p++)
        assert_int_equal(json_integer_value(json_array_get(json_object_get(end, "points"), (size_t)p)),
                         ninja_points(s, p));
    size_t i;
    const json_t *e;
    int drawn = 0;
    json_array_foreach(events, i, e)
    {
        if (strcmp(json_string_value(json_object_get(e, "type")), "tiles_drawn") != 0)
            continue;
        int seat = (int)json_integer_value(json_object_get(e, "seat"));
        assert_int_equal(json_integer_value(json_object_get(e, "count")), 3);
        if (seat == 1) {
            const json_t *tiles = json_object_get(e, "tiles");
            for (int k = 0; k < 3; k++)
                assert_int_equal(json_integer_value(json_array_get(tiles, (size_t)k)), s->held[1][k]);
        } else {
            assert_null(json_object_get(e, "tiles"));
        }
        drawn++;
    }
    assert_int_equal(drawn, 3);
    const json_t *start = find(events, "round_start");
    assert_int_equal(json_integer_value(json_object_get(start, "seat")), s->start);
    json_decref(events);
    /* round 2's flips: the leader on points must turn up 1 tile ("1枚表向きに開きます"), then
     * the tile's points are told, to a spectator too */
    int viewer = ASOBI_SPECTATOR;
    events = play_until(st, viewer, has_flip_start, &before);
    const json_t *must = find(events, "flip_start");
    int leader = (int)json_integer_value(json_object_get(must, "seat"));
    assert_int_equal(json_integer_value(json_object_get(must, "count")), 1);
    for (int p = 0; p < 3; p++)
        assert_true(ninja_points(ns(st), p) <= ninja_points(ns(st), leader));
    json_decref(events);
    events = play_until(st, viewer, has_flip, &before);
    const json_t *flip = find(events, "tile_flipped");
    int card = card_id(json_string_value(json_object_get(flip, "card")));
    assert_int_equal(json_integer_value(json_object_get(flip, "tile")), ns(st)->scroll_on[card]);
    assert_true(ns(st)->scroll_up[card]);
    json_decref(events);
    asobi_state_free(before);
    asobi_state_free(st);
}

/* 2人で遊ぶ場合 ■準備フェーズ: "並べた忍者カードのうち、左から3枚を表向きに開きます。…そのうち1番左の
 * 巻物タイルのみ、点数が見えるように表向きにします。" The trump chosen, the shadow's row is told. */
static void test_shadow_row_is_told(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("ninja", 2, "{\"start_player\": 0}", 3);
    json_t *events = act_told(st, 0, "trump fire", 1);
    const json_t *row = find(events, "shadow_row");
    assert_non_null(row);
    const ninja_state *s = ns(st);
    char name[16];
    ninja_card_text(s->row[0], name, sizeof name);
    assert_string_equal(json_string_value(json_array_get(json_object_get(row, "cards"), 0)), name);
    assert_int_equal(json_integer_value(json_object_get(row, "tile")), s->scroll_on[s->row[0]]);
    json_decref(events);
    asobi_state_free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trick_winner_and_tiles_are_told),
        cmocka_unit_test(test_round_end_draws_and_flips),
        cmocka_unit_test(test_shadow_row_is_told),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

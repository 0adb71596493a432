/* test_psycle_events.c — PSYCLE's events (docs/protocol.md, "Events"): the rulebook's worked rounds told as they happen. */
#include <string.h>
#include "event_checks.h"

#include "conformance.h"
#include "game_def.h"
#include "games/psycle/psycle.h"

static psycle_state *raw(asobi_state *s) { return asobi_state_data_mut(s); }

/* The events of the last seat's card of a round, as viewer is told them. */
static json_t *last_card_events(asobi_state *s, const int *cards, int viewer)
{
    int n = asobi_state_players(s);
    for (int i = 0; i < n - 1; i++) {
        char text[16];
        snprintf(text, sizeof text, "play %d", cards[i]);
        apply_text(s, i, text);
    }
    asobi_state *before = asobi_state_clone(s);
    asobi_error err;
    assert_int_equal(asobi_state_apply(s, n - 1, cards[n - 1], &err), ASOBI_OK);
    json_t *events = asobi_state_events(before, n - 1, cards[n - 1], s, viewer);
    asobi_state_free(before);
    assert_non_null(events);
    return events;
}

/* Is value the JSON text? */
static bool same(const json_t *value, const char *text)
{
    json_t *want = json_loads(text, JSON_DECODE_ANY, NULL);
    bool eq = json_equal(value, want);
    json_decref(want);
    return eq;
}

/* seed 000 §8 「4人プレイの例」: A=1, B=0, C=2, D=4; target 2, bonus +1. "A: 『1』で B に勝利している為、
 * 3 点得る。B: 誰にも勝利していないので得点できないが、『O』を出したので4つ『リソースジェム』を得る。
 * C: 『2』で A、B に勝利している為、合計で 7 点得る。" Told as a reveal of the four cards, then each
 * seat's points and gems, then the next target tile; the same to every viewer (the cards are face up). */
static void test_rulebook_round_is_revealed_and_scored(void **unused)
{
    (void)unused;
    json_t *told[6];
    int viewers[] = {0, 1, 2, 3, ASOBI_SPECTATOR, ASOBI_ALL_SEEING};
    for (int v = 0; v < 6; v++) {
        asobi_state *s = new_state("psycle", 4, NULL, 1);
        raw(s)->targets[0] = 2;
        raw(s)->bonuses[0] = 1;
        told[v] = last_card_events(s, (int[]){1, 0, 2, 4}, viewers[v]);
        asobi_state_free(s);
    }
    const json_t *reveal = event_at(told[0], 0, "reveal");
    assert_int_equal(field(reveal, "round"), 1);
    assert_int_equal(field(reveal, "target"), 2);
    assert_int_equal(field(reveal, "bonus"), 1);
    assert_true(same(json_object_get(reveal, "cards"), "[1,0,2,4]"));
    int points[] = {3, 0, 7, 3}, gems[] = {-1, 4, -2, -4};
    for (int i = 0; i < 4; i++) {
        const json_t *score = event_at(told[0], 1 + (size_t)i, "round_score");
        assert_int_equal(field(score, "seat"), i);
        assert_int_equal(field(score, "points"), points[i]);
        assert_int_equal(field(score, "gems"), gems[i]);
    }
    assert_non_null(strstr(json_string_value(json_object_get(json_array_get(told[0], 2), "text")),
                           "Seat 2 played 0: takes 4 gems"));
    event_at(told[0], 5, "round_start");
    for (int v = 1; v < 6; v++)
        assert_true(json_equal(told[0], told[v]));
    for (int v = 0; v < 6; v++)
        json_decref(told[v]);
}

/* A choice is face down (§6.2 "裏向きにして"): it makes nothing happen, for anyone. */
static void test_a_face_down_choice_tells_nothing(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 3, NULL, 1);
    asobi_state *before = asobi_state_clone(s);
    apply_text(s, 0, "play 4");
    for (int v = ASOBI_SPECTATOR; v < 3; v++) {
        json_t *events = asobi_state_events(before, 0, 4, s, v);
        assert_int_equal(json_array_size(events), 0);
        json_decref(events);
    }
    asobi_state_free(before);
    asobi_state_free(s);
}

/* §9 "最も最終得点が高いプレイヤーがこの『サイクル』の勝者となり、勝者は『勝利タイル』を1つ得ます",
 * and §11: the round that ends the cycle tells its final scores and who takes a tile; a second tile
 * ends the game ("2つ『勝利タイル』を持っているプレイヤーが居たらゲームが終了"). */
static void test_cycle_end_names_the_tile_taker_and_the_game_end(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 2, NULL, 1);
    psycle_state *p = raw(s);
    p->round = PSYCLE_ROUNDS - 1;
    p->victory[0] = 1;
    p->points[0] = 20;
    p->points[1] = 3;
    json_t *events = last_card_events(s, (int[]){3, 1}, 1);
    const json_t *end = event_at(events, 3, "cycle_end");
    assert_true(same(json_object_get(end, "winners"), "[0]"));
    assert_false(json_is_true(json_object_get(end, "replayed")));
    assert_int_equal(json_integer_value(json_array_get(json_object_get(end, "tiles"), 0)), 2);
    assert_non_null(strstr(json_string_value(json_object_get(end, "text")), "Seat 1 takes a victory tile"));
    const json_t *over = event_at(events, 4, "game_over");
    assert_true(same(json_object_get(over, "winners"), "[0]"));
    assert_int_equal(json_array_size(events), 5);
    json_decref(events);
    asobi_state_free(s);
}

/* §9 "※2人でプレイしている時に同点だった場合は『勝利タイル』を得ず、『サイクル』をやり直します". */
static void test_two_player_tie_is_told_as_a_replayed_cycle(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 2, NULL, 1);
    psycle_state *p = raw(s);
    p->round = PSYCLE_ROUNDS - 1;
    p->gems[0] = p->gems[1] = 5;
    p->points[0] = p->points[1] = 8;
    json_t *events = last_card_events(s, (int[]){2, 2}, 0);
    const json_t *end = event_at(events, 3, "cycle_end");
    assert_true(json_is_true(json_object_get(end, "replayed")));
    assert_int_equal(json_array_size(json_object_get(end, "winners")), 0);
    assert_non_null(strstr(json_string_value(json_object_get(end, "text")), "played again"));
    event_at(events, 4, "round_start");
    json_decref(events);
    asobi_state_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rulebook_round_is_revealed_and_scored),
        cmocka_unit_test(test_a_face_down_choice_tells_nothing),
        cmocka_unit_test(test_cycle_end_names_the_tile_taker_and_the_game_end),
        cmocka_unit_test(test_two_player_tie_is_told_as_a_replayed_cycle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

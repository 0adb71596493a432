/* test_octal_events.c — THE OCTAL's events (docs/protocol.md, "Events"): draws, refills, Octo! penalties, finishes. */
#include "octal_test_util.h"
#include "event_checks.h"

#define TWIN "{\"mode\":\"twin\"}"

/* The position of test_octal_rules.c's refill: a pass draws 8異↕, which
 * leaves one card in the deck, and §⑥ "残り1枚になった段階で『捨て札』と『竜の問い掛け』使用カード以外を
 * 回収し、リシャッフルして山札の下に加え、補充します" puts 5 cards under it (one discard). */
static asobi_state *refill_position(void)
{
    asobi_state *st = new_state("octal", 3, TWIN, 6);
    octal_position p = {.hand = {"1大↑", "1小↑", "1同↕"},
                        .discarded = {"", "8倍↕"},
                        .stack = {"2小↑ 3同↑ 4異↑ 7大↑ 6同↕ 5大↕", "2同↑ 3異↑ 6約↑"},
                        .cond_from = {3, 1},
                        .deck_top = "8同↑ 8異↕",
                        .deck_size = 2};
    arrange(st, &p);
    bury_in_use(st, 1, data(st)->discarded[0]);
    return st;
}

/* §⑧ "『パス』をする場合は山札の一番上からカードを1枚引き": the drawer learns the card, the others
 * (seats and spectators) that a card was drawn; then the refill of 5 cards, 1 of them a discard. */
static void test_pass_draw_and_refill_of_five(void **unused)
{
    (void)unused;
    for (int viewer = ASOBI_SPECTATOR; viewer < 3; viewer++) {
        asobi_state *st = refill_position();
        json_t *events = act_told(st, 0, "pass", viewer);
        assert_int_equal(json_array_size(events), 2);
        const json_t *draw = event_at(events, 0, "draw");
        assert_int_equal(field(draw, "seat"), 0);
        assert_int_equal(field(draw, "count"), 1);
        const json_t *cards = json_object_get(draw, "cards");
        if (viewer == 0 || viewer == ASOBI_ALL_SEEING) {
            assert_string_equal(json_string_value(json_array_get(cards, 0)), "8異↕");
            assert_string_equal(json_string_value(json_object_get(draw, "text")), "Seat 1 draws a card: 8異↕.");
        } else {
            assert_null(cards);
            assert_string_equal(json_string_value(json_object_get(draw, "text")), "Seat 1 draws a card.");
        }
        const json_t *refill = event_at(events, 1, "refill");
        assert_int_equal(field(refill, "count"), 5);
        assert_int_equal(field(refill, "discards"), 1);
        assert_int_equal(field(refill, "deck"), 6);
        json_decref(events);
        asobi_state_free(st);
    }
}

/* §遊び方 ③ "手札がなくなったプレイヤーが勝者となります" (option ranks: "3位まで決めても良い"):
 * a seat that places its last card is told out, 1st, then 2nd; with 1 rank wanted the game ends. */
static void test_finishing_order_is_told(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 5, "{\"mode\":\"single\",\"ranks\":3}", 13);
    octal_position p = {.hand = {"4異↑", "8異↕ 5倍↑", "7異↕", "6約↑ 2小↑", "2異↕ 5小↕"},
                        .stack = {"1大↑ 3異↑"},
                        .cond_from = {0}};
    arrange(st, &p);
    json_t *events = act_told(st, 0, "play 4異↑", 3);
    const json_t *out = event_at(events, 0, "finish");
    assert_int_equal(field(out, "seat"), 0);
    assert_int_equal(field(out, "place"), 1);
    assert_string_equal(json_string_value(json_object_get(out, "text")), "Seat 1 has no cards left and finishes 1st.");
    json_decref(events);
    apply_text(st, 1, "play 8異↕ Octo!");
    events = act_told(st, 2, "play 7異↕", ASOBI_SPECTATOR);
    assert_int_equal(field(event_at(events, 0, "finish"), "place"), 2);
    json_decref(events);
    asobi_state_free(st);
    /* one rank wanted (the default): the first out ends the game */
    st = new_state("octal", 5, "{\"mode\":\"single\"}", 13);
    arrange(st, &p);
    events = act_told(st, 0, "play 4異↑", 1);
    event_at(events, 0, "finish");
    const json_t *over = event_at(events, 1, "game_over");
    assert_int_equal(json_array_size(json_object_get(over, "winners")), 1);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(over, "winners"), 0)), 0);
    json_decref(events);
    asobi_state_free(st);
}

/* §⑦ "宣言し忘れた場合はペナルティとして山札からカードを2枚引き": seat 3 forgot its Octo!; when
 * seat 1 puts out a card the 2 cards fall: seat 3 is told which (6大↑, then 5大↕), the others how many. */
static void test_octo_penalty_is_told(void **unused)
{
    (void)unused;
    for (int viewer = 0; viewer < 3; viewer++) {
        asobi_state *st = new_state("octal", 3, "{\"mode\":\"single\"}", 41);
        octal_position p = {.hand = {"7同↕ 2小↑", "6約↑ 3同↑ 4異↑", "5倍↑ 7大↑"},
                            .stack = {"1異↕ 1同↕"},
                            .cond_from = {0},
                            .deck_top = "4約↕ 5大↕ 6大↑",
                            .seat = 2};
        arrange(st, &p);
        apply_text(st, 2, "play 7大↑"); /* leaves one card, no Octo! */
        json_t *events = act_told(st, 0, "play 7同↕ Octo!", viewer);
        const json_t *penalty = event_at(events, 0, "penalty");
        assert_int_equal(field(penalty, "seat"), 2);
        assert_int_equal(field(penalty, "count"), 2);
        const json_t *cards = json_object_get(penalty, "cards");
        if (viewer == 2) {
            assert_string_equal(json_string_value(json_array_get(cards, 0)), "6大↑");
            assert_string_equal(json_string_value(json_array_get(cards, 1)), "5大↕");
        } else {
            assert_null(cards);
            assert_string_equal(json_string_value(json_object_get(penalty, "text")),
                                "Seat 3 forgot to call Octo! and draws 2 cards.");
        }
        json_decref(events);
        asobi_state_free(st);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pass_draw_and_refill_of_five),
        cmocka_unit_test(test_finishing_order_is_told),
        cmocka_unit_test(test_octo_penalty_is_told),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

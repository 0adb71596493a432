/* test_timemasters_text.c — Time Masters as people read it: timers keep their numbers, delay cards are told face down. */
#include "tm_sim.h"

static bool rendered_contains(const asobi_state *s, int seat, const char *needle)
{
    char *text = asobi_state_render(s, seat);
    bool found = text && strstr(text, needle) != NULL;
    free(text);
    return found;
}

/* Issue 12: "Time Masters: timers keep their numbers while they stay in
 * play". Timer 1 leaves; the other stays timer 2 (in its text, its notation,
 * the view and the table), and a new timer takes the free number 1. */
static void test_timers_keep_their_numbers(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("timemasters", 2, NULL, 11);
    tm_state *t = tm_of(s);
    TM_HAND(t, 0, "Small Timer", "Small Timer", "Small Timer", "Energy", "Energy");
    apply_text(s, 0, "play Small Timer");
    apply_text(s, 0, "play Small Timer");
    assert_true(rendered_contains(s, 0, "timer 2: Small Timer"));
    apply_text(s, 0, "set Energy on 1");
    apply_text(s, 0, "activate 1"); /* timer 1 goes to the discard, Energy is released */
    apply_text(s, 0, "release Energy");
    assert_int_equal(t->p[0].n_timers, 1);
    assert_true(rendered_contains(s, 0, "timer 2: Small Timer"));
    assert_false(rendered_contains(s, 0, "timer 1:"));
    char text[64];
    asobi_state_action_text(s, 0, TM_ID_ACTIVATE + 0, text, sizeof text);
    assert_string_equal(text, "activate 2"); /* index 0 is still called 2 */
    assert_text_refused(s, 0, "activate 1", ASOBI_E_ILLEGAL_ACTION); /* no timer 1 now */
    json_t *v = asobi_state_view(s, 1);
    json_t *timer = json_array_get(json_object_get(json_array_get(json_object_get(v, "players"), 0), "timers"), 0);
    assert_int_equal(json_integer_value(json_object_get(timer, "number")), 2);
    json_decref(v);
    apply_text(s, 0, "play Small Timer"); /* the free number */
    assert_true(rendered_contains(s, 0, "timer 1: Small Timer"));
    assert_true(rendered_contains(s, 1, "timer 2: Small Timer"));
    apply_text(s, 0, "set Energy on 2");
    assert_int_equal(t->p[0].timers[0].n_spells, 1); /* the timer numbered 2 is at index 0 */
    asobi_state_free(s);
}

/* §1 タイマー遅延 "手札のカード1枚を裏向きに置かなければいけません": the others are told
 * that a card went under the timer, never which (the public_text hook). */
static void test_delay_card_is_told_face_down(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("timemasters", 2, NULL, 11);
    tm_state *t = tm_of(s);
    TM_HAND(t, 0, "Small Timer", "Energy", "Recovery");
    apply_text(s, 0, "play Small Timer");
    apply_text(s, 0, "set Energy on 1"); /* full: next turn's timer phase asks */
    apply_text(s, 0, "done");
    /* the access phase ends the turn; seat 1 passes; back to seat 0's timer phase */
    while (t->seat != 0 || t->phase != TM_PH_TIMER)
        apply_text(s, __builtin_ctz(asobi_state_to_move(s)), t->phase == TM_PH_ACCESS ? "done" : "pass");
    apply_text(s, 0, "delay 1");
    char pick[64];
    snprintf(pick, sizeof pick, "pick %s", t->table.card[t->p[0].hand[0]].name);
    int id;
    assert_int_equal(asobi_state_parse_action(s, 0, pick, &id, NULL), ASOBI_OK);
    char mine[64], theirs[64];
    asobi_state_public_text(s, 0, id, 0, mine, sizeof mine);
    asobi_state_public_text(s, 0, id, 1, theirs, sizeof theirs);
    assert_string_equal(mine, pick);
    assert_string_equal(theirs, "puts a card face down under timer 1");
    asobi_state_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timers_keep_their_numbers),
        cmocka_unit_test(test_delay_card_is_told_face_down),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

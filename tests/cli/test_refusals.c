/* test_refusals.c — refusals shown to people say what to do and whose turn it is, with plurals right (issue 12). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "../support/conformance.h"

/* Issue 12: "Refusals say what to do and whose turn it is ("not your turn:
 * seat 2 is to move")". */
static void test_not_your_turn_names_the_seat_to_move(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("octal", 3, NULL, 1); /* seat 0 starts (octal ruling 1) */
    asobi_error err;
    assert_int_equal(asobi_state_apply(s, 1, 0, &err), ASOBI_E_NOT_YOUR_TURN);
    assert_string_equal(err.message, "not your turn: seat 0 is to move");
    asobi_state_free(s);

    s = new_state("psycle", 3, NULL, 1);
    apply_text(s, 0, "play 2");
    assert_int_equal(asobi_state_apply(s, 0, 1, &err), ASOBI_E_NOT_YOUR_TURN);
    assert_string_equal(err.message, "not your turn: seats 1 and 2 are to move");
    asobi_state_free(s);
}

/* "plurals right ("1 gem")", and the refusal says what can be played. */
static void test_psycle_cost_refusal_counts_gems(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 3, NULL, 1);
    for (int round = 0; round < 2; round++) /* everyone plays 5 twice: 10 gems -> 0 */
        for (int seat = 0; seat < 3; seat++)
            apply_text(s, seat, "play 5");
    asobi_error err;
    assert_int_equal(asobi_state_apply(s, 0, 1, &err), ASOBI_E_ILLEGAL_ACTION);
    assert_string_equal(err.message, "card 1 costs 1 gem and you hold 0: only card 0");
    asobi_state_free(s);
}

/* "never cite seed §": THE OCTAL's refusal of a play with 6 cards in hand. */
static void test_octal_refusal_cites_no_seed(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("octal", 3, NULL, 1);
    apply_text(s, 0, "pass"); /* 4 -> 5 cards */
    apply_text(s, 1, "pass");
    apply_text(s, 2, "pass");
    apply_text(s, 0, "pass"); /* 5 -> 6 cards: a discard is due */
    asobi_error err;
    assert_int_equal(asobi_state_apply(s, 0, 0, &err), ASOBI_E_ILLEGAL_ACTION);
    assert_string_equal(err.message, "you hold 6 cards: discard one first");
    asobi_state_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_your_turn_names_the_seat_to_move),
        cmocka_unit_test(test_psycle_cost_refusal_counts_gems),
        cmocka_unit_test(test_octal_refusal_cites_no_seed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

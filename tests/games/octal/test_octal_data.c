/* test_octal_data.c — the reconstructed card list and the meaning of every (condition, N) pair, cyclic ends included. */
#include <string.h>

#include "octal_test_util.h"

/* The meanings, written again from the seed's words (§④, §①) rather than
 * read from the table: the table in octal_data.c must agree with them. */
static bool expected(int condition, int n, int m)
{
    switch (condition) {
    case OCTAL_GREATER: return n == 8 ? m == 1 : m > n;   /* "8より大きい値は1のみ" */
    case OCTAL_LESS: return n == 1 ? m == 8 : m < n;      /* "1より小さい値は8のみ" */
    case OCTAL_SAME: return m == n;
    case OCTAL_DIFFERENT: return m != n;
    case OCTAL_MULTIPLE: return m % n == 0;               /* up to 8, N itself included */
    case OCTAL_DIVISOR: return n % m == 0;                /* 1 and N included */
    }
    return false;
}

static void test_every_condition_on_every_number(void **unused)
{
    (void)unused;
    for (int c = 0; c < OCTAL_CONDITIONS; c++)
        for (int n = 1; n <= 8; n++)
            for (int m = 1; m <= 8; m++)
                if (octal_condition_allows(c, n, m) != expected(c, n, m))
                    fail_msg("%s%d and %d: the table says %d", octal_condition_letter[c], n, m,
                             octal_condition_allows(c, n, m));
}

/* The sets, spelled out for the ends of the cycle and the arithmetic ones. */
static unsigned set_of(int c, int n)
{
    unsigned s = 0;
    for (int m = 1; m <= 8; m++)
        if (octal_condition_allows(c, n, m))
            s |= 1u << m;
    return s;
}
#define S(...) set_bits((int[]){__VA_ARGS__, 0})
static unsigned set_bits(const int *m)
{
    unsigned s = 0;
    for (; *m; m++)
        s |= 1u << *m;
    return s;
}

static void test_the_cyclic_ends_and_the_arithmetic(void **unused)
{
    (void)unused;
    assert_int_equal(set_of(OCTAL_GREATER, 8), S(1));
    assert_int_equal(set_of(OCTAL_GREATER, 7), S(8));
    assert_int_equal(set_of(OCTAL_GREATER, 1), S(2, 3, 4, 5, 6, 7, 8));
    assert_int_equal(set_of(OCTAL_LESS, 1), S(8));
    assert_int_equal(set_of(OCTAL_LESS, 2), S(1));
    assert_int_equal(set_of(OCTAL_LESS, 8), S(1, 2, 3, 4, 5, 6, 7));
    assert_int_equal(set_of(OCTAL_SAME, 5), S(5));
    assert_int_equal(set_of(OCTAL_DIFFERENT, 1), S(2, 3, 4, 5, 6, 7, 8));
    assert_int_equal(set_of(OCTAL_MULTIPLE, 1), S(1, 2, 3, 4, 5, 6, 7, 8));
    assert_int_equal(set_of(OCTAL_MULTIPLE, 2), S(2, 4, 6, 8));
    assert_int_equal(set_of(OCTAL_MULTIPLE, 3), S(3, 6));
    assert_int_equal(set_of(OCTAL_MULTIPLE, 4), S(4, 8));
    for (int n = 5; n <= 8; n++)
        assert_int_equal(set_of(OCTAL_MULTIPLE, n), 1u << n);
    assert_int_equal(set_of(OCTAL_DIVISOR, 1), S(1));
    assert_int_equal(set_of(OCTAL_DIVISOR, 6), S(1, 2, 3, 6));
    assert_int_equal(set_of(OCTAL_DIVISOR, 7), S(1, 7));
    assert_int_equal(set_of(OCTAL_DIVISOR, 8), S(1, 2, 4, 8));
    /* out of range never allows */
    assert_false(octal_condition_allows(OCTAL_SAME, 0, 1));
    assert_false(octal_condition_allows(OCTAL_SAME, 1, 9));
}

/* §内容物 "数値カード32枚(1~8 各4枚)/ALLカード2枚" and the reconstruction:
 * card i has number (i mod 8)+1, copy i div 8, condition 大小同異倍約[(n-1+copy)
 * mod 6], arrow ↑ for copies 0-1 and ↕ for 2-3. */
static void test_the_card_list(void **unused)
{
    (void)unused;
    int per_number[9] = {0}, per_condition[OCTAL_CONDITIONS] = {0};
    for (int i = 0; i < OCTAL_NUMBER_CARDS; i++) {
        const octal_card *c = &octal_table.cards[i];
        int n = i % 8 + 1, copy = i / 8;
        assert_int_equal(c->number, n);
        assert_int_equal(c->condition, (n - 1 + copy) % 6);
        assert_int_equal(c->arrow, copy < 2 ? OCTAL_UP : OCTAL_BOTH);
        per_number[n]++;
        per_condition[c->condition]++;
        /* the four copies of a number bear four different conditions, so
         * number and condition name a card */
        for (int j = 0; j < i; j++)
            if (octal_table.cards[j].number == n)
                assert_int_not_equal(octal_table.cards[j].condition, c->condition);
    }
    for (int n = 1; n <= 8; n++)
        assert_int_equal(per_number[n], 4);
    /* the reconstruction's cycle gives 大5 小6 同6 異6 倍5 約4 */
    const int counts[OCTAL_CONDITIONS] = {5, 6, 6, 6, 5, 4};
    for (int c = 0; c < OCTAL_CONDITIONS; c++)
        assert_int_equal(per_condition[c], counts[c]);
    assert_true(octal_is_all(32) && octal_is_all(33));
    /* texts and aliases */
    char text[16];
    octal_card_text(card_named("4大↕"), text, sizeof text);
    assert_string_equal(text, "4大↕");
    octal_card_ascii(card_named("4大↕"), text, sizeof text);
    assert_string_equal(text, "4G|");
    octal_card_ascii(card_named("6約↑"), text, sizeof text);
    assert_string_equal(text, "6D^");
    octal_card_text(33, text, sizeof text);
    assert_string_equal(text, "ALL");
    assert_int_equal(card_named("1大↑"), 0);
    assert_int_equal(card_named("8倍↕"), 31);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_condition_on_every_number),
        cmocka_unit_test(test_the_cyclic_ends_and_the_arithmetic),
        cmocka_unit_test(test_the_card_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_octal_rules.c — one test per rule of seed 004 (THE OCTAL), each citing its passage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "octal_test_util.h"

#define TWIN "{\"mode\":\"twin\"}"
#define SINGLE "{\"mode\":\"single\"}"

/* ---- §ゲームの準備 ------------------------------------------------------- */

/* A replica of the set-up, from the seed's words: shuffle ("よく練り"), deal 4
 * each ("4枚ずつ配ります"), then from the top two condition cards and two
 * pointers ("条件となる数値カードを2枚選び…さらに条件を指し示す数値カードを
 * 2枚選び"); an ALL goes to the bottom ("ALLカードを山札の一番下に入れ、新しい
 * カードを山札から引きます"); twin mode exchanges question 2's condition card
 * while both questions are the same condition, letter and number ("書かれた
 * 文字と②数値と合わせて条件が決定する"). */
static int replica_draw_number(uint8_t *deck, int *size, int *alls_to_bottom)
{
    for (;;) {
        int c = deck[--*size];
        if (c < OCTAL_ALL)
            return c;
        memmove(deck + 1, deck, (size_t)*size);
        deck[0] = (uint8_t)c;
        ++*size;
        ++*alls_to_bottom;
    }
}

static void test_setup_deals_four_and_builds_the_questions(void **unused)
{
    (void)unused;
    int alls_seen = 0, swaps_seen = 0;
    for (int players = 3; players <= 6; players++)
        for (uint64_t seed = 0; seed < 300; seed++) {
            bool twin = players <= 5 && seed % 2 == 0;
            asobi_state *st = new_state("octal", players, twin ? TWIN : SINGLE, seed);
            const octal_state *s = data(st);
            asobi_rng rng;
            asobi_rng_seed(&rng, seed);
            uint8_t deck[OCTAL_CARDS];
            for (int c = 0; c < OCTAL_CARDS; c++)
                deck[c] = (uint8_t)c;
            asobi_rng_shuffle(&rng, deck, OCTAL_CARDS, 1);
            int size = OCTAL_CARDS;
            uint64_t hands[OCTAL_MAX_PLAYERS] = {0};
            for (int r = 0; r < 4; r++)
                for (int p = 0; p < players; p++)
                    hands[p] |= 1ull << deck[--size];
            int q_count = twin ? 2 : 1, stack[2][2];
            for (int q = 0; q < q_count; q++)
                stack[q][0] = replica_draw_number(deck, &size, &alls_seen);
            for (int q = 0; q < q_count; q++)
                stack[q][1] = replica_draw_number(deck, &size, &alls_seen);
            while (twin && octal_table.cards[stack[1][0]].condition == octal_table.cards[stack[0][0]].condition &&
                   octal_number(stack[1][1]) == octal_number(stack[0][1])) {
                int old = stack[1][0];
                stack[1][0] = replica_draw_number(deck, &size, &alls_seen);
                memmove(deck + 1, deck, (size_t)size);
                deck[0] = (uint8_t)old;
                size++;
                swaps_seen++;
            }
            assert_int_equal(s->questions, q_count);
            for (int p = 0; p < players; p++) {
                assert_int_equal(octal_hand_size(s, p), 4);
                assert_true(s->hand[p] == hands[p]);
            }
            for (int q = 0; q < q_count; q++) {
                assert_int_equal(s->stack[q].size, 2);
                assert_int_equal(s->stack[q].e[0].card, stack[q][0]);
                assert_int_equal(s->stack[q].e[1].card, stack[q][1]);
                assert_int_equal(s->stack[q].e[1].cond_from, 0); /* the pointer points at the condition */
                int condition, reference;
                octal_question(s, q, &condition, &reference);
                assert_int_equal(condition, octal_table.cards[stack[q][0]].condition);
                assert_int_equal(reference, octal_number(stack[q][1]));
            }
            if (twin) { /* §モードの選択 "2ヶ所とも同じ条件になった場合は…一方を交換" */
                int c0, r0, c1, r1;
                octal_question(s, 0, &c0, &r0);
                octal_question(s, 1, &c1, &r1);
                assert_true(c0 != c1 || r0 != r1);
            }
            assert_int_equal(s->deck_size, size);
            assert_memory_equal(s->deck, deck, (size_t)size);
            assert_int_equal(s->deck_size, OCTAL_CARDS - 4 * players - 2 * q_count);
            assert_int_equal(s->seat, 0); /* ruling 1: seat 0 starts */
            asobi_state_free(st);
        }
    assert_true(alls_seen > 0);  /* the ALL-to-the-bottom path was exercised */
    assert_true(swaps_seen > 0); /* and so was the exchange */
}

/* §モードの選択: twin 3-5 players, single 3-6; §⑩ ranks beyond 1st with 5+. */
static void test_modes_and_player_counts(void **unused)
{
    (void)unused;
    const asobi_game_def *def = asobi_game_find("octal");
    asobi_error err;
    json_t *twin = json_loads(TWIN, 0, NULL), *single = json_loads(SINGLE, 0, NULL);
    assert_null(asobi_state_new(def, 6, twin, 1, &err));
    assert_int_equal(err.code, ASOBI_E_BAD_PLAYERS);
    asobi_state *s = asobi_state_new(def, 6, single, 1, &err);
    assert_non_null(s);
    assert_int_equal(data(s)->questions, 1);
    asobi_state_free(s);
    /* the default, auto: twin for 3-5 players, single for 6 (ruling 2) */
    s = asobi_state_new(def, 6, NULL, 1, &err);
    assert_non_null(s);
    assert_int_equal(data(s)->questions, 1);
    asobi_state_free(s);
    s = asobi_state_new(def, 3, NULL, 1, &err);
    assert_int_equal(data(s)->questions, 2);
    asobi_state_free(s);
    s = asobi_state_new(def, 5, NULL, 1, &err);
    assert_int_equal(data(s)->questions, 2);
    asobi_state_free(s);
    json_t *ranks = json_pack("{s:i}", "ranks", 3);
    assert_null(asobi_state_new(def, 4, ranks, 1, &err));
    assert_int_equal(err.code, ASOBI_E_BAD_OPTION);
    s = asobi_state_new(def, 5, ranks, 1, &err);
    assert_non_null(s);
    asobi_state_free(s);
    json_t *bad = json_pack("{s:s}", "mode", "triple");
    assert_null(asobi_state_new(def, 4, bad, 1, &err));
    assert_int_equal(err.code, ASOBI_E_BAD_OPTION);
    json_decref(bad);
    json_decref(ranks);
    json_decref(twin);
    json_decref(single);
}

/* Issue 11 point 8, §モードの選択 ツインモード "もし2ヶ所とも同じ条件になった場合は
 * プレイヤー間で相談し、一方を交換することもできます": a choice of the table
 * (option twin_same_condition, exchange by default, or keep), and "the same
 * condition" is letter and number together (§カードの説明 ③ "書かれた文字と
 * ②数値と合わせて条件が決定する"): 大4 and 大7 are different conditions. */
static void test_twin_same_condition_option(void **unused)
{
    (void)unused;
    int same = 0, same_letter_only = 0;
    for (uint64_t seed = 0; seed < 3000 && (same < 3 || same_letter_only < 3); seed++) {
        asobi_state *keep = new_state("octal", 4, "{\"mode\":\"twin\",\"twin_same_condition\":\"keep\"}", seed);
        asobi_state *exchange = new_state("octal", 4, TWIN, seed); /* the default */
        int c0, r0, c1, r1;
        octal_question(data(keep), 0, &c0, &r0);
        octal_question(data(keep), 1, &c1, &r1);
        if (c0 == c1 && r0 == r1) {
            same++; /* kept as they came; exchanged by default */
            octal_question(data(exchange), 0, &c0, &r0);
            octal_question(data(exchange), 1, &c1, &r1);
            assert_true(c0 != c1);
            assert_int_equal(r0, r1); /* the pointer stays: the condition card is exchanged */
            for (int p = 0; p < 4; p++)
                assert_true(data(keep)->hand[p] == data(exchange)->hand[p]);
        } else {
            same_letter_only += c0 == c1;
            assert_true(asobi_state_equal(keep, exchange)); /* nothing to exchange */
        }
        asobi_state_free(keep);
        asobi_state_free(exchange);
    }
    assert_true(same >= 3 && same_letter_only >= 3);
    const asobi_game_def *def = asobi_game_find("octal");
    asobi_error err;
    json_t *bad = json_pack("{s:s}", "twin_same_condition", "swap");
    assert_null(asobi_state_new(def, 4, bad, 1, &err));
    assert_int_equal(err.code, ASOBI_E_BAD_OPTION);
    json_decref(bad);
}

/* ---- §遊び方 ②, §② arrows -------------------------------------------------- */

/* "手番プレイヤーは、どちらかの『竜の問い掛け』が示す条件を満たす竜札があれば、
 * 手札からプレイします" — and the example "下の数値カードの条件が[大]、上の
 * 数値カードの数字が4の時、『4より大きい数』が条件". */
static void test_play_answers_a_question(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 3, TWIN, 1);
    octal_position p = {.hand = {"6約↑ 2小↑ 7大↑", "1異↕", "1小↑"},
                        .stack = {"1大↑ 4異↑", "2倍↕ 3同↑"},
                        .cond_from = {0, 0}};
    arrange(st, &p);
    question_is(st, 0, "大4");
    question_is(st, 1, "倍3");
    refused_because(st, 0, "play 2小↑ on 1", "does not answer: question 1 asks 大4");
    refused_because(st, 0, "play 7大↑ on 2", "does not answer");
    apply_text(st, 0, "play 6約↑ on 1");
    /* ↑ points at the condition of the card that was on top: 4異↑'s 異 */
    question_is(st, 0, "異6");
    assert_false(holds(st, 0, "6約↑"));
    assert_int_equal(data(st)->seat, 1);
    asobi_state_free(st);
}

/* §② "矢印が↑の場合は必ず…一番上にあるカードの条件を指し示さなければいけません",
 * "↕の場合は…一番上にあるカードまたはもう1枚下のカードの条件を指し示すことが
 * 出来ます". */
static void test_arrows_up_and_both(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 3, TWIN, 2);
    octal_position p = {.hand = {"6約↑ 5大↕ 7大↑", "8異↕ 2同↑", "1小↑ 3同↑"},
                        .stack = {"1大↑ 4異↑", "2倍↕ 3同↑"},
                        .cond_from = {0, 0}};
    arrange(st, &p);
    refused_because(st, 0, "play 6約↑ on 1 point below", "has the arrow ↑");
    /* ↕ pointing below: the card beneath the top is 1大↑, condition 大 */
    apply_text(st, 0, "play 5大↕ on 1 point below");
    question_is(st, 0, "大5");
    assert_int_equal(data(st)->stack[0].e[2].cond_from, 0);
    /* ↕ pointing at the top: 5大↕'s own 大 */
    apply_text(st, 1, "play 8異↕ on 1");
    question_is(st, 0, "大8");
    /* 大8 is {1} (§① "8より大きい値は1のみ") */
    apply_text(st, 2, "play 1小↑ on 1");
    question_is(st, 0, "異1");
    asobi_state_free(st);
}

/* ---- §③ ALL ----------------------------------------------------------------- */

/* "ALLカードはどのような条件であっても配置出来る…しかし、最後の1枚として配置
 * することは出来ません"; "一番上にあるカードの条件を見えるように配置します。
 * 次の手番プレイヤーはすきな数値カードをALLカードの上にぴったり重ねて配置";
 * "『竜の問い掛け』はALLカード配置で見えている条件を使用します". */
static void test_all_card(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 3, TWIN, 3);
    octal_position p = {.hand = {"ALL 2小↑", "8異↕ 5倍↑", "ALL2"},
                        .stack = {"1大↑ 7大↑", "2倍↕ 3同↑"},
                        .cond_from = {0, 0}};
    arrange(st, &p);
    question_is(st, 0, "大7"); /* only 8 */
    refused_because(st, 0, "play 2小↑ on 1", "does not answer");
    apply_text(st, 0, "play ALL on 1 Octo!");
    /* the ALL shows the condition of the card it covers: 7大↑'s 大; any number */
    question_is(st, 0, "大any");
    assert_int_equal(hand_size(st, 0), 1);
    /* the next card lies exactly on the ALL: no pointing below */
    refused_because(st, 1, "play 8異↕ on 1 point below", "exactly on it");
    apply_text(st, 1, "play 5倍↑ on 1 Octo!"); /* 5 is not above 7: any number card */
    question_is(st, 0, "大5");
    /* an ALL may never be the last card */
    refused_because(st, 2, "play ALL on 1", "never be your last card");
    refused_because(st, 2, "play ALL on 2", "never be your last card");
    asobi_state_free(st);
}

/* Issue 11 point 5, §③ "次の手番プレイヤーはすきな数値カードをALLカードの上に
 * ぴったり重ねて配置します": while an ALL lies on top, the next card placed
 * is a number card laid exactly on it (any number; the condition the ALL
 * shows stays). Another ALL on it is refused, so is a card on the other
 * question, an override or a lay; a pass is allowed (§⑧, ruling 10), and
 * the ALL then waits for the next player who places. */
static void test_after_an_all_a_number_card_covers_it(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 3, TWIN, 4);
    octal_position p = {.hand = {"ALL 2小↑ 3同↑", "ALL2 5倍↑ 6同↕ 8小↑", "7同↕ 4異↑ 2倍↕"},
                        .stack = {"1大↑ 4異↑", "2同↑ 1小↑"},
                        .cond_from = {0, 0}};
    arrange(st, &p);
    question_is(st, 1, "同1");
    apply_text(st, 0, "play ALL on 1");
    question_is(st, 0, "異any");
    json_t *v = asobi_state_view(st, 1);
    json_t *q1 = json_array_get(json_object_get(v, "questions"), 0);
    assert_true(json_is_true(json_object_get(q1, "all_on_top")));
    assert_true(json_is_null(json_object_get(q1, "reference")));
    json_decref(v);
    refused_because(st, 1, "play ALL on 1", "never another ALL");
    refused_because(st, 1, "play ALL on 2", "never another ALL");
    refused_because(st, 1, "play 8小↑ on 2", "an ALL lies on question 1"); /* 8 is no 1: 同1 refuses anyway */
    refused_because(st, 1, "override 8小↑ 6同↕ on 1", "one number card laid exactly on it");
    refused_because(st, 1, "play 6同↕ on 1 point below", "exactly on it");
    /* only plays on the ALL, and the pass, are offered */
    int ids[OCTAL_MAX_ACTIONS];
    int n = asobi_state_legal(st, 1, ids);
    for (int i = 0; i < n; i++) {
        octal_action a;
        octal_decode(ids[i], &a);
        assert_true(a.event == OCTAL_EV_PASS || (a.event == OCTAL_EV_PLAY && a.question == 0 && a.kind < OCTAL_ALL));
    }
    assert_int_equal(n, 1 + 3); /* pass, and each of the three number cards */
    apply_text(st, 1, "pass");  /* allowed: the ALL waits for the next one who places */
    refused_because(st, 2, "play 2倍↕ on 2", "an ALL lies on question 1");
    apply_text(st, 2, "play 7同↕ on 1");
    question_is(st, 0, "異7"); /* the condition the ALL showed stays */
    const octal_state *s = data(st);
    assert_true(s->stack[0].e[s->stack[0].size - 1].exact);
    /* now the ALL is covered: question 2 and other ALLs are open again */
    apply_text(st, 0, "play 2小↑ on 1 Octo!");
    question_is(st, 0, "同2");
    asobi_state_free(st);

    /* an override lays each card exactly on the one before: never both ALLs */
    st = new_state("octal", 3, SINGLE, 5);
    octal_position q = {.hand = {"ALL ALL2 5倍↑ 3約↕ 1大↑", "8異↕", "7同↕"}, .stack = {"1異↕ 1同↕"}, .cond_from = {0}};
    arrange(st, &q);
    refused_because(st, 0, "override ALL ALL 5倍↑ on 1", "an ALL may not lie on an ALL");
    apply_text(st, 0, "override ALL 5倍↑ 3約↕ on 1");
    question_is(st, 0, "同3"); /* pointing at 1同↕, the top before */
    asobi_state_free(st);
}

/* Ruling 6: a ↕ may not point at an ALL beneath the top (it bears no
 * condition). */
static void test_pointing_at_an_all(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 3, SINGLE, 4);
    octal_position p = {.hand = {"6同↕ 2小↑", "1大↑", "1小↑"}, .stack = {"1同↕ ALL 6約↑"}, .cond_from = {0}};
    arrange(st, &p);
    question_is(st, 0, "同6");
    refused_because(st, 0, "play 6同↕ point below", "is an ALL");
    apply_text(st, 0, "play 6同↕ Octo!");
    question_is(st, 0, "約6");
    asobi_state_free(st);
}

/* Issue 11 point 6: "↕ never points at a fully covered card", one rule for
 * every card laid exactly on another: after a §⑧ lay ("ぴったりと重ねて置く"),
 * after an override (§⑨: every card points at the same condition, so each lies
 * exactly on the one before), after a card laid on an ALL (§③ "ぴったり重ねて"). */
static void test_point_below_never_at_a_fully_covered_card(void **unused)
{
    (void)unused;
    /* after an override: 8 6 5 on 2同↑ all point at 同; 5大↕ lies exactly on 6同↕ */
    asobi_state *st = new_state("octal", 3, SINGLE, 30);
    octal_position p = {.hand = {"8小↑ 6同↕ 5大↕ 3約↕ 1小↑", "5小↕ 2小↑", "1同↕ 4大↕"},
                        .stack = {"1大↑ 2同↑"},
                        .cond_from = {0}};
    arrange(st, &p);
    question_is(st, 0, "大2");
    apply_text(st, 0, "override 8小↑ 6同↕ 5大↕");
    question_is(st, 0, "同5");
    json_t *v = asobi_state_view(st, 1);
    assert_true(json_is_false(json_object_get(json_array_get(json_object_get(v, "questions"), 0), "below_allowed")));
    json_decref(v);
    refused_because(st, 1, "play 5小↕ point below", "lies exactly on the card beneath it");
    apply_text(st, 1, "play 5小↕ Octo!"); /* pointing at the top: 5大↕'s 大 */
    question_is(st, 0, "大5");
    /* an ordinary play lies offset: the card beneath can be pointed at again */
    v = asobi_state_view(st, 2);
    assert_true(json_is_true(json_object_get(json_array_get(json_object_get(v, "questions"), 0), "below_allowed")));
    json_decref(v);
    asobi_state_free(st);

    /* after a §⑧ lay: 7大↑ lies exactly on 5大↕ */
    st = new_state("octal", 3, SINGLE, 31);
    octal_position q = {.hand = {"7同↕ 1小↑", "3同↑ 4異↑", "5大↕ 7大↑ 6約↑"},
                        .stack = {"1大↑ 2同↑"},
                        .cond_from = {0},
                        .seat = 2};
    arrange(st, &q);
    apply_text(st, 2, "play 5大↕"); /* 同5 */
    const char *order = "01201";
    for (int i = 0; order[i]; i++)
        apply_text(st, order[i] - '0', "pass");
    apply_text(st, 2, "lay 7大↑");
    question_is(st, 0, "同7");
    refused_because(st, 0, "play 7同↕ point below", "lies exactly on the card beneath it");
    apply_text(st, 0, "play 7同↕");
    question_is(st, 0, "大7");
    asobi_state_free(st);
}

/* ---- §⑤ the hand limit ---------------------------------------------------- */

/* "手札は5枚までは持つことが出来ます。上限を超えた場合は即座に手札から1枚を
 * 選択し、裏向きにして捨てる札にします". */
static void test_hand_limit_discard(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 3, TWIN, 5);
    octal_position p = {.hand = {"1大↑ 1小↑ 2小↑ 2同↑ 3同↑", "8異↕", "8倍↕"},
                        .stack = {"1同↕ 8同↑", "2倍↕ 3異↑"},
                        .cond_from = {0, 0},
                        .deck_top = "7大↑"};
    arrange(st, &p);
    apply_text(st, 0, "pass");
    assert_int_equal(hand_size(st, 0), 6);
    assert_true(holds(st, 0, "7大↑"));
    assert_int_equal(data(st)->phase, OCTAL_PHASE_DISCARD);
    assert_int_equal(data(st)->seat, 0); /* at once, before the next player */
    refused_because(st, 0, "pass", "discard one first");
    refused_because(st, 0, "play 8同↑ on 1", "discard one first");
    refused_because(st, 1, "pass", NULL);
    refused_because(st, 0, "discard 8異↕", "you do not hold");
    apply_text(st, 0, "discard 7大↑");
    assert_int_equal(hand_size(st, 0), 5);
    assert_true(data(st)->discarded[0] >> card_named("7大↑") & 1u);
    assert_int_equal(data(st)->seat, 1);
    refused_because(st, 1, "discard 8異↕", "only when a hand holds more than 5");
    /* the discard is face down: others see a count, not the card */
    json_t *v = asobi_state_view(st, 1);
    json_t *p0 = json_array_get(json_object_get(v, "players"), 0);
    assert_true(json_is_null(json_object_get(p0, "discards")));
    assert_int_equal(json_integer_value(json_object_get(p0, "discard_count")), 1);
    assert_int_equal(json_integer_value(json_object_get(v, "discard_size")), 1);
    char *text = json_dumps(v, 0);
    assert_null(strstr(text, "7大↑"));
    free(text);
    json_decref(v);
    v = asobi_state_view(st, 0);
    p0 = json_array_get(json_object_get(v, "players"), 0);
    assert_string_equal(json_string_value(json_array_get(json_object_get(p0, "discards"), 0)), "7大↑");
    json_decref(v);
    asobi_state_free(st);
}

/* ---- §⑥ the deck ------------------------------------------------------------ */

/* "残り1枚になった段階で『捨て札』と『竜の問い掛け』使用カード以外を回収し、
 * リシャッフルして山札の下に加え、補充します". Kept: from the top down to the
 * card whose condition is in force, and the card beneath the top (ruling 8).
 * Issue 11 point 4: the discards come back too ("『捨て札』と…を回収し"). */
static void test_refill_when_one_card_is_left(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 3, TWIN, 6);
    octal_position p = {.hand = {"1大↑", "1小↑", "1同↕"},
                        .discarded = {"", "8倍↕"},
                        /* question 1: the top 5大↕ points below at 7大↑ (index 3) */
                        .stack = {"2小↑ 3同↑ 4異↑ 7大↑ 6同↕ 5大↕", "2同↑ 3異↑ 6約↑"},
                        .cond_from = {3, 1},
                        .deck_top = "8同↑ 8異↕",
                        .deck_size = 2};
    arrange(st, &p);
    /* the cards left over (arrange gives them to seat 0's discards) are put in
     * use on question 2, so that only the discard 8倍↕ is to collect */
    int buried = __builtin_popcountll(data(st)->discarded[0]);
    bury_in_use(st, 1, data(st)->discarded[0]);
    apply_text(st, 0, "pass");
    const octal_state *s = data(st);
    assert_true(holds(st, 0, "8異↕"));
    /* question 1 keeps 7大↑ 6同↕ 5大↕; question 2 keeps 3異↑ 6約↑ */
    assert_int_equal(s->stack[0].size, 3);
    assert_int_equal(s->stack[0].e[0].card, card_named("7大↑"));
    assert_int_equal(s->stack[0].e[2].cond_from, 0);
    question_is(st, 0, "大5");
    assert_int_equal(s->stack[1].size, 2 + buried);
    assert_int_equal(s->stack[1].e[0].card, card_named("3異↑"));
    question_is(st, 1, "異6");
    /* 2小↑ 3同↑ 4異↑, 2同↑ and the discard 8倍↕ go under the last card */
    assert_int_equal(s->deck_size, 6);
    assert_int_equal(s->deck[5], card_named("8同↑"));
    uint64_t under = 0;
    for (int i = 0; i < 5; i++)
        under |= 1ull << s->deck[i];
    assert_true(under == ((1ull << card_named("2小↑")) | (1ull << card_named("3同↑")) |
                          (1ull << card_named("4異↑")) | (1ull << card_named("2同↑")) |
                          (1ull << card_named("8倍↕"))));
    assert_int_equal(s->last.refilled, 5);
    assert_int_equal(s->last.refilled_discards, 1);
    assert_int_equal(s->discarded[1], 0);
    json_t *v = asobi_state_view(st, 2);
    assert_int_equal(json_integer_value(json_object_get(v, "discard_size")), 0);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(v, "last"), "refilled_discards")), 1);
    json_decref(v);
    asobi_state_free(st);
}

/* With nothing to draw and nothing to refill (no discards, every question
 * card in use), a pass draws nothing (ruling 8). */
static void test_empty_deck_draws_nothing(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 3, SINGLE, 7);
    octal_position p = {.hand = {"1大↑ 2小↑", "8小↑", "1同↕"}, .stack = {"8同↑ 8異↕"}, .cond_from = {0}};
    arrange(st, &p);
    bury_deck_in_use(st, 0);
    apply_text(st, 0, "pass");
    assert_int_equal(hand_size(st, 0), 2);
    assert_false(data(st)->last.drew);
    assert_int_equal(data(st)->last.refilled, 0);
    assert_false(asobi_state_terminal(st)); /* seat 1 can still answer 同8 */
    asobi_state_free(st);
}

/* A discard alone is enough to refill an empty deck: a pass then draws it
 * (issue 11 point 4). */
static void test_discards_refill_an_empty_deck(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 3, SINGLE, 7);
    octal_position p = {.hand = {"1大↑ 2小↑", "1小↑", "1同↕"},
                        .discarded = {"", "", "5倍↑"},
                        .stack = {"8同↑ 8異↕"},
                        .cond_from = {0}};
    arrange(st, &p);
    bury_deck_in_use(st, 0);
    apply_text(st, 0, "pass");
    assert_true(holds(st, 0, "5倍↑"));
    assert_true(data(st)->last.drew);
    assert_int_equal(data(st)->last.refilled_discards, 1);
    asobi_state_free(st);
}

/* ---- §⑦ Octo! ----------------------------------------------------------------- */

/* "手札が2枚の状態からドラゴンカードの配置を行い、残り手札が1枚となる場合、
 * 必ず「オクト！」を宣言…宣言し忘れた場合はペナルティとして山札からカードを
 * 2枚引き". */
static void test_octo_declaration(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 3, TWIN, 8);
    octal_position p = {.hand = {"8倍↕ 2小↑", "8異↕ 3同↑", "4異↑ 2同↑ 3異↑"},
                        .stack = {"1同↕ 8同↑", "2倍↕ 4大↕"},
                        .cond_from = {0, 0},
                        .deck_top = "5大↕ 6大↑"};
    arrange(st, &p);
    refused_because(st, 2, "pass", NULL); /* not its turn */
    apply_text(st, 0, "play 8倍↕ on 1 Octo!");
    assert_int_equal(hand_size(st, 0), 1);
    assert_true(data(st)->last.octo);
    assert_int_equal(data(st)->last.penalty, 0);
    assert_int_equal(asobi_state_to_move(st), 1u << 1);
    apply_text(st, 1, "play 8異↕ on 1"); /* forgot Octo! */
    assert_int_equal(hand_size(st, 1), 1); /* the penalty waits (issue 11 point 9) ... */
    /* Octo! only when one card is left */
    question_is(st, 1, "倍4");
    refused_because(st, 2, "play 4異↑ on 2 Octo!", "leaves exactly one card");
    apply_text(st, 2, "play 4異↑ on 2"); /* ... and falls when the next player places */
    assert_int_equal(hand_size(st, 1), 3);
    assert_int_equal(data(st)->last.penalty, 2);
    assert_int_equal(data(st)->last.penalty_seat, 1);
    assert_true(holds(st, 1, "6大↑") && holds(st, 1, "5大↕"));
    asobi_state_free(st);
}

/* Issue 11 point 9, §⑦ "宣言し忘れた場合はペナルティとして山札からカードを2枚
 * 引き…（次のプレイヤーがカードを出すまでに宣言すればOK）": the seat that forgot
 * may still declare while the next player is to move (both seats are to move);
 * the penalty falls when the next player acts. */
static asobi_state *late_octo_position(int seat, uint64_t seed)
{
    asobi_state *st = new_state("octal", 3, SINGLE, seed);
    octal_position p = {.hand = {"7同↕ 2小↑", "6約↑ 3同↑ 4異↑", "5倍↑ 7大↑"},
                        .stack = {"1異↕ 1同↕"}, /* 異1: anything but 1 */
                        .cond_from = {0},
                        .deck_top = "4約↕ 5大↕ 6大↑",
                        .seat = seat};
    arrange(st, &p);
    return st;
}

static void test_octo_may_be_declared_late(void **unused)
{
    (void)unused;
    /* declared late, before the next player acts: no penalty */
    asobi_state *st = late_octo_position(0, 40);
    apply_text(st, 0, "play 7同↕"); /* leaves one card, no Octo! */
    assert_int_equal(hand_size(st, 0), 1);
    assert_int_equal(asobi_state_to_move(st), (1u << 0) | (1u << 1));
    json_t *v = asobi_state_view(st, 2);
    assert_int_equal(json_integer_value(json_object_get(v, "undeclared_octo")), 0);
    json_decref(v);
    int ids[OCTAL_MAX_ACTIONS];
    assert_int_equal(asobi_state_legal(st, 0, ids), 1);
    assert_int_equal(ids[0], OCTAL_ID_DECLARE);
    char text[64];
    asobi_state_action_text(st, 0, ids[0], text, sizeof text);
    assert_string_equal(text, "Octo!");
    refused_because(st, 0, "pass", "you may still declare Octo!");
    refused_because(st, 1, "Octo!", "a late Octo! is for a player who placed");
    assert_refused(st, 2, OCTAL_ID_DECLARE, ASOBI_E_NOT_YOUR_TURN);
    char *render = asobi_state_render(st, 1);
    assert_non_null(strstr(render, "may still declare"));
    free(render);
    apply_text(st, 0, "オクト！");
    assert_int_equal(data(st)->last.event, OCTAL_EV_DECLARE);
    assert_int_equal(asobi_state_to_move(st), 1u << 1); /* seat 1 is still to move */
    apply_text(st, 1, "pass");
    assert_int_equal(hand_size(st, 0), 1);
    assert_int_equal(data(st)->last.penalty, 0);
    asobi_state_free(st);

    /* not declared: the penalty falls when the next player places */
    st = late_octo_position(2, 41);
    apply_text(st, 2, "play 7大↑"); /* ↑ at 1同↕: 同7 */
    assert_int_equal(asobi_state_to_move(st), (1u << 2) | (1u << 0));
    apply_text(st, 0, "play 7同↕ Octo!");
    assert_int_equal(hand_size(st, 2), 3);
    assert_true(holds(st, 2, "6大↑") && holds(st, 2, "5大↕"));
    assert_int_equal(data(st)->last.penalty_seat, 2);
    assert_int_equal(asobi_state_to_move(st), 1u << 1);
    refused_because(st, 2, "Octo!", NULL); /* too late: not to move any more */
    asobi_state_free(st);

}

/* Issue 30 point 5, §⑦ "（次のプレイヤーがカードを出すまでに宣言すればOK）": until the next player
 * puts out a card. A pass draws a card and puts none out, so it leaves the window open (ruling
 * 12): the forgetful seat may still declare; the 2 cards fall when another player puts out a card
 * (here a play after a pass), or when the forgetful seat acts again without declaring (its own
 * next turn, everybody else having passed); at that turn it may still declare first. */
static asobi_state *late_octo_after_passes(uint64_t seed)
{
    asobi_state *st = new_state("octal", 3, SINGLE, seed);
    octal_position p = {.hand = {"7同↕ 2小↑", "6約↑ 3同↑ 7異↕", "5倍↑ 7大↑"},
                        .stack = {"1異↕ 1同↕"}, /* 異1: anything but 1 */
                        .cond_from = {0},
                        .deck_top = "4約↕ 5大↕ 6大↑",
                        .seat = 2};
    arrange(st, &p);
    apply_text(st, 2, "play 7大↑"); /* leaves one card, no Octo!; ↑ at 1同↕: 同7 */
    apply_text(st, 0, "pass");      /* the next player passes: it draws 6大↑ */
    return st;
}

static void test_a_pass_does_not_close_the_late_octo_window(void **unused)
{
    (void)unused;
    /* after the pass, the window is still open: declared now, no penalty */
    asobi_state *st = late_octo_after_passes(44);
    assert_true(holds(st, 0, "6大↑"));
    assert_int_equal(hand_size(st, 2), 1);
    assert_int_equal(data(st)->last.penalty, 0);
    assert_int_equal(asobi_state_to_move(st), (1u << 1) | (1u << 2));
    json_t *v = asobi_state_view(st, 0);
    assert_int_equal(json_integer_value(json_object_get(v, "undeclared_octo")), 2);
    json_decref(v);
    apply_text(st, 2, "Octo!");
    assert_int_equal(hand_size(st, 2), 1);
    assert_int_equal(asobi_state_to_move(st), 1u << 1);
    asobi_state_free(st);

    /* a card put out by another player after the pass: the penalty falls, before that play */
    st = late_octo_after_passes(45);
    apply_text(st, 1, "play 7異↕");
    assert_int_equal(hand_size(st, 2), 3);
    assert_true(holds(st, 2, "5大↕") && holds(st, 2, "4約↕"));
    assert_int_equal(data(st)->last.penalty, 2);
    assert_int_equal(data(st)->last.penalty_seat, 2);
    refused_because(st, 2, "Octo!", NULL); /* too late */
    asobi_state_free(st);

    /* everybody passed: the forgetful seat's own turn; acting without declaring costs the 2 cards */
    st = late_octo_after_passes(46);
    apply_text(st, 1, "pass");
    assert_int_equal(asobi_state_to_move(st), 1u << 2);
    int ids[OCTAL_MAX_ACTIONS];
    int n = asobi_state_legal(st, 2, ids);
    assert_int_equal(ids[n - 1], OCTAL_ID_DECLARE); /* it may still declare first (the last of its menu) */
    apply_text(st, 2, "pass");
    assert_int_equal(data(st)->last.penalty, 2);
    assert_int_equal(data(st)->last.penalty_seat, 2);
    assert_int_equal(hand_size(st, 2), 4); /* 1 + 2 + the pass's card */
    asobi_state_free(st);

    /* ... or it declares at that turn, then acts: no penalty */
    st = late_octo_after_passes(47);
    apply_text(st, 1, "pass");
    apply_text(st, 2, "Octo!");
    assert_int_equal(asobi_state_to_move(st), 1u << 2);
    apply_text(st, 2, "pass");
    assert_int_equal(data(st)->last.penalty, 0);
    assert_int_equal(hand_size(st, 2), 2);
    asobi_state_free(st);
}

/* "Menus must never offer the undeclared play first": every list of legal
 * actions offers a placing with Octo! before the same placing without it,
 * and the board says what forgetting costs. */
static void test_menus_offer_octo_first(void **unused)
{
    (void)unused;
    asobi_state *st = late_octo_position(0, 43);
    int ids[OCTAL_MAX_ACTIONS];
    int n = asobi_state_legal(st, 0, ids);
    char first[64], second[64];
    int pairs = 0;
    for (int i = 0; i + 1 < n; i++) {
        octal_action a, b;
        octal_decode(ids[i], &a);
        octal_decode(ids[i + 1], &b);
        if (a.event != OCTAL_EV_PLAY)
            continue;
        assert_true(a.octo); /* a placing of a 2-card hand leaves one: with Octo! first */
        assert_true(b.event == OCTAL_EV_PLAY && !b.octo && b.kind == a.kind && b.question == a.question);
        asobi_state_action_text(st, 0, ids[i], first, sizeof first);
        asobi_state_action_text(st, 0, ids[i + 1], second, sizeof second);
        assert_non_null(strstr(first, " Octo!"));
        assert_null(strstr(second, "Octo!"));
        pairs++;
        i++;
    }
    assert_int_equal(pairs, 3); /* 2小↑; 7同↕ pointing at the top, and below */
    char *render = asobi_state_render(st, 0);
    assert_non_null(strstr(render, "without it you draw 2 cards"));
    free(render);
    asobi_state_free(st);
}

/* ---- §⑧ passes and the lay on the last card -------------------------------- */

/* "『パス』をする場合は山札の一番上からカードを1枚引き、手札に加えます。全ての
 * プレイヤーが『パス』をして一巡した場合でもゲームは継続されます。ただし、
 * 二巡しても全てのプレイヤーがカードを配置出来なかった場合に限り、最後にカード
 * を配置したプレイヤーは自分が最後に置いたカードの上に好きな数値カードを重ねて
 * 置くことが出来ます（…指し示す条件は先に指し示していた条件と同じになります）". */
static void test_two_rounds_of_passes_allow_the_lay(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 3, SINGLE, 9);
    octal_position p = {.hand = {"1小↑ 2小↑", "3同↑ 4異↑", "5大↕ 7大↑ 6約↑"},
                        .stack = {"1大↑ 2同↑"},
                        .cond_from = {0},
                        .deck_top = "8小↑ 8同↑ 8異↕ 8倍↕ 7小↑ 7同↕ 7異↕ 6大↑",
                        .seat = 2};
    arrange(st, &p);
    question_is(st, 0, "大2");
    apply_text(st, 2, "play 5大↕"); /* points at 2同↑: 同5, which nobody can answer */
    question_is(st, 0, "同5");
    assert_int_equal(data(st)->last_placer, 2);
    apply_text(st, 0, "pass");
    apply_text(st, 1, "pass");
    /* seat 2's next turn: the others passed once */
    refused_because(st, 2, "lay 7大↑ on 1", "every other player to pass twice");
    apply_text(st, 2, "pass");
    apply_text(st, 0, "pass");
    /* only the last placer may lay, on its own turn */
    refused_because(st, 1, "lay 3同↑ on 1", "only the last player who placed");
    apply_text(st, 1, "pass");
    /* issue 11 point 7: with 3 players, 5 passes (each other player twice), not 8 */
    assert_int_equal(data(st)->passes_in_a_row, 5);
    json_t *v = asobi_state_view(st, 0);
    assert_true(json_is_true(json_object_get(v, "lay_allowed")));
    assert_int_equal(json_integer_value(json_object_get(v, "lay_passes_needed")), 5);
    json_decref(v);
    int before = hand_size(st, 2);
    refused_because(st, 2, "play 7大↑", "does not answer");
    apply_text(st, 2, "lay 7大↑ on 1");
    /* the condition stays (同), the number is the new card's */
    question_is(st, 0, "同7");
    assert_int_equal(hand_size(st, 2), before - 1);
    assert_int_equal(data(st)->passes_in_a_row, 0);
    asobi_state_free(st);
}

/* ---- §⑨ override ---------------------------------------------------------------- */

/* "手札が5枚になった場合に限り、『竜の問い掛け』を満たす竜札を4枚まで出す
 * ことが出来ます…手札から値の大きい順にカードを配置し、一番小さい数が一番上に
 * なるように…ALLドラゴンカードは一番大きい値として扱います。また、条件を満たせば
 * 同じ値のカードを配置することも可能です". "条件はカードを配置する前に一番上
 * にあったカードの条件を指し示すように配置します". */
static void test_override(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 3, TWIN, 10);
    octal_position p = {.hand = {"8小↑ 6同↕ 3異↑ 3約↕ 1大↑", "8倍↕ 6約↑ 2小↑ 4異↑", "1小↑"},
                        .stack = {"1異↕ 1同↕", "2倍↕ 4大↕"},
                        .cond_from = {0, 0}};
    arrange(st, &p);
    question_is(st, 0, "異1"); /* all but 1 */
    refused_because(st, 0, "override 3異↑ 6同↕ on 1", "from the highest number down");
    refused_because(st, 0, "override 8小↑ 1大↑ on 1", "does not answer");
    refused_because(st, 0, "override 8小↑ on 1", "2 to 4 cards");
    apply_text(st, 0, "override 8小↑ 6同↕ 3異↑ on 1");
    const octal_state *s = data(st);
    assert_int_equal(s->stack[0].size, 5);
    assert_int_equal(s->stack[0].e[4].card, card_named("3異↑"));
    /* the new top points at the condition of the card on top before: 1同↕'s 同 */
    question_is(st, 0, "同3");
    assert_int_equal(hand_size(st, 0), 2);
    /* only with exactly 5 cards */
    refused_because(st, 1, "override 8倍↕ 6約↑ on 1", "exactly 5 cards");
    asobi_state_free(st);
}

static void test_override_equal_numbers_and_all(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 3, TWIN, 11);
    octal_position p = {.hand = {"3約↕ 3異↑ ALL 5倍↑ 1大↑", "8倍↕", "1小↑"},
                        .stack = {"1異↕ 1同↕", "2倍↕ 4大↕"},
                        .cond_from = {0, 0}};
    arrange(st, &p);
    /* equal numbers in either order; the ALL counts highest (placed first) */
    int id1 = -1, id2 = -1;
    asobi_error err;
    assert_int_equal(asobi_state_parse_action(st, 0, "override ALL 3約↕ 3異↑ on 1", &id1, &err), ASOBI_OK);
    assert_int_equal(asobi_state_parse_action(st, 0, "override ALL 3異↑ 3約↕ on 1", &id2, &err), ASOBI_OK);
    assert_int_not_equal(id1, id2);
    refused_because(st, 0, "override 3約↕ ALL on 1", "ALL counts highest");
    asobi_state *other = asobi_state_clone(st);
    apply_text(st, 0, "override ALL 5倍↑ 3約↕ 3異↑ on 1 Octo!");
    question_is(st, 0, "同3");
    assert_int_equal(data(st)->stack[0].e[5].card, card_named("3異↑"));
    assert_int_equal(hand_size(st, 0), 1);
    apply_text(other, 0, "override ALL 5倍↑ 3異↑ 3約↕ on 1");
    assert_int_equal(data(other)->stack[0].e[5].card, card_named("3約↕"));
    assert_int_equal(hand_size(other, 0), 1); /* forgot Octo!: 1 + 2 once a card is put out by another */
    assert_int_equal(data(other)->octo_late, 0);
    apply_text(other, 1, "pass"); /* a pass puts out no card: the window stays open (issue 30 point 5) */
    assert_int_equal(hand_size(other, 0), 1);
    assert_int_equal(data(other)->octo_late, 0);
    asobi_state_free(other);
    asobi_state_free(st);
}

/* ---- §遊び方 ③ and §⑩ the end ------------------------------------------------- */

/* "最初に手札のカードがすべて無くなった人が勝者となります". */
static void test_first_empty_hand_wins(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 3, TWIN, 12);
    octal_position p = {.hand = {"8倍↕", "8異↕ 1大↑", "1小↑"},
                        .stack = {"1異↕ 1同↕", "2倍↕ 4大↕"},
                        .cond_from = {0, 0}};
    arrange(st, &p);
    apply_text(st, 0, "play 8倍↕ on 1");
    assert_true(asobi_state_terminal(st));
    asobi_result r;
    asobi_state_result(st, &r);
    assert_int_equal(r.winners, 1u);
    assert_int_equal(r.rank[0], 1);
    assert_int_equal(r.rank[1], 2);
    assert_int_equal(r.rank[2], 2); /* the others are not ranked: they share 2nd */
    assert_refused(st, 1, OCTAL_ID_PASS, ASOBI_E_GAME_OVER);
    asobi_state_free(st);
}

/* "5人以上であれば3位まで決めても良いです": option ranks. */
static void test_playing_on_for_second_and_third(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 5, "{\"mode\":\"single\",\"ranks\":3}", 13);
    octal_position p = {.hand = {"4異↑", "8異↕ 5倍↑", "7異↕", "6約↑ 2小↑", "2異↕ 5小↕"},
                        .stack = {"1大↑ 3異↑"},
                        .cond_from = {0}};
    arrange(st, &p);
    question_is(st, 0, "大3");
    apply_text(st, 0, "play 4異↑"); /* ↑ at 3異↑: 異4 */
    assert_false(asobi_state_terminal(st));
    assert_int_equal(data(st)->finished_rank[0], 1);
    apply_text(st, 1, "play 8異↕ Octo!");
    question_is(st, 0, "異8");
    apply_text(st, 2, "play 7異↕");
    assert_int_equal(data(st)->finished_rank[2], 2);
    apply_text(st, 3, "pass");
    apply_text(st, 4, "play 2異↕ Octo!");
    /* seat 0 is out: after seat 4 comes seat 1 */
    assert_int_equal(data(st)->seat, 1);
    apply_text(st, 1, "play 5倍↑");
    assert_true(asobi_state_terminal(st));
    asobi_result r;
    asobi_state_result(st, &r);
    assert_int_equal(r.rank[0], 1);
    assert_int_equal(r.rank[2], 2);
    assert_int_equal(r.rank[1], 3);
    assert_int_equal(r.rank[3], 4);
    assert_int_equal(r.rank[4], 4);
    assert_int_equal(r.winners, 1u);
    asobi_state_free(st);
}

/* ---- rulings: a blocked game, the turn cap ------------------------------------- */

/* Ruling 14: nothing to draw or refill and no card anybody could place: the
 * game ends at once; fewer cards in hand rank better. */
static void test_blocked_game_ends(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 3, SINGLE, 14);
    octal_position p = {.hand = {"1大↑ 2小↑", "3同↑", "ALL"}, .stack = {"1同↕ 8同↑"}, .cond_from = {0}, .seat = 0};
    arrange(st, &p);
    /* every other card in use on the question (the other 8s among them), no
     * discards: a refill finds nothing (issue 11 point 4) */
    bury_deck_in_use(st, 0);
    /* question 同8: nobody holds an 8; seat 2's ALL cannot be its last card */
    apply_text(st, 0, "pass");
    assert_true(asobi_state_terminal(st));
    assert_true(data(st)->blocked);
    asobi_result r;
    asobi_state_result(st, &r);
    assert_int_equal(r.winners, (1u << 1) | (1u << 2));
    assert_int_equal(r.rank[0], 3);
    asobi_state_free(st);

    /* one discard anywhere and the game goes on: it comes back at the refill */
    st = new_state("octal", 3, SINGLE, 14);
    octal_position q = {.hand = {"1大↑ 2小↑", "3同↑", "ALL"},
                        .discarded = {"", "8小↑"},
                        .stack = {"1同↕ 8同↑"},
                        .cond_from = {0}};
    arrange(st, &q);
    bury_deck_in_use(st, 0);
    apply_text(st, 0, "pass");
    assert_false(asobi_state_terminal(st));
    assert_true(holds(st, 0, "8小↑")); /* and it answers 同8 */
    asobi_state_free(st);
}

/* Ruling 15: the safety cap on turns. */
static void test_turn_cap(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 3, "{\"mode\":\"twin\",\"max_turns\":10}", 15);
    for (int i = 0; i < 40 && !asobi_state_terminal(st); i++) {
        int seat = data(st)->seat;
        if (data(st)->phase == OCTAL_PHASE_DISCARD) {
            int ids[OCTAL_MAX_ACTIONS];
            asobi_state_legal(st, seat, ids);
            assert_int_equal(asobi_state_apply(st, seat, ids[0], NULL), ASOBI_OK);
        } else {
            apply_text(st, seat, "pass");
        }
    }
    assert_true(asobi_state_terminal(st));
    assert_true(data(st)->capped);
    assert_int_equal(data(st)->turns, 10);
    asobi_state_free(st);
}

/* Single mode has one question. */
static void test_single_mode_has_one_question(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("octal", 6, SINGLE, 16);
    octal_position p = {.hand = {"8倍↕ 2小↑", "1大↑", "1小↑", "2同↑", "3同↑", "4異↑"},
                        .stack = {"1異↕ 1同↕"},
                        .cond_from = {0}};
    arrange(st, &p);
    refused_because(st, 0, "play 8倍↕ on 2", "only question 1");
    apply_text(st, 0, "play 8倍↕ on 1 Octo!");
    json_t *v = asobi_state_view(st, 3);
    assert_int_equal(json_array_size(json_object_get(v, "questions")), 1);
    assert_string_equal(json_string_value(json_object_get(v, "mode")), "single");
    json_decref(v);
    asobi_state_free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup_deals_four_and_builds_the_questions),
        cmocka_unit_test(test_modes_and_player_counts),
        cmocka_unit_test(test_twin_same_condition_option),
        cmocka_unit_test(test_play_answers_a_question),
        cmocka_unit_test(test_arrows_up_and_both),
        cmocka_unit_test(test_all_card),
        cmocka_unit_test(test_after_an_all_a_number_card_covers_it),
        cmocka_unit_test(test_pointing_at_an_all),
        cmocka_unit_test(test_point_below_never_at_a_fully_covered_card),
        cmocka_unit_test(test_hand_limit_discard),
        cmocka_unit_test(test_refill_when_one_card_is_left),
        cmocka_unit_test(test_empty_deck_draws_nothing),
        cmocka_unit_test(test_discards_refill_an_empty_deck),
        cmocka_unit_test(test_octo_declaration),
        cmocka_unit_test(test_octo_may_be_declared_late),
        cmocka_unit_test(test_a_pass_does_not_close_the_late_octo_window),
        cmocka_unit_test(test_menus_offer_octo_first),
        cmocka_unit_test(test_two_rounds_of_passes_allow_the_lay),
        cmocka_unit_test(test_override),
        cmocka_unit_test(test_override_equal_numbers_and_all),
        cmocka_unit_test(test_first_empty_hand_wins),
        cmocka_unit_test(test_playing_on_for_second_and_third),
        cmocka_unit_test(test_blocked_game_ends),
        cmocka_unit_test(test_turn_cap),
        cmocka_unit_test(test_single_mode_has_one_question),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

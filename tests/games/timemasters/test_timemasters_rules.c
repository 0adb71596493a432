/* test_timemasters_rules.c — one test per rule of Time Masters, each citing its passage of seed 003. */
#include "tm_sim.h"

/* A fresh 2-player game whose seat 0 holds exactly the named cards (a deck of
 * five Suggestions below them), on the first turn, main phase. */
static asobi_state *game_with_hand(tm_state **out)
{
    asobi_state *s = new_state("timemasters", 2, NULL, 11);
    tm_state *t = tm_of(s);
    TM_DECK(t, 0, "Suggestion", "Suggestion", "Suggestion", "Suggestion", "Suggestion");
    t->p[0].n_discard = 0;
    *out = t;
    return s;
}

static void refused_text(asobi_state *s, const char *text)
{
    assert_text_refused(s, __builtin_ctz(asobi_state_to_move(s)), text, ASOBI_E_ILLEGAL_ACTION);
}

/* seed 003 §セットアップ: "この10枚のカードをシャッフルし、5枚のカードを引き手札とします",
 * "スペル[Suggestion]:2枚 スペル[Recovery]:2枚 スペル[Energy]:2枚 フォーカス:3枚 タイマー(スロット1):1枚",
 * "各プレイヤーに4つの金の循環のKeトークンが配られます",
 * "それぞれのスフィアレベル(1~5)に応じたカード20枚をシャッフルし、ランダムに10枚を引きます". */
static void test_setup(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        asobi_state *s = new_state("timemasters", players, NULL, 5);
        tm_state *t = tm_of(s);
        for (int i = 0; i < players; i++) {
            tm_player *p = &t->p[i];
            assert_int_equal(p->n_hand, 5);
            assert_int_equal(p->n_deck, 5);
            assert_int_equal(p->ke_ready, 4);
            assert_int_equal(p->ke_spent + p->ke_eph, 0);
            uint8_t all[10];
            memcpy(all, p->hand, 5);
            memcpy(all + 5, p->deck, 5);
            assert_int_equal(tm_count(t, all, 10, "Suggestion"), 2);
            assert_int_equal(tm_count(t, all, 10, "Recovery"), 2);
            assert_int_equal(tm_count(t, all, 10, "Energy"), 2);
            assert_int_equal(tm_count(t, all, 10, "Concentration"), 3);
            assert_int_equal(tm_count(t, all, 10, "Small Timer"), 1);
            assert_int_equal(tm_points(t, i), 0); /* "勝利点0のカード10枚" */
        }
        for (int l = 0; l < TM_LEVELS; l++) {
            assert_int_equal(t->n_sphere[l], 10);
            assert_int_equal(t->n_aside[l], 10);
            for (int c = 0; c < 10; c++)
                assert_int_equal(t->table.card[t->sphere[l][c]].level, l + 1);
        }
        assert_int_equal(t->seat, 0);
        asobi_state_free(s);
    }
}

/* seed 003 §プレイ: "ゲーム開始直後の最初の手番ではフェイズ1はスキップされます"; a later turn
 * with a full timer opens in the timer phase (§1.タイマーフェイズ). */
static void test_first_turn_skips_timer_phase_later_turns_do_not(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    assert_int_equal(t->phase, TM_PH_MAIN);
    TM_HAND(t, 0, "Small Timer", "Energy", "Suggestion", "Suggestion", "Suggestion");
    apply_text(s, 0, "play Small Timer");
    apply_text(s, 0, "set Energy on 1");
    assert_int_equal(t->p[0].ke_ready, 2); /* setting a spell costs its Kè */
    assert_int_equal(t->access, 0);        /* and earns no access point */
    apply_text(s, 0, "done");
    assert_int_equal(t->seat, 1);
    assert_int_equal(t->phase, TM_PH_MAIN); /* seat 1 has no full timer */
    apply_text(s, 1, "done");
    assert_int_equal(t->seat, 0);
    assert_int_equal(t->phase, TM_PH_TIMER);
    assert_true(tm_text_legal(s, "activate 1"));
    assert_true(tm_text_legal(s, "delay 1"));
    refused_text(s, "done");
    refused_text(s, "pass");
    asobi_state_free(s);
}

/* Brings seat 0 to its second turn with a Small Timer holding Energy. */
static asobi_state *full_timer_game(tm_state **out)
{
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, "Small Timer", "Energy", "Suggestion", "Suggestion", "Suggestion");
    apply_text(s, 0, "play Small Timer");
    apply_text(s, 0, "set Energy on 1");
    apply_text(s, 0, "done");
    apply_text(s, 1, "done");
    *out = t;
    return s;
}

/* §1: "タイマー活性化 ... タイマーカードを自分の捨て札置き場に捨てます。捨てられたタイマーカードに
 * セットされていたスペルはこの手番中にプレイしなければいけません。その際、コストを支払う必要はありません". */
static void test_timer_phase_activate_releases_spells_free(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = full_timer_game(&t);
    int ready = t->p[0].ke_ready;
    apply_text(s, 0, "activate 1");
    assert_int_equal(t->phase, TM_PH_MAIN);
    assert_int_equal(t->p[0].n_timers, 0);
    assert_int_equal(tm_count(t, t->p[0].discard, t->p[0].n_discard, "Small Timer"), 1);
    assert_int_equal(t->p[0].n_released, 1);
    refused_text(s, "done"); /* "この手番中にプレイしなければいけません" */
    refused_text(s, "pass");
    apply_text(s, 0, "release Energy");
    assert_int_equal(t->p[0].ke_ready, ready); /* no cost */
    assert_int_equal(t->p[0].ke_eph, 1);       /* its effect resolved */
    assert_int_equal(t->access, 1);            /* played into the spell zone: an access point */
    apply_text(s, 0, "done");
    asobi_state_free(s);
}

/* §1: "タイマー遅延 ... タイマーカードの下に手札のカード1枚を裏向きに置かなければいけません",
 * "手番終了時の手札枚数は (5枚)-(タイマー遅延に使われているカード枚数) となります",
 * "タイマー遅延はラウンドごとに繰り返し行うことができます", and
 * "遅延したタイマーを捨て、タイマーを活性化させた場合はタイマー遅延アクションのために使われていたカードも捨て札になります". */
static void test_timer_delay_and_refill_limit(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = full_timer_game(&t);
    apply_text(s, 0, "delay 1");
    assert_int_equal(t->choice, TM_CH_DELAY);
    char pick[64];
    snprintf(pick, sizeof pick, "pick %s", t->table.card[t->p[0].hand[0]].name);
    int hand = t->p[0].n_hand;
    apply_text(s, 0, pick);
    assert_int_equal(t->p[0].n_hand, hand - 1);
    assert_int_equal(t->p[0].timers[0].n_delay, 1);
    assert_int_equal(t->phase, TM_PH_MAIN);
    apply_text(s, 0, "done");
    assert_int_equal(t->p[0].n_hand, 4); /* refilled to 5 - 1 */
    apply_text(s, 1, "done");
    /* delayed again: two delay cards, a hand of 3 */
    assert_int_equal(t->phase, TM_PH_TIMER);
    apply_text(s, 0, "delay 1");
    snprintf(pick, sizeof pick, "pick %s", t->table.card[t->p[0].hand[0]].name);
    apply_text(s, 0, pick);
    apply_text(s, 0, "done");
    assert_int_equal(t->p[0].timers[0].n_delay, 2);
    assert_int_equal(t->p[0].n_hand, 3);
    apply_text(s, 1, "done");
    /* activation: the timer and both delay cards go to the discard */
    int discard = t->p[0].n_discard;
    apply_text(s, 0, "activate 1");
    assert_int_equal(t->p[0].n_discard, discard + 3);
    apply_text(s, 0, "release Energy");
    apply_text(s, 0, "done");
    apply_text(s, 0, "done"); /* decline the access (1 point) */
    assert_int_equal(t->p[0].n_hand, 5);
    asobi_state_free(s);
}

/* §1: "タイマー遅延はラウンドごとに繰り返し行うことができます" (issue 30, point 4; ruling 9): a timer may
 * be delayed every round while its owner has a card to put under it; the old cap of 4 delay cards
 * refused the fifth. The state's bound (TM_MAX_DELAY, 32) is one no real game reaches, and the
 * refusal there names the ruling. */
static void test_timer_may_be_delayed_every_round(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = full_timer_game(&t);
    for (int round = 1; round <= 6; round++) {
        assert_int_equal(t->phase, TM_PH_TIMER);
        TM_HAND(t, 0, "Suggestion", "Recovery");
        apply_text(s, 0, "delay 1");
        apply_text(s, 0, "pick Recovery");
        assert_int_equal(t->p[0].timers[0].n_delay, round);
        apply_text(s, 0, "done");
        apply_text(s, 1, "done");
    }
    /* six delay cards: the refill target is 5 - 6, never below 0 (ruling 9) */
    assert_int_equal(t->p[0].n_hand, 1);
    /* at the bound: activate */
    t->p[0].timers[0].n_delay = TM_MAX_DELAY;
    assert_true(tm_text_legal(s, "activate 1"));
    assert_false(tm_text_legal(s, "delay 1"));
    int id;
    asobi_error err;
    assert_int_equal(asobi_state_parse_action(s, 0, "delay 1", &id, &err), ASOBI_E_ILLEGAL_ACTION);
    assert_non_null(strstr(err.message, "ruling 9"));
    asobi_state_free(s);
}

/* A fresh game (first turn, main phase: no timer phase yet this turn) whose
 * seat 0 has a Small Timer holding Energy that this turn has not dealt with. */
static asobi_state *unhandled_full_timer_game(tm_state **out)
{
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, "Suggestion", "Suggestion", "Recovery", "Concentration");
    tm_timer *tm = &t->p[0].timers[0];
    memset(tm, 0, sizeof *tm);
    tm->kind = (uint8_t)tm_kind(t, "Small Timer");
    tm->number = 1; /* people call it timer 1 */
    tm->spells[tm->n_spells++] = (uint8_t)tm_kind(t, "Energy");
    t->p[0].n_timers = 1;
    t->p[0].ke_ready = 2;
    t->p[0].ke_spent = 2;
    *out = t;
    return s;
}

/* §2 パス: "パスをした場合、循環のKeが全て回復します", "パスをすると他のアクションは全く実行できず、
 * 即座に手番が終了します", and with full timers "それらのタイマーカードの下に手札のカード1枚を裏向きに
 * 置かなければいけません。手札のカードを置きたくない、もしくは置けないなら、タイマーカードはセットされていた
 * スペルと共に即座に自分の捨て札置き場に捨てられます。手札補充の制限は適用されます": one card (or the
 * drop) for a full timer this turn has not dealt with yet. */
static void test_pass_readies_ke_and_full_timers_take_a_card_or_go(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = unhandled_full_timer_game(&t);
    apply_text(s, 0, "pass");
    assert_int_equal(t->p[0].ke_ready, 4);
    assert_int_equal(t->p[0].ke_spent, 0);
    assert_int_equal(t->phase, TM_PH_PASS);
    assert_true(tm_text_legal(s, "delay 1"));
    assert_true(tm_text_legal(s, "drop 1"));
    refused_text(s, "activate 1");
    refused_text(s, "play Suggestion");
    apply_text(s, 0, "drop 1");
    assert_int_equal(t->p[0].n_timers, 0);
    /* the timer and its spell are discarded; the spell does not resolve */
    assert_int_equal(tm_count(t, t->p[0].discard, t->p[0].n_discard, "Small Timer"), 1);
    assert_int_equal(tm_count(t, t->p[0].discard, t->p[0].n_discard, "Energy"), 1);
    assert_int_equal(t->p[0].ke_eph, 0);
    assert_int_equal(t->seat, 1);
    assert_int_equal(t->p[0].n_hand, 5);
    asobi_state_free(s);

    /* keeping it: one card under it, and the delay card lowers the refill */
    s = unhandled_full_timer_game(&t);
    apply_text(s, 0, "pass");
    apply_text(s, 0, "delay 1");
    apply_text(s, 0, "pick Concentration");
    assert_int_equal(t->seat, 1);
    assert_int_equal(t->p[0].timers[0].n_delay, 1);
    assert_int_equal(t->p[0].n_hand, 4); /* "手札補充の制限は適用されます" */
    asobi_state_free(s);
}

/* Issue 11, point 10 — §2 パス: "パスした際にスペルが限界までプレイされている(空きスロットがない)
 * タイマーカードがあるなら、それらのタイマーカードの下に手札のカード1枚を裏向きに置かなければいけません":
 * one card per full timer. A timer already delayed in this turn's timer phase (§1 "タイマー遅延 ...
 * 手札のカード1枚を裏向きに置かなければいけません") has its one card for this turn: the pass asks
 * nothing more of it, and the turn ends at once ("即座に手番が終了します"). */
static void test_pass_after_timer_phase_delay_costs_no_second_card(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = full_timer_game(&t);
    apply_text(s, 0, "delay 1");
    char pick[64];
    snprintf(pick, sizeof pick, "pick %s", t->table.card[t->p[0].hand[0]].name);
    apply_text(s, 0, pick);
    /* the timer phase is over: a pass is still possible (no main action yet) */
    assert_int_equal(t->phase, TM_PH_MAIN);
    assert_int_equal(t->p[0].ke_spent, 2);
    int hand = t->p[0].n_hand;
    int discard = t->p[0].n_discard;
    apply_text(s, 0, "pass");
    /* no second card, no drop: the turn is over */
    assert_int_equal(t->seat, 1);
    assert_int_equal(t->phase, TM_PH_MAIN);
    assert_int_equal(t->p[0].ke_ready, 4);
    assert_int_equal(t->p[0].ke_spent, 0);
    assert_int_equal(t->p[0].n_timers, 1);
    assert_int_equal(t->p[0].timers[0].n_delay, 1);
    assert_int_equal(t->p[0].timers[0].n_spells, 1);
    assert_int_equal(t->p[0].n_discard, discard);
    assert_int_equal(hand, 4);
    assert_int_equal(t->p[0].n_hand, 4); /* 5 - 1 delay card: nothing more put down, nothing drawn */
    asobi_state_free(s);
}

/* §2: a pass replaces every other action: refused once something was done. */
static void test_pass_only_instead_of_everything(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, "Suggestion", "Energy", "Energy", "Recovery", "Recovery");
    assert_true(tm_text_legal(s, "pass"));
    apply_text(s, 0, "play Suggestion");
    refused_text(s, "pass");
    asobi_state_free(s);
}

/* §2-B: "コストとして使用できるKeは金色の循環のKeか一時的なKeです。灰色の循環のKeは使用できません。
 * コストを支払ったら金色の循環のKeは灰色の循環のKeへと変わります。一時的なKeは手元から失われます". */
static void test_spell_costs_gold_then_ephemeral_never_grey(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, "Recovery", "Energy", "Vision", "Suggestion", "Suggestion");
    t->p[0].ke_ready = 1;
    t->p[0].ke_spent = 3;
    t->p[0].ke_eph = 1;
    apply_text(s, 0, "play Energy"); /* 2 Kè: the gold one, then the ephemeral one, then +1 ephemeral */
    assert_int_equal(t->p[0].ke_ready, 0);
    assert_int_equal(t->p[0].ke_spent, 4);
    assert_int_equal(t->p[0].ke_eph, 1);
    refused_text(s, "play Recovery"); /* 2 Kè, only 1 ephemeral: grey Kè cannot pay */
    apply_text(s, 0, "play Suggestion");
    assert_int_equal(t->p[0].ke_eph, 0);
    assert_int_equal(t->access, 2);
    asobi_state_free(s);
}

/* §2-B: "コストとして使用できるKeは金色の循環のKeか一時的なKeです" (issue 30, point 2; ruling 10): the
 * player chooses the mix whenever both kinds can pay, before the effect resolves. The case:
 * with 4 ephemeral Kè, a cost-2 spell that gives 1 more (Energy) paid with gold loses the new one to
 * the cap (5 usable Kè left); paid with ephemeral it leaves 6. Nothing is asked when one kind alone
 * can pay, nor when the cost takes every Kè there is. */
static void test_player_chooses_which_ke_pays(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, "Energy", "Energy", "Suggestion", "Recovery", "Suggestion");
    t->p[0].ke_ready = 3;
    t->p[0].ke_spent = 1;
    t->p[0].ke_eph = 4;
    apply_text(s, 0, "play Energy");
    assert_int_equal(t->choice, TM_CH_PAY);
    assert_int_equal(t->p[0].ke_eph, 4); /* nothing paid, nothing resolved yet */
    int ids[TM_ACTIONS];
    int n = asobi_state_legal(s, 0, ids); /* a short menu: 0, 1 or 2 ephemeral */
    assert_int_equal(n, 3);
    char text[64];
    asobi_state_action_text(s, 0, ids[0], text, sizeof text);
    assert_string_equal(text, "pay 2 gold 0 ephemeral");
    asobi_state_action_text(s, 0, ids[2], text, sizeof text);
    assert_string_equal(text, "pay 0 gold 2 ephemeral");
    refused_text(s, "done");                     /* first the payment */
    refused_text(s, "pay 1 gold 2 ephemeral");   /* 3 is not the cost */
    json_t *v = asobi_state_view(s, 1);          /* public: what is being paid, and how it may be */
    json_t *choice = json_object_get(v, "choice");
    assert_string_equal(json_string_value(json_object_get(choice, "kind")), "pay");
    assert_string_equal(json_string_value(json_object_get(choice, "card")), "Energy");
    assert_int_equal(json_integer_value(json_object_get(choice, "left")), 2);
    assert_int_equal(json_integer_value(json_object_get(choice, "ephemeral_min")), 0);
    assert_int_equal(json_integer_value(json_object_get(choice, "ephemeral_max")), 2);
    json_decref(v);
    char *board = asobi_state_render(s, 0); /* the terminal says what to type */
    assert_non_null(strstr(board, "Pay the 2 Kè of Energy"));
    assert_non_null(strstr(board, "pay G gold E ephemeral (E from 0 to 2)"));
    free(board);
    /* the heuristic pays so that the new ephemeral Kè is not lost */
    const asobi_game_def *def = asobi_state_game(s);
    asobi_rng rng;
    asobi_rng_seed(&rng, 1);
    asobi_state_action_text(s, 0, def->heuristic(asobi_state_data_for_ai(s), 0, &rng), text, sizeof text);
    assert_string_equal(text, "pay 1 gold 1 ephemeral");
    asobi_state *gold = asobi_state_clone(s);
    tm_state *g = tm_of(gold);
    apply_text(s, 0, "pay 0 gold 2 ephemeral");
    assert_int_equal(t->p[0].ke_ready, 3);
    assert_int_equal(t->p[0].ke_eph, 3); /* 4 - 2 + 1: 6 usable */
    apply_text(gold, 0, "pay 2 gold");    /* the earlier engine's only way */
    assert_int_equal(g->p[0].ke_ready, 1);
    assert_int_equal(g->p[0].ke_eph, 4); /* 4 + 1, one lost to the cap: 5 usable */
    asobi_state_free(gold);
    /* one kind alone can pay: nothing asked */
    t->p[0].ke_eph = 0;
    apply_text(s, 0, "play Suggestion");
    assert_int_equal(t->choice, TM_CH_NONE);
    assert_int_equal(t->p[0].ke_ready, 2);
    /* the cost takes every Kè there is: nothing asked either */
    t->p[0].ke_ready = 1;
    t->p[0].ke_eph = 1;
    apply_text(s, 0, "play Recovery");
    assert_int_equal(t->choice, TM_CH_NONE);
    assert_int_equal(t->p[0].ke_ready + t->p[0].ke_eph, 1); /* both paid; Recovery readied one */
    refused_text(s, "pay 1 ephemeral"); /* no payment to choose */
    asobi_state_free(s);
}

/* §2-C: "フォーカスカードは、プレイされると手札から直接自分の捨て札置き場に捨てられます ...
 * 自分の灰色の循環のKe1個を金色に戻す". */
static void test_focus_readies_ke_and_goes_to_discard(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, "Concentration", "Bright Focus", "Suggestion");
    t->p[0].ke_ready = 0;
    t->p[0].ke_spent = 4;
    apply_text(s, 0, "play Concentration");
    assert_int_equal(t->p[0].ke_ready, 1);
    apply_text(s, 0, "play Bright Focus"); /* higher level, stronger */
    assert_int_equal(t->p[0].ke_ready, 3);
    assert_int_equal(t->p[0].n_discard, 2);
    assert_int_equal(t->access, 0); /* not a spell: no access point */
    asobi_state_free(s);
}

/* §2-A / §3: "タイマーゾーンに置いたばかりのタイマーカードでもすぐに活性化することができます";
 * "活性化したタイマーカードは自分の捨て札置き場に捨てられますが、スペルはタイマーゾーンに残ります". */
static void test_new_timer_activates_at_once(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, "Sandglass", "Suggestion", "Energy");
    apply_text(s, 0, "play Sandglass");
    apply_text(s, 0, "set Suggestion on 1");
    assert_true(tm_text_legal(s, "set Energy on 1")); /* 2 slots */
    apply_text(s, 0, "activate 1");                   /* not full: allowed in the main phase */
    assert_int_equal(t->p[0].n_released, 1);
    assert_int_equal(tm_count(t, t->p[0].discard, t->p[0].n_discard, "Sandglass"), 1);
    apply_text(s, 0, "release Suggestion");
    assert_int_equal(t->access, 1);
    asobi_state_free(s);
}

/* §2-B 補足: "タイマーカードの中にはスペルカードをプレイするとすぐに効果が適用されるものがあります" (our Hourglass). */
static void test_timer_on_set_effect(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, "Hourglass", "Suggestion");
    apply_text(s, 0, "play Hourglass");
    apply_text(s, 0, "set Suggestion on 1");
    assert_int_equal(t->p[0].ke_eph, 1);
    refused_text(s, "set Suggestion on 1"); /* full */
    asobi_state_free(s);
}

/* §3 タイマー活性化: "タイマーカードの中には捨てられることで効果を発揮するものがあります。このようなタイマー
 * の効果を使用するには、メインフェイズのこのアクションを使用しなければいけません。タイマーフェイズでタイマーを
 * 遅延せずにタイマーを捨てた場合にはこのようなタイマーの効果は発揮されません", "その際にセットされている
 * スペルカードも共に捨てられます". */
static void test_timer_discard_effect_only_in_main_phase(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, "Pendulum", "Energy");
    apply_text(s, 0, "play Pendulum");
    apply_text(s, 0, "set Energy on 1");
    int hand = t->p[0].n_hand;
    apply_text(s, 0, "activate 1");
    assert_int_equal(t->p[0].n_hand, hand + 2); /* draw 2 */
    assert_int_equal(t->p[0].n_released, 0);    /* the spell went with it */
    assert_int_equal(tm_count(t, t->p[0].discard, t->p[0].n_discard, "Energy"), 1);
    asobi_state_free(s);

    /* in the timer phase: no effect, the spell is released */
    s = game_with_hand(&t);
    TM_HAND(t, 0, "Pendulum", "Energy", "Suggestion", "Suggestion", "Suggestion");
    apply_text(s, 0, "play Pendulum");
    apply_text(s, 0, "set Energy on 1");
    apply_text(s, 0, "done");
    apply_text(s, 1, "done");
    hand = t->p[0].n_hand;
    apply_text(s, 0, "activate 1");
    assert_int_equal(t->p[0].n_hand, hand);
    assert_int_equal(t->p[0].n_released, 1);
    asobi_state_free(s);
}

/* §4.Keを回復: "手札のカード2枚を捨てて、Keを1回復します". */
static void test_recover_discards_two_for_one_ke(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, "Small Timer", "Suggestion", "Energy");
    refused_text(s, "recover"); /* no grey Kè to recover */
    t->p[0].ke_ready = 3;
    t->p[0].ke_spent = 1;
    apply_text(s, 0, "recover");
    apply_text(s, 0, "pick Small Timer");
    assert_int_equal(t->p[0].ke_ready, 3);
    apply_text(s, 0, "pick Energy");
    assert_int_equal(t->p[0].ke_ready, 4);
    assert_int_equal(t->p[0].n_hand, 1);
    assert_int_equal(t->p[0].n_discard, 2);
    refused_text(s, "recover"); /* one card left */
    asobi_state_free(s);
}

/* Seat 0 plays n Suggestions (cost 1 each) and ends its main phase. */
static asobi_state *access_game(tm_state **out, int spells)
{
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, "Suggestion", "Suggestion", "Suggestion", "Suggestion", "Suggestion");
    t->p[0].ke_ready = 8;
    for (int i = 0; i < spells; i++)
        apply_text(s, 0, "play Suggestion");
    apply_text(s, 0, "done");
    *out = t;
    return s;
}

/* §3: "スペルゾーンに2枚のスペルカードをプレイしました。アクセスポイントは2です。レベル2の意識スフィアの
 * 山札の一番上にある表向きのカードを獲得できます", "意識スフィアのレベルの数字だけ、アクセスポイントが必要". */
static void test_access_costs_the_sphere_level(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = access_game(&t, 2);
    assert_int_equal(t->phase, TM_PH_ACCESS);
    refused_text(s, "take 3");
    int top = t->sphere[1][t->n_sphere[1] - 1];
    int hand = t->p[0].n_hand;
    apply_text(s, 0, "take 2");
    /* taken card into the hand ("獲得したカードは手札に加えられます"); nothing affordable is left */
    assert_int_equal(t->n_sphere[1], 9);
    assert_int_equal(t->seat, 1);
    assert_int_equal(tm_kind_count(t->p[0].hand, t->p[0].n_hand, top) >= 1, 1);
    assert_true(t->p[0].n_hand >= hand + 1);
    asobi_state_free(s);
}

/* §3: "アクセスポイントは4です。レベル4の意識スフィアの山札の一番上のカードを1枚獲得する、もしくは、
 * レベル1の意識スフィアとレベル3の意識スフィアの山札の一番上のカードを1枚ずつ獲得します";
 * "1つの意識スフィアから一度に2枚以上のカードを獲得することはできません". */
static void test_access_one_card_per_sphere(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = access_game(&t, 4);
    assert_true(tm_text_legal(s, "take 4"));
    apply_text(s, 0, "take 1");
    refused_text(s, "take 1"); /* 3 points left, but sphere 1 was used */
    refused_text(s, "take 1 second");
    apply_text(s, 0, "take 3");
    assert_int_equal(t->seat, 1);
    assert_int_equal(t->n_sphere[0], 9);
    assert_int_equal(t->n_sphere[2], 9);
    asobi_state_free(s);
}

/* §3: "アクセスポイントを1多く消費することで、対応する意識スフィアの山札の一番上のカードではなく、2番目の
 * カードを取ることができます。ただし、取るカードの内容は確認できません" and the worked example: 4 points,
 * the second card of sphere 2 (2+1 = 3) and the top card of sphere 1. */
static void test_access_hidden_second_card(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = access_game(&t, 4);
    int top = t->sphere[1][9], second = t->sphere[1][8];
    /* the second card is not in anybody's view */
    json_t *v = asobi_state_view(s, 0);
    json_t *sph = json_array_get(json_object_get(v, "spheres"), 1);
    assert_string_equal(json_string_value(json_object_get(sph, "top")), t->table.card[top].name);
    assert_int_equal(json_integer_value(json_object_get(sph, "size")), 10);
    json_decref(v);
    apply_text(s, 0, "take 2 second");
    assert_int_equal(t->access, 1);
    assert_int_equal(t->sphere[1][8], top); /* the top card stays on top */
    assert_true(tm_kind_count(t->p[0].hand, t->p[0].n_hand, second) >= 1);
    apply_text(s, 0, "take 1");
    assert_int_equal(t->seat, 1);
    asobi_state_free(s);

    s = access_game(&t, 2);
    refused_text(s, "take 2 second"); /* costs 3 */
    apply_text(s, 0, "take 1 second");
    asobi_state_free(s);
}

/* §4.エンドフェイズ: "この手番中にプレイゾーンにプレイされたスペルカードを全て自分の捨て札置き場に捨てます",
 * "デッキからカードを引くことはできませんが、カードを捨てる必要はありません", and §セットアップ
 * "デッキが尽きたら自分の捨て札をシャッフルし、新たなデッキとします"; "循環のKeトークンは手番終了などの
 * 時間経過で金色に戻ることはない". */
static void test_end_phase_refill_reshuffle_and_large_hand(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, "Suggestion", "Energy");
    t->p[0].n_deck = 0;
    TM_DISCARD(t, 0, "Recovery", "Recovery", "Vision", "Flow");
    apply_text(s, 0, "play Energy");
    apply_text(s, 0, "done");
    apply_text(s, 0, "done"); /* access: 1 point, decline */
    /* Energy went to the discard, then the discard (5 cards) became the deck: 1 + 4 drawn */
    assert_int_equal(t->p[0].n_hand, 5);
    assert_int_equal(t->p[0].n_deck, 1);
    assert_int_equal(t->p[0].n_discard, 0);
    assert_int_equal(t->p[0].ke_spent, 2); /* no refresh at the end of a turn */
    asobi_state_free(s);

    s = game_with_hand(&t);
    TM_HAND(t, 0, "Concentration", "Concentration", "Concentration", "Concentration", "Concentration",
            "Concentration", "Concentration");
    apply_text(s, 0, "done");
    assert_int_equal(t->p[0].n_hand, 7); /* kept, not discarded */
    asobi_state_free(s);
}

/* §ゲーム終了: "少なくとも2つ以上(2つも含む)の意識スフィアの山札が尽きたらゲームは即座に終了します"
 * (issue 30, point 1; ruling 1): the take that empties the second sphere ends the game at once —
 * nothing more is taken, no end phase runs (the spell zone is not discarded, the hand not refilled).
 * The case: one card per sphere, 10 access points: take 1, take 2, and then take 3 used to
 * count too (10-0 instead of 3-0). */
static void test_game_ends_the_moment_a_second_sphere_empties(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = access_game(&t, 4);
    for (int l = 0; l < TM_LEVELS; l++)
        t->n_sphere[l] = 1;
    t->access = 10;
    int hand = t->p[0].n_hand;
    apply_text(s, 0, "take 1"); /* only one sphere empty: the phase goes on */
    assert_false(asobi_state_terminal(s));
    apply_text(s, 0, "take 2"); /* sphere 2 empties: the second one */
    assert_true(asobi_state_terminal(s));
    assert_int_equal(t->phase, TM_PH_OVER);
    assert_int_equal(t->p[0].n_hand, hand + 2); /* no refill */
    assert_int_equal(t->n_zone, 4);             /* no end phase: the spells still lie in the zone */
    assert_int_equal(tm_points(t, 0), 3);       /* 1 + 2, not 1 + 2 + 3 + 4 */
    int id;
    asobi_error err;
    assert_int_equal(asobi_state_parse_action(s, 0, "take 3", &id, &err), ASOBI_E_GAME_OVER);
    assert_non_null(strstr(err.message, "ruling 1")); /* an old record's later take: the refusal names the rule */
    assert_int_equal(asobi_state_apply(s, 0, TM_ID_TAKE + 2, &err), ASOBI_E_GAME_OVER);
    assert_non_null(strstr(err.message, "a second sphere ran out"));
    asobi_state_free(s);

    s = access_game(&t, 4);
    t->n_sphere[4] = 0; /* one sphere already empty */
    t->n_sphere[0] = 1;
    t->n_sphere[2] = 2;
    apply_text(s, 0, "take 1"); /* sphere 1 empties: the second one */
    assert_true(asobi_state_terminal(s));
    asobi_state_free(s);

    s = access_game(&t, 1);
    t->n_sphere[0] = 1;
    apply_text(s, 0, "take 1"); /* only one sphere empty */
    assert_false(asobi_state_terminal(s));
    asobi_state_free(s);
}

/* §ゲーム終了: "同点の場合、より多くのKe(一時的なKeも含む)を持っていたプレイヤーの勝利です。Keも同数の場合は、
 * レベル5の意識スフィアから獲得したカード枚数が多いプレイヤーの勝者です". */
static void test_score_and_tie_breaks(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("timemasters", 2, NULL, 3);
    tm_state *t = tm_of(s);
    t->n_sphere[0] = t->n_sphere[1] = 0;
    for (int i = 0; i < 2; i++) {
        t->p[i].n_deck = t->p[i].n_discard = 0;
        t->p[i].ke_ready = 4;
        t->p[i].ke_spent = t->p[i].ke_eph = 0;
    }
    TM_HAND(t, 0, "Infinity", "Insight", "Insight", "Insight", "Insight", "Insight");
    TM_HAND(t, 1, "Vision", "Vision", "Time Heaviness", "Cerebral Cleaning");
    TM_DISCARD(t, 1, "Cerebral Cleaning");
    t->over = 1; /* two spheres empty: over (the take that empties the second ends it: ruling 1) */
    t->phase = TM_PH_OVER;
    assert_true(asobi_state_terminal(s));
    asobi_result r;
    /* 10 each: seat 0 wins on nothing yet; equal Kè, seat 0 has a level-5 card */
    asobi_state_result(s, &r);
    assert_int_equal((int)r.score[0], 10);
    assert_int_equal((int)r.score[1], 10);
    assert_int_equal(r.winners, 1u);
    /* more Kè (ephemeral counts) beats level-5 cards */
    t->p[1].ke_eph = 1;
    asobi_state_result(s, &r);
    assert_int_equal(r.winners, 2u);
    assert_int_equal(r.rank[0], 2);
    /* all equal: a shared victory */
    t->p[0].ke_eph = 1;
    TM_HAND(t, 0, "Vision", "Vision", "Time Heaviness", "Cerebral Cleaning");
    TM_DISCARD(t, 0, "Cerebral Cleaning");
    asobi_state_result(s, &r);
    assert_int_equal(r.winners, 3u);
    /* removed cards score nothing */
    t->p[0].n_removed = 1;
    t->p[0].removed[0] = (uint8_t)tm_kind(t, "Infinity");
    asobi_state_result(s, &r);
    assert_int_equal((int)r.score[0], 10);
    asobi_state_free(s);
}

/* ---------------------------------------------------------------- effect primitives */

/* Plays card in a hand with plenty of Kè and returns the state. */
static asobi_state *played(tm_state **out, const char *card)
{
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, card, "Concentration", "Small Timer", "Energy");
    t->p[0].ke_ready = 5;
    t->p[0].ke_spent = 3;
    char text[64];
    snprintf(text, sizeof text, "play %s", card);
    apply_text(s, 0, text);
    *out = t;
    return s;
}

/* §一時的なKè: "「一時的なKe」は4つまでしか保持することができません". */
static void test_fx_ephemeral_capped_at_4(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = played(&t, "Flow"); /* ephemeral 3 */
    assert_int_equal(t->p[0].ke_eph, 3);
    t->p[0].hand[t->p[0].n_hand++] = (uint8_t)tm_kind(t, "Torrent"); /* ephemeral 4, draw 1 */
    apply_text(s, 0, "play Torrent");
    apply_text(s, 0, "pay 3 gold 0 ephemeral"); /* 3 + 4: the cap keeps 4 */
    assert_int_equal(t->p[0].ke_eph, 4);
    asobi_state_free(s);
}

static void test_fx_ready(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = played(&t, "Second Wind"); /* 1 Kè, ready 2 */
    assert_int_equal(t->p[0].ke_ready, 6);
    assert_int_equal(t->p[0].ke_spent, 2);
    asobi_state_free(s);
}

/* §循環のKè: "スペルの中には循環のKeを増やすものもあります". */
static void test_fx_new_ke(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = played(&t, "Mastery"); /* 4 Kè, +2 recurrent: 8 tokens -> 10 (issue 40: no cap of 8) */
    assert_int_equal(t->p[0].ke_ready + t->p[0].ke_spent, 10);
    asobi_state_free(s);
    tm_state *u;
    s = game_with_hand(&u);
    TM_HAND(u, 0, "Wellspring");
    u->p[0].ke_ready = 2;
    u->p[0].ke_spent = 2;
    apply_text(s, 0, "play Wellspring"); /* 2 Kè, +1 new token, gold */
    assert_int_equal(u->p[0].ke_ready, 1);
    assert_int_equal(u->p[0].ke_spent, 4);
    asobi_state_free(s);
}

/* §循環のKè: "スペルの中には循環のKeを増やすものもあります", and no limit (it gives one only for the
 * ephemeral Kè: "「一時的なKe」は4つまでしか保持することができません"). A card set that keeps gaining
 * recurrent Kè lets a player hold more than 8, the old cap (issue 40, point 1): Mastery (+2) played
 * again and again from 8 tokens reaches 20, every gain kept (no ke_lost). */
static void test_recurrent_ke_keeps_growing(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, "Mastery", "Mastery", "Mastery", "Mastery", "Mastery", "Mastery");
    t->p[0].ke_ready = 8;
    for (int i = 0; i < 6; i++) {
        t->p[0].ke_ready = (uint8_t)(t->p[0].ke_ready + t->p[0].ke_spent); /* ready them all again */
        t->p[0].ke_spent = 0;
        apply_text(s, 0, "play Mastery");
        assert_int_equal(t->lost_rec, 0);
    }
    assert_int_equal(t->p[0].ke_ready + t->p[0].ke_spent, 8 + 6 * 2);
    asobi_state_free(s);
}

/* 2-A: "プレイされたタイマーカードは破棄されるか、タイマーが活性化されるまではタイマーゾーンに残り続けます":
 * no limit on the timers in play. With 8 timers in play (the old cap was 6) a ninth is played, a spell is
 * set on the newest, and it is activated (issue 40, point 2). */
static void test_timers_stay_in_play_however_many(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, "Sandglass", "Sandglass", "Hourglass", "Hourglass", "Clock", "Clock", "Chronometer",
            "Chronometer", "Sundial", "Suggestion");
    t->p[0].ke_ready = 8;
    const char *timers[] = {"Sandglass", "Sandglass", "Hourglass", "Hourglass", "Clock", "Clock", "Chronometer",
                            "Chronometer", "Sundial"};
    for (int i = 0; i < 9; i++) {
        char text[64];
        snprintf(text, sizeof text, "play %s", timers[i]);
        assert_true(tm_text_legal(s, text));
        apply_text(s, 0, text);
    }
    assert_int_equal(t->p[0].n_timers, 9);
    apply_text(s, 0, "set Suggestion on 8"); /* Chronometer: on set, ready 1 */
    assert_int_equal(t->p[0].timers[7].n_spells, 1);
    apply_text(s, 0, "activate 8");
    apply_text(s, 0, "release Suggestion");
    assert_int_equal(t->p[0].n_timers, 8);
    asobi_state_free(s);
}

static void test_fx_draw(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = played(&t, "Vision"); /* draw 3 */
    assert_int_equal(t->p[0].n_hand, 3 + 3);
    assert_int_equal(t->p[0].n_deck, 2);
    asobi_state_free(s);
}

/* §2-B 例: "[Cerebral Cleaning]をプレイすると、自分の手札のカード2枚を即座にゲームから除外します". */
static void test_fx_remove_cerebral_cleaning(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = played(&t, "Cerebral Cleaning");
    assert_int_equal(t->choice, TM_CH_REMOVE);
    refused_text(s, "done");
    refused_text(s, "pick Vision");
    apply_text(s, 0, "pick Small Timer");
    apply_text(s, 0, "pick Energy");
    assert_int_equal(t->choice, TM_CH_NONE);
    assert_int_equal(t->p[0].n_removed, 2);
    assert_int_equal(t->p[0].n_hand, 1);
    asobi_state_free(s);

    /* with one card in hand, one is removed and the spell is over */
    s = game_with_hand(&t);
    TM_HAND(t, 0, "Cerebral Cleaning", "Energy");
    apply_text(s, 0, "play Cerebral Cleaning");
    apply_text(s, 0, "pick Energy");
    assert_int_equal(t->choice, TM_CH_NONE);
    assert_true(tm_text_legal(s, "done"));
    asobi_state_free(s);
}

/* §2-C: "スペルカードの中には自分の捨て札置き場にあるフォーカスカードを取り戻し再使用できるようにするカードが
 * あり、このようなカードを使って同一手番中に1枚のフォーカスカードを繰り返し使うこともできます". */
static void test_fx_focus_back(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, "Concentration", "Meditation");
    t->p[0].ke_ready = 1;
    t->p[0].ke_spent = 3;
    apply_text(s, 0, "play Concentration");
    apply_text(s, 0, "play Meditation");
    apply_text(s, 0, "pick Concentration");
    apply_text(s, 0, "play Concentration"); /* the same focus twice in one turn */
    assert_int_equal(t->p[0].ke_ready, 2);
    asobi_state_free(s);
}

/* §リマインダートークン 例: "Time Heaviness:対戦相手は次にスペルをプレイする際、プレイコストが1Ke多く
 * なります。そこで、各対戦相手に+1のリマインダートークンがつきます". */
static void test_fx_heavy_time_heaviness(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 3; players++) {
        asobi_state *s = new_state("timemasters", players, NULL, 9);
        tm_state *t = tm_of(s);
        TM_HAND(t, 0, "Time Heaviness");
        apply_text(s, 0, "play Time Heaviness");
        apply_text(s, 0, "done");
        apply_text(s, 0, "done");
        for (int i = 1; i < players; i++)
            assert_int_equal(t->p[i].cost_mod, 1); /* each opponent */
        assert_int_equal(t->p[0].cost_mod, 0);
        TM_HAND(t, 1, "Suggestion", "Suggestion");
        t->p[1].ke_ready = 2;
        assert_int_equal(tm_effective_cost(t, 1, tm_kind(t, "Suggestion")), 2);
        apply_text(s, 1, "play Suggestion");
        assert_int_equal(t->p[1].ke_ready, 0); /* paid 2 */
        assert_int_equal(t->p[1].cost_mod, 0); /* the reminder is used up */
        t->p[1].ke_ready = 1;
        apply_text(s, 1, "play Suggestion"); /* back to 1 */
        assert_int_equal(t->p[1].ke_ready, 0);
        asobi_state_free(s);
    }
}

/* §リマインダートークン 例: "Slow Down:対戦相手は次ターンは3Keまでしか使えなくなります". */
static void test_fx_slow_down(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("timemasters", 2, NULL, 9);
    tm_state *t = tm_of(s);
    TM_HAND(t, 0, "Slow Down");
    apply_text(s, 0, "play Slow Down");
    assert_int_equal(t->p[1].slow_next, 3);
    apply_text(s, 0, "done");
    apply_text(s, 0, "done");
    assert_int_equal(t->p[1].ke_limit, 3);
    TM_HAND(t, 1, "Recovery", "Energy", "Suggestion");
    t->p[1].ke_ready = 4;
    t->p[1].ke_eph = 2;
    apply_text(s, 1, "play Recovery"); /* 2 Kè, ready 1: spent 2 this turn */
    apply_text(s, 1, "pay 1 gold 1 ephemeral");    /* the mix does not matter to the limit */
    assert_false(tm_text_legal(s, "play Energy")); /* 2 more would make 4 > 3 */
    apply_text(s, 1, "play Suggestion");           /* 3: allowed */
    apply_text(s, 1, "pay 1 ephemeral");
    assert_false(tm_text_legal(s, "play Energy"));
    apply_text(s, 1, "done");
    apply_text(s, 1, "done");
    assert_int_equal(t->p[1].ke_limit, 0); /* only that turn */
    asobi_state_free(s);
}

/* §リマインダートークン: "もし、「-1」と「+1」のトークンの両方があるなら、それらは互いに打ち消し合います". */
static void test_fx_light_and_reminders_cancel(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("timemasters", 2, NULL, 9);
    tm_state *t = tm_of(s);
    TM_HAND(t, 0, "Time Lightness", "Vision", "Suggestion");
    apply_text(s, 0, "play Time Lightness");
    assert_int_equal(t->p[0].cost_mod, -1);
    assert_int_equal(tm_effective_cost(t, 0, tm_kind(t, "Vision")), 1);
    /* an opponent's +1 cancels it */
    t->p[0].cost_mod = (int8_t)(t->p[0].cost_mod + 1);
    assert_int_equal(tm_effective_cost(t, 0, tm_kind(t, "Vision")), 2);
    t->p[0].cost_mod = -1;
    int ready = t->p[0].ke_ready;
    apply_text(s, 0, "play Vision");
    assert_int_equal(t->p[0].ke_ready, ready - 1);
    assert_int_equal(t->p[0].cost_mod, 0);
    asobi_state_free(s);
}

/* Issue 11, point 11 — §3: "「2.メインフェイズ」で自分のスペルゾーンにスペルカードを1枚プレイすると、
 * アクセスポイントを1獲得します" and "注意:カードを獲得できる意識スフィアのレベルはスペルカードをプレイして
 * 獲得できるアクセスポイント数で決定されます": access points come from spells played into the spell
 * zone, one each, and from nothing else. Every spell of our set, played, earns exactly one; every
 * focus, timer and on-discard timer effect earns none. */
static void test_access_points_only_from_spells_played(void **unused)
{
    (void)unused;
    const tm_table *table = &tm_default_table;
    for (int k = 0; k < table->kinds; k++) {
        const tm_card *c = &table->card[k];
        tm_state *t;
        asobi_state *s = game_with_hand(&t);
        TM_HAND(t, 0, "Concentration", "Energy", "Suggestion", "Recovery");
        TM_DISCARD(t, 0, "Concentration", "Concentration");
        t->p[0].hand[t->p[0].n_hand++] = (uint8_t)k;
        t->p[0].ke_ready = 6;
        t->p[0].ke_spent = 2;
        char text[64];
        snprintf(text, sizeof text, "play %s", c->name);
        apply_text(s, 0, text);
        if (c->type == TM_TIMER && c->trigger == TM_TRIG_DISCARD)
            apply_text(s, 0, "activate 1"); /* its effect fires now */
        int ids[TM_ACTIONS];
        while (t->choice != TM_CH_NONE) { /* remove, focus back: any pick */
            assert_true(asobi_state_legal(s, 0, ids) > 0);
            asobi_state_apply_unchecked(s, 0, ids[0]);
        }
        assert_int_equal(t->access, c->type == TM_SPELL ? 1 : 0);
        asobi_state_free(s);
    }
}

/* Released spells are free: reminders neither apply to them nor get used up. */
static void test_released_spells_ignore_reminders(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = full_timer_game(&t);
    t->p[0].cost_mod = 2;
    t->p[0].ke_limit = 1;
    apply_text(s, 0, "activate 1");
    apply_text(s, 0, "release Energy");
    assert_int_equal(t->p[0].cost_mod, 2);
    asobi_state_free(s);
}

/* Our safety cap (docs): the game stops after max_turns turns. */
static void test_turn_cap(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("timemasters", 2, "{\"max_turns\": 3}", 9);
    apply_text(s, 0, "pass");
    apply_text(s, 1, "pass");
    assert_false(asobi_state_terminal(s));
    apply_text(s, 0, "pass");
    assert_true(asobi_state_terminal(s));
    assert_int_equal(tm_of(s)->capped, 1);
    asobi_state_free(s);
}

/* Notation: the documented texts, aliases, and reasons for refusals. */
static void test_notation_and_explanations(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = game_with_hand(&t);
    TM_HAND(t, 0, "Sandglass", "Cerebral Cleaning", "Vision");
    apply_text(s, 0, "  PLAY   sandglass ");
    apply_text(s, 0, "set cerebral cleaning on 1");
    asobi_error err;
    int id;
    assert_int_equal(asobi_state_parse_action(s, 0, "take 9", &id, &err), ASOBI_E_ILLEGAL_ACTION);
    assert_int_equal(asobi_state_parse_action(s, 0, "play Nothing", &id, &err), ASOBI_E_ILLEGAL_ACTION);
    assert_non_null(strstr(err.message, "no card named"));
    t->p[0].ke_ready = 0;
    assert_int_equal(asobi_state_parse_action(s, 0, "play Vision", &id, &err), ASOBI_E_ILLEGAL_ACTION);
    assert_non_null(strstr(err.message, "costs"));
    assert_int_equal(asobi_state_parse_action(s, 0, "pass", &id, &err), ASOBI_E_ILLEGAL_ACTION);
    assert_non_null(strstr(err.message, "already acted"));
    assert_int_equal(asobi_state_parse_action(s, 0, "end", &id, &err), ASOBI_OK);
    assert_int_equal(id, TM_ID_DONE);
    asobi_state_free(s);
}

/* Views: the fields the issue names, and what a seat may not see. */
static void test_view_fields(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("timemasters", 3, NULL, 9);
    json_t *v = asobi_state_view(s, 1);
    const char *top[] = {"game", "seat", "to_move", "phase", "turn", "spheres", "players"};
    for (size_t i = 0; i < sizeof top / sizeof *top; i++)
        assert_non_null(json_object_get(v, top[i]));
    json_t *sp = json_array_get(json_object_get(v, "spheres"), 0);
    assert_non_null(json_object_get(sp, "level"));
    assert_non_null(json_object_get(sp, "top"));
    assert_non_null(json_object_get(sp, "size"));
    const char *pf[] = {"seat", "hand", "hand_size", "deck_size", "discard", "timers", "ke_ready",
                        "ke_spent", "ke_ephemeral", "reminders", "points"};
    for (int p = 0; p < 3; p++) {
        json_t *o = json_array_get(json_object_get(v, "players"), (size_t)p);
        for (size_t i = 0; i < sizeof pf / sizeof *pf; i++)
            assert_non_null(json_object_get(o, pf[i]));
        assert_int_equal(json_is_null(json_object_get(o, "hand")), p != 1);
        assert_int_equal(json_is_null(json_object_get(o, "points")), p != 1);
        assert_int_equal(json_is_null(json_object_get(o, "deck_cards")), p != 1);
    }
    json_decref(v);
    asobi_state_free(s);
}

/* Determinization keeps public knowledge: a card taken face up stays with its
 * taker (among its hidden cards), an unseen take stays of its level. */
static void test_determinize_keeps_public_takes(void **unused)
{
    (void)unused;
    /* a real game (no made-up hands): seat 0 plays every spell it can */
    asobi_state *s = new_state("timemasters", 2, NULL, 21);
    tm_state *t = tm_of(s);
    t->p[0].ke_ready = 8;
    for (bool played = true; played;) {
        played = false;
        for (int h = 0; h < t->p[0].n_hand && !played; h++)
            if (t->table.card[t->p[0].hand[h]].type == TM_SPELL) {
                char text[64];
                snprintf(text, sizeof text, "play %s", t->table.card[t->p[0].hand[h]].name);
                apply_text(s, 0, text);
                played = true;
            }
    }
    while (t->choice != TM_CH_NONE) {
        char text[64];
        snprintf(text, sizeof text, "pick %s", t->table.card[t->p[0].hand[0]].name);
        apply_text(s, 0, text);
    }
    apply_text(s, 0, "done");
    assert_true(t->access >= 2);
    int l = t->access > 5 ? 5 : t->access;
    int top = t->sphere[l - 1][t->n_sphere[l - 1] - 1];
    char text[32];
    snprintf(text, sizeof text, "take %d", l);
    apply_text(s, 0, text);
    if (!asobi_state_terminal(s) && t->seat == 0)
        apply_text(s, 0, "done");
    asobi_rng rng;
    for (uint64_t r = 0; r < 50; r++) {
        asobi_rng_seed(&rng, r);
        asobi_state *d = asobi_state_clone(s);
        asobi_state_determinize(d, 1, &rng);
        tm_state *dt = tm_of(d);
        assert_true(tm_kind_count(dt->p[0].hand, dt->p[0].n_hand, top) +
                        tm_kind_count(dt->p[0].deck, dt->p[0].n_deck, top) >= 1);
        asobi_state_free(d);
    }
    asobi_state_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup),
        cmocka_unit_test(test_first_turn_skips_timer_phase_later_turns_do_not),
        cmocka_unit_test(test_timer_phase_activate_releases_spells_free),
        cmocka_unit_test(test_timer_delay_and_refill_limit),
        cmocka_unit_test(test_timer_may_be_delayed_every_round),
        cmocka_unit_test(test_pass_readies_ke_and_full_timers_take_a_card_or_go),
        cmocka_unit_test(test_pass_after_timer_phase_delay_costs_no_second_card),
        cmocka_unit_test(test_pass_only_instead_of_everything),
        cmocka_unit_test(test_spell_costs_gold_then_ephemeral_never_grey),
        cmocka_unit_test(test_player_chooses_which_ke_pays),
        cmocka_unit_test(test_focus_readies_ke_and_goes_to_discard),
        cmocka_unit_test(test_new_timer_activates_at_once),
        cmocka_unit_test(test_timer_on_set_effect),
        cmocka_unit_test(test_timer_discard_effect_only_in_main_phase),
        cmocka_unit_test(test_recover_discards_two_for_one_ke),
        cmocka_unit_test(test_access_costs_the_sphere_level),
        cmocka_unit_test(test_access_one_card_per_sphere),
        cmocka_unit_test(test_access_hidden_second_card),
        cmocka_unit_test(test_end_phase_refill_reshuffle_and_large_hand),
        cmocka_unit_test(test_game_ends_the_moment_a_second_sphere_empties),
        cmocka_unit_test(test_score_and_tie_breaks),
        cmocka_unit_test(test_fx_ephemeral_capped_at_4),
        cmocka_unit_test(test_fx_ready),
        cmocka_unit_test(test_fx_new_ke),
        cmocka_unit_test(test_recurrent_ke_keeps_growing),
        cmocka_unit_test(test_timers_stay_in_play_however_many),
        cmocka_unit_test(test_fx_draw),
        cmocka_unit_test(test_fx_remove_cerebral_cleaning),
        cmocka_unit_test(test_fx_focus_back),
        cmocka_unit_test(test_fx_heavy_time_heaviness),
        cmocka_unit_test(test_fx_slow_down),
        cmocka_unit_test(test_fx_light_and_reminders_cancel),
        cmocka_unit_test(test_access_points_only_from_spells_played),
        cmocka_unit_test(test_released_spells_ignore_reminders),
        cmocka_unit_test(test_turn_cap),
        cmocka_unit_test(test_notation_and_explanations),
        cmocka_unit_test(test_view_fields),
        cmocka_unit_test(test_determinize_keeps_public_takes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

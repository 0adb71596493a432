/* test_timemasters_finite.c — every path of Time Masters ends: a free card that draws itself back is refused at the repeat of its loop, never a real play (ruling 25, issues 29 and 40). */
#define _POSIX_C_SOURCE 200809L
#include "tm_sim.h"

#include <time.h>

#include <asobi/bot.h>
#include <asobi/record.h>

/* A 2-player game whose seat 0 holds one Calm Focus ("ready 1, draw 1", a
 * focus of our set) and nothing else: no deck, no discard. Played, it goes to
 * the discard (§2-C: "フォーカスカードは、プレイされると手札から直接自分の捨て札置き場に
 * 捨てられます"), its draw finds the deck out and reshuffles the discard
 * (§セットアップ: "デッキが尽きたら自分の捨て札をシャッフルし、新たなデッキとします"), and
 * draws that same Calm Focus back: the seed's §2 "望むなら何度でも実行できます" would let
 * it go round for ever. */
static asobi_state *focus_that_draws_itself(tm_state **out)
{
    asobi_state *s = new_state("timemasters", 2, NULL, 3);
    tm_state *t = tm_of(s);
    TM_HAND(t, 0, "Calm Focus");
    t->p[0].n_deck = 0;
    t->p[0].n_discard = 0;
    *out = t;
    return s;
}

/* Ruling 25 (issue 40): §2 "これから説明する3つのアクションは自分の手番中なら任意の順番で、望むなら何度
 * でも実行できます". The focus goes round once; back at the very same position (its hand, an empty deck
 * and discard, no grey Kè), playing it again is the repeat of a loop that changed nothing but the deck's
 * order: refused, with the reason; done ends the turn. */
static void test_as_often_as_you_like_until_the_position_repeats(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = focus_that_draws_itself(&t);
    int id;
    assert_int_equal(asobi_state_parse_action(s, 0, "play Calm Focus", &id, NULL), ASOBI_OK);
    apply_text(s, 0, "play Calm Focus");
    assert_int_equal(t->p[0].n_hand, 1); /* it drew itself back: the same position */
    assert_false(tm_text_legal(s, "play Calm Focus"));
    asobi_error err;
    assert_int_equal(asobi_state_apply(s, 0, id, &err), ASOBI_E_ILLEGAL_ACTION);
    assert_non_null(strstr(err.message, "ruling 25"));
    assert_true(tm_text_legal(s, "done"));
    apply_text(s, 0, "done"); /* no spell, no access point: the turn ends */
    assert_int_equal(t->seat, 1);
    assert_int_equal(t->turn_plays, 0); /* the next turn starts afresh */
    assert_int_equal(t->n_loop, 0);
    asobi_state_free(s);
}

/* Each round that readies a grey Kè changes the position ("フォーカスカードをプレイすると、自分の灰色の
 * 循環のKe1個を金色に戻すことができます ... 同一手番中に1枚のフォーカスカードを繰り返し使うこともできます"):
 * a real combo, never cut. With 3 grey Kè the focus is played 4 times (3 readyings, then the round that
 * finds none), and refused only at the 5th, the first repeat. */
static void test_a_focus_used_again_and_again_while_it_readies(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = focus_that_draws_itself(&t);
    t->p[0].ke_ready = 1;
    t->p[0].ke_spent = 3;
    int plays = 0;
    while (tm_text_legal(s, "play Calm Focus") && plays < 100) {
        apply_text(s, 0, "play Calm Focus");
        plays++;
    }
    assert_int_equal(plays, 4);
    assert_int_equal(t->p[0].ke_ready, 4);
    asobi_state_free(s);
}

/* The audit's built case (issue 40, point 3): a set whose starting deck holds Zap (a spell, 1 Kè, draw
 * 1) and a Calm Focus-style focus (ready 1, draw 1). After the focus has looped as long as the engine
 * lets it, `play Zap` (§2-B "コストを支払ってスペルカードをプレイします") is still a real play and is
 * accepted; the old bound of 200 plays a main phase refused it. A spell played makes a new position
 * (an access point more): the focus may go round again. */
#define LOOP_SET                                                                                              \
    "{\"cards\": {\"title\": \"loop\", \"sphere_size\": 3, \"cards\": ["                                    \
    "{\"name\":\"Zap\",\"type\":\"spell\",\"level\":0,\"cost\":1,\"copies\":4,\"effects\":[[\"draw\",1]]},"    \
    "{\"name\":\"Calm\",\"type\":\"focus\",\"level\":0,\"copies\":1,\"effects\":[[\"ready\",1],[\"draw\",1]]}," \
    "{\"name\":\"A\",\"type\":\"spell\",\"level\":1,\"cost\":1,\"copies\":4},"                                 \
    "{\"name\":\"B\",\"type\":\"spell\",\"level\":2,\"cost\":1,\"copies\":4},"                                 \
    "{\"name\":\"C\",\"type\":\"spell\",\"level\":3,\"cost\":1,\"copies\":4},"                                 \
    "{\"name\":\"D\",\"type\":\"spell\",\"level\":4,\"cost\":1,\"copies\":4},"                                 \
    "{\"name\":\"E\",\"type\":\"spell\",\"level\":5,\"cost\":1,\"copies\":4}]}}"

static void test_after_a_no_op_loop_a_productive_play_is_accepted(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("timemasters", 2, LOOP_SET, 5);
    tm_state *t = tm_of(s);
    TM_HAND(t, 0, "Calm", "Zap");
    t->p[0].n_deck = 0;
    t->p[0].n_discard = 0;
    int loops = 0;
    while (tm_text_legal(s, "play Calm") && loops < 2 * TM_MAX_TURN_PLAYS) {
        apply_text(s, 0, "play Calm");
        loops++;
    }
    assert_true(loops >= 1);
    assert_true(tm_text_legal(s, "play Zap"));
    apply_text(s, 0, "play Zap"); /* its draw finds nothing: deck and discard are empty */
    assert_int_equal(t->access, 1);
    assert_true(tm_text_legal(s, "play Calm")); /* a new position */
    asobi_state_free(s);
}

/* A loop through an on-discard timer (Pendulum, "on discard: draw 2"; newer copy: "タイマーカードの中には
 * 捨てられることで効果を発揮するものがあります"): played, activated, it draws itself back. The repeat is
 * refused at its activation; playing the timer again (it leaves a card less in hand) is not a repeat. */
static void test_a_discard_timer_that_draws_itself_back_is_cut_at_the_repeat(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("timemasters", 2, NULL, 3);
    tm_state *t = tm_of(s);
    TM_HAND(t, 0, "Pendulum");
    t->p[0].n_deck = 0;
    t->p[0].n_discard = 0;
    apply_text(s, 0, "play Pendulum");
    apply_text(s, 0, "activate 1");
    assert_int_equal(t->p[0].n_hand, 1); /* Pendulum is back */
    apply_text(s, 0, "play Pendulum");
    assert_false(tm_text_legal(s, "activate 1"));
    assert_true(tm_text_legal(s, "done"));
    asobi_state_free(s);
}

/* The backstop: a main phase holds at most TM_MAX_TURN_PLAYS plays, sets,
 * activations and recoveries (a loop longer than ruling 25's memory); the
 * refusal says why. */
static void test_the_backstop_refusal_names_the_bound(void **unused)
{
    (void)unused;
    tm_state *t;
    asobi_state *s = focus_that_draws_itself(&t);
    int id;
    assert_int_equal(asobi_state_parse_action(s, 0, "play Calm Focus", &id, NULL), ASOBI_OK);
    t->turn_plays = TM_MAX_TURN_PLAYS;
    asobi_error err;
    assert_int_equal(asobi_state_apply(s, 0, id, &err), ASOBI_E_ILLEGAL_ACTION);
    assert_non_null(strstr(err.message, "at most"));
    asobi_state_free(s);
}

/* Random and heuristic play from that position end the turn. */
static void test_bots_leave_the_loop(void **unused)
{
    (void)unused;
    const asobi_game_def *def = asobi_game_find("timemasters");
    for (int seed = 0; seed < 20; seed++) {
        tm_state *t;
        asobi_state *s = focus_that_draws_itself(&t);
        asobi_rng rng;
        asobi_rng_seed(&rng, (uint64_t)seed);
        int steps = 0;
        while (t->seat == 0 && !asobi_state_terminal(s)) {
            int id = seed % 2 ? asobi_state_random_action(s, 0, &rng)
                              : def->heuristic(asobi_state_data_for_ai(s), 0, &rng);
            assert_true(asobi_state_is_legal(s, 0, id));
            asobi_state_apply_unchecked(s, 0, id);
            assert_true(++steps <= 10); /* the loop is refused at its first repeat */
        }
        asobi_state_free(s);
    }
}

/* ../shared/cases/tm-ismcts-hang.json (issue 29, copied to tests/data; issue
 * 30 gave it its payments and the card set it was played with): at
 * this position every ISMCTS search ran for ever, its heuristic playouts
 * replaying a Calm Focus that drew itself back. ismcts:iters=10 answers now. */
static void test_the_recorded_position_that_hung_answers(void **unused)
{
    (void)unused;
    char path[1024];
    const char *dir = getenv("ASOBI_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/tests/data/tm-ismcts-hang.json", dir ? dir : ".");
    json_t *record = json_load_file(path, 0, NULL);
    assert_non_null(record);
    asobi_error err;
    asobi_match *m = asobi_match_load(record, &err);
    assert_non_null(m);
    const asobi_state *s = asobi_match_state(m);
    int seat = __builtin_ctz(asobi_state_to_move(s));
    for (uint64_t seed = 1; seed <= 6; seed++) {
        /* a time budget holds even should a playout never end: the search
         * looks at the clock inside its playouts too (bot_ismcts.c) */
        const char *spec = seed % 2 ? "ismcts:iters=10" : "ismcts:time=0.05";
        asobi_bot *bot = asobi_bot_new(spec, asobi_state_game(s), 2, seat, seed, &err);
        assert_non_null(bot);
        /* The bound is on the work done: CPU seconds (a playout that never ends
         * spends them all), not the wall clock, which a loaded machine
         * stretches; 30 s of wall time still catches a search that sleeps. */
        struct timespec c0, c1, w0, w1;
        clock_gettime(CLOCK_MONOTONIC, &w0);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        int id = asobi_bot_choose(bot, s, &err);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
        clock_gettime(CLOCK_MONOTONIC, &w1);
        double took = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
        double wall = (double)(w1.tv_sec - w0.tv_sec) + (double)(w1.tv_nsec - w0.tv_nsec) * 1e-9;
        assert_true(id >= 0 && asobi_state_is_legal(s, seat, id));
        if (took > 2.0 || wall > 30.0)
            fail_msg("%s took %.2f s of CPU (limit 2 s), %.2f s in all (limit 30 s) at the recorded position",
                     spec, took, wall);
        asobi_bot_free(bot);
    }
    asobi_match_free(m);
    json_decref(record);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_as_often_as_you_like_until_the_position_repeats),
        cmocka_unit_test(test_a_focus_used_again_and_again_while_it_readies),
        cmocka_unit_test(test_after_a_no_op_loop_a_productive_play_is_accepted),
        cmocka_unit_test(test_a_discard_timer_that_draws_itself_back_is_cut_at_the_repeat),
        cmocka_unit_test(test_the_backstop_refusal_names_the_bound),
        cmocka_unit_test(test_bots_leave_the_loop),
        cmocka_unit_test(test_the_recorded_position_that_hung_answers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

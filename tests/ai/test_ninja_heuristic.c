/* test_ninja_heuristic.c — NINJA SCROLL TRICK's rule-of-thumb player reckons with the shadow's public rule. */
#include "../games/ninja/ninja_test.h"

/* Seed 002, 2人で遊ぶ場合. Trump metal. The shadow's row starts with metal-6,
 * a trump, so it answers any kind it cannot follow with that trump
 * ("スタートプレイヤーと同じ種類がない場合は1番左側のカードが出されます"). */
static const char *const DEAL2[] = {
    "fire-1 fire-7 water-2 water-5 wood-3 metal-4 metal-5",
    "fire-2 fire-3 water-7 wood-1 wood-6 metal-1 earth-1",
};
static const char *const ROW = "metal-6 fire-4 water-6 earth-2 wood-2 earth-3 fire-5";
static const char *const OPENS2[] = {"fire-7 water-5 metal-5", "fire-2 fire-3 earth-1"};

/* Seat 0 to lead the first trick; the shadow's metal-6 carries its +3, face up. */
static asobi_state *shadow_with_a_trump(void)
{
    asobi_state *st = new_state("ninja", 2, "{\"start_player\": 0}", 42);
    rig_deal(st, DEAL2, ROW);
    prepare(st, "metal", OPENS2);
    ninja_state *s = ns(st);
    /* the shadow's three tiles are +3 +1 -1 shuffled: move the +3 onto metal-6 */
    for (int i = 1; i < NINJA_OPEN; i++)
        if (s->scroll_on[s->row[i]] == 3) {
            s->scroll_on[s->row[i]] = s->scroll_on[s->row[0]];
            s->scroll_on[s->row[0]] = 3;
        }
    /* only the leftmost tile lies face up */
    assert_int_equal(s->scroll_up[s->row[0]], 1);
    assert_int_equal(s->scroll_up[s->row[1]] + s->scroll_up[s->row[2]], 0);
    assert_int_equal(s->scroll_on[card_id("metal-6")], 3);
    assert_int_equal(asobi_state_to_move(st), 1u << 0);
    return st;
}

/* The shadow plays by a public rule after seat 1: a lead of metal-4 or
 * metal-5 (strong trumps, which the old rule of thumb led) is beaten by its
 * metal-6, and so is any kind it lacks (wood); water-2 and water-5 lose to
 * its water-6. Its fire-4 loses to fire-7, the highest fire, which seat 0
 * leads instead: it carries seat 0's +3 home with the shadow's tile, where a
 * trump lead would hand the shadow its own +3 as well. */
static void test_heuristic_does_not_lead_into_the_shadow(void **unused)
{
    (void)unused;
    asobi_state *st = shadow_with_a_trump();
    for (uint64_t seed = 1; seed <= 20; seed++) {
        asobi_rng rng;
        asobi_rng_seed(&rng, seed);
        asobi_state *d = asobi_state_clone(st);
        asobi_state_determinize(d, 0, &rng);
        int id = ninja_heuristic(asobi_state_data_for_ai(d), 0, &rng);
        char text[64];
        asobi_state_action_text(st, 0, id, text, sizeof text);
        assert_string_equal(text, "play fire-7");
        asobi_state_free(d);
    }
    asobi_state_free(st);
}

/* Following, with the shadow still to play: seat 1 must follow fire after
 * fire-1 and holds fire-2 (its +3) and fire-3 (its +1); the shadow's fire-4
 * beats both. The heuristic gives the shadow the smaller tile. */
static void test_heuristic_feeds_the_shadow_the_least(void **unused)
{
    (void)unused;
    asobi_state *st = shadow_with_a_trump();
    apply_text(st, 0, "play fire-1");
    assert_int_equal(asobi_state_to_move(st), 1u << 1);
    asobi_rng rng;
    asobi_rng_seed(&rng, 7);
    int id = ninja_heuristic(asobi_state_data_for_ai(st), 1, &rng);
    char text[64];
    asobi_state_action_text(st, 1, id, text, sizeof text);
    assert_string_equal(text, "play fire-3");
    asobi_state_free(st);
}

/* The rules and the heuristic share one reading of the shadow's choice:
 * along heuristic games, the card ninja_shadow_choice predicts is the one
 * the shadow then plays. */
static void test_shadow_choice_predicts_the_shadow(void **unused)
{
    (void)unused;
    int predicted = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        asobi_state *st = new_state("ninja", 2, NULL, seed);
        asobi_rng rng;
        asobi_rng_seed(&rng, seed);
        while (!asobi_state_terminal(st)) {
            ninja_state *s = ns(st);
            uint32_t m = asobi_state_to_move(st);
            int seat = m & 1u ? 0 : 1;
            int guess = -1, next_is_shadow = 0;
            if (s->phase == NINJA_PHASE_BATTLE && s->trick_n < 2 && (s->turn + 1) % 3 == NINJA_SHADOW)
                next_is_shadow = 1;
            asobi_state *d = asobi_state_clone(st);
            asobi_state_determinize(d, seat, &rng);
            int id = ninja_heuristic(asobi_state_data_for_ai(d), seat, &rng);
            asobi_state_free(d);
            int before_tricks = s->tricks_done, lead_kind = -1;
            if (next_is_shadow) {
                int card = id - NINJA_ID_PLAY;
                lead_kind = s->trick_n > 0 ? ninja_kind(s->trick_card[0]) : ninja_kind(card);
                guess = ninja_shadow_choice(s, lead_kind);
            }
            asobi_error err;
            assert_int_equal(asobi_state_apply(st, seat, id, &err), ASOBI_OK);
            if (next_is_shadow) {
                const uint8_t *pos = s->tricks_done != before_tricks ? s->last_pos : s->trick_pos;
                const uint8_t *cards = s->tricks_done != before_tricks ? s->last_card : s->trick_card;
                int n = s->tricks_done != before_tricks ? s->last_n : s->trick_n, found = -1;
                for (int i = 0; i < n; i++)
                    if (pos[i] == NINJA_SHADOW)
                        found = cards[i];
                if (found != guess)
                    fail_msg("seed %d trick_n %d turn %d tricks %d->%d phase %d lead %d", (int)seed, s->trick_n, s->turn, before_tricks, s->tricks_done, s->phase, lead_kind);
                predicted++;
            }
        }
        asobi_state_free(st);
    }
    assert_true(predicted > 100);
}

/* A 3-player deal (seed 002, 3-5 players), start player seat 0, trump metal.
 * Seat 2 has opened metal-7; seat 0 holds metal-5 open. */
static const char *const DEAL3[] = {
    "fire-1 fire-7 water-2 water-5 wood-3 metal-4 metal-5",
    "fire-2 fire-3 water-7 wood-1 wood-6 metal-1 earth-1",
    "fire-4 fire-6 water-1 water-3 wood-7 metal-7 earth-7",
};
static const char *const OPENS3[] = {"fire-7 water-5 metal-5", "fire-2 fire-3 earth-1", "water-1 wood-7 metal-7"};

/* 勝負フェーズ: "同じ種類のカードが開いた中にある場合は開かれたカードから出さなければ
 * なりません" (issue 11, point 1). Seat 0's +3 lies on metal-5, a high trump
 * that beats every card it cannot see; but seat 2 holds metal-7 open and must
 * play it on a metal lead, so leading metal-5 hands seat 2 the +3. The
 * heuristic counts the open cards the followers are forced to play. */
static void test_heuristic_counts_forced_open_cards(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("ninja", 3, "{\"start_player\": 0}", 42);
    rig_deal(st, DEAL3, NULL);
    prepare(st, "metal", OPENS3);
    ninja_state *s = ns(st);
    /* move seat 0's +3 (on fire-7) onto metal-5 and its -1 onto fire-7 */
    int fire7 = card_id("fire-7"), metal5 = card_id("metal-5");
    int8_t t = s->scroll_on[fire7];
    s->scroll_on[fire7] = s->scroll_on[metal5];
    s->scroll_on[metal5] = t;
    assert_int_equal(s->scroll_on[metal5], 3);
    assert_int_equal(asobi_state_to_move(st), 1u << 0);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        asobi_rng rng;
        asobi_rng_seed(&rng, seed);
        asobi_state *d = asobi_state_clone(st);
        asobi_state_determinize(d, 0, &rng);
        int id = ninja_heuristic(asobi_state_data_for_ai(d), 0, &rng);
        asobi_state_free(d);
        assert_int_not_equal(id, NINJA_ID_PLAY + metal5);
        assert_true(asobi_state_is_legal(st, 0, id));
    }
    asobi_state_free(st);
}

/* The heuristic only ever returns legal ids under the follow rule (open cards
 * of the led kind first): along heuristic games with 2 to 5 players, every
 * choice made from a determinized state is legal in the real one. */
static void test_heuristic_plays_only_legal_cards(void **unused)
{
    (void)unused;
    long plays = 0;
    for (int players = 2; players <= 5; players++)
        for (uint64_t seed = 1; seed <= 15; seed++) {
            asobi_state *st = new_state("ninja", players, NULL, seed);
            asobi_rng rng;
            asobi_rng_seed(&rng, seed * 7u + (uint64_t)players);
            while (!asobi_state_terminal(st)) {
                int seat = __builtin_ctz(asobi_state_to_move(st));
                asobi_state *d = asobi_state_clone(st);
                asobi_state_determinize(d, seat, &rng);
                int id = ninja_heuristic(asobi_state_data_for_ai(d), seat, &rng);
                asobi_state_free(d);
                const ninja_state *s = asobi_state_data_for_ai(st);
                if (id >= NINJA_ID_PLAY) {
                    plays++;
                    assert_true((ninja_playable(s, seat) >> (id - NINJA_ID_PLAY)) & 1);
                }
                asobi_error err;
                assert_int_equal(asobi_state_apply(st, seat, id, &err), ASOBI_OK);
            }
            asobi_state_free(st);
        }
    assert_true(plays > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heuristic_does_not_lead_into_the_shadow),
        cmocka_unit_test(test_heuristic_feeds_the_shadow_the_least),
        cmocka_unit_test(test_shadow_choice_predicts_the_shadow),
        cmocka_unit_test(test_heuristic_counts_forced_open_cards),
        cmocka_unit_test(test_heuristic_plays_only_legal_cards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_psycle_rules.c — PSYCLE: one test per rule of seed 000 (and the reconstructions), the worked examples first. */
#include <string.h>

#include "conformance.h"
#include "repetitions.h"
#include "game_def.h"
#include "games/psycle/psycle.h"

static psycle_state *raw(asobi_state *s) { return asobi_state_data_mut(s); }

/* Put the face-up tile pair of the current round. */
static void set_tiles(asobi_state *s, int target, int bonus)
{
    psycle_state *p = raw(s);
    p->targets[p->round] = (uint8_t)target;
    p->bonuses[p->round] = (uint8_t)bonus;
}

static void play_round(asobi_state *s, const int *cards)
{
    int n = asobi_state_players(s);
    for (int i = 0; i < n; i++) {
        char text[16];
        snprintf(text, sizeof text, "play %d", cards[i]);
        apply_text(s, i, text);
    }
}

/* seed 000 §8 「4人プレイの例」: A=1, B=0, C=2, D=4; target 2, bonus +1.
 * "A: 『1』で B に勝利している為、3 点得る。B: ... 4つ『リソースジェム』を得る。
 *  C: 『2』で A、B に勝利している為、合計で 7 点得る。D: ... 合計で 3 点得る。" */
static void test_rulebook_example_4_players(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 4, NULL, 1);
    set_tiles(s, 2, 1);
    play_round(s, (int[]){1, 0, 2, 4});
    psycle_state *p = raw(s);
    assert_int_equal(p->points[0], 3);
    assert_int_equal(p->points[1], 0);
    assert_int_equal(p->points[2], 7);
    assert_int_equal(p->points[3], 3);
    assert_int_equal(p->gems[0], 9);
    assert_int_equal(p->gems[1], 14); /* B: 10 + 4, the highest card played */
    assert_int_equal(p->gems[2], 8);
    assert_int_equal(p->gems[3], 6);
    assert_int_equal(p->supply, 50 - 9 - 14 - 8 - 6);
    asobi_state_free(s);
}

/* seed 000 §8 「2人プレイの例」: A=3 beats B=1; "このラウンドは『3』で勝利した場合、
 * 『+2点』 A: 『3』で相手プレイヤーに勝利した為、合計4点得る。B: 勝利していない為、得点できない。" */
static void test_rulebook_example_2_players(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 2, NULL, 1);
    set_tiles(s, 3, 2);
    play_round(s, (int[]){3, 1});
    assert_int_equal(raw(s)->points[0], 4);
    assert_int_equal(raw(s)->points[1], 0);
    assert_int_equal(raw(s)->gems[0], 7);
    assert_int_equal(raw(s)->gems[1], 9);
    asobi_state_free(s);
}

/* seed 000 §4 and reconstructions.md: "1 beats {0,5}; 2 beats {0,1}; 3 beats
 * {0,1,2}; 4 beats {0,1,2,3}; 5 beats {0,2,3,4}. 0 beats nothing. Equal
 * numbers beat nobody." Written out here independently of the data table. */
static void test_strength_table(void **unused)
{
    (void)unused;
    static const char *const beats[6] = {"", "05", "01", "012", "0123", "0234"};
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b++) {
            bool expect = strchr(beats[a], '0' + b) != NULL;
            if (psycle_beats(a, b) != expect)
                fail_msg("%d vs %d: expected %s", a, b, expect ? "a win" : "no win");
        }
    /* the seed's own sentence: "1のカードの場合 2,3,4のカードに負けます" */
    assert_true(psycle_beats(2, 1) && psycle_beats(3, 1) && psycle_beats(4, 1));
    assert_false(psycle_beats(5, 1));
}

/* seed 000 §4/§8: stars per beaten opponent, "1のカードの場合3点";
 * reconstructions: 1->3, 2->3, 3->2, 4->1, 5->1, 0 never scores. */
static void test_stars_times_opponents_beaten(void **unused)
{
    (void)unused;
    static const int stars[6] = {0, 3, 3, 2, 1, 1};
    int beaten;
    /* 5 against 0, 2, 3: beats all three, 1 star each, no bonus (target 1) */
    int8_t cards[4] = {5, 0, 2, 3};
    assert_int_equal(psycle_round_points(5, cards, 4, 0, 1, 5, &beaten), 3);
    assert_int_equal(beaten, 3);
    for (int c = 1; c < 6; c++) {
        int8_t two[2] = {(int8_t)c, 0};
        assert_int_equal(psycle_round_points(c, two, 2, 0, 0, 0, NULL), stars[c]);
    }
    int8_t zeros[2] = {0, 0};
    assert_int_equal(psycle_round_points(0, zeros, 2, 0, 0, 5, &beaten), 0);
    assert_int_equal(beaten, 0);
}

/* seed 000 §8: the bonus is for a card equal to the target "勝利した場合";
 * a target card that beat nobody scores nothing (ruling 3). */
static void test_bonus_needs_a_win(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 2, NULL, 1);
    set_tiles(s, 1, 5);
    play_round(s, (int[]){1, 2}); /* 1 loses to 2 */
    assert_int_equal(raw(s)->points[0], 0);
    assert_int_equal(raw(s)->points[1], 3);
    /* equal cards beat nobody: no points, no bonus */
    set_tiles(s, 2, 5);
    play_round(s, (int[]){2, 2});
    assert_int_equal(raw(s)->points[0], 0);
    assert_int_equal(raw(s)->points[1], 3);
    asobi_state_free(s);
}

/* seed 000 §6.2: "カードの数字が、所有している『リソースジェム』の数よりも多い場合、
 * そのカードは出すことが出来ません" and §7 "...次のラウンドでは『0』のカードしか出せません". */
static void test_card_above_gems_cannot_be_chosen(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 2, NULL, 1);
    raw(s)->gems[0] = 3;
    raw(s)->supply = (uint8_t)(50 - 3 - 10);
    int ids[6];
    assert_int_equal(asobi_state_legal(s, 0, ids), 4);
    assert_refused(s, 0, 4, ASOBI_E_ILLEGAL_ACTION);
    assert_text_refused(s, 0, "play 5", ASOBI_E_ILLEGAL_ACTION);
    asobi_error err;
    assert_int_equal(asobi_state_apply(s, 0, 5, &err), ASOBI_E_ILLEGAL_ACTION);
    assert_non_null(strstr(err.message, "you hold 3"));
    raw(s)->gems[0] = 0;
    raw(s)->supply = 40;
    assert_int_equal(asobi_state_legal(s, 0, ids), 1);
    assert_int_equal(ids[0], 0);
    asobi_state_free(s);
}

/* seed 000 §4: "『0』を出すと、そのラウンドで他プレイヤーが出したカードの中で最も大きい
 * 数字と同じ分量の『リソースジェム』をサプライから得ます" — every 0-player does. */
static void test_zero_gains_the_highest_card(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 3, NULL, 1);
    play_round(s, (int[]){0, 0, 3});
    assert_int_equal(raw(s)->gems[0], 13);
    assert_int_equal(raw(s)->gems[1], 13);
    assert_int_equal(raw(s)->gems[2], 7);
    play_round(s, (int[]){0, 0, 0}); /* nobody played above 0: nobody gains */
    assert_int_equal(raw(s)->gems[0], 13);
    assert_int_equal(raw(s)->supply, 50 - 13 - 13 - 7);
    asobi_state_free(s);
}

/* reconstructions.md: the supply is finite (50 gems); "If several 0-players
 * want more than the supply holds, they share it equally; the remainder stays". */
static void test_zero_gain_supply_shortage(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 4, NULL, 1);
    psycle_state *p = raw(s);
    p->gems[0] = 20;
    p->gems[1] = 20;
    p->gems[2] = 5;
    p->gems[3] = 5;
    p->supply = 0;
    /* seat 3 pays 5 into an empty supply; seats 0, 1, 2 each want 5 (15 > 5) */
    play_round(s, (int[]){0, 0, 0, 5});
    assert_int_equal(p->gems[0], 21);
    assert_int_equal(p->gems[1], 21);
    assert_int_equal(p->gems[2], 6);
    assert_int_equal(p->gems[3], 0);
    assert_int_equal(p->supply, 2); /* 5 shared by 3: one each, 2 remain */
    assert_int_equal(psycle_zero_gain((int8_t[]){0, 4}, 2, 3, 1), 3);
    asobi_state_free(s);
}

static void play_cycle(asobi_state *s, const int rounds[5][4])
{
    for (int r = 0; r < 5; r++)
        play_round(s, rounds[r]);
}

/* seed 000 §9: "所有している『リソースジェム』が残っている場合、『リソースジェム』1つ
 * あたりマイナス1点"; the highest final score takes a victory tile. §10: the
 * next cycle starts with points 0, 10 gems each and reshuffled tiles. */
static void test_cycle_end_gem_penalty_and_reset(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 3, NULL, 9);
    psycle_state *p = raw(s);
    int16_t before_points[3];
    for (int r = 0; r < 4; r++)
        play_round(s, (int[]){1, 1, 1}); /* equal cards: no points; 6 gems left */
    memcpy(before_points, p->points, sizeof before_points);
    assert_int_equal(p->gems[0], 6);
    set_tiles(s, 5, 5);
    play_round(s, (int[]){2, 1, 0}); /* seat 0: 2 beats 1 and 0, 3x2 = 6; seat 1: 3 (beats 0) */
    /* final: seat 0 6-4 = 2; seat 1 3-5 = -2; seat 2: 0-(6+2) = -8 */
    assert_int_equal(p->cycles_done, 1);
    assert_int_equal(p->last_cycle_score[0], 2);
    assert_int_equal(p->last_cycle_score[1], -2);
    assert_int_equal(p->last_cycle_score[2], -8);
    assert_int_equal(p->victory[0], 1);
    assert_int_equal(p->victory[1] + p->victory[2], 0);
    assert_int_equal(p->cycle, 2);
    assert_int_equal(p->round, 0);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(p->gems[i], 10);
        assert_int_equal(p->points[i], 0);
    }
    assert_int_equal(p->supply, 20);
    int seen_t = 0, seen_b = 0;
    for (int r = 0; r < 5; r++) {
        seen_t |= 1 << p->targets[r];
        seen_b |= 1 << p->bonuses[r];
    }
    assert_int_equal(seen_t, 0x3e); /* each of 1..5 once */
    assert_int_equal(seen_b, 0x3e);
    asobi_state_free(s);
}

/* seed 000 §9 ※: "2人でプレイしている時に同点だった場合は『勝利タイル』を得ず、
 * 『サイクル』をやり直します。" */
static void test_two_player_tie_replays_the_cycle(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 2, NULL, 3);
    const int all_twos[5][4] = {{2, 2}, {2, 2}, {2, 2}, {2, 2}, {2, 2}};
    play_cycle(s, all_twos);
    psycle_state *p = raw(s);
    assert_int_equal(p->victory[0] + p->victory[1], 0);
    assert_true(p->last_cycle_replayed);
    assert_int_equal(p->cycle, 2);
    assert_false(asobi_state_terminal(s));
    asobi_state_free(s);
}

/* seed 000 §9 ※: "3人以上でプレイしている時に首位のプレイヤーが同点だった場合は、
 * 首位のプレイヤーは全員『勝利タイル』を受け取ります。" and §11 ※: two players
 * reaching two tiles at once share the victory. */
static void test_tied_leaders_all_take_tiles_and_share_victory(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 3, NULL, 4);
    /* seats 0 and 1 always play 2 and 2 (tie), seat 2 plays 0 and gains */
    const int rounds[5][4] = {{2, 2, 0}, {2, 2, 0}, {2, 2, 0}, {2, 2, 0}, {2, 2, 0}};
    play_cycle(s, rounds);
    psycle_state *p = raw(s);
    assert_int_equal(p->victory[0], 1);
    assert_int_equal(p->victory[1], 1);
    assert_int_equal(p->victory[2], 0);
    assert_int_equal(p->last_cycle_winners, 0x3);
    play_cycle(s, rounds);
    assert_true(asobi_state_terminal(s));
    asobi_result r;
    asobi_state_result(s, &r);
    assert_int_equal(r.winners, 0x3);
    assert_int_equal(r.rank[0], 1);
    assert_int_equal(r.rank[1], 1);
    assert_int_equal(r.rank[2], 3);
    json_t *v = asobi_state_view(s, 2);
    assert_int_equal(json_array_size(json_object_get(v, "winners")), 2);
    json_decref(v);
    asobi_state_free(s);
}

/* seed 000 §11: "2つ『勝利タイル』を持っているプレイヤーが居たらゲームが終了し". */
static void test_two_victory_tiles_end_the_game(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 2, NULL, 5);
    const int win_for_0[5][4] = {{1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}};
    play_cycle(s, win_for_0);
    assert_int_equal(raw(s)->victory[0], 1);
    assert_false(asobi_state_terminal(s));
    play_cycle(s, win_for_0);
    assert_true(asobi_state_terminal(s));
    asobi_result r;
    asobi_state_result(s, &r);
    assert_int_equal(r.winners, 0x1);
    assert_refused(s, 0, 0, ASOBI_E_GAME_OVER);
    asobi_state_free(s);
}

/* docs/rules/psycle.md ruling 7: the safety cap on endlessly tied cycles. */
static void test_cycle_cap_ends_tied_games(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 2, "{\"max_cycles\":2}", 5);
    const int ties[5][4] = {{2, 2}, {2, 2}, {2, 2}, {2, 2}, {1, 1}};
    play_cycle(s, ties);
    assert_false(asobi_state_terminal(s));
    play_cycle(s, ties);
    assert_true(asobi_state_terminal(s));
    assert_true(raw(s)->capped);
    asobi_result r;
    asobi_state_result(s, &r);
    assert_int_equal(r.winners, 0x3); /* both hold 0 tiles: shared */
    asobi_state_free(s);
}

/* seed 000 §6.1: each round reveals one target and one bonus tile, and the
 * used ones stay visible beside the piles ("隣に並べていきます"). */
static void test_one_tile_pair_revealed_per_round(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 2, NULL, 6);
    for (int r = 0; r < 5; r++) {
        json_t *v = asobi_state_view(s, 0);
        assert_int_equal(json_array_size(json_object_get(v, "revealed")), r + 1);
        assert_int_equal(json_integer_value(json_object_get(v, "target")), raw(s)->targets[r]);
        json_decref(v);
        play_round(s, (int[]){0, 0});
    }
    asobi_state_free(s);
}

/* seed 000 §6.2-6.3: choices are face down until everyone has chosen. */
static void test_choices_hidden_until_all_have_chosen(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("psycle", 3, NULL, 7);
    apply_text(s, 0, "play 4");
    assert_int_equal(asobi_state_to_move(s), 0x6);
    json_t *mine = asobi_state_view(s, 0), *theirs = asobi_state_view(s, 1);
    json_t *p0_mine = json_array_get(json_object_get(mine, "players"), 0);
    json_t *p0_theirs = json_array_get(json_object_get(theirs, "players"), 0);
    assert_string_equal(json_string_value(json_object_get(p0_mine, "choice")), "4");
    assert_null(json_object_get(p0_theirs, "choice"));
    assert_true(json_is_null(json_object_get(p0_theirs, "hand")));
    assert_true(json_is_true(json_object_get(p0_theirs, "chosen")));
    char *text = asobi_state_render(s, 1);
    assert_null(strstr(text, "chose 4"));
    free(text);
    json_decref(mine);
    json_decref(theirs);
    /* retracting for seat 1 withdraws seat 0's unseen choice */
    asobi_state *copy = asobi_state_clone(s);
    asobi_state_retract_unseen(copy, 1);
    assert_int_equal(asobi_state_to_move(copy), 0x7);
    asobi_state_free(copy);
    asobi_state_free(s);
}

/* Invariants over thousands of random games (issue 2, section 6). */
typedef struct recount {
    long rounds_checked;
} recount;

static void psycle_invariant(const asobi_state *state, void *ctx)
{
    (void)ctx;
    const psycle_state *p = asobi_state_data_for_ai(state);
    int held = 0;
    for (int i = 0; i < p->players; i++)
        held += p->gems[i];
    assert_int_equal(held + p->supply, 50); /* gems are conserved */
    assert_true(p->round < 5 || p->over);
    /* to_move reads the seats still to choose from a byte kept beside
     * pending: it must say what pending and over say, also after a seat's
     * unseen choices are withdrawn or resampled (search does both). */
    assert_int_equal(p->choosing, psycle_seats_to_choose(p));
    static unsigned step;
    if (step++ % 8 != 0)
        return; /* the copies below on every 8th step: plenty of rounds, the test stays quick */
    asobi_rng rng;
    asobi_rng_seed(&rng, (uint64_t)p->cycle * 131u + p->round);
    for (int viewer = 0; viewer < p->players; viewer++) {
        asobi_state *other = asobi_state_clone(state);
        asobi_state_retract_unseen(other, viewer);
        const psycle_state *o = asobi_state_data_for_ai(other);
        assert_int_equal(o->choosing, psycle_seats_to_choose(o));
        asobi_state_copy(other, state);
        asobi_state_determinize(other, viewer, &rng);
        assert_int_equal(o->choosing, psycle_seats_to_choose(o));
        asobi_state_free(other);
    }
}

/* When a round resolves, recount every seat's points from the cards, with the
 * beats-relation written out independently of the data table. */
static void psycle_step(const asobi_state *before, int seat, int id, const asobi_state *after, void *ctx)
{
    (void)seat;
    (void)id;
    recount *rc = ctx;
    const psycle_state *b = asobi_state_data_for_ai(before), *a = asobi_state_data_for_ai(after);
    if (b->round == a->round && b->cycle == a->cycle && !a->over)
        return; /* the round has not resolved yet */
    static const char *const beats[6] = {"", "05", "01", "012", "0123", "0234"};
    static const int stars[6] = {0, 3, 3, 2, 1, 1};
    int target = b->targets[b->round], bonus = b->bonuses[b->round];
    for (int i = 0; i < a->players; i++) {
        int n = 0;
        for (int j = 0; j < a->players; j++)
            if (j != i && strchr(beats[a->played[i]], '0' + a->played[j]))
                n++;
        int expect = n ? stars[a->played[i]] * n + (a->played[i] == target ? bonus : 0) : 0;
        assert_int_equal(a->last_points[i], expect);
        if (a->cycle == b->cycle && !a->over)
            assert_int_equal(a->points[i], b->points[i] + expect);
        /* the card was affordable */
        assert_true(a->played[i] <= b->gems[i] || a->played[i] == 0);
    }
    rc->rounds_checked++;
}

static void run_random_games(int players)
{
    recount rc = {0};
    int games = test_reps(1000); /* a tenth under the sanitizers */
    conformance_spec spec = {
        .game = "psycle",
        .players = players,
        .games = games,
        .seed = 4242u + (uint64_t)players,
        .deep_every = 20,
        .invariant = psycle_invariant,
        .on_step = psycle_step,
        .ctx = &rc,
    };
    conformance_run(&spec);
    assert_true(rc.rounds_checked > games * 10);
}

static void test_random_games_2_players(void **unused) { (void)unused; run_random_games(2); }
static void test_random_games_3_players(void **unused) { (void)unused; run_random_games(3); }
static void test_random_games_4_players(void **unused) { (void)unused; run_random_games(4); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rulebook_example_4_players),
        cmocka_unit_test(test_rulebook_example_2_players),
        cmocka_unit_test(test_strength_table),
        cmocka_unit_test(test_stars_times_opponents_beaten),
        cmocka_unit_test(test_bonus_needs_a_win),
        cmocka_unit_test(test_card_above_gems_cannot_be_chosen),
        cmocka_unit_test(test_zero_gains_the_highest_card),
        cmocka_unit_test(test_zero_gain_supply_shortage),
        cmocka_unit_test(test_cycle_end_gem_penalty_and_reset),
        cmocka_unit_test(test_two_player_tie_replays_the_cycle),
        cmocka_unit_test(test_tied_leaders_all_take_tiles_and_share_victory),
        cmocka_unit_test(test_two_victory_tiles_end_the_game),
        cmocka_unit_test(test_cycle_cap_ends_tied_games),
        cmocka_unit_test(test_one_tile_pair_revealed_per_round),
        cmocka_unit_test(test_choices_hidden_until_all_have_chosen),
        cmocka_unit_test(test_random_games_2_players),
        cmocka_unit_test(test_random_games_3_players),
        cmocka_unit_test(test_random_games_4_players),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

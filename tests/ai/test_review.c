/* test_review.c — asobi_review: twin records, values in [0,1], agreeing moves lose nothing, seeds and jobs. */
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

/* Small budgets (iterations, never time): deterministic and fast. */
#define JUDGE "ismcts:iters=200"

/* A record of a game played by random actions (the lowest seat to move acts
 * first), stopped after at most `limit` actions (-1: to the end). */
static json_t *random_record(const char *game, int players, uint64_t seed, int limit)
{
    asobi_error err;
    asobi_match *m = asobi_match_new(game, players, NULL, seed, &err);
    assert_non_null(m);
    asobi_rng rng;
    asobi_rng_seed(&rng, seed * 7 + 1);
    for (int n = 0; limit < 0 || n < limit; n++) {
        const asobi_state *s = asobi_match_state(m);
        uint32_t mask = asobi_state_to_move(s);
        if (!mask)
            break;
        int seat = __builtin_ctz(mask);
        int id = asobi_state_random_action(s, seat, &rng);
        assert_int_equal(asobi_match_act(m, seat, id, &err), ASOBI_OK);
    }
    json_t *r = asobi_match_record(m);
    asobi_match_free(m);
    return r;
}

/* The first count actions of record, as a new record. */
static json_t *record_prefix(const json_t *record, int count)
{
    json_t *r = json_deep_copy(record);
    json_t *actions = json_object_get(r, "actions");
    while ((int)json_array_size(actions) > count)
        json_array_remove(actions, json_array_size(actions) - 1);
    return r;
}

static asobi_match *load(const json_t *record)
{
    asobi_error err;
    asobi_match *m = asobi_match_load(record, &err);
    assert_non_null(m);
    return m;
}

static json_t *review(const json_t *record, int seat, uint64_t seed, int jobs)
{
    asobi_error err;
    json_t *r = asobi_review(record, seat, JUDGE, seed, jobs, NULL, NULL, &err);
    if (!r)
        fail_msg("review: %s", err.message);
    return r;
}

/* Seat k's view of m's state, as text (malloc'd). */
static char *view_text(const asobi_match *m, int k) { return asobi_state_view_text(asobi_match_state(m), k, NULL); }

/* Act in twin: the first of seat's legal actions (the record's own, tried
 * first) after which seat k's view is want. false if none is. */
static bool act_alike(asobi_match *twin, int seat, const char *text, int k, const char *want, bool other, int *ids)
{
    asobi_error err;
    int n = asobi_state_legal(asobi_match_state(twin), seat, ids);
    for (int x = -1; x < n; x++) {
        char alt[256];
        if (x >= 0)
            asobi_state_action_text(asobi_match_state(twin), seat, ids[x], alt, sizeof alt);
        if (x >= 0 && strcmp(alt, text) == 0)
            continue;
        if (x < 0 && other) /* the changed action: never the record's */
            continue;
        asobi_match *p = asobi_match_prefix(twin, -1, &err);
        if (asobi_match_act_text(p, seat, x < 0 ? text : alt, &err) == ASOBI_OK) {
            char *v = view_text(p, k);
            bool same = strcmp(v, want) == 0;
            free(v);
            if (same) {
                asobi_match_act_text(twin, seat, x < 0 ? text : alt, &err);
                asobi_match_free(p);
                return true;
            }
        }
        asobi_match_free(p);
    }
    return false;
}

/* An action twin: in record, another seat's action i replaced by another
 * that seat k cannot tell from it (a face-down card, a hidden scroll), and
 * that seat's later actions up to k's next decision with a choice kept
 * where they still can be, else replaced by ones k cannot tell apart either
 * (the tiles left in its hand differ). Returns the two records cut after
 * that decision of k: k's view the same after every action of both, the
 * all-seeing view different at k's decision. false if record has none. */
static bool action_twin(const json_t *record, int k, json_t **a, json_t **b)
{
    asobi_match *whole = load(record);
    int total = asobi_match_length(whole);
    int *ids = malloc((size_t)asobi_game_max_actions(asobi_state_game(asobi_match_state(whole))) * sizeof *ids);
    bool found = false;
    asobi_error err;
    for (int i = total - 1; i >= 0 && !found; i--) {
        int j = asobi_match_action_seat(whole, i);
        if (j == k)
            continue;
        asobi_match *orig = asobi_match_prefix(whole, i, &err), *twin = asobi_match_prefix(whole, i, &err);
        json_t *actions = json_array();
        bool ok = true;
        int next = i;
        for (; ok && next < total; next++) {
            int seat = asobi_match_action_seat(whole, next);
            const char *text = asobi_match_action_text(whole, next);
            if (seat == k && asobi_state_legal(asobi_match_state(orig), k, ids) > 1 && next > i) {
                char *v1 = view_text(orig, k), *v2 = view_text(twin, k);
                char *w1 = view_text(orig, ASOBI_ALL_SEEING), *w2 = view_text(twin, ASOBI_ALL_SEEING);
                found = strcmp(v1, v2) == 0 && strcmp(w1, w2) != 0 &&
                        asobi_match_act_text(twin, k, text, &err) == ASOBI_OK;
                free(v1), free(v2), free(w1), free(w2);
                break;
            }
            asobi_match_act_text(orig, seat, text, &err);
            char *want = view_text(orig, k);
            ok = act_alike(twin, seat, text, k, want, next == i, ids);
            free(want);
        }
        if (found) {
            *a = record_prefix(record, next + 1);
            *b = asobi_match_record(twin);
        }
        json_decref(actions);
        asobi_match_free(orig);
        asobi_match_free(twin);
    }
    free(ids);
    asobi_match_free(whole);
    return found;
}

static void assert_same_review(json_t *a, json_t *b, int k)
{
    json_t *ra = review(a, k, 5, 2), *rb = review(b, k, 5, 2);
    assert_true(json_array_size(json_object_get(ra, "decisions")) > 0);
    if (!json_equal(ra, rb)) {
        char *ta = json_dumps(ra, JSON_COMPACT), *tb = json_dumps(rb, JSON_COMPACT);
        fail_msg("twin records, different reviews:\n%.600s\n%.600s", ta, tb);
    }
    json_decref(ra);
    json_decref(rb);
}

static void twin_by_action(const char *game, int players, int k)
{
    for (uint64_t seed = 1; seed < 40; seed++) {
        json_t *record = random_record(game, players, seed, -1), *a, *b;
        bool found = action_twin(record, k, &a, &b);
        json_decref(record);
        if (!found)
            continue;
        assert_same_review(a, b, k);
        json_decref(a);
        json_decref(b);
        return;
    }
    fail_msg("%s: no twin records found", game);
}

/* PSYCLE, the last round: another seat's card chosen face down before seat
 * 1 chose (the record lists seat 0 first). */
static void test_psycle_twins_give_one_review(void **state)
{
    (void)state;
    twin_by_action("psycle", 3, 1);
}

/* NINJA: another seat's scroll tile laid face down before seat 1's decision. */
static void test_ninja_twins_give_one_review(void **state)
{
    (void)state;
    twin_by_action("ninja", 3, 1);
}

/* Time Masters: the card another seat put face down under a timer (a
 * delay), or a deal seat 0 cannot tell apart at its first decision. */
static void test_timemasters_twins_give_one_review(void **state)
{
    (void)state;
    twin_by_action("timemasters", 2, 0);
}

/* Every decision of seat 1 in a short game of each game: values in [0,1]
 * (null only for an unvisited move), a loss never negative, 0 where the
 * bot agrees, the best value minus the played one elsewhere. */
static void test_values_bounded_and_agreeing_moves_lose_nothing(void **state)
{
    (void)state;
    int agree = 0;
    for (int g = 0; g < asobi_game_count(); g++) {
        const char *name = asobi_game_name(asobi_game_at(g));
        json_t *record = random_record(name, 3, 3, 60), *r = review(record, 1, 1, 2);
        size_t i, j;
        json_t *d, *mv;
        double total = 0;
        json_array_foreach(json_object_get(r, "decisions"), i, d) {
            double loss = json_number_value(json_object_get(d, "loss"));
            const json_t *pv = json_object_get(d, "played_value"), *bv = json_object_get(d, "best_value");
            assert_true(loss >= 0 && loss <= 1);
            total += loss;
            json_array_foreach(json_object_get(d, "moves"), j, mv) {
                const json_t *v = json_object_get(mv, "value");
                assert_true(json_is_null(v) || (json_number_value(v) >= 0 && json_number_value(v) <= 1));
            }
            const char *played = json_string_value(json_object_get(d, "played"));
            if (strcmp(played, json_string_value(json_object_get(d, "best"))) == 0) {
                assert_true(loss == 0);
                agree++;
            } else if (json_is_number(pv) && json_number_value(bv) >= json_number_value(pv)) {
                assert_true(loss == json_number_value(bv) - json_number_value(pv));
            }
            const char *label = json_string_value(json_object_get(d, "label"));
            assert_true((label == NULL) == (loss < ASOBI_REVIEW_INACCURACY));
        }
        const json_t *summary = json_object_get(r, "summary");
        assert_int_equal(json_integer_value(json_object_get(summary, "decisions")), i);
        if (i == 0)
            fail_msg("%s: no decisions reviewed", name);
        assert_true(json_number_value(json_object_get(summary, "total_loss")) - total < 1e-9);
        json_decref(r);
        json_decref(record);
    }
    assert_true(agree > 0); /* the check of agreeing moves did run */
}

/* The same seed, the same review, whatever the number of threads; another
 * seed, another search. */
static void test_seeded_and_independent_of_jobs(void **state)
{
    (void)state;
    json_t *record = random_record("psycle", 3, 8, -1);
    json_t *one = review(record, 0, 3, 1), *two = review(record, 0, 3, 2), *again = review(record, 0, 3, 2),
           *other = review(record, 0, 4, 2);
    assert_true(json_equal(one, two));
    assert_true(json_equal(two, again));
    assert_false(json_equal(one, other));
    json_decref(one), json_decref(two), json_decref(again), json_decref(other);
    json_decref(record);
}

static void test_refusals(void **state)
{
    (void)state;
    json_t *record = random_record("psycle", 3, 2, 20);
    asobi_error err;
    assert_null(asobi_review(record, 3, JUDGE, 1, 1, NULL, NULL, &err));
    assert_int_equal(err.code, ASOBI_E_BAD_SEAT);
    assert_null(asobi_review(record, 0, "random", 1, 1, NULL, NULL, &err));
    assert_int_equal(err.code, ASOBI_E_BAD_BOT);
    assert_non_null(strstr(err.message, "cannot weigh"));
    assert_null(asobi_review(record, 0, "ismcts:iters=x", 1, 1, NULL, NULL, &err));
    assert_int_equal(err.code, ASOBI_E_BAD_BOT);
    assert_null(asobi_review(record, 0, JUDGE, 1, 0, NULL, NULL, &err));
    assert_int_equal(err.code, ASOBI_E_BAD_ARGUMENT);
    json_object_set_new(json_array_get(json_object_get(record, "actions"), 0), "action", json_string("play 99"));
    assert_null(asobi_review(record, 0, JUDGE, 1, 1, NULL, NULL, &err));
    assert_int_equal(err.code, ASOBI_E_BAD_RECORD);
    json_decref(record);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_psycle_twins_give_one_review),
        cmocka_unit_test(test_ninja_twins_give_one_review),
        cmocka_unit_test(test_timemasters_twins_give_one_review),
        cmocka_unit_test(test_values_bounded_and_agreeing_moves_lose_nothing),
        cmocka_unit_test(test_seeded_and_independent_of_jobs),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

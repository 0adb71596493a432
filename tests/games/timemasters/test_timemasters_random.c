/* test_timemasters_random.c — thousands of random Time Masters games, with invariants after every action. */
#include <string.h>

#include "repetitions.h"
#include "tm_sim.h"

/* How many cards of each kind the game holds: the starting decks (per
 * player) and the box's level 1-5 cards. */
static void box_counts(const tm_state *t, int *count)
{
    for (int k = 0; k < t->table.kinds; k++)
        count[k] = t->table.card[k].copies * (t->table.card[k].level == 0 ? t->players : 1);
}

static void count_zone(int *count, const uint8_t *cards, int n)
{
    for (int i = 0; i < n; i++)
        count[cards[i]]--;
}

/* Card conservation: every card is in exactly one place, always. Kè is never
 * negative (the counters would wrap to 255), ephemeral never above 4. */
static void invariant(const asobi_state *state, void *ctx)
{
    (void)ctx;
    const tm_state *t = asobi_state_data_for_ai(state);
    int count[TM_MAX_KINDS];
    box_counts(t, count);
    for (int i = 0; i < t->players; i++) {
        const tm_player *p = &t->p[i];
        count_zone(count, p->hand, p->n_hand);
        count_zone(count, p->deck, p->n_deck);
        count_zone(count, p->discard, p->n_discard);
        count_zone(count, p->removed, p->n_removed);
        count_zone(count, p->released, p->n_released);
        for (int m = 0; m < p->n_timers; m++) {
            const tm_timer *tm = &p->timers[m];
            count_zone(count, &tm->kind, 1);
            count_zone(count, tm->spells, tm->n_spells);
            count_zone(count, tm->delay, tm->n_delay);
            assert_true(tm->n_spells <= t->table.card[tm->kind].slots);
        }
        assert_true(p->ke_eph <= TM_MAX_EPHEMERAL);
        assert_true(p->ke_ready + p->ke_spent <= TM_MAX_RECURRENT);
        assert_true(p->ke_ready + p->ke_spent >= TM_START_KE); /* tokens are never lost */
        if (p->ke_limit)
            assert_true(p->spent_turn <= p->ke_limit);
        if (i != t->seat || t->over)
            assert_int_equal(p->n_released, 0);
    }
    count_zone(count, t->zone, t->n_zone);
    for (int l = 0; l < TM_LEVELS; l++) {
        count_zone(count, t->sphere[l], t->n_sphere[l]);
        count_zone(count, t->aside[l], t->n_aside[l]);
    }
    for (int k = 0; k < t->table.kinds; k++)
        if (count[k] != 0)
            fail_msg("card %s: %d copies unaccounted for", t->table.card[k].name, count[k]);
    if (t->over)
        assert_true(tm_empty_spheres(t) >= 2 || t->capped);
    /* what each player owns is its starting deck, the face-up cards it took
     * and, level for level, its unseen takes (what determinization relies on) */
    for (int i = 0; i < t->players; i++) {
        const tm_player *p = &t->p[i];
        int own[TM_MAX_KINDS] = {0}, by_level[TM_LEVELS + 1] = {0}; /* counted down: -owned */
        count_zone(own, p->hand, p->n_hand);
        count_zone(own, p->deck, p->n_deck);
        count_zone(own, p->discard, p->n_discard);
        count_zone(own, p->removed, p->n_removed);
        count_zone(own, p->released, p->n_released);
        for (int m = 0; m < p->n_timers; m++) {
            count_zone(own, &p->timers[m].kind, 1);
            count_zone(own, p->timers[m].spells, p->timers[m].n_spells);
            count_zone(own, p->timers[m].delay, p->timers[m].n_delay);
        }
        if (i == t->seat)
            count_zone(own, t->zone, t->n_zone);
        for (int k = 0; k < t->table.kinds; k++) {
            const tm_card *c = &t->table.card[k];
            int extra = -own[k] - (c->level == 0 ? c->copies : 0) - p->took_seen[k];
            assert_true(extra >= 0);
            by_level[c->level] += extra;
        }
        assert_int_equal(by_level[0], 0);
        for (int l = 1; l <= TM_LEVELS; l++)
            assert_int_equal(by_level[l], p->took_unseen[l - 1]);
    }
}

/* legal() generates ids from the cards at hand for speed; it must give
 * exactly the ids that tm_is_legal (the rules, id by id) allows. */
static void legal_matches_rules(const asobi_state *state)
{
    const tm_state *t = asobi_state_data_for_ai(state);
    if (t->over)
        return;
    int fast[TM_ACTIONS], n = tm_legal(t, t->seat, fast), m = 0;
    for (int id = 0; id < TM_ACTIONS; id++)
        if (tm_is_legal(t, id)) {
            if (m >= n || fast[m] != id)
                fail_msg("legal() and tm_is_legal disagree on id %d", id);
            m++;
        }
    assert_int_equal(m, n);
    /* the main phase's head (what the heuristic reads): legal()'s ids below TM_ID_SET */
    if (t->choice == TM_CH_NONE && t->phase == TM_PH_MAIN) {
        int head[TM_ACTIONS], h = tm_main_legal_head(t, head), below = 0;
        while (below < n && fast[below] < TM_ID_SET)
            below++;
        if (h != below || memcmp(head, fast, (size_t)h * sizeof *head) != 0)
            fail_msg("tm_main_legal_head gives %d ids, legal() %d below TM_ID_SET", h, below);
    }
}

/* A determinized state is a possible state: the same invariants hold. */
static void determinized_invariant(const asobi_state *state)
{
    asobi_rng rng;
    asobi_rng_seed(&rng, (uint64_t)asobi_state_to_move(state) * 7919u + 1);
    for (int seat = 0; seat < asobi_state_players(state); seat++) {
        asobi_state *d = asobi_state_clone(state);
        asobi_state_determinize(d, seat, &rng);
        invariant(d, NULL);
        asobi_state_free(d);
    }
}

/* No seat sees another's hidden cards: hands, deck contents, delay cards,
 * points (until the end) are null in its view. (The conformance harness
 * also checks that determinizing changes nothing a seat sees.) */
static void no_peeking(const asobi_state *state)
{
    const tm_state *t = asobi_state_data_for_ai(state);
    for (int seat = 0; seat < t->players; seat++) {
        json_t *v = asobi_state_view(state, seat);
        json_t *players = json_object_get(v, "players");
        for (int i = 0; i < t->players; i++) {
            json_t *o = json_array_get(players, (size_t)i);
            bool mine = i == seat;
            assert_int_equal(json_is_null(json_object_get(o, "hand")), !mine);
            assert_int_equal(json_is_null(json_object_get(o, "deck_cards")), !mine);
            assert_int_equal(json_is_null(json_object_get(o, "points")), !mine && !t->over);
            json_t *timers = json_object_get(o, "timers");
            for (size_t m = 0; m < json_array_size(timers); m++)
                assert_int_equal(json_is_null(json_object_get(json_array_get(timers, m), "delay_cards")), !mine);
        }
        json_decref(v);
    }
}

typedef struct stats {
    long steps, turns, games, capped;
    int most_delay; /* the most delay cards seen under one timer (ruling 9's bound is TM_MAX_DELAY) */
} stats;

static void on_step(const asobi_state *before, int seat, int id, const asobi_state *after, void *ctx)
{
    stats *st = ctx;
    const tm_state *a = asobi_state_data_for_ai(before), *b = asobi_state_data_for_ai(after);
    (void)seat;
    (void)id;
    assert_true(b->turn >= a->turn);
    for (int i = 0; i < b->players; i++)
        for (int m = 0; m < b->p[i].n_timers; m++)
            if (b->p[i].timers[m].n_delay > st->most_delay)
                st->most_delay = b->p[i].timers[m].n_delay;
    if (++st->steps % 41 == 0) {
        no_peeking(after);
        determinized_invariant(after);
    }
    if (st->steps % 17 == 0) {
        legal_matches_rules(after);
    }
}

static void on_end(const asobi_state *state, void *ctx)
{
    stats *st = ctx;
    const tm_state *t = asobi_state_data_for_ai(state);
    st->games++;
    st->turns += t->turn;
    st->capped += t->capped;
    no_peeking(state);
}

static void run(int players, int games, int deep)
{
    stats st = {0};
    conformance_spec spec = {
        .game = "timemasters",
        .players = players,
        .games = games,
        .seed = 5000u + (uint64_t)players,
        .deep_every = deep,
        .invariant = invariant,
        .on_step = on_step,
        .on_end = on_end,
        .ctx = &st,
    };
    conformance_run(&spec);
    print_message("%d players: %ld random games, %.1f turns and %.1f actions a game, %ld reached the cap, "
                  "at most %d delay cards under one timer\n",
                  players, st.games, (double)st.turns / (double)st.games, (double)st.steps / (double)st.games,
                  st.capped, st.most_delay);
    assert_true(st.most_delay < TM_MAX_DELAY); /* ruling 9: a bound no game reaches */
    assert_true(st.capped * 20 <= st.games); /* the cap is a safety net, rarely reached */
}

/* 1350 games in a normal build; a tenth of that under the sanitizers
 * (repetitions.h). */
static void test_random_games_2p(void **unused) { (void)unused; run(2, test_reps(400), 53); }
static void test_random_games_3p(void **unused) { (void)unused; run(3, test_reps(150), 53); }
static void test_random_games_4p(void **unused) { (void)unused; run(4, test_reps(125), 53); }

/* Records: a bot game written as a record replays to the same bytes, and the
 * same seed with the same actions gives the same game. */
static void test_record_round_trip_and_replay(void **unused)
{
    (void)unused;
    asobi_rng rng;
    asobi_rng_seed(&rng, 3);
    for (int g = 0; g < 20; g++) {
        asobi_error err;
        asobi_match *m = asobi_match_new("timemasters", 2 + g % 3, NULL, 700u + (uint64_t)g, &err);
        assert_non_null(m);
        int ids[TM_ACTIONS];
        const asobi_game_def *def = asobi_game_find("timemasters");
        while (!asobi_state_terminal(asobi_match_state(m))) {
            const asobi_state *s = asobi_match_state(m);
            int seat = __builtin_ctz(asobi_state_to_move(s));
            int id;
            if (g % 2) {
                asobi_state *d = asobi_state_clone(s);
                asobi_state_determinize(d, seat, &rng);
                id = def->heuristic(asobi_state_data_for_ai(d), seat, &rng);
                asobi_state_free(d);
            } else {
                int n = asobi_state_legal(s, seat, ids);
                id = ids[asobi_rng_below(&rng, (uint32_t)n)];
            }
            assert_int_equal(asobi_match_act(m, seat, id, &err), ASOBI_OK);
        }
        json_t *rec = asobi_match_record(m);
        char *text = json_dumps(rec, JSON_COMPACT);
        json_t *back = json_loads(text, 0, NULL);
        asobi_match *r1 = asobi_match_load(back, &err);
        asobi_match *r2 = asobi_match_load(back, &err);
        assert_non_null(r1);
        assert_true(asobi_state_equal(asobi_match_state(m), asobi_match_state(r1)));
        assert_true(asobi_state_equal(asobi_match_state(r1), asobi_match_state(r2)));
        asobi_match_free(r1);
        asobi_match_free(r2);
        json_decref(back);
        json_decref(rec);
        free(text);
        asobi_match_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games_2p),
        cmocka_unit_test(test_random_games_3p),
        cmocka_unit_test(test_random_games_4p),
        cmocka_unit_test(test_record_round_trip_and_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_timemasters_random_action.c — Time Masters' random_action (the actions counted, not listed) picks legal()'s id from the same draws on crafted and scrambled positions. */
#include <string.h>

#include "repetitions.h"
#include "tm_sim.h"

/* test_conformance compares random_action with legal() at every step of
 * random games, but random play seldom reaches what makes the counting
 * hard: many timers, several of them free (the set actions are each payable
 * spell on each free timer), spells released from timers, reminder tokens
 * and Slow Down at the ends of their ranges, the kind of the last bit (63).
 * Here the seat to move gets such positions: scrambled from real ones (any
 * hand, timers, Kè and phase within the state's bounds, reachable or not:
 * counting and listing must agree on every state), and two built by hand. */

static const asobi_game_def *game(void) { return asobi_game_find("timemasters"); }

/* The pick of random_action against legal()'s list and one draw, from
 * several generator states; and legal() against tm_is_legal, id by id. */
static int compare_picks(const tm_state *t, asobi_rng *rng, int draws)
{
    int ids[TM_ACTIONS];
    int n = tm_legal(t, t->seat, ids), m = 0;
    for (int id = 0; id < TM_ACTIONS; id++)
        if (tm_is_legal(t, id)) {
            if (m >= n || ids[m] != id)
                fail_msg("legal() and tm_is_legal disagree on id %d (phase %d, choice %d)", id, t->phase, t->choice);
            m++;
        }
    assert_int_equal(m, n);
    for (int d = 0; d < draws; d++) {
        asobi_rng a = asobi_rng_split(rng), b = a;
        int got = game()->random_action(t, t->seat, &a);
        int want = n > 0 ? ids[asobi_rng_below(&b, (uint32_t)n)] : -1;
        if (got != want || memcmp(&a, &b, sizeof a) != 0)
            fail_msg("random_action gave %d, legal()+rng_below %d (of %d actions, phase %d, choice %d; draws %s)",
                     got, want, n, t->phase, t->choice, memcmp(&a, &b, sizeof a) ? "differ" : "agree");
    }
    return n;
}

static int below(asobi_rng *rng, int n) { return (int)asobi_rng_below(rng, (uint32_t)n); }

/* A random kind of the table of the given type (-1: any type). */
static int kind_of(const tm_state *t, int type, asobi_rng *rng)
{
    for (;;) {
        int k = below(rng, t->table.kinds);
        if (type < 0 || t->table.card[k].type == type)
            return k;
    }
}

static void random_cards(const tm_state *t, uint8_t *zone, uint8_t *n, int count, int type, asobi_rng *rng)
{
    *n = (uint8_t)count;
    for (int i = 0; i < count; i++)
        zone[i] = (uint8_t)kind_of(t, type, rng);
}

/* The seat to move of a real position gets another hand, timers, releases,
 * Kè, reminders, phase and ruling 25's memory, each within the bounds of the state's arrays. */
static void scramble(tm_state *t, asobi_rng *rng)
{
    tm_player *p = &t->p[t->seat];
    random_cards(t, p->hand, &p->n_hand, below(rng, 12), -1, rng);
    random_cards(t, p->discard, &p->n_discard, below(rng, 12), -1, rng);
    random_cards(t, p->released, &p->n_released, below(rng, 2) ? 0 : below(rng, 5), TM_SPELL, rng);
    p->n_timers = (uint8_t)below(rng, TM_MAX_TIMERS + 1);
    for (int i = 0; i < p->n_timers; i++) {
        tm_timer *x = &p->timers[i];
        memset(x, 0, sizeof *x);
        x->kind = (uint8_t)kind_of(t, TM_TIMER, rng);
        random_cards(t, x->spells, &x->n_spells, below(rng, t->table.card[x->kind].slots + 1), TM_SPELL, rng);
        random_cards(t, x->delay, &x->n_delay, below(rng, 3), -1, rng);
        x->handled = (uint8_t)below(rng, 2);
        x->number = (uint8_t)(i + 1);
    }
    p->ke_ready = (uint8_t)below(rng, TM_MAX_RECURRENT + 1);
    p->ke_spent = (uint8_t)below(rng, TM_MAX_RECURRENT + 1 - p->ke_ready);
    p->ke_eph = (uint8_t)below(rng, TM_MAX_EPHEMERAL + 1);
    p->cost_mod = (int8_t)(below(rng, 19) - 9);
    p->ke_limit = (uint8_t)(below(rng, 2) ? 0 : 1 + below(rng, 5));
    p->spent_turn = (uint8_t)(p->ke_limit ? below(rng, p->ke_limit + 1) : below(rng, 6));
    t->main_acted = (uint8_t)below(rng, 2);
    static const uint8_t phases[] = {TM_PH_TIMER, TM_PH_MAIN, TM_PH_MAIN, TM_PH_MAIN, TM_PH_PASS, TM_PH_ACCESS};
    t->phase = phases[below(rng, (int)sizeof phases)];
    t->choice = (uint8_t)(below(rng, 3) ? TM_CH_NONE : 1 + below(rng, 4));
    t->choice_left = 1;
    t->choice_timer = 0;
    t->access = (uint8_t)below(rng, 13);
    t->taken = (uint8_t)below(rng, 32);
    /* ruling 25: half the time, focuses played and timers activated before, most of them from this
     * very position (refused now if they are returning plays), some from another */
    t->n_loop = t->loop_next = 0;
    if (below(rng, 2)) {
        uint64_t print = tm_loop_print(t);
        for (int i = 0; i < 8; i++) {
            int id = below(rng, 2) ? TM_ID_PLAY + kind_of(t, TM_FOCUS, rng) : TM_ID_ACTIVATE + below(rng, 4);
            t->loop[t->n_loop++] = tm_loop_key(below(rng, 4) ? print : print + 1, id);
        }
    }
}

/* Real positions along random games, each scrambled a few times. */
static void run(const char *options, int players, int games)
{
    asobi_rng rng;
    asobi_rng_seed(&rng, 4242u + (uint64_t)players);
    long states = 0, big = 0;
    for (int g = 0; g < games; g++) {
        asobi_state *s = new_state("timemasters", players, options, 900u + (uint64_t)g);
        int ids[TM_ACTIONS];
        for (int step = 0; !asobi_state_terminal(s); step++) {
            int seat = __builtin_ctz(asobi_state_to_move(s));
            if (step % 7 == 0)
                for (int k = 0; k < 4; k++) {
                    asobi_state *c = asobi_state_clone(s);
                    scramble(tm_of(c), &rng);
                    big += compare_picks(tm_of(c), &rng, 4) >= 20;
                    states++;
                    asobi_state_free(c);
                }
            int n = asobi_state_legal(s, seat, ids);
            asobi_state_apply_unchecked(s, seat, ids[asobi_rng_below(&rng, (uint32_t)n)]);
        }
        asobi_state_free(s);
    }
    print_message("%dp: %ld scrambled states, %ld with 20 legal actions or more\n", players, states, big);
    assert_true(big * 50 >= states); /* the large products are met, not just the small lists */
}

static char *stress_options(void)
{
    const char *dir = getenv("ASOBI_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/games/timemasters/cards_stress.json", dir ? dir : ".");
    json_t *o = json_pack("{s:s}", "cards", path);
    asobi_error err;
    if (asobi_game_options_read_files(game(), o, &err) != ASOBI_OK)
        fail_msg("%s", err.message);
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return text;
}

static void test_scrambled_positions(void **unused)
{
    (void)unused;
    char *stress = stress_options();
    for (int p = 2; p <= 4; p++) {
        run(NULL, p, test_reps(100));
        run(stress, p, test_reps(100));
    }
    free(stress);
}

/* Every timer free and every payable spell in hand: the largest product of
 * set actions. Every id of legal()'s list is drawn (none is unreachable), each
 * as legal() + rng_below would draw it. */
static void every_id_drawn(tm_state *t)
{
    asobi_rng rng;
    asobi_rng_seed(&rng, 17);
    int ids[TM_ACTIONS];
    int n = compare_picks(t, &rng, 1);
    assert_true(n >= 40);
    n = tm_legal(t, t->seat, ids);
    bool seen[TM_ACTIONS] = {false};
    for (int d = 0; d < 64 * n; d++) {
        int id = game()->random_action(t, t->seat, &rng);
        assert_true(id >= 0 && id < TM_ACTIONS && tm_is_legal(t, id));
        seen[id] = true;
    }
    for (int i = 0; i < n; i++)
        if (!seen[ids[i]])
            fail_msg("id %d of %d legal ones never drawn", ids[i], n);
}

static void full_hand_free_timers(tm_state *t, int hand_kinds)
{
    tm_player *p = &t->p[t->seat];
    int timer = kind_of(t, TM_TIMER, &(asobi_rng){{1, 2, 3, 4}});
    p->n_hand = 0;
    for (int k = t->table.kinds - 1; k >= 0 && p->n_hand < hand_kinds; k--)
        p->hand[p->n_hand++] = (uint8_t)k; /* the highest kinds: bit 63 in a set of 64 */
    p->n_timers = TM_MAX_TIMERS;
    for (int i = 0; i < TM_MAX_TIMERS; i++) {
        memset(&p->timers[i], 0, sizeof p->timers[i]);
        p->timers[i].kind = (uint8_t)timer;
        p->timers[i].number = (uint8_t)(i + 1);
    }
    p->ke_ready = TM_MAX_RECURRENT;
    p->ke_eph = TM_MAX_EPHEMERAL;
    p->cost_mod = -9;
    t->phase = TM_PH_MAIN;
    t->choice = TM_CH_NONE;
}

static void test_largest_products(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("timemasters", 2, NULL, 5);
    full_hand_free_timers(tm_of(s), 20);
    every_id_drawn(tm_of(s));
    asobi_state_free(s);

    char *stress = stress_options();
    s = new_state("timemasters", 3, stress, 6);
    full_hand_free_timers(tm_of(s), 30);
    assert_int_equal(tm_of(s)->table.kinds, TM_MAX_KINDS);
    every_id_drawn(tm_of(s));
    /* a timer in the middle full, the first and last free */
    tm_player *p = &tm_of(s)->p[tm_of(s)->seat];
    for (int i = 1; i < TM_MAX_TIMERS - 1; i++) {
        p->timers[i].n_spells = tm_of(s)->table.card[p->timers[i].kind].slots;
        p->timers[i].spells[0] = p->timers[i].spells[1] = (uint8_t)kind_of(tm_of(s), TM_SPELL, &(asobi_rng){{5, 6, 7, 8}});
    }
    asobi_rng rng;
    asobi_rng_seed(&rng, 3);
    compare_picks(tm_of(s), &rng, 200);
    free(stress);
    asobi_state_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scrambled_positions),
        cmocka_unit_test(test_largest_products),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

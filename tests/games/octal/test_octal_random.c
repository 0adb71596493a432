/* test_octal_random.c — thousands of random OCTAL games per mode and player count, invariants after every action. */
#include <stdio.h>
#include <string.h>

#include "conformance.h"
#include "repetitions.h"
#include "game_def.h"
#include "games/octal/octal.h"

typedef struct stats {
    int games, capped, blocked, overrides, lays, penalties, refills, discards, all_plays;
    int late_windows, late_declarations, covered_alls;
    int windows_kept_open; /* a pass or discard by another seat inside a late Octo! window */
    int out_max;     /* the most cards out of play (discards) at a game's end */
    long out_total;  /* summed over the games */
    long actions;
} stats;

/* 34 cards, each in exactly one place: a hand, the deck, a question stack,
 * the discards. Hands never above 5 except for the seat that must discard. */
static void invariant(const asobi_state *state, void *ctx)
{
    (void)ctx;
    const octal_state *s = asobi_state_data_for_ai(state);
    int seen[OCTAL_CARDS] = {0};
    for (int i = 0; i < s->players; i++) {
        assert_int_equal(s->hand[i] & s->discarded[i], 0);
        for (int c = 0; c < OCTAL_CARDS; c++) {
            seen[c] += (int)(s->hand[i] >> c & 1u);
            seen[c] += (int)(s->discarded[i] >> c & 1u);
        }
        assert_true((s->hand[i] >> OCTAL_CARDS) == 0 && (s->discarded[i] >> OCTAL_CARDS) == 0);
        int limit = (!s->over && s->seat == i && s->phase == OCTAL_PHASE_DISCARD) ? 6 : OCTAL_HAND_LIMIT;
        assert_true(octal_hand_size(s, i) <= limit);
        if (s->finished_rank[i])
            assert_int_equal(s->hand[i], 0);
    }
    for (int i = 0; i < s->deck_size; i++)
        seen[s->deck[i]]++;
    for (int q = 0; q < s->questions; q++) {
        const octal_stack *st = &s->stack[q];
        assert_true(st->size >= 2);
        assert_true(st->e[st->size - 1].cond_from < st->size);
        /* the condition in force is always a number card's */
        assert_false(octal_is_all(st->e[st->e[st->size - 1].cond_from].card));
        for (int i = 0; i < st->size; i++)
            seen[st->e[i].card]++;
    }
    for (int c = 0; c < OCTAL_CARDS; c++)
        if (seen[c] != 1)
            fail_msg("card %d is in %d places", c, seen[c]);
    if (s->phase == OCTAL_PHASE_DISCARD && !s->over)
        assert_true(octal_hand_size(s, s->seat) == 6);
    /* the late Octo! window: a seat holding one card, to move beside the seat to move (or it is
     * that seat: everybody else passed since, issue 30 point 5) */
    if (s->octo_late >= 0 && !s->over) {
        assert_int_equal(octal_hand_size(s, s->octo_late), 1);
        if (s->octo_late == s->seat)
            assert_int_equal(s->phase, OCTAL_PHASE_PLAY);
        assert_int_equal(asobi_state_to_move(state), (1u << s->seat) | (1u << s->octo_late));
    }
    /* what random_action reads of each question is what its stack says */
    octal_state fresh = *s;
    octal_refresh_questions(&fresh);
    assert_memory_equal(fresh.q_numbers, s->q_numbers, sizeof s->q_numbers);
    assert_memory_equal(fresh.q_all_on_top, s->q_all_on_top, sizeof s->q_all_on_top);
    assert_memory_equal(fresh.q_below, s->q_below, sizeof s->q_below);
    /* at most one ALL waits to be covered (ALL on ALL is refused) */
    int open_alls = 0;
    for (int q = 0; q < s->questions; q++)
        open_alls += octal_is_all(s->stack[q].e[s->stack[q].size - 1].card);
    assert_true(open_alls <= 1);
}

/* Every placed card answered the question it was placed on (the question of
 * the state before); overrides only from a hand of 5; Octo! penalties. */
/* legal() generates plays and overrides directly, for speed; check() in
 * octal_rules.c explains refusals. Both must name the same actions. */
static void legal_matches_explanations(const octal_state *s, int seat)
{
    static int ids[OCTAL_MAX_ACTIONS];
    int n = octal_legal(s, seat, ids), next = 0;
    char why[ASOBI_MESSAGE_MAX];
    for (int id = 0; id < OCTAL_MAX_ACTIONS; id++) {
        octal_action a;
        octal_decode(id, &a);
        assert_int_equal(octal_encode(&a), id);
        octal_why_illegal(s, seat, &a, why, sizeof why);
        bool listed = next < n && ids[next] == id;
        if (listed)
            next++;
        if (listed != (why[0] == '\0'))
            fail_msg("action %d: legal() says %d, check() says \"%s\"", id, listed, why);
    }
    assert_int_equal(next, n);
}

static void on_step(const asobi_state *before, int seat, int id, const asobi_state *after, void *ctx)
{
    stats *st = ctx;
    if (st->actions % 61 == 0)
        legal_matches_explanations(asobi_state_data_for_ai(before), seat);
    const octal_state *b = asobi_state_data_for_ai(before);
    const octal_state *a = asobi_state_data_for_ai(after);
    octal_action act;
    octal_decode(id, &act);
    st->actions++;
    if (a->last.refilled)
        st->refills++;
    /* a late window closes when another seat puts out a card (play, lay,
     * override) or the forgetful seat acts again: it drew its penalty then;
     * a pass or a discard by another seat leaves it open (issue 30 point 5) */
    bool puts_out = act.event == OCTAL_EV_PLAY || act.event == OCTAL_EV_LAY || act.event == OCTAL_EV_OVERRIDE;
    if (b->octo_late >= 0 && act.event != OCTAL_EV_DECLARE && (puts_out || seat == b->octo_late)) {
        assert_int_equal(seat, b->seat);
        assert_int_equal(a->last.penalty_seat, b->octo_late);
        if (seat != b->octo_late)
            assert_int_equal(octal_hand_size(a, b->octo_late), 1 + a->last.penalty);
        assert_true(a->last.penalty == 2 || a->deck_size == 0);
    } else if (b->octo_late >= 0 && act.event != OCTAL_EV_DECLARE) {
        st->windows_kept_open++;
        assert_int_equal(a->last.penalty, 0);
        assert_true(a->over || a->octo_late == b->octo_late);
    } else if (act.event != OCTAL_EV_DECLARE) {
        assert_int_equal(a->last.penalty, 0);
    }
    int open_before = octal_open_all(b);
    switch (act.event) {
    case OCTAL_EV_DECLARE:
        st->late_declarations++;
        assert_int_equal(seat, b->octo_late);
        assert_int_equal(a->octo_late, -1);
        assert_int_equal(a->seat, b->seat); /* the seat to move is still to move */
        assert_int_equal(octal_hand_size(a, seat), 1);
        break;
    case OCTAL_EV_PASS:
        assert_int_equal(a->passes_in_a_row, b->passes_in_a_row + 1);
        assert_int_equal(octal_hand_size(a, seat), octal_hand_size(b, seat) + a->last.drew +
                                                       (seat == b->octo_late ? a->last.penalty : 0));
        break;
    case OCTAL_EV_DISCARD:
        st->discards++;
        assert_int_equal(octal_hand_size(b, seat), 6);
        assert_int_equal(octal_hand_size(a, seat), 5);
        break;
    case OCTAL_EV_PLAY:
    case OCTAL_EV_LAY:
    case OCTAL_EV_OVERRIDE: {
        assert_int_equal(a->passes_in_a_row, 0);
        assert_int_equal(a->last_placer, seat);
        int k = a->last.ncards;
        if (act.event == OCTAL_EV_OVERRIDE) {
            st->overrides++;
            assert_int_equal(octal_hand_size(b, seat), 5);
            assert_true(k >= 2 && k <= 4);
        } else {
            assert_int_equal(k, 1);
        }
        /* §③: an ALL on top is covered by the next card placed, a number card */
        if (open_before >= 0) {
            st->covered_alls++;
            assert_int_equal(act.event, OCTAL_EV_PLAY);
            assert_int_equal(act.question, open_before);
            assert_false(octal_is_all(a->last.cards[0]));
        }
        if (act.event == OCTAL_EV_LAY) {
            st->lays++;
            /* §⑧: every other player passed twice since the last placing */
            assert_true(b->passes_in_a_row >= 2 * (octal_active_players(b) - 1) + 1);
            assert_false(octal_is_all(a->last.cards[0]));
        } else {
            for (int i = 0; i < k; i++)
                if (!octal_satisfies(b, act.question, a->last.cards[i]))
                    fail_msg("a placed card did not answer its question");
        }
        for (int i = 0; i < k; i++) {
            st->all_plays += octal_is_all(a->last.cards[i]);
            assert_true(b->hand[seat] >> a->last.cards[i] & 1u);
        }
        /* the forgetful seat acting again without declaring drew its 2 cards first (issue 30) */
        int left = octal_hand_size(b, seat) - k + (seat == b->octo_late ? a->last.penalty : 0);
        if (left == 0)
            assert_true(a->finished_rank[seat] > 0);
        for (int i = 0; i < k; i++)
            if (left == 0)
                assert_false(octal_is_all(a->last.cards[i])); /* never the last card */
        /* no penalty at once: a forgotten Octo! opens the late window */
        assert_int_equal(octal_hand_size(a, seat), left);
        if (left == 1 && !act.octo) {
            st->penalties++;
            st->late_windows++;
            assert_true(a->over || a->octo_late == seat);
        } else {
            assert_true(a->octo_late != seat);
        }
        /* ↕ pointing below: never at a fully covered card, nor an ALL */
        if (act.below) {
            const octal_stack *bs = &b->stack[act.question];
            assert_false(bs->e[bs->size - 1].exact);
            assert_false(octal_is_all(bs->e[bs->size - 2].card));
        }
        /* the question now: the new top's number, the condition it points at */
        const octal_stack *stk = &a->stack[act.question];
        assert_int_equal(stk->e[stk->size - 1].card, a->last.cards[k - 1]);
        break;
    }
    default: fail_msg("unknown action %d", id);
    }
}

static void on_end(const asobi_state *state, void *ctx)
{
    stats *st = ctx;
    const octal_state *s = asobi_state_data_for_ai(state);
    st->games++;
    st->capped += s->capped;
    st->blocked += s->blocked;
    int out = 0;
    for (int i = 0; i < s->players; i++)
        out += __builtin_popcountll(s->discarded[i]);
    st->out_total += out;
    st->out_max = out > st->out_max ? out : st->out_max;
    if (s->blocked) { /* nothing to draw or refill, and nobody holds a card to place */
        assert_int_equal(s->deck_size, 0);
        assert_int_equal(out, 0);
    }
    if (!s->capped && !s->blocked)
        assert_true(s->finished_count == s->ranks_wanted);
}

/* capped_percent: the most games the turn cap may end, in percent. */
static void run(const char *options, int players, int games, uint64_t seed, int capped_percent)
{
    stats st;
    memset(&st, 0, sizeof st);
    conformance_spec spec = {
        .game = "octal",
        .players = players,
        .options_json = options,
        .games = games,
        .seed = seed,
        .deep_every = 61,
        .max_actions_per_game = 3000,
        .invariant = invariant,
        .on_step = on_step,
        .on_end = on_end,
        .ctx = &st,
    };
    conformance_run(&spec);
    print_message("%s %d players: %d games, %.1f actions/game, %d capped, %d blocked, %d overrides, %d lays, "
                  "%d placings without Octo! (%d declared late, %d windows kept open by a pass), %d refills, %d discards, %d ALLs placed "
                  "(%d covered), cards out of play at the end: mean %.2f, max %d\n",
                  options, players, st.games, (double)st.actions / st.games, st.capped, st.blocked, st.overrides,
                  st.lays, st.penalties, st.late_declarations, st.windows_kept_open, st.refills, st.discards, st.all_plays,
                  st.covered_alls, (double)st.out_total / st.games, st.out_max);
    assert_true(st.late_declarations > 0 && st.covered_alls > 0 && st.windows_kept_open > 0);
    assert_true(st.capped * 100 <= st.games * capped_percent); /* the cap is a safety net, not the ending */
}

static void test_twin_3_to_5_players(void **unused)
{
    (void)unused;
    for (int p = 3; p <= 5; p++)
        run("{\"mode\":\"twin\"}", p, test_reps(500), 100u * (uint64_t)p, 2);
}

static void test_single_3_to_6_players(void **unused)
{
    (void)unused;
    for (int p = 3; p <= 6; p++)
        run("{\"mode\":\"single\"}", p, test_reps(500), 200u * (uint64_t)p, 2);
}

static void test_playing_on_to_third_place(void **unused)
{
    (void)unused;
    /* Playing on for 3rd place with random players takes long: with the
     * discards back in the deck (issue 11) the cap ended 8 of 1000 games of
     * single mode, 6 players, ranks 3 (0.8%); 120 games may see a few.
     * Under the sanitizers a third of them: the statistics are the normal
     * build's, the code paths the same (40 games still see every counted kind). */
    int games = test_reps(120) < 40 ? 40 : test_reps(120);
    run("{\"mode\":\"twin\",\"ranks\":3}", 5, games, 300, 5);
    run("{\"mode\":\"single\",\"ranks\":2}", 6, games, 400, 5);
    run("{\"mode\":\"single\",\"ranks\":3}", 6, games, 500, 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_twin_3_to_5_players),
        cmocka_unit_test(test_single_3_to_6_players),
        cmocka_unit_test(test_playing_on_to_third_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_ismcts_sequential.c — ismcts at sequential nodes, on a tiny test-only game (Nim) with a known answer. */
#include <stddef.h>
#include <stdio.h>

#include "conformance.h"
#include "game_def.h"

/* Nim: a pile of stones, the seats take 1 to 3 in turn, who takes the last
 * stone wins. The winning move leaves a multiple of 4. PSYCLE only has
 * simultaneous choices, so this game is what exercises the sequential
 * (UCB with availability) half of the search. Action id k = take k+1. */
typedef struct nim_state {
    asobi_rng rng;
    int pile, turn, winner;
} nim_state;

static int nim_init(void *st, int players, const json_t *options, uint64_t seed, asobi_error *err)
{
    (void)players;
    (void)options;
    (void)err;
    nim_state *s = st;
    asobi_rng_seed(&s->rng, seed);
    s->pile = 5 + (int)(seed % 9);
    s->winner = -1;
    return ASOBI_OK;
}
static uint32_t nim_to_move(const void *st)
{
    const nim_state *s = st;
    return s->pile > 0 ? 1u << s->turn : 0;
}
static int nim_legal(const void *st, int seat, int *ids)
{
    (void)seat;
    const nim_state *s = st;
    int n = 0;
    for (int k = 0; k < 3 && k < s->pile; k++)
        ids[n++] = k;
    return n;
}
static void nim_apply(void *st, int seat, int id)
{
    nim_state *s = st;
    s->pile -= id + 1;
    if (s->pile == 0)
        s->winner = seat;
    s->turn = 1 - s->turn;
}
static int nim_text(const void *st, int seat, int id, char *buf, size_t cap)
{
    (void)st;
    (void)seat;
    return snprintf(buf, cap, "take %d", id + 1);
}
static void nim_result(const void *st, asobi_result *out)
{
    const nim_state *s = st;
    for (int i = 0; i < 2; i++)
        out->score[i] = s->winner == i;
    asobi_rank_by_score(out);
}
static void nim_view(const void *st, int seat, asobi_vw *w)
{
    (void)seat;
    vw_int(w, "pile", ((const nim_state *)st)->pile);
}
static void nim_render(const void *st, int seat, FILE *out)
{
    (void)seat;
    fprintf(out, "%d\n", ((const nim_state *)st)->pile);
}
static void nim_determinize(void *st, int viewer, asobi_rng *rng)
{
    (void)st;
    (void)viewer;
    (void)rng;
}

static const asobi_game_def nim = {
    .name = "nim",
    .title = "Nim",
    .min_players = 2,
    .max_players = 2,
    .state_size = sizeof(nim_state),
    .rng_offset = offsetof(nim_state, rng),
    .max_actions = 3,
    .init = nim_init,
    .to_move = nim_to_move,
    .legal = nim_legal,
    .apply = nim_apply,
    .action_text = nim_text,
    .result = nim_result,
    .view = nim_view,
    .render = nim_render,
    .determinize = nim_determinize,
};

/* From every pile that is not a multiple of 4, ismcts finds the move that
 * leaves one (the only winning move), for both seats: the information-set
 * search, and the determinized one (worlds=, whose worlds all agree here:
 * Nim hides nothing, so three searches of 1,000 iterations must vote for
 * the same winning move). */
static void test_ismcts_finds_the_winning_nim_move(void **unused)
{
    (void)unused;
    static const char *const specs[] = {"ismcts:iters=3000", "ismcts:iters=3000,worlds=3"};
    for (uint64_t seed = 0; seed < 18; seed++) {
        const char *spec = specs[seed % 2];
        asobi_error err;
        asobi_state *s = asobi_state_new(&nim, 2, NULL, seed, &err);
        assert_non_null(s);
        const nim_state *ns = asobi_state_data_for_ai(s);
        if (ns->pile % 4 == 0) {
            asobi_state_free(s);
            continue;
        }
        for (int seat = 0; seat < 2; seat++) {
            if (seat == 1) { /* let seat 0 make a losing move first */
                asobi_state *t = s;
                int id = -1;
                for (int k = 0; k < 3; k++)
                    if ((ns->pile - (k + 1)) % 4 != 0 && ns->pile - (k + 1) > 0)
                        id = k;
                if (id < 0)
                    break;
                assert_int_equal(asobi_state_apply(t, 0, id, &err), ASOBI_OK);
            }
            asobi_bot *b = asobi_bot_new(spec, &nim, 2, seat, seed, &err);
            assert_non_null(b);
            int id = asobi_bot_choose(b, s, &err);
            assert_int_equal((ns->pile - (id + 1)) % 4, 0);
            asobi_bot_free(b);
        }
        asobi_state_free(s);
    }
}

/* Whole games of Nim between search bots: legal, reproducible, and the
 * seat that starts on a pile not divisible by 4 wins. */
static void test_ismcts_plays_nim_perfectly(void **unused)
{
    (void)unused;
    for (uint64_t seed = 0; seed < 9; seed++) {
        asobi_error err;
        asobi_state *s = asobi_state_new(&nim, 2, NULL, seed, &err);
        int start = ((const nim_state *)asobi_state_data_for_ai(s))->pile;
        asobi_bot *bots[2] = {asobi_bot_new("ismcts:iters=3000", &nim, 2, 0, 1, &err),
                              asobi_bot_new("ismcts:iters=3000,c=1.0", &nim, 2, 1, 2, &err)};
        while (!asobi_state_terminal(s)) {
            int seat = asobi_state_to_move(s) == 1u ? 0 : 1;
            int id = asobi_bot_choose(bots[seat], s, &err);
            assert_int_equal(asobi_state_apply(s, seat, id, &err), ASOBI_OK);
        }
        asobi_result r;
        asobi_state_result(s, &r);
        assert_int_equal(r.winners, start % 4 ? 1u : 2u);
        asobi_bot_free(bots[0]);
        asobi_bot_free(bots[1]);
        asobi_state_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ismcts_finds_the_winning_nim_move),
        cmocka_unit_test(test_ismcts_plays_nim_perfectly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

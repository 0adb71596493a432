/* test_ninja_view.c — the view fields fixed by issue 4, in every phase, and what each seat may see of them. */
#include "ninja_test.h"

static void has(json_t *o, const char *key)
{
    if (!json_object_get(o, key))
        fail_msg("the view has no \"%s\"", key);
}

/* Every field the issue names, with its type. */
static void check_fields(json_t *v, int positions, bool shadow)
{
    static const char *const top[] = {"game", "seat", "to_move", "round", "phase", "trump",
                                      "start_player", "trick", "pile_size", "players"};
    for (size_t i = 0; i < sizeof top / sizeof top[0]; i++)
        has(v, top[i]);
    assert_string_equal(json_string_value(json_object_get(v, "game")), "ninja");
    const char *phase = json_string_value(json_object_get(v, "phase"));
    assert_non_null(phase);
    assert_true(strcmp(phase, "trump") == 0 || strcmp(phase, "open") == 0 || strcmp(phase, "scroll") == 0 ||
                strcmp(phase, "flip") == 0 || strcmp(phase, "battle") == 0 || strcmp(phase, "over") == 0);
    json_t *trump = json_object_get(v, "trump");
    assert_true(json_is_null(trump) || json_is_string(trump));
    assert_true(json_is_integer(json_object_get(v, "start_player")));
    assert_true(json_is_integer(json_object_get(v, "pile_size")));
    json_t *trick = json_object_get(v, "trick");
    assert_true(json_is_array(trick));
    for (size_t i = 0; i < json_array_size(trick); i++) {
        json_t *e = json_array_get(trick, i);
        has(e, "seat");
        has(e, "card");
        has(e, "scroll");
    }
    json_t *players = json_object_get(v, "players");
    assert_int_equal(json_array_size(players), (size_t)positions);
    for (int p = 0; p < positions; p++) {
        json_t *e = json_array_get(players, (size_t)p);
        static const char *const keys[] = {"seat", "hand", "hand_size", "open", "won", "points", "shadow"};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            has(e, keys[i]);
        assert_int_equal(json_integer_value(json_object_get(e, "seat")), p);
        assert_int_equal(json_is_true(json_object_get(e, "shadow")), shadow && p == positions - 1);
        json_t *hand = json_object_get(e, "hand");
        assert_true(json_is_null(hand) || json_is_array(hand));
        json_t *open = json_object_get(e, "open");
        for (size_t i = 0; i < json_array_size(open); i++) {
            json_t *o = json_array_get(open, i);
            has(o, "card");
            has(o, "scroll");
            json_t *sc = json_object_get(o, "scroll");
            assert_true(json_is_null(sc) || json_is_integer(sc) ||
                        (json_is_string(sc) && strcmp(json_string_value(sc), "hidden") == 0));
        }
        json_t *won = json_object_get(e, "won");
        assert_true(json_is_array(won));
        int sum = 0;
        for (size_t i = 0; i < json_array_size(won); i++)
            sum += (int)json_integer_value(json_array_get(won, i));
        assert_int_equal(sum, json_integer_value(json_object_get(e, "points")));
    }
}

/* Every phase of a game, for 2 (the shadow) to 5 players, in every seat's
 * view and the all-seeing one. */
static void test_view_fields_in_every_phase(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 5; players++) {
        asobi_state *st = new_state("ninja", players, NULL, 21 + (uint64_t)players);
        int positions = players == 2 ? 3 : players;
        asobi_rng rng;
        asobi_rng_seed(&rng, 4);
        uint32_t phases = 0;
        for (;;) {
            const ninja_state *s = ns(st);
            phases |= 1u << s->phase;
            for (int seat = -1; seat < players; seat++) {
                json_t *v = asobi_state_view(st, seat);
                check_fields(v, positions, players == 2);
                json_t *me = seat >= 0 ? view_player(v, seat) : NULL;
                if (me)
                    assert_true(json_is_array(json_object_get(me, "hand")));
                json_decref(v);
            }
            if (asobi_state_terminal(st))
                break;
            int seat = __builtin_ctz(asobi_state_to_move(st));
            int id = ninja_heuristic(s, seat, &rng);
            assert_int_equal(asobi_state_apply(st, seat, id, NULL), ASOBI_OK);
        }
        /* trump, open, scroll, battle, over always; flip in rounds 2-3 unless the shadow ended it */
        assert_true((phases & 0x37u) == 0x37u);
        if (!ns(st)->shadow_won)
            assert_true(phases & (1u << NINJA_PHASE_FLIP));
        asobi_state_free(st);
    }
}

/* The render names the phase and marks hidden things as such. */
static void test_render(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("ninja", 2, "{\"start_player\": 0}", 2);
    apply_text(st, 0, "trump fire");
    char *text = asobi_state_render(st, 1);
    assert_non_null(strstr(text, "open phase"));
    assert_non_null(strstr(text, "trump: fire"));
    assert_non_null(strstr(text, "shadow"));
    assert_non_null(strstr(text, "[?]"));     /* the shadow's face-down tiles */
    assert_non_null(strstr(text, "##"));      /* its face-down row */
    assert_non_null(strstr(text, "7 closed cards"));
    free(text);
    asobi_state_free(st);
}

/* seed 002: the tiles are laid 「裏向きで」 (face down). Announcing the action
 * to the other seats must say on which card, never which tile. */
static void test_laying_a_tile_is_announced_face_down(void **unused)
{
    (void)unused;
    asobi_state *s = new_state("ninja", 3, NULL, 8);
    int ids[NINJA_MAX_ACTIONS];
    asobi_rng rng;
    asobi_rng_seed(&rng, 1);
    int checked = 0;
    while (!asobi_state_terminal(s)) {
        const ninja_state *n = asobi_state_data_for_ai(s);
        int seat = __builtin_ctz(asobi_state_to_move(s));
        int count = asobi_state_legal(s, seat, ids);
        if (n->phase == NINJA_PHASE_SCROLL)
            for (int i = 0; i < count; i++) {
                char mine[128], theirs[128];
                asobi_state_public_text(s, seat, ids[i], seat, mine, sizeof mine);
                asobi_state_public_text(s, seat, ids[i], (seat + 1) % 3, theirs, sizeof theirs);
                assert_non_null(strstr(mine, "scroll "));
                assert_non_null(strstr(theirs, "face down on "));
                assert_null(strchr(theirs, '+'));
                checked++;
            }
        asobi_state_apply_unchecked(s, seat, ids[asobi_rng_below(&rng, (uint32_t)count)]);
    }
    assert_true(checked > 0);
    asobi_state_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_view_fields_in_every_phase),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_laying_a_tile_is_announced_face_down),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_take_back.c — taking back over every game: views return byte for byte, what made something known is refused, what made nothing known is allowed (issue 44). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"
#include "game_def.h"
#include "repetitions.h"

/* Other deals tried per viewer when judging whether an action made
 * something known to it. */
#define DEALS 3

static asobi_match *new_match(const char *game, int players, uint64_t seed)
{
    asobi_error err;
    asobi_match *m = asobi_match_new(game, players, NULL, seed, &err);
    if (!m)
        fail_msg("%s: %s", game, err.message);
    return m;
}

static char *view_of(const asobi_state *s, int viewer) { return asobi_state_view_text(s, viewer, NULL); }

/* Did the action draw from chance? The state's own generator is read
 * through the game's table (internal: game_def.h), as no view shows it. */
static bool drew_on_chance(const asobi_state *before, const asobi_state *after)
{
    const asobi_game_def *def = asobi_state_game(before);
    const unsigned char *a = asobi_state_data_for_ai(before), *b = asobi_state_data_for_ai(after);
    return memcmp(a + def->rng_offset, b + def->rng_offset, sizeof(asobi_rng)) != 0;
}

/* The test's own judgment, independent of the library's rule: did seat's
 * action id, taken in before and giving after, make something known to
 * viewer? viewer could not tell before from another deal (a determinization
 * for it); if in such a deal an action of seat announced to viewer in the
 * same words leaves viewer another view than the real one, the action told
 * viewer which deal it is in. */
static bool reveals_to(const asobi_state *before, int seat, int id, const asobi_state *after, int viewer,
                       asobi_rng *rng)
{
    char said[256], there[256];
    asobi_state_public_text(before, seat, id, viewer, said, sizeof said);
    char *want = view_of(after, viewer);
    int max = asobi_game_max_actions(asobi_state_game(before));
    int *ids = malloc((size_t)max * sizeof *ids);
    bool revealed = false;
    for (int deal = 0; deal < DEALS && !revealed; deal++) {
        asobi_state *d = asobi_state_clone(before);
        determinize_for_viewer(d, viewer, rng);
        int n = asobi_state_legal(d, seat, ids);
        for (int i = 0; i < n && !revealed; i++) {
            asobi_state_public_text(d, seat, ids[i], viewer, there, sizeof there);
            if (strcmp(said, there) != 0)
                continue;
            asobi_state *e = asobi_state_clone(d);
            asobi_state_apply_unchecked(e, seat, ids[i]);
            char *got = view_of(e, viewer);
            revealed = strcmp(got, want) != 0;
            free(got);
            asobi_state_free(e);
        }
        asobi_state_free(d);
    }
    free(ids);
    free(want);
    return revealed;
}

/* The rule's letter is stricter than what a viewer can tell: a tile turned
 * up or a card drawn is final even when every viewer could have deduced it
 * (a seat's last face-down tile, of a set all know; a deck's last card).
 * Actions whose events (docs/protocol.md, "Events") turn up, take face up,
 * draw or reshuffle something are therefore not required to be allowed,
 * though they must still be refused when they made something known. */
static bool turns_or_draws(const asobi_state *before, int seat, int id, const asobi_state *after)
{
    static const char *const types[] = {"tile_flipped", "trick_won", "shadow_opens", "shadow_tile_up", "tiles_drawn",
                                        "shadow_row", "draw", "penalty", "refill", "reshuffle", "card_taken",
                                        "sphere_top", "timer_discarded", "reveal", "round_start", NULL};
    json_t *events = asobi_state_events(before, seat, id, after, ASOBI_ALL_SEEING);
    bool found = false;
    for (size_t i = 0; i < json_array_size(events) && !found; i++) {
        const char *type = json_string_value(json_object_get(json_array_get(events, i), "type"));
        for (int t = 0; types[t] && !found; t++)
            found = strcmp(type, types[t]) == 0;
    }
    json_decref(events);
    return found;
}

/* The viewers whose views must come back: every seat, the spectator, the all-seeing. */
static int first_viewer(void) { return ASOBI_SPECTATOR; }

static void assert_views_equal(const asobi_state *got, const asobi_state *want, const char *what)
{
    for (int v = first_viewer(); v < asobi_state_players(want); v++) {
        char *a = view_of(got, v), *b = view_of(want, v);
        if (strcmp(a, b) != 0)
            fail_msg("%s: the view of viewer %d differs after the take-back:\n%s\ninstead of\n%s", what, v, a, b);
        free(a);
        free(b);
    }
}

/* The record of m replays to m's state, byte for byte. */
static void assert_record_replays(const asobi_match *m)
{
    size_t len;
    char *text = asobi_match_record_text(m, &len);
    asobi_error err;
    asobi_match *again = asobi_match_read(text, len, &err);
    if (!again)
        fail_msg("the record after a take-back does not replay: %s", err.message);
    assert_true(asobi_state_equal(asobi_match_state(again), asobi_match_state(m)));
    asobi_match_free(again);
    free(text);
}

/* A refusal changes nothing: the record and the state stay byte for byte. */
static void assert_undo_refused(asobi_match *m, int seat)
{
    asobi_state *was = asobi_state_clone(asobi_match_state(m));
    char *record = asobi_match_record_text(m, NULL);
    asobi_error err;
    assert_int_equal(asobi_match_undo(m, seat, &err), ASOBI_E_UNDO_NOT_ALLOWED);
    assert_string_equal(asobi_code_name(err.code), "undo_not_allowed");
    assert_true(err.message[0] != '\0');
    assert_true(asobi_state_equal(asobi_match_state(m), was));
    char *now = asobi_match_record_text(m, NULL);
    assert_string_equal(now, record);
    free(now);
    free(record);
    asobi_state_free(was);
}

typedef struct take_back_counts {
    long actions, allowed, taken_back, revealing, turn_ends, withdrawn_early;
} take_back_counts;

/* Does seat's action leave it to move, as the rule means it: the same seats
 * to move and it among them; or, in a simultaneous step of a game with
 * independent choices, the step still open without it. */
static bool leaves_mover_to_move(const asobi_state *before, int seat, const asobi_state *after)
{
    uint32_t was = asobi_state_to_move(before), now = asobi_state_to_move(after), me = 1u << seat;
    if (now == 0)
        return false;
    if (now == was && (now & me))
        return true;
    return asobi_state_game(before)->choices_independent && __builtin_popcount(was) > 1 && now == (was & ~me);
}

/* One random game of m, checking the rule at every action:
 *  - an action that made something known to some viewer (or drew on
 *    chance) is refused; one that made nothing known and left the mover to
 *    move is allowed; one that did not leave the mover to move is refused;
 *  - nobody else may take anything back, but for the other choices of an
 *    open simultaneous step;
 *  - a take-back (made at random, sometimes several in a row) brings every
 *    viewer's view back to what it was, byte for byte, the state too, and
 *    leaves a record that replays to it; redoing the action gives the state
 *    after it again;
 *  - a refusal changes nothing. */
static void play_and_take_back(const char *game, int players, uint64_t seed, take_back_counts *c)
{
    asobi_match *m = new_match(game, players, seed);
    const asobi_game_def *def = asobi_state_game(asobi_match_state(m));
    int max = asobi_game_max_actions(def), cap = 20000;
    int *ids = malloc((size_t)max * sizeof *ids);
    asobi_state **at = calloc((size_t)cap + 1, sizeof *at); /* at[i]: the state after i actions */
    asobi_rng rng;
    asobi_rng_seed(&rng, seed * 7919u + 1);
    at[0] = asobi_state_clone(asobi_match_state(m));
    char what[400];
    while (!asobi_state_terminal(asobi_match_state(m))) {
        int length = asobi_match_length(m);
        assert_true(length < cap);
        const asobi_state *now = asobi_match_state(m);
        uint32_t to_move = asobi_state_to_move(now);
        int pick = (int)asobi_rng_below(&rng, (uint32_t)__builtin_popcount(to_move)), seat = 0;
        for (uint32_t t = to_move;; t &= t - 1)
            if (pick-- == 0) {
                seat = __builtin_ctz(t);
                break;
            }
        int n = asobi_state_legal(now, seat, ids);
        int id = ids[asobi_rng_below(&rng, (uint32_t)n)];
        char text[256];
        asobi_state_action_text(now, seat, id, text, sizeof text);
        snprintf(what, sizeof what, "%s, %d players, seed %llu, action %d (seat %d: \"%s\")", game, players,
                 (unsigned long long)seed, length + 1, seat, text);
        asobi_state *before = asobi_state_clone(now);
        assert_int_equal(asobi_match_act(m, seat, id, NULL), ASOBI_OK);
        const asobi_state *after = asobi_match_state(m);
        c->actions++;

        bool chance = drew_on_chance(before, after), revealed = chance;
        for (int v = first_viewer(); v < players && !revealed; v++)
            if (v != ASOBI_ALL_SEEING)
                revealed = reveals_to(before, seat, id, after, v, &rng);
        bool stays = leaves_mover_to_move(before, seat, after);
        bool can = asobi_match_can_undo(m, seat);
        if (revealed && can)
            fail_msg("%s made something known (%s) and may be taken back", what,
                     chance ? "it drew on chance" : "a viewer's view differs in another deal");
        if (!revealed && stays && !can && !turns_or_draws(before, seat, id, after))
            fail_msg("%s made nothing known and left the mover to move, but may not be taken back", what);
        if (!stays && can)
            fail_msg("%s did not leave the mover to move, but may be taken back", what);
        c->revealing += revealed;
        c->turn_ends += !revealed && !stays;
        c->allowed += can;
        for (int j = 0; j < players; j++)
            if (j != seat && asobi_match_can_undo(m, j) &&
                !(def->choices_independent && (to_move & (1u << j)) == 0 && (asobi_state_to_move(after) & (1u << j)) == 0))
                fail_msg("%s: seat %d may take back an action although seat %d has acted since", what, j, seat);
        if (!can)
            assert_undo_refused(m, seat);
        at[length + 1] = asobi_state_clone(after);

        /* an earlier choice of the same simultaneous step, withdrawn (on a copy) */
        for (int j = 0; j < players; j++) {
            int index = asobi_match_undo_index(m, j);
            if (j == seat || index < 0)
                continue;
            asobi_match *copy = asobi_match_prefix(m, -1, NULL);
            assert_int_equal(asobi_match_undo(copy, j, NULL), ASOBI_OK);
            assert_int_equal(asobi_match_length(copy), length);
            assert_true(asobi_state_to_move(asobi_match_state(copy)) & (1u << j));
            assert_record_replays(copy);
            asobi_match_free(copy);
            c->withdrawn_early++;
        }

        if (can && asobi_rng_below(&rng, 2) == 0) {
            /* take back, and now and then the actions before it as well */
            do {
                int l = asobi_match_length(m);
                assert_int_equal(asobi_match_undo(m, seat, NULL), ASOBI_OK);
                assert_int_equal(asobi_match_length(m), l - 1);
                assert_views_equal(asobi_match_state(m), at[l - 1], what);
                assert_true(asobi_state_equal(asobi_match_state(m), at[l - 1]));
                c->taken_back++;
            } while (asobi_match_can_undo(m, seat) && asobi_rng_below(&rng, 3) == 0);
            assert_record_replays(m);
            if (asobi_match_length(m) == length && asobi_rng_below(&rng, 2) == 0) {
                assert_int_equal(asobi_match_act(m, seat, id, NULL), ASOBI_OK);
                assert_true(asobi_state_equal(asobi_match_state(m), at[length + 1]));
            }
            for (int i = asobi_match_length(m) + 1; i <= length + 1; i++) {
                asobi_state_free(at[i]);
                at[i] = NULL;
            }
        }
        asobi_state_free(before);
    }
    assert_undo_refused(m, 0); /* the game is over */
    assert_record_replays(m);
    for (int i = 0; i <= cap; i++)
        asobi_state_free(at[i]);
    free(at);
    free(ids);
    asobi_match_free(m);
}

static void test_every_game_takes_back_exactly_what_made_nothing_known(void **unused)
{
    (void)unused;
    for (int g = 0; g < asobi_game_count(); g++) {
        const asobi_game_def *def = asobi_game_at(g);
        for (int p = asobi_game_min_players(def); p <= asobi_game_max_players(def); p++) {
            take_back_counts c = {0};
            int games = test_reps(3);
            for (int i = 0; i < games; i++)
                play_and_take_back(asobi_game_name(def), p, 4400u + 100u * (uint64_t)p + (uint64_t)i, &c);
            print_message("%s %dp: %ld actions, %ld could be taken back (%ld taken back, %ld earlier choices "
                          "withdrawn), %ld made something known, %ld ended the turn\n",
                          asobi_game_name(def), p, c.actions, c.allowed, c.taken_back, c.withdrawn_early,
                          c.revealing, c.turn_ends);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_game_takes_back_exactly_what_made_nothing_known),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

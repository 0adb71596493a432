/* test_take_back.c — taking back over every game: views return byte for byte, what made something known is refused, what made nothing known is allowed (issue 44). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"
#include "game_def.h"
#include "games/ninja/ninja.h"
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

/* Play m at random (the lowest seat to move) until an action whose text
 * starts with prefix is legal for the seat to move; returns that seat and
 * the action's id in *id, -1 if the game ended first. */
static int play_until(asobi_match *m, asobi_rng *rng, const char *prefix, int *id)
{
    const asobi_state *s = asobi_match_state(m);
    int max = asobi_game_max_actions(asobi_state_game(s));
    int *ids = malloc((size_t)max * sizeof *ids);
    char text[256];
    int found = -1;
    while (found < 0 && !asobi_state_terminal(s)) {
        int seat = __builtin_ctz(asobi_state_to_move(s));
        int n = asobi_state_legal(s, seat, ids);
        for (int i = 0; i < n && found < 0; i++) {
            asobi_state_action_text(s, seat, ids[i], text, sizeof text);
            if (strncmp(text, prefix, strlen(prefix)) == 0) {
                found = seat;
                *id = ids[i];
            }
        }
        if (found < 0)
            assert_int_equal(asobi_match_act(m, seat, ids[asobi_rng_below(rng, (uint32_t)n)], NULL), ASOBI_OK);
    }
    free(ids);
    return found;
}

/* Does the all-seeing viewer's account of the action hold an event of type? */
static bool has_event(const asobi_state *before, int seat, int id, const asobi_state *after, const char *type)
{
    json_t *events = asobi_state_events(before, seat, id, after, ASOBI_ALL_SEEING);
    bool found = false;
    for (size_t i = 0; i < json_array_size(events); i++)
        found |= strcmp(json_string_value(json_object_get(json_array_get(events, i), "type")), type) == 0;
    json_decref(events);
    return found;
}

/* Issue 44 §7's examples for Time Masters: a play, a set or a payment
 * choice before a draw may be taken back; a spell that draws, and the end
 * of the turn (sphere access done: the hand is refilled, the next seat
 * plays), may not. Over random games, each kind is met and judged so. */
static void test_timemasters_play_set_and_payment_before_a_draw(void **unused)
{
    (void)unused;
    const char *kinds[] = {"play ", "set ", "pay ", "done"};
    int allowed[4] = {0}, drew = 0, turn_ended = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        asobi_match *m = new_match("timemasters", 2 + (int)(seed % 3), seed);
        asobi_rng rng;
        asobi_rng_seed(&rng, seed);
        for (int k = 0; k < 4; k++) {
            int id, seat = play_until(m, &rng, kinds[k], &id);
            if (seat < 0)
                break;
            asobi_state *before = asobi_state_clone(asobi_match_state(m));
            assert_int_equal(asobi_match_act(m, seat, id, NULL), ASOBI_OK);
            const asobi_state *after = asobi_match_state(m);
            bool can = asobi_match_can_undo(m, seat);
            bool draws = has_event(before, seat, id, after, "draw") || has_event(before, seat, id, after, "reshuffle");
            bool stays = asobi_state_to_move(after) == asobi_state_to_move(before);
            if (draws || !stays) {
                assert_false(can);
                assert_undo_refused(m, seat);
                drew += draws;
                turn_ended += !stays;
            } else if (!has_event(before, seat, id, after, "card_taken") &&
                       !has_event(before, seat, id, after, "timer_discarded")) {
                assert_true(can);
                allowed[k]++;
                assert_int_equal(asobi_match_undo(m, seat, NULL), ASOBI_OK);
                assert_views_equal(asobi_match_state(m), before, "a Time Masters take-back");
                assert_int_equal(asobi_match_act(m, seat, id, NULL), ASOBI_OK);
            }
            asobi_state_free(before);
        }
        asobi_match_free(m);
    }
    print_message("allowed: %d plays, %d sets, %d payments, %d ends of the main phase; refused: %d that drew, "
                  "%d that ended the turn\n", allowed[0], allowed[1], allowed[2], allowed[3], drew, turn_ended);
    for (int k = 0; k < 4; k++)
        assert_true(allowed[k] > 0);
    assert_true(drew > 0 && turn_ended > 0);
}

/* Issue 44 §7: NINJA's scroll tiles are laid one at a time within a turn
 * (preparation 4), each taken back while the seat is still laying; the
 * last one passes the turn: a move that ends the turn is final. */
static void test_ninja_scroll_tiles_within_a_turn(void **unused)
{
    (void)unused;
    asobi_match *m = new_match("ninja", 3, 11);
    asobi_rng rng;
    asobi_rng_seed(&rng, 3);
    int id, seat = play_until(m, &rng, "scroll", &id);
    assert_true(seat >= 0);
    asobi_state *start = asobi_state_clone(asobi_match_state(m));
    assert_int_equal(asobi_match_act(m, seat, id, NULL), ASOBI_OK);
    assert_true(asobi_match_can_undo(m, seat));
    asobi_state *one = asobi_state_clone(asobi_match_state(m));
    assert_int_equal(play_until(m, &rng, "scroll", &id), seat);
    assert_int_equal(asobi_match_act(m, seat, id, NULL), ASOBI_OK);
    for (int other = 0; other < 3; other++)
        assert_true(asobi_match_can_undo(m, other) == (other == seat));
    /* two take-backs: the second tile, then the first */
    assert_int_equal(asobi_match_undo(m, seat, NULL), ASOBI_OK);
    assert_views_equal(asobi_match_state(m), one, "the second tile taken back");
    assert_int_equal(asobi_match_undo(m, seat, NULL), ASOBI_OK);
    assert_views_equal(asobi_match_state(m), start, "the first tile taken back");
    assert_true(asobi_state_equal(asobi_match_state(m), start));
    assert_undo_refused(m, seat); /* its last action, the card it opened, passed the turn */
    /* the three tiles laid: the last one passes the turn, final */
    for (int t = 0; t < 3; t++) {
        assert_int_equal(play_until(m, &rng, "scroll", &id), seat);
        assert_int_equal(asobi_match_act(m, seat, id, NULL), ASOBI_OK);
    }
    assert_false(asobi_state_to_move(asobi_match_state(m)) & (1u << seat));
    assert_undo_refused(m, seat);
    asobi_error err;
    asobi_match_undo(m, seat, &err);
    assert_non_null(strstr(err.message, "ended the turn"));
    assert_record_replays(m);
    asobi_state_free(one);
    asobi_state_free(start);
    asobi_match_free(m);
}

/* Issue 44 §7: PSYCLE's face-down choice may be changed until the last
 * seat has chosen, even after another seat's choice of the same round: the
 * state is then the one the other choices alone give. The last choice
 * reveals the round: nobody may take anything back. */
static void test_psycle_face_down_choice_until_the_last_seat_has_chosen(void **unused)
{
    (void)unused;
    asobi_match *m = new_match("psycle", 4, 8), *only = new_match("psycle", 4, 8);
    assert_int_equal(asobi_match_act_text(m, 0, "play 5", NULL), ASOBI_OK);
    assert_int_equal(asobi_match_act_text(m, 1, "play 0", NULL), ASOBI_OK);
    assert_int_equal(asobi_match_act_text(m, 2, "play 3", NULL), ASOBI_OK);
    assert_true(asobi_match_can_undo(m, 0) && asobi_match_can_undo(m, 1) && asobi_match_can_undo(m, 2));
    assert_undo_refused(m, 3); /* it has not chosen */
    assert_int_equal(asobi_match_undo(m, 1, NULL), ASOBI_OK);
    assert_int_equal(asobi_match_act_text(only, 0, "play 5", NULL), ASOBI_OK);
    assert_int_equal(asobi_match_act_text(only, 2, "play 3", NULL), ASOBI_OK);
    assert_true(asobi_state_equal(asobi_match_state(m), asobi_match_state(only)));
    assert_views_equal(asobi_match_state(m), asobi_match_state(only), "seat 1's choice withdrawn");
    assert_record_replays(m);
    assert_int_equal(asobi_match_act_text(m, 1, "play 4", NULL), ASOBI_OK);
    assert_int_equal(asobi_match_act_text(m, 3, "play 2", NULL), ASOBI_OK); /* the last: revealed */
    for (int seat = 0; seat < 4; seat++)
        assert_undo_refused(m, seat);
    asobi_match_free(only);
    asobi_match_free(m);
}

/* The game-agnostic half: whatever a game's hook says, an action after
 * which the state's own generator has moved drew on chance, and is final;
 * so is one that ends the game. The games' hooks refuse every such action
 * of theirs already, so this is checked on a quiet action with the
 * generator moved by hand. */
static void test_chance_is_final_whatever_the_game_says(void **unused)
{
    (void)unused;
    asobi_state *before = new_state("ninja", 3, NULL, 11), *after = asobi_state_clone(before);
    int seat = __builtin_ctz(asobi_state_to_move(before)), ids[NINJA_MAX_ACTIONS];
    assert_true(asobi_state_legal(before, seat, ids) > 0);
    int id = ids[0]; /* the trump, with 3 players a step within the start player's turn */
    asobi_state_apply_unchecked(after, seat, id);
    const char *why = NULL;
    assert_int_equal(asobi_take_back_kind(before, seat, id, after, &why), ASOBI_TB_STAYS);
    const asobi_game_def *def = asobi_state_game(after);
    asobi_rng *own = (asobi_rng *)(void *)((unsigned char *)asobi_state_data_mut(after) + def->rng_offset);
    asobi_rng_next(own);
    assert_int_equal(asobi_take_back_kind(before, seat, id, after, &why), ASOBI_TB_FINAL);
    assert_non_null(strstr(why, "chance"));
    asobi_state_free(after);
    asobi_state_free(before);
}

/* Refusals say why, and change nothing (assert_undo_refused). */
static void test_refusals_say_why(void **unused)
{
    (void)unused;
    asobi_match *m = new_match("ninja", 3, 11);
    asobi_error err;
    const struct {
        int seat;
        const char *says;
    } before_any[] = {{0, "has not acted"}, {-1, "does not exist"}, {3, "does not exist"}};
    for (int i = 0; i < 3; i++) {
        assert_undo_refused(m, before_any[i].seat);
        asobi_match_undo(m, before_any[i].seat, &err);
        assert_non_null(strstr(err.message, before_any[i].says));
    }
    asobi_rng rng;
    asobi_rng_seed(&rng, 3);
    int id, seat = play_until(m, &rng, "scroll", &id);
    assert_int_equal(asobi_match_act(m, seat, id, NULL), ASOBI_OK);
    int other = (seat + 1) % 3;
    assert_undo_refused(m, other);
    asobi_match_undo(m, other, &err);
    assert_non_null(strstr(err.message, "ended the turn")); /* its last card opened passed the turn */
    asobi_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timemasters_play_set_and_payment_before_a_draw),
        cmocka_unit_test(test_ninja_scroll_tiles_within_a_turn),
        cmocka_unit_test(test_psycle_face_down_choice_until_the_last_seat_has_chosen),
        cmocka_unit_test(test_chance_is_final_whatever_the_game_says),
        cmocka_unit_test(test_refusals_say_why),
        cmocka_unit_test(test_every_game_takes_back_exactly_what_made_nothing_known),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

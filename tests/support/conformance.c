/* conformance.c — the game-agnostic checks of conformance.h, shared by every game's tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"
#include "event_schema.h"
#include "game_def.h"

asobi_state *new_state(const char *game, int players, const char *options_json, uint64_t seed)
{
    const asobi_game_def *def = asobi_game_find(game);
    assert_non_null(def);
    json_t *options = NULL;
    if (options_json) {
        options = json_loads(options_json, 0, NULL);
        assert_non_null(options);
    }
    asobi_error err;
    asobi_state *s = asobi_state_new(def, players, options, seed, &err);
    json_decref(options);
    if (!s)
        fail_msg("cannot create %s for %d players: %s", game, players, err.message);
    return s;
}

void assert_refused(asobi_state *state, int seat, int id, int code)
{
    asobi_state *before = asobi_state_clone(state);
    asobi_error err;
    int rc = asobi_state_apply(state, seat, id, &err);
    if (rc != code)
        fail_msg("seat %d action %d: expected %s, got %s (%s)", seat, id, asobi_code_name(code),
                 asobi_code_name(rc), rc ? err.message : "accepted");
    assert_true(err.message[0] != '\0');
    /* refusals are read by people: they say what to do, never cite the seed (issue 12) */
    if (strstr(err.message, "seed §"))
        fail_msg("a refusal cites the seed: \"%s\"", err.message);
    assert_true(asobi_state_equal(before, state));
    asobi_state_free(before);
}

void assert_text_refused(asobi_state *state, int seat, const char *text, int code)
{
    asobi_state *before = asobi_state_clone(state);
    asobi_error err;
    int id = -1;
    int rc = asobi_state_parse_action(state, seat, text, &id, &err);
    if (rc == ASOBI_OK)
        rc = asobi_state_apply(state, seat, id, &err);
    if (rc != code)
        fail_msg("seat %d \"%s\": expected %s, got %s (%s)", seat, text, asobi_code_name(code),
                 asobi_code_name(rc), rc ? err.message : "accepted");
    assert_true(err.message[0] != '\0');
    assert_true(asobi_state_equal(before, state));
    asobi_state_free(before);
}

void apply_text(asobi_state *state, int seat, const char *text)
{
    asobi_error err;
    int id = -1;
    if (asobi_state_parse_action(state, seat, text, &id, &err) != ASOBI_OK)
        fail_msg("seat %d \"%s\" refused: %s", seat, text, err.message);
    if (asobi_state_apply(state, seat, id, &err) != ASOBI_OK)
        fail_msg("seat %d \"%s\" refused: %s", seat, text, err.message);
}

/* "seat 2" or "the spectator", for failure messages. */
static const char *viewer_name(int viewer, char *buf, size_t cap)
{
    if (viewer == ASOBI_SPECTATOR)
        snprintf(buf, cap, "the spectator");
    else
        snprintf(buf, cap, "seat %d", viewer);
    return buf;
}

static int pick_seat(uint32_t to_move, asobi_rng *rng)
{
    int seats[32], n = 0;
    for (int i = 0; i < 32; i++)
        if (to_move & (1u << i))
            seats[n++] = i;
    return seats[asobi_rng_below(rng, (uint32_t)n)];
}

static void check_refusals(asobi_state *s, int seat, const int *legal, int n, asobi_rng *rng)
{
    int players = asobi_state_players(s);
    int max = asobi_game_max_actions(asobi_state_game(s));
    uint32_t to_move = asobi_state_to_move(s);
    assert_refused(s, -1, legal[0], ASOBI_E_BAD_SEAT);
    assert_refused(s, players, legal[0], ASOBI_E_BAD_SEAT);
    for (int other = 0; other < players; other++)
        if (!(to_move & (1u << other))) {
            assert_refused(s, other, legal[0], ASOBI_E_NOT_YOUR_TURN);
            break;
        }
    assert_refused(s, seat, -1, ASOBI_E_ILLEGAL_ACTION);
    assert_refused(s, seat, max, ASOBI_E_ILLEGAL_ACTION);
    /* an id in range that is not legal, if there is one */
    if (n < max) {
        for (int tries = 0; tries < 8; tries++) {
            int id = (int)asobi_rng_below(rng, (uint32_t)max);
            bool is_legal = false;
            for (int i = 0; i < n; i++)
                is_legal |= legal[i] == id;
            if (!is_legal) {
                assert_refused(s, seat, id, ASOBI_E_ILLEGAL_ACTION);
                break;
            }
        }
    }
    assert_text_refused(s, seat, "no such move 🐉", ASOBI_E_ILLEGAL_ACTION);
    assert_text_refused(s, seat, "", ASOBI_E_ILLEGAL_ACTION);
}

static void check_notation(const asobi_state *s, int seat, const int *legal, int n)
{
    char text[256];
    for (int i = 0; i < n; i++) {
        for (int viewer = ASOBI_SPECTATOR; viewer < asobi_state_players(s); viewer++) {
            asobi_state_public_text(s, seat, legal[i], viewer, text, sizeof text);
            assert_true(text[0] != '\0');
        }
        if (i > 0)
            assert_true(legal[i - 1] < legal[i]); /* ascending, no duplicates */
        asobi_state_action_text(s, seat, legal[i], text, sizeof text);
        assert_true(text[0] != '\0');
        int id = -1;
        asobi_error err;
        if (asobi_state_parse_action(s, seat, text, &id, &err) != ASOBI_OK)
            fail_msg("the text \"%s\" of action %d does not parse: %s", text, legal[i], err.message);
        if (id != legal[i])
            fail_msg("the text \"%s\" of action %d parses to %d", text, legal[i], id);
    }
}

/* One action as a viewer experiences it: what its view becomes, and the
 * line it is shown (the public text). */
typedef struct seen_action {
    char *view_after;
    char text[256];
    int id;
} seen_action;

/* What viewer sees of each legal action of seat in s. */
static int collect_seen(const asobi_state *s, int seat, int viewer, seen_action *out)
{
    int max = asobi_game_max_actions(asobi_state_game(s));
    int legal[max];
    int n = asobi_state_legal(s, seat, legal);
    for (int i = 0; i < n; i++) {
        asobi_state *after = asobi_state_clone(s);
        asobi_error err;
        if (asobi_state_apply(after, seat, legal[i], &err) != ASOBI_OK)
            fail_msg("legal action %d of seat %d refused: %s", legal[i], seat, err.message);
        json_t *v = asobi_state_view(after, viewer);
        out[i].view_after = json_dumps(v, JSON_SORT_KEYS | JSON_COMPACT);
        json_decref(v);
        asobi_state_free(after);
        asobi_state_public_text(s, seat, legal[i], viewer, out[i].text, sizeof out[i].text);
        out[i].id = legal[i];
    }
    return n;
}

static void free_seen(seen_action *seen, int n)
{
    for (int i = 0; i < n; i++)
        free(seen[i].view_after);
}

/* Another deal viewer cannot tell from s: for a seat, the library's
 * determinization; for the spectator (asobi serve sends its lines to every
 * watcher), one for every seat in turn, so that each seat's private cards
 * and choices are resampled by the others' (the spectator sees less than
 * any seat, and each step keeps what it sees). */
void determinize_for_viewer(asobi_state *s, int viewer, asobi_rng *rng)
{
    if (viewer != ASOBI_SPECTATOR) {
        asobi_state_determinize(s, viewer, rng);
        return;
    }
    for (int k = 0; k < asobi_state_players(s); k++)
        asobi_state_determinize(s, k, rng);
}

/* What a command prints for a seat must be built from that seat's view and
 * public texts only (issue 12): every log line a seat is shown. A viewer
 * cannot tell this state from a determinization for it (another deal of
 * what it cannot see). So for each action here, if some action in that
 * other deal leaves the viewer the very same view, one of those must be
 * announced in the same words: otherwise the line tells the viewer which
 * deal it is in. A line naming a face-down card (a PSYCLE choice, an OCTAL
 * discard, a Time Masters delay card) fails whenever the other deal lacks
 * that card. A card that the action itself reveals (played face up) leaves
 * a view the other deal cannot reach, and is not constrained. Every seat
 * but the actor is such a viewer, and so is the spectator (issue 32). */
static void check_public_texts(const asobi_state *s, int seat, asobi_rng *rng)
{
    int players = asobi_state_players(s);
    int max = asobi_game_max_actions(asobi_state_game(s));
    seen_action *here = malloc((size_t)max * sizeof *here), *there = malloc((size_t)max * sizeof *there);
    for (int viewer = ASOBI_SPECTATOR; viewer < players; viewer++) {
        if (viewer == seat || viewer == ASOBI_ALL_SEEING)
            continue;
        asobi_state *d = asobi_state_clone(s);
        asobi_rng r;
        asobi_rng_seed(&r, asobi_rng_next(rng));
        determinize_for_viewer(d, viewer, &r);
        int n = collect_seen(s, seat, viewer, here), m = collect_seen(d, seat, viewer, there);
        asobi_state_free(d);
        for (int i = 0; i < n; i++) {
            bool reachable = false, alike = false;
            for (int j = 0; j < m && !alike; j++)
                if (strcmp(here[i].view_after, there[j].view_after) == 0) {
                    reachable = true;
                    alike = strcmp(here[i].text, there[j].text) == 0;
                }
            if (reachable && !alike) {
                char who[32];
                fail_msg("%s is shown \"%s\" for action %d of seat %d, but in another deal it cannot tell from "
                         "this one the same outcome is announced otherwise: the line reveals what its view hides",
                         viewer_name(viewer, who, sizeof who), here[i].text, here[i].id, seat);
            }
        }
        free_seen(here, n);
        free_seen(there, m);
    }
    free(here);
    free(there);
}

/* One action's outcome as viewer knows it: its view after, the public text
 * and the events (asobi_state_events), the latter checked against the list
 * of docs/protocol.md. */
typedef struct told {
    char *view_after;
    char text[256];
    json_t *events;
} told;

static void tell(const asobi_state *s, int seat, int id, int viewer, told *out)
{
    asobi_state *after = asobi_state_clone(s);
    asobi_error err;
    if (asobi_state_apply(after, seat, id, &err) != ASOBI_OK)
        fail_msg("legal action %d of seat %d refused: %s", id, seat, err.message);
    out->view_after = asobi_state_view_text(after, viewer, NULL); /* one order of keys: comparable as text */
    asobi_state_public_text(s, seat, id, viewer, out->text, sizeof out->text);
    out->events = asobi_state_events(s, seat, id, after, viewer);
    asobi_state_free(after);
    char why[300];
    const char *game = asobi_game_name(asobi_state_game(s));
    if (!event_schema_check(game, out->events, why, sizeof why)) {
        char *dump = json_dumps(out->events, JSON_COMPACT);
        fail_msg("%s: the events of action %d of seat %d: %s\n%s", game, id, seat, why, dump);
    }
}

static void untell(told *t)
{
    free(t->view_after);
    json_decref(t->events);
}

/* Events must tell viewer nothing its view and the public text do not
 * (issue 33): for a few of seat's actions here, every action of another
 * deal viewer cannot tell from this one (a determinization for it) that
 * viewer sees announced in the same words and that leaves viewer the very
 * same view must make the very same events for viewer. An event naming a
 * card another seat drew face down, or the hidden second card of a sphere,
 * fails as soon as the other deal holds another card there. Every seat is
 * such a viewer (the actor too: it does not see the others' hands), and so
 * is the spectator; the all-seeing viewer's events are checked against the
 * documented list only. */
#define EVENT_SAMPLE 3
#define EVENT_TRIES 3

static void check_events(const asobi_state *s, int seat, const int *legal, int n, asobi_rng *rng)
{
    int players = asobi_state_players(s), max = asobi_game_max_actions(asobi_state_game(s));
    int picked[EVENT_SAMPLE], k = 0;
    for (int i = 0; i < n && k < EVENT_SAMPLE; i++)
        if (n <= EVENT_SAMPLE || asobi_rng_below(rng, (uint32_t)n) < EVENT_SAMPLE)
            picked[k++] = legal[i];
    int *there = malloc((size_t)max * sizeof *there);
    for (int viewer = ASOBI_SPECTATOR; viewer < players; viewer++) {
        if (viewer == ASOBI_ALL_SEEING) {
            for (int i = 0; i < k; i++) {
                told t;
                tell(s, seat, picked[i], viewer, &t);
                untell(&t);
            }
            continue;
        }
        asobi_state *d = asobi_state_clone(s);
        asobi_rng r;
        asobi_rng_seed(&r, asobi_rng_next(rng));
        determinize_for_viewer(d, viewer, &r);
        int m = asobi_state_legal(d, seat, there);
        for (int i = 0; i < k; i++) {
            told here;
            tell(s, seat, picked[i], viewer, &here);
            /* the actions announced alike, from a random one on; the first
             * that leaves the same view is compared (a few tries at most:
             * "discard a card face down" names dozens) */
            int start = m > 0 ? (int)asobi_rng_below(rng, (uint32_t)m) : 0, tries = 0, compared = 0;
            for (int jj = 0; jj < m && tries < EVENT_TRIES && !compared; jj++) {
                int j = (start + jj) % m;
                char text[256];
                asobi_state_public_text(d, seat, there[j], viewer, text, sizeof text);
                if (strcmp(text, here.text) != 0)
                    continue;
                told other;
                tell(d, seat, there[j], viewer, &other);
                tries++;
                compared = strcmp(other.view_after, here.view_after) == 0;
                if (compared && !json_equal(other.events, here.events)) {
                    char who[32];
                    char *a = json_dumps(here.events, JSON_COMPACT), *b = json_dumps(other.events, JSON_COMPACT);
                    fail_msg("%s: the events %s is told of action %d of seat %d (\"%s\") differ in another deal it "
                             "cannot tell from this one, with the same view after: they reveal what its view "
                             "hides\n--- this deal:\n%s\n--- another deal:\n%s",
                             asobi_game_name(asobi_state_game(s)), viewer_name(viewer, who, sizeof who), picked[i],
                             seat, here.text, a, b);
                }
                untell(&other);
            }
            untell(&here);
        }
        asobi_state_free(d);
    }
    free(there);
}

static bool views_equal(const asobi_state *a, const asobi_state *b, int seat)
{
    json_t *va = asobi_state_view(a, seat), *vb = asobi_state_view(b, seat);
    bool eq = json_equal(va, vb);
    if (!eq) {
        char *ta = json_dumps(va, JSON_SORT_KEYS), *tb = json_dumps(vb, JSON_SORT_KEYS);
        print_error("view of seat %d differs after determinizing:\n%s\n%s\n", seat, ta, tb);
        free(ta);
        free(tb);
    }
    json_decref(va);
    json_decref(vb);
    return eq;
}

static bool legal_equal(const asobi_state *a, const asobi_state *b, int seat, int max)
{
    int la[max], lb[max];
    int na = asobi_state_legal(a, seat, la), nb = asobi_state_legal(b, seat, lb);
    return na == nb && memcmp(la, lb, (size_t)na * sizeof(int)) == 0;
}

/* The terminal's board (asobi_state_render: what `play`, `replay --seat` and
 * the engine's text view show people) is written from the raw state,
 * separately from the view: it must hide what the view hides. The viewer's
 * rendering of another deal it cannot tell from this one (d) must be the
 * same text, byte for byte, as its rendering here (given). */
static void check_render_hides(const asobi_state *s, const char *here, const asobi_state *d, int viewer,
                               int determinized_for)
{
    char *there = asobi_state_render(d, viewer);
    assert_non_null(there);
    if (strcmp(here, there) != 0) {
        char who[32];
        fail_msg("%s: the board rendered for %s changes when what seat %d cannot see is resampled: it shows "
                 "hidden information\n--- this deal:\n%s\n--- another deal:\n%s",
                 asobi_game_name(asobi_state_game(s)), viewer_name(viewer, who, sizeof who), determinized_for,
                 here, there);
    }
    free(there);
}

static void check_views(const asobi_state *s, asobi_rng *rng)
{
    int players = asobi_state_players(s);
    int max = asobi_game_max_actions(asobi_state_game(s));
    json_t *all = asobi_state_view(s, ASOBI_ALL_SEEING);
    assert_non_null(all);
    assert_true(json_is_null(json_object_get(all, "seat")));
    json_decref(all);
    char *text = asobi_state_render(s, ASOBI_ALL_SEEING);
    assert_non_null(text);
    free(text);
    /* The spectator (asobi serve's watchers) sees only what is public to
     * everyone: its view must survive every seat's determinization below. */
    json_t *spectator = asobi_state_view(s, ASOBI_SPECTATOR);
    assert_non_null(spectator);
    assert_true(json_is_null(json_object_get(spectator, "seat")));
    assert_true(json_is_true(json_object_get(spectator, "spectator")));
    json_decref(spectator);
    char *spectator_board = asobi_state_render(s, ASOBI_SPECTATOR);
    assert_non_null(spectator_board);
    for (int seat = 0; seat < players; seat++) {
        json_t *v = asobi_state_view(s, seat);
        assert_non_null(v);
        assert_int_equal(json_integer_value(json_object_get(v, "seat")), seat);
        assert_non_null(json_object_get(v, "game"));
        assert_true(json_is_array(json_object_get(v, "to_move")));
        json_decref(v);
        text = asobi_state_render(s, seat);
        assert_non_null(text);

        uint64_t r = asobi_rng_next(rng);
        asobi_rng r1, r2, r3;
        asobi_rng_seed(&r1, r);
        asobi_rng_seed(&r2, r ^ 0x5deece66dULL);
        asobi_rng_seed(&r3, r);
        asobi_state *d1 = asobi_state_clone(s);
        asobi_state_determinize(d1, seat, &r1);
        if (!views_equal(s, d1, seat))
            fail_msg("determinizing for seat %d changed what that seat sees", seat);
        if (!legal_equal(s, d1, seat, max))
            fail_msg("determinizing for seat %d changed its legal actions", seat);
        if (!views_equal(s, d1, ASOBI_SPECTATOR))
            fail_msg("determinizing for seat %d changed the spectator's view: it shows hidden information",
                     seat);
        check_render_hides(s, text, d1, seat, seat);
        check_render_hides(s, spectator_board, d1, ASOBI_SPECTATOR, seat);
        free(text);
        /* another hidden state with the same view ... */
        asobi_state *other = asobi_state_clone(s);
        asobi_state_determinize(other, seat, &r2);
        /* ... must determinize to the very same bytes with the same rng */
        asobi_state_determinize(other, seat, &r3);
        if (!asobi_state_equal(d1, other))
            fail_msg("the determinization for seat %d depends on hidden information", seat);
        asobi_state_free(other);
        asobi_state_free(d1);
    }
    free(spectator_board);
}

static void check_record(const asobi_match *m)
{
    json_t *rec = asobi_match_record(m);
    char *text = json_dumps(rec, JSON_COMPACT);
    json_decref(rec);
    /* the record as text, written without the tree: the same bytes */
    size_t len = 0;
    char *direct = asobi_match_record_text(m, &len);
    assert_non_null(direct);
    assert_string_equal(direct, text);
    assert_int_equal(len, strlen(text));
    free(direct);
    json_error_t jerr;
    json_t *back = json_loads(text, 0, &jerr);
    assert_non_null(back);
    asobi_error err;
    asobi_match *replay = asobi_match_load(back, &err);
    if (!replay)
        fail_msg("record does not replay: %s\n%s", err.message, text);
    assert_true(asobi_state_equal(asobi_match_state(m), asobi_match_state(replay)));
    asobi_match_free(replay);
    json_decref(back);
    free(text);
}

/* asobi_state_random_action (a game's random_action fast path, or core's
 * fallback) picks exactly legal[asobi_rng_below(rng, n)], from the same
 * draws: searches and bots must play the same games either way. Every seat
 * is tried, to move or not (-1 when not). */
static void check_random_action(const asobi_state *s, int seat, const int *legal, int n, asobi_rng *rng)
{
    for (int t = 0; t < 3; t++) {
        asobi_rng a = asobi_rng_split(rng), b = a;
        int id = asobi_state_random_action(s, seat, &a);
        int want = legal[asobi_rng_below(&b, (uint32_t)n)];
        if (id != want || memcmp(&a, &b, sizeof a) != 0)
            fail_msg("random_action gave %d (draws %s), legal()+rng_below gives %d", id,
                     memcmp(&a, &b, sizeof a) ? "differ" : "agree", want);
    }
    uint32_t to_move = asobi_state_to_move(s);
    for (int other = -1; other <= asobi_state_players(s); other++)
        if (other < 0 || other >= asobi_state_players(s) || !(to_move & (1u << other)))
            assert_int_equal(asobi_state_random_action(s, other, rng), -1);
}

/* The step both game loops below begin with: the game must not have run
 * past limit, a seat to move is drawn, its legal actions (written to legal,
 * the count returned) must not be none, and random_action must agree with
 * them. */
static int next_step(const asobi_state *s, const conformance_spec *spec, int g, int steps, int limit, int *legal,
                     int *seat, asobi_rng *rng)
{
    if (steps >= limit)
        fail_msg("%s game %d did not end within %d actions", spec->game, g, limit);
    *seat = pick_seat(asobi_state_to_move(s), rng);
    int n = asobi_state_legal(s, *seat, legal);
    if (n <= 0)
        fail_msg("seat %d is to move but has no legal action", *seat);
    check_random_action(s, *seat, legal, n, rng);
    return n;
}

/* A game's random_playout plays from s exactly what core's seat-by-seat loop
 * plays (game_def.h): the same draws, the same end, the same count. */
static void check_random_playout(const asobi_state *s, const asobi_game_def *def, asobi_rng *rng)
{
    if (!def->random_playout)
        return;
    asobi_state *fast = asobi_state_clone(s), *slow = asobi_state_clone(s);
    asobi_rng a = asobi_rng_split(rng), b = a;
    long fast_actions = asobi_state_random_playout(fast, &a);
    long slow_actions = 0;
    uint32_t to_move;
    while ((to_move = asobi_state_to_move(slow)) != 0) {
        int seat = __builtin_ctz(to_move);
        asobi_state_apply_unchecked(slow, seat, asobi_state_random_action(slow, seat, &b));
        slow_actions++;
    }
    if (fast_actions != slow_actions || memcmp(&a, &b, sizeof a) != 0 || !asobi_state_equal(fast, slow))
        fail_msg("random_playout: %ld actions against %ld, draws %s, end states %s", fast_actions, slow_actions,
                 memcmp(&a, &b, sizeof a) ? "differ" : "agree", asobi_state_equal(fast, slow) ? "agree" : "differ");
    asobi_state_free(fast);
    asobi_state_free(slow);
}

/* A game that declares choices_independent: in a simultaneous step, after
 * seat's choice the other seats to move may choose exactly what they could. */
static void check_choices_independent(const asobi_state *s, const asobi_game_def *def, int seat,
                                      const int *legal, int n, asobi_rng *rng)
{
    uint32_t to_move = asobi_state_to_move(s);
    if (!def->choices_independent || !(to_move & (to_move - 1)))
        return;
    int max = asobi_game_max_actions(def);
    int *before = malloc(2 * (size_t)max * sizeof *before), *after = before + max;
    asobi_state *next = asobi_state_clone(s);
    asobi_state_apply_unchecked(next, seat, legal[asobi_rng_below(rng, (uint32_t)n)]);
    for (uint32_t m = to_move & ~(1u << seat); m; m &= m - 1) {
        int other = __builtin_ctz(m);
        int nb = asobi_state_legal(s, other, before), na = asobi_state_legal(next, other, after);
        if (nb != na || memcmp(before, after, (size_t)nb * sizeof *before) != 0)
            fail_msg("choices_independent: seat %d's choice changed what seat %d may choose", seat, other);
    }
    asobi_state_free(next);
    free(before);
}

/* A game's info_hash names viewer's information sets as search's generic
 * fingerprint does: determinize for viewer with a fixed seed, retract the
 * choices viewer has not seen, compare the states. Checked on a set of
 * states search could meet together: s, two other deals viewer cannot tell
 * from s, and after a few legal actions of the seat to move in each of
 * them; for every pair, equal hashes exactly when equal representatives. */
#define INFO_STATES 27
static void check_info_hash(const asobi_state *s, const asobi_game_def *def, int seat, asobi_rng *rng)
{
    if (!def->info_hash)
        return;
    int players = asobi_state_players(s);
    int *legal = malloc((size_t)asobi_game_max_actions(def) * sizeof *legal);
    for (int viewer = 0; viewer < players; viewer++) {
        asobi_state *states[INFO_STATES], *canon[INFO_STATES];
        uint64_t hash[INFO_STATES];
        int count = 0;
        for (int d = 0; d < 3; d++) {
            asobi_state *world = asobi_state_clone(s);
            if (d > 0) {
                asobi_rng r = asobi_rng_split(rng);
                asobi_state_determinize(world, viewer, &r);
            }
            states[count++] = world;
            int n = asobi_state_legal(world, seat, legal); /* the seat's own hand may differ in this deal */
            for (int k = 0; k < 8 && k < n && count < INFO_STATES; k++) {
                asobi_state *next = asobi_state_clone(world);
                asobi_state_apply_unchecked(next, seat, legal[asobi_rng_below(rng, (uint32_t)n)]);
                states[count++] = next;
            }
        }
        for (int i = 0; i < count; i++) {
            hash[i] = def->info_hash(asobi_state_data_for_ai(states[i]), viewer);
            canon[i] = asobi_state_clone(states[i]);
            asobi_rng fixed;
            asobi_rng_seed(&fixed, 0x5eedf00dULL);
            asobi_state_determinize(canon[i], viewer, &fixed);
            asobi_state_retract_unseen(canon[i], viewer);
        }
        for (int i = 0; i < count; i++)
            for (int j = i + 1; j < count; j++) {
                bool same = asobi_state_equal(canon[i], canon[j]);
                if (same != (hash[i] == hash[j]))
                    fail_msg("%s info_hash for seat %d: states %d and %d are in %s information set%s but their "
                             "hashes %s", def->name, viewer, i, j, same ? "one" : "two different", same ? "" : "s",
                             same ? "differ" : "are equal");
            }
        for (int i = 0; i < count; i++) {
            asobi_state_free(states[i]);
            asobi_state_free(canon[i]);
        }
    }
    free(legal);
}

long conformance_random_actions(const conformance_spec *spec)
{
    const asobi_game_def *def = asobi_game_find(spec->game);
    assert_non_null(def);
    int *legal = malloc((size_t)asobi_game_max_actions(def) * sizeof *legal);
    int limit = spec->max_actions_per_game > 0 ? spec->max_actions_per_game : 100000;
    json_t *options = spec->options_json ? json_loads(spec->options_json, 0, NULL) : NULL;
    if (spec->options_json && !options)
        fail_msg("options are not JSON: %.60s", spec->options_json);
    asobi_rng rng;
    asobi_rng_seed(&rng, spec->seed);
    long checked = 0;
    for (int g = 0; g < spec->games; g++) {
        asobi_error err;
        asobi_state *s = asobi_state_new(def, spec->players, options, spec->seed + (uint64_t)g, &err);
        if (!s)
            fail_msg("cannot create %s: %s", spec->game, err.message);
        for (int steps = 0; !asobi_state_terminal(s); steps++) {
            int seat, n = next_step(s, spec, g, steps, limit, legal, &seat, &rng);
            checked++;
            asobi_state_apply_unchecked(s, seat, legal[asobi_rng_below(&rng, (uint32_t)n)]);
        }
        asobi_state_free(s);
    }
    json_decref(options);
    free(legal);
    return checked;
}

void conformance_run(const conformance_spec *spec)
{
    const asobi_game_def *def = asobi_game_find(spec->game);
    assert_non_null(def);
    int max = asobi_game_max_actions(def);
    int *legal = malloc((size_t)max * sizeof *legal);
    int limit = spec->max_actions_per_game > 0 ? spec->max_actions_per_game : 100000;
    int deep = spec->deep_every > 0 ? spec->deep_every : 1;
    json_t *options = spec->options_json ? json_loads(spec->options_json, 0, NULL) : NULL;
    asobi_rng rng;
    asobi_rng_seed(&rng, spec->seed);
    for (int g = 0; g < spec->games; g++) {
        asobi_error err;
        asobi_match *m = asobi_match_new(spec->game, spec->players, options, spec->seed + (uint64_t)g, &err);
        if (!m)
            fail_msg("cannot create %s: %s", spec->game, err.message);
        asobi_state *s = (asobi_state *)asobi_match_state(m);
        asobi_state *before = asobi_state_clone(s);
        int steps = 0;
        while (!asobi_state_terminal(s)) {
            int seat, n = next_step(s, spec, g, steps, limit, legal, &seat, &rng);
            check_choices_independent(s, def, seat, legal, n, &rng);
            if (steps % 5 == 0)
                check_random_playout(s, def, &rng);
            bool deep_now = steps % deep == 0;
            /* every 3rd step (27 determinizations per viewer), with its own
             * generator: the games played stay those of the main one */
            if (steps % 3 == 0) {
                asobi_rng info_rng;
                asobi_rng_seed(&info_rng, spec->seed * 1000003u + (uint64_t)g * 7919u + (uint64_t)steps);
                check_info_hash(s, def, seat, &info_rng);
            }
            if (deep_now) {
                check_views(s, &rng);
                check_refusals(s, seat, legal, n, &rng);
                check_notation(s, seat, legal, n);
                /* the costliest check (two views per action and viewer): on
                 * every 5th deep step, plenty to meet every kind of action */
                if ((steps / deep) % 5 == 0)
                    check_public_texts(s, seat, &rng);
                /* the events of a few actions, every viewer: on other steps
                 * than the public texts, as costly */
                if ((steps / deep) % 5 == 2)
                    check_events(s, seat, legal, n, &rng);
            }
            int id = legal[asobi_rng_below(&rng, (uint32_t)n)];
            asobi_state_copy(before, s);
            if (asobi_match_act(m, seat, id, &err) != ASOBI_OK)
                fail_msg("legal action %d of seat %d refused: %s", id, seat, err.message);
            if (spec->on_step)
                spec->on_step(before, seat, id, s, spec->ctx);
            if (spec->invariant)
                spec->invariant(s, spec->ctx);
            steps++;
        }
        check_views(s, &rng);
        assert_refused(s, 0, 0, ASOBI_E_GAME_OVER);
        asobi_result res;
        asobi_state_result(s, &res);
        assert_true(res.terminal);
        for (int i = 0; i < res.players; i++)
            assert_true(res.rank[i] >= 1 && res.rank[i] <= res.players);
        if (spec->on_end)
            spec->on_end(s, spec->ctx);
        check_record(m);
        asobi_state_free(before);
        asobi_match_free(m);
    }
    json_decref(options);
    free(legal);
}

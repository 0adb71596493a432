/* test_ninja_random.c — thousands of random NINJA SCROLL TRICK games (2-5 players) with invariants after every action. */
#include "ninja_test.h"
#include "repetitions.h"

typedef struct counters {
    long actions, tricks, games, shadow_wins, shared, leak_checks, determinizations;
} counters;

/* 35 cards, each in exactly one place; open cards are in their holder's hand. */
static void check_cards(const ninja_state *s)
{
    int count[NINJA_CARDS] = {0};
    for (int p = 0; p < s->players; p++) {
        assert_true((s->open[p] & ~s->hand[p]) == 0);
        assert_true(__builtin_popcountll(s->open[p]) <= NINJA_OPEN);
        for (int c = 0; c < NINJA_CARDS; c++)
            count[c] += (int)((s->hand[p] >> c) & 1);
    }
    for (int c = 0; c < NINJA_CARDS; c++)
        count[c] += (int)((s->leftover >> c) & 1) + (int)((s->discard >> c) & 1);
    if (ninja_has_shadow(s))
        for (int i = 0; i < NINJA_ROW; i++)
            if (!(s->row_played & (1u << i)))
                count[s->row[i]]++;
    for (int i = 0; i < s->trick_n; i++)
        count[s->trick_card[i]]++;
    for (int c = 0; c < NINJA_CARDS; c++)
        if (count[c] != 1)
            fail_msg("card %d is in %d places", c, count[c]);
}

/* 45 tiles: in hands, on cards, won, in the pile — the box's multiset. Tiles
 * lie only on open cards (a seat's, the shadow's) or on cards in the trick. */
static void check_tiles(const ninja_state *s)
{
    int have[NINJA_SCROLL_TYPES] = {0};
    for (int p = 0; p < s->positions; p++) {
        for (int i = 0; i < s->held_n[p]; i++)
            have[ninja_scroll_type(s->held[p][i])]++;
        for (int t = 0; t < NINJA_SCROLL_TYPES; t++)
            have[t] += s->won[p][t];
    }
    for (int i = 0; i < s->pile_n; i++)
        have[ninja_scroll_type(s->pile[i])]++;
    int shadow_open[NINJA_OPEN];
    int ns_open = ninja_has_shadow(s) ? ninja_shadow_open(s, shadow_open) : 0;
    for (int c = 0; c < NINJA_CARDS; c++) {
        if (!s->scroll_on[c]) {
            assert_int_equal(s->scroll_up[c], 0);
            continue;
        }
        have[ninja_scroll_type(s->scroll_on[c])]++;
        bool allowed = false;
        for (int p = 0; p < s->players; p++)
            allowed |= (s->open[p] >> c) & 1;
        for (int i = 0; i < ns_open; i++)
            allowed |= shadow_open[i] == c;
        for (int i = 0; i < s->trick_n; i++)
            allowed |= s->trick_card[i] == c;
        if (!allowed)
            fail_msg("a tile lies on card %d, which is neither open nor in the trick", c);
    }
    for (int t = 0; t < NINJA_SCROLL_TYPES; t++)
        if (have[t] != ninja_table.scroll_copies[t])
            fail_msg("%d tiles of %+d, the box has %d", have[t], ninja_table.scroll_values[t],
                     ninja_table.scroll_copies[t]);
}

static void check_state(const ninja_state *s)
{
    check_cards(s);
    check_tiles(s);
    assert_true(s->round >= 1 && s->round <= NINJA_ROUNDS);
    assert_true(s->phase <= NINJA_PHASE_OVER);
    if (s->phase == NINJA_PHASE_BATTLE) {
        assert_true(s->trick_n < s->positions);
        for (int p = 0; p < s->players; p++) {
            bool played = false;
            for (int i = 0; i < s->trick_n; i++)
                played |= s->trick_pos[i] == p;
            assert_int_equal(__builtin_popcountll(s->hand[p]), NINJA_TRICKS - s->tricks_done - played);
        }
        if (ninja_has_shadow(s)) {
            int open[NINJA_OPEN];
            bool played = false;
            for (int i = 0; i < s->trick_n; i++)
                played |= s->trick_pos[i] == NINJA_SHADOW;
            /* between tricks the shadow shows min(3, cards left) */
            int left = NINJA_TRICKS - s->tricks_done - played;
            int want = left < NINJA_OPEN ? left : NINJA_OPEN;
            if (played && left + 1 <= NINJA_OPEN)
                want = left;
            else if (played)
                want = NINJA_OPEN - 1;
            assert_int_equal(ninja_shadow_open(s, open), want);
            if (!played && want > 0)
                assert_int_equal(s->scroll_up[open[0]], 1);
        }
    }
}

/* Whether the rules allow id to seat, read id by id from what the ids of
 * ninja.h name, without legal()'s masks: legal() (and random_action, which
 * test_conformance holds to legal()) must list exactly these, ascending. */
static bool rules_allow(const ninja_state *s, int seat, int id)
{
    switch (s->phase) {
    case NINJA_PHASE_TRUMP:
        return id >= NINJA_ID_TRUMP && id < NINJA_ID_TRUMP + NINJA_KINDS;
    case NINJA_PHASE_OPEN: {
        int c = id - NINJA_ID_OPEN;
        return c >= 0 && c < NINJA_CARDS && ((s->hand[seat] >> c) & 1) && !((s->open[seat] >> c) & 1);
    }
    case NINJA_PHASE_SCROLL: {
        if (id < NINJA_ID_SCROLL || id >= NINJA_ID_FLIP)
            return false;
        int t = (id - NINJA_ID_SCROLL) / NINJA_CARDS, c = (id - NINJA_ID_SCROLL) % NINJA_CARDS;
        bool holds = false;
        for (int i = 0; i < s->held_n[seat]; i++)
            holds |= s->held[seat][i] == ninja_table.scroll_values[t];
        return holds && ((s->open[seat] >> c) & 1) && s->scroll_on[c] == 0;
    }
    case NINJA_PHASE_FLIP: {
        int c = id - NINJA_ID_FLIP;
        return c >= 0 && c < NINJA_CARDS && ((s->open[seat] >> c) & 1) && s->scroll_on[c] != 0 && !s->scroll_up[c];
    }
    case NINJA_PHASE_BATTLE: {
        int c = id - NINJA_ID_PLAY;
        if (c < 0 || c >= NINJA_CARDS || !((s->hand[seat] >> c) & 1))
            return false;
        if (s->trick_n == 0)
            return true;
        /* ruling 18: an open card of the led kind first, then a closed one, then any */
        int led = ninja_kind(s->trick_card[0]);
        bool open_led = false, any_led = false;
        for (int v = 1; v <= NINJA_VALUES; v++) {
            open_led |= (s->open[seat] >> ninja_card(led, v)) & 1;
            any_led |= (s->hand[seat] >> ninja_card(led, v)) & 1;
        }
        if (open_led)
            return ninja_kind(c) == led && ((s->open[seat] >> c) & 1);
        return !any_led || ninja_kind(c) == led;
    }
    default:
        return false;
    }
}

static void check_legal(const asobi_state *st)
{
    const ninja_state *s = asobi_state_data_for_ai(st);
    uint32_t to_move = asobi_state_to_move(st);
    if (!to_move)
        return;
    int seat = __builtin_ctz(to_move), ids[NINJA_MAX_ACTIONS];
    int n = asobi_state_legal(st, seat, ids), at = 0;
    for (int id = 0; id < NINJA_MAX_ACTIONS; id++)
        if (rules_allow(s, seat, id)) {
            if (at >= n || ids[at] != id)
                fail_msg("phase %d: the rules allow %d to seat %d, legal() lists %d there", s->phase, id, seat,
                         at < n ? ids[at] : -1);
            at++;
        }
    if (at != n)
        fail_msg("phase %d: legal() lists %d ids, the rules allow %d", s->phase, n, at);
}

static void invariant(const asobi_state *st, void *ctx)
{
    counters *k = ctx;
    k->actions++;
    check_state(asobi_state_data_for_ai(st));
    check_legal(st);
    assert_true(asobi_state_terminal(st) || __builtin_popcount(asobi_state_to_move(st)) == 1);
}

static int trick_total(const ninja_state *s) { return (s->round - 1) * NINJA_TRICKS + s->tricks_done; }

/* The winner of a trick recounted without ninja_trick_winner: rank every card
 * (trump 200+, led kind 100+, else 0) and take the best. */
static int recount_winner(const ninja_state *after, int trump)
{
    int led = ninja_kind(after->last_card[0]), best = -1, who = -1;
    for (int i = 0; i < after->last_n; i++) {
        int c = after->last_card[i], k = ninja_kind(c);
        int rank = k == trump ? 200 + ninja_value(c) : k == led ? 100 + ninja_value(c) : 0;
        if (rank > best) {
            best = rank;
            who = after->last_pos[i];
        }
    }
    return who;
}

/* No view shows what its seat may not see (the determinize check of the
 * harness covers the same ground from the other side). */
static void check_no_leak(const asobi_state *st)
{
    const ninja_state *s = asobi_state_data_for_ai(st);
    for (int seat = 0; seat < s->players; seat++) {
        json_t *v = asobi_state_view(st, seat);
        assert_null(json_object_get(v, "pile"));
        assert_null(json_object_get(v, "leftover"));
        json_t *players = json_object_get(v, "players");
        assert_int_equal(json_array_size(players), s->positions);
        for (int p = 0; p < s->positions; p++) {
            json_t *e = json_array_get(players, (size_t)p);
            if (p != seat) {
                assert_true(json_is_null(json_object_get(e, "hand")));
                assert_true(json_is_null(json_object_get(e, "scrolls")));
            }
            json_t *open = json_object_get(e, "open");
            for (size_t i = 0; i < json_array_size(open); i++) {
                json_t *o = json_array_get(open, i);
                int c = card_id(json_string_value(json_object_get(o, "card")));
                json_t *sc = json_object_get(o, "scroll");
                if (s->scroll_on[c] && !s->scroll_up[c] && p != seat)
                    assert_string_equal(json_string_value(sc), "hidden");
                else if (s->scroll_on[c])
                    assert_int_equal(json_integer_value(sc), s->scroll_on[c]);
            }
        }
        json_t *trick = json_object_get(v, "trick");
        for (size_t i = 0; i < json_array_size(trick); i++) {
            json_t *o = json_array_get(trick, i);
            int c = card_id(json_string_value(json_object_get(o, "card")));
            int p = (int)json_integer_value(json_object_get(o, "seat"));
            if (s->scroll_on[c] && !s->scroll_up[c] && p != seat)
                assert_string_equal(json_string_value(json_object_get(o, "scroll")), "hidden");
        }
        json_decref(v);
    }
}

/* A determinization keeps every invariant and what the viewer knows: each
 * other seat's voids, and in round 1 each starting group stays +3 +1 -1. */
static void check_determinization(const asobi_state *st, int viewer, uint64_t seed)
{
    asobi_state *d = asobi_state_clone(st);
    asobi_rng rng;
    asobi_rng_seed(&rng, seed);
    asobi_state_determinize(d, viewer, &rng);
    const ninja_state *s = asobi_state_data_for_ai(d);
    check_state(s);
    for (int p = 0; p < s->players; p++) {
        uint64_t closed = s->hand[p] & ~s->open[p];
        for (int k = 0; k < NINJA_KINDS; k++)
            if (s->void_kinds[p] & (1u << k))
                assert_true((closed & (((1ull << 7) - 1) << (7 * k))) == 0);
    }
    if (s->round == 1)
        for (int p = 0; p < s->players; p++) {
            int sum = 0, n = 0;
            for (int i = 0; i < s->held_n[p]; i++, n++)
                sum += s->held[p][i];
            for (int c = 0; c < NINJA_CARDS; c++)
                if (s->scroll_on[c] && ninja_owner(s, c) == p) {
                    sum += s->scroll_on[c];
                    n++;
                    /* a starting tile: +3, +1 or -1 */
                    assert_true(s->scroll_on[c] == 3 || s->scroll_on[c] == 1 || s->scroll_on[c] == -1);
                }
            if (s->phase <= NINJA_PHASE_SCROLL && n == 3)
                assert_int_equal(sum, 3);
        }
    asobi_state_free(d);
}

/* The final order of ゲームの終了 recounted from the won tiles: points, then
 * tiles won, then positive tiles won; 1 if a is ahead of b, -1 behind, 0 tied. */
static int recount_order(const ninja_state *s, int a, int b)
{
    long key[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        int pos = i ? b : a, points = 0, tiles = 0, positive = 0;
        for (int t = 0; t < NINJA_SCROLL_TYPES; t++) {
            int v = ninja_table.scroll_values[t], n = s->won[pos][t];
            points += v * n;
            tiles += n;
            positive += v > 0 ? n : 0;
        }
        key[i] = ((long)points * 100 + tiles) * 100 + positive;
    }
    return (key[0] > key[1]) - (key[0] < key[1]);
}

/* 巻物を開く, recounted: the top points and the next distinct points below
 * them among every place (the shadow included, ruling 19); seats holding the
 * top turn up 1 (round 2) or 2 (round 3), seats holding 次点 1 in round 3. */
static void check_flip_counts(const ninja_state *s)
{
    int pts[NINJA_POSITIONS], best = -1000, second = -1000;
    for (int p = 0; p < s->positions; p++) {
        pts[p] = 0;
        for (int t = 0; t < NINJA_SCROLL_TYPES; t++)
            pts[p] += ninja_table.scroll_values[t] * s->won[p][t];
        best = pts[p] > best ? pts[p] : best;
    }
    for (int p = 0; p < s->positions; p++)
        if (pts[p] < best && pts[p] > second)
            second = pts[p];
    for (int p = 0; p < s->players; p++) {
        int want = pts[p] == best ? s->round - 1 : pts[p] == second && s->round == 3 ? 1 : 0;
        assert_int_equal(s->flips_left[p], want);
    }
}

/* A round's end with the shadow: it ended the game exactly when no seat is
 * ahead of it in the final order (ruling 13). */
static void check_round_end(const ninja_state *before, const ninja_state *after)
{
    if (!ninja_has_shadow(after))
        return;
    bool seat_ahead = recount_order(after, 0, NINJA_SHADOW) > 0 || recount_order(after, 1, NINJA_SHADOW) > 0;
    assert_int_equal(after->shadow_won, !seat_ahead);
    if (after->shadow_won)
        assert_int_equal(after->phase, NINJA_PHASE_OVER);
    else if (before->round < NINJA_ROUNDS)
        assert_int_equal(after->round, before->round + 1);
}

static void on_step(const asobi_state *before_st, int seat, int id, const asobi_state *after_st, void *ctx)
{
    counters *k = ctx;
    const ninja_state *before = asobi_state_data_for_ai(before_st), *after = asobi_state_data_for_ai(after_st);
    if (id >= NINJA_ID_PLAY && before->trick_n > 0) {
        /* 勝負フェーズ ②: whoever does not follow holds none of the led kind;
         * whoever plays a closed card holds no open one of it (ruling 18:
         * "開かれたカードから出さなければなりません") */
        int led = ninja_kind(before->trick_card[0]), card = id - NINJA_ID_PLAY;
        bool open_played = (before->open[seat] >> card) & 1;
        for (int v = 1; v <= NINJA_VALUES; v++) {
            int f = ninja_card(led, v);
            if (ninja_kind(card) != led)
                assert_false((before->hand[seat] >> f) & 1);
            else if (!open_played)
                assert_false((before->open[seat] >> f) & 1);
        }
    }
    if (before->phase == NINJA_PHASE_SCROLL && after->phase != NINJA_PHASE_SCROLL && after->round >= 2)
        check_flip_counts(after);
    if (after->round != before->round || after->phase == NINJA_PHASE_OVER)
        check_round_end(before, after);
    int done = trick_total(after) - trick_total(before);
    assert_true(done == 0 || done == 1);
    if (done) {
        k->tricks++;
        assert_int_equal(after->last_n, after->positions);
        assert_int_equal(recount_winner(after, before->trump), after->last_winner);
        int w = after->last_winner, gain = 0;
        for (int i = 0; i < after->last_n; i++)
            gain += after->last_scroll[i];
        for (int p = 0; p < after->positions; p++)
            assert_int_equal(ninja_points(after, p) - ninja_points(before, p), p == w ? gain : 0);
    }
    if (k->actions % 17 == 0) {
        check_no_leak(after_st);
        k->leak_checks++;
    }
    if (k->actions % 29 == 0 && !asobi_state_terminal(after_st)) {
        for (int v = 0; v < after->players; v++)
            check_determinization(after_st, v, (uint64_t)k->actions * 31u + (uint64_t)v);
        k->determinizations++;
    }
}

static void on_end(const asobi_state *st, void *ctx)
{
    counters *k = ctx;
    const ninja_state *s = asobi_state_data_for_ai(st);
    k->games++;
    k->shadow_wins += s->shadow_won;
    k->shared += __builtin_popcount(s->winners) > 1;
    assert_int_equal(s->phase, NINJA_PHASE_OVER);
    if (!s->shadow_won) {
        assert_int_equal(s->round, 3);
        assert_int_equal(s->tricks_done, NINJA_TRICKS);
        assert_true(s->winners != 0);
        for (int p = 0; p < s->players; p++)
            for (int q = 0; q < s->players; q++)
                if (s->winners & (1u << p))
                    assert_true(ninja_compare_final(s, q, p) <= 0);
    } else {
        for (int p = 0; p < 2; p++)
            assert_true(recount_order(s, p, NINJA_SHADOW) <= 0);
    }
}

static void run(int players, int games)
{
    games = test_reps(games); /* a tenth under the sanitizers */
    counters k = {0};
    conformance_spec spec = {
        .game = "ninja",
        .players = players,
        .games = games,
        .seed = 9000u + (uint64_t)players,
        .deep_every = 23,
        .max_actions_per_game = 500,
        .invariant = invariant,
        .on_step = on_step,
        .on_end = on_end,
        .ctx = &k,
    };
    conformance_run(&spec);
    assert_int_equal(k.games, games);
    assert_true(k.tricks >= 7L * games);
    if (players == 2)
        assert_true(k.shadow_wins > 0); /* random players do lose to the shadow */
    print_message("%d players: %ld games, %ld actions, %ld tricks recounted, %ld shadow wins, %ld shared, "
                  "%ld leak checks, %ld determinization checks\n",
                  players, k.games, k.actions, k.tricks, k.shadow_wins, k.shared, k.leak_checks,
                  k.determinizations);
}

static void test_random_2_players(void **unused) { (void)unused; run(2, 300); }
static void test_random_3_players(void **unused) { (void)unused; run(3, 250); }
static void test_random_4_players(void **unused) { (void)unused; run(4, 225); }
static void test_random_5_players(void **unused) { (void)unused; run(5, 225); }

/* Replay determinism: the same seed and the same actions give the same bytes,
 * and the heuristic player, fed determinized states, only plays legal actions. */
static void test_same_seed_same_game_with_heuristic(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 5; players++)
        for (uint64_t seed = 0; seed < 10; seed++) {
            asobi_state *a = new_state("ninja", players, NULL, seed);
            asobi_state *b = new_state("ninja", players, NULL, seed);
            asobi_rng rng;
            asobi_rng_seed(&rng, seed + 100);
            while (!asobi_state_terminal(a)) {
                int seat = __builtin_ctz(asobi_state_to_move(a));
                asobi_state *d = asobi_state_clone(a);
                asobi_state_determinize(d, seat, &rng);
                int id = ninja_heuristic(asobi_state_data_for_ai(d), seat, &rng);
                asobi_state_free(d);
                assert_int_equal(asobi_state_apply(a, seat, id, NULL), ASOBI_OK);
                asobi_state_apply_unchecked(b, seat, id);
                assert_true(asobi_state_equal(a, b));
            }
            asobi_state_free(a);
            asobi_state_free(b);
        }
}

/* Records: a game played by the heuristic player, written as JSON text and
 * read back, replays to the byte-identical state, and so does every prefix;
 * the record holds the notation of docs/rules/ninja.md. */
static void test_record_round_trip_and_prefixes(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 5; players++) {
        json_t *opts = json_pack("{s:i}", "start_player", players - 1);
        asobi_error err;
        asobi_match *m = asobi_match_new("ninja", players, opts, 77 + (uint64_t)players, &err);
        assert_non_null(m);
        json_decref(opts);
        asobi_rng rng;
        asobi_rng_seed(&rng, 3);
        enum { MAX_STEPS = 400 };
        asobi_state *snap[MAX_STEPS];
        int steps = 0;
        while (!asobi_state_terminal(asobi_match_state(m))) {
            assert_true(steps < MAX_STEPS);
            snap[steps++] = asobi_state_clone(asobi_match_state(m));
            const asobi_state *st = asobi_match_state(m);
            int seat = __builtin_ctz(asobi_state_to_move(st));
            int id = ninja_heuristic(asobi_state_data_for_ai(st), seat, &rng);
            char text[64];
            asobi_state_action_text(st, seat, id, text, sizeof text);
            assert_int_equal(asobi_match_act_text(m, seat, text, &err), ASOBI_OK);
        }
        assert_int_equal(asobi_match_length(m), steps);
        assert_int_equal(strncmp(asobi_match_action_text(m, 0), "trump ", 6), 0);
        assert_int_equal(asobi_match_action_seat(m, 0), players - 1);
        json_t *rec = asobi_match_record(m);
        char *text = json_dumps(rec, JSON_COMPACT);
        json_decref(rec);
        json_t *back = json_loads(text, 0, NULL);
        free(text);
        assert_non_null(back);
        asobi_match *replay = asobi_match_load(back, &err);
        assert_non_null(replay);
        assert_true(asobi_state_equal(asobi_match_state(m), asobi_match_state(replay)));
        asobi_match_free(replay);
        for (int i = 0; i < steps; i += 7) {
            asobi_match *part = asobi_match_load_prefix(back, i, &err);
            assert_non_null(part);
            assert_true(asobi_state_equal(snap[i], asobi_match_state(part)));
            asobi_match_free(part);
        }
        for (int i = 0; i < steps; i++)
            asobi_state_free(snap[i]);
        json_decref(back);
        asobi_match_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_2_players),
        cmocka_unit_test(test_random_3_players),
        cmocka_unit_test(test_random_4_players),
        cmocka_unit_test(test_random_5_players),
        cmocka_unit_test(test_same_seed_same_game_with_heuristic),
        cmocka_unit_test(test_record_round_trip_and_prefixes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

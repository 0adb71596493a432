/* test_ninja_shadow.c — the 2-player rules of seed 002 (2人で遊ぶ場合): the shadow, rule by rule. */
#include "ninja_test.h"

static const char *const DEAL2[] = {
    "fire-1 fire-7 water-2 water-5 wood-3 metal-4 metal-5",
    "fire-2 fire-3 water-7 wood-1 wood-6 metal-1 earth-1",
};
static const char *const ROW = "water-3 fire-4 water-6 earth-2 wood-2 earth-3 fire-5";
static const char *const OPENS2[] = {"fire-7 water-5 metal-5", "fire-2 fire-3 earth-1"};

static asobi_state *rigged2(void)
{
    asobi_state *st = new_state("ninja", 2, "{\"start_player\": 0}", 42);
    rig_deal(st, DEAL2, ROW);
    return st;
}

static json_t *shadow_of(json_t *view) { return view_player(view, NINJA_SHADOW); }

static const char *open_card(json_t *entry, size_t i)
{
    return json_string_value(json_object_get(json_array_get(json_object_get(entry, "open"), i), "card"));
}

static json_t *open_scroll(json_t *entry, size_t i)
{
    return json_object_get(json_array_get(json_object_get(entry, "open"), i), "scroll");
}

/* 2人で遊ぶ場合 ■準備フェーズ: "プレイヤー2人に忍者カード7枚と巻物タイルの【+3】【+1】【-1】を
 * 配ります。…スタートプレイヤーは切り札を選びます。次に、…「影」と言う名の架空のプレイヤーの
 * 手札を作ります。残りの忍者カードから、テーブルの中央に7枚、裏向きにして一列に並べます。
 * 並べた忍者カードのうち、左から3枚を表向きに開きます。巻物タイルの【+3】【+1】【-1】の3枚を
 * シャッフルし、開いた3枚の忍者カードの上に1枚ずつ置きます。そのうち1番左の巻物タイルのみ、
 * 点数が見えるように表向きにします。" */
static void test_shadow_row_laid_after_the_trump(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("ninja", 2, "{\"start_player\": 1}", 3);
    ninja_state *s = ns(st);
    assert_int_equal(s->positions, 3);
    assert_int_equal(s->pile_n, NINJA_SCROLLS - 9); /* 2 seats + the shadow took +3 +1 -1 */
    assert_int_equal(__builtin_popcountll(s->leftover), 35 - 21);
    json_t *v = asobi_state_view(st, 0);
    assert_int_equal(json_array_size(json_object_get(v, "players")), 3);
    json_t *sh = shadow_of(v);
    assert_true(json_is_true(json_object_get(sh, "shadow")));
    assert_false(json_is_true(json_object_get(view_player(v, 0), "shadow")));
    assert_int_equal(json_array_size(json_object_get(sh, "open")), 0); /* not yet: face down */
    assert_int_equal(json_integer_value(json_object_get(sh, "hand_size")), 7);
    assert_true(json_is_null(json_object_get(sh, "hand")));
    json_decref(v);
    /* the shadow is not a seat: it never acts, never picks the trump */
    assert_int_equal(asobi_state_to_move(st), 1u << 1);
    assert_text_refused(st, 2, "trump fire", ASOBI_E_BAD_SEAT);
    apply_text(st, 1, "trump wood");
    assert_int_equal(s->pile_n, NINJA_SCROLLS - 9); /* round 1: the box's +3 +1 -1 */
    int tiles[3], sum = 0, up = 0;
    for (int i = 0; i < 3; i++) {
        tiles[i] = s->scroll_on[s->row[i]];
        sum += tiles[i];
        up += s->scroll_up[s->row[i]];
    }
    assert_int_equal(sum, 3);
    assert_int_equal(tiles[0] * tiles[1] * tiles[2], -3); /* {+3, +1, -1} */
    assert_int_equal(up, 1);
    assert_int_equal(s->scroll_up[s->row[0]], 1); /* the leftmost */
    v = asobi_state_view(st, 0);
    sh = shadow_of(v);
    assert_int_equal(json_array_size(json_object_get(sh, "open")), 3);
    assert_int_equal(json_integer_value(json_object_get(sh, "hand_size")), 4);
    assert_int_equal(json_integer_value(open_scroll(sh, 0)), tiles[0]);
    assert_string_equal(json_string_value(open_scroll(sh, 1)), "hidden");
    assert_string_equal(json_string_value(open_scroll(sh, 2)), "hidden");
    json_decref(v);
    /* the 3 leftmost open, in row order */
    assert_int_equal(s->row_opened, 3);
    asobi_state_free(st);
}

/* ■勝負フェーズ: "通常の勝負フェーズと同じように、時計回り順で…影の手番が回ってきたら、表向きに
 * なっている3枚の忍者カードから以下のルールに従って自動で出されます。・スタートプレイヤーと
 * 同じ種類がある場合は優先的にそのカードが出されます。複数ある場合はより左にあるカードが優先
 * されます。" Order at the table: seat 0, seat 1, the shadow (ruling 8). */
static void test_shadow_follows_with_its_leftmost_card_of_the_kind(void **unused)
{
    (void)unused;
    asobi_state *st = rigged2();
    prepare(st, "metal", OPENS2);
    ninja_state *s = ns(st);
    apply_text(st, 0, "play water-2");
    assert_int_equal(asobi_state_to_move(st), 1u << 1);
    assert_int_equal(s->trick_n, 1);
    apply_text(st, 1, "play water-7");
    /* the shadow played at once: water-3 (leftmost water), not water-6 */
    assert_int_equal(s->last_n, 3);
    assert_int_equal(s->last_pos[2], NINJA_SHADOW);
    assert_int_equal(s->last_card[2], card_id("water-3"));
    assert_int_equal(s->last_winner, 1);
    assert_int_equal(asobi_state_to_move(st), 1u << 1);
    asobi_state_free(st);
}

/* ■勝負フェーズ: "・スタートプレイヤーと同じ種類がない場合は1番左側のカードが出されます。" and
 * "次の力比べをする前に、影の左側の忍者カードが3枚見えるように開き、新たな巻物カードを乗せます。
 * 1番左の巻物カードが見えていない場合は開いて公開します。影は巻物カードを常に3枚持っている
 * 状態になります。" */
static void test_shadow_leftmost_when_void_and_refill(void **unused)
{
    (void)unused;
    asobi_state *st = rigged2();
    prepare(st, "metal", OPENS2);
    ninja_state *s = ns(st);
    int pile = s->pile_n;
    apply_all(st, "0:play water-2; 1:play water-7");
    /* refilled: fire-4, water-6 and the new earth-2 with a tile from the pile */
    assert_int_equal(s->pile_n, pile - 1);
    json_t *v = asobi_state_view(st, 0);
    json_t *sh = shadow_of(v);
    assert_int_equal(json_array_size(json_object_get(sh, "open")), 3);
    assert_string_equal(open_card(sh, 0), "fire-4");
    assert_string_equal(open_card(sh, 1), "water-6");
    assert_string_equal(open_card(sh, 2), "earth-2");
    assert_true(json_is_integer(open_scroll(sh, 0)));         /* the leftmost turned up */
    assert_string_equal(json_string_value(open_scroll(sh, 2)), "hidden"); /* the new one face down */
    assert_int_equal(json_integer_value(json_object_get(sh, "hand_size")), 3);
    json_decref(v);
    /* seat 1 leads wood: the shadow has no wood and plays its leftmost, fire-4 */
    apply_text(st, 1, "play wood-1");
    assert_int_equal(s->trick_n, 2);
    assert_int_equal(s->trick_pos[1], NINJA_SHADOW);
    assert_int_equal(s->trick_card[1], card_id("fire-4"));
    assert_int_equal(asobi_state_to_move(st), 1u << 0);
    v = asobi_state_view(st, 0);
    json_t *entry = json_array_get(json_object_get(v, "trick"), 1);
    assert_true(json_is_true(json_object_get(entry, "shadow")));
    assert_int_equal(json_integer_value(json_object_get(entry, "seat")), NINJA_SHADOW);
    json_decref(v);
    apply_text(st, 0, "play wood-3");
    assert_int_equal(s->last_winner, 0);
    assert_int_equal(s->pile_n, pile - 2);
    /* every open card of the shadow carries a tile */
    int cards[3];
    int n = ninja_shadow_open(s, cards);
    assert_int_equal(n, 3);
    for (int i = 0; i < n; i++)
        assert_int_not_equal(s->scroll_on[cards[i]], 0);
    assert_int_equal(s->scroll_up[cards[0]], 1);
    asobi_state_free(st);
}

/* ■勝負フェーズ: "・影が勝利した場合、次の力比べは影がスタートプレイヤーとなり、1番左のカードが
 * 最初に出されます。" and "力比べに勝ったプレイヤーは通常と同じく巻物を手に入れます。影が勝った
 * 場合は忍者カード列の上部に見えるように表向きに並べます。" */
static void test_shadow_wins_takes_tiles_and_leads_its_leftmost(void **unused)
{
    (void)unused;
    asobi_state *st = rigged2();
    prepare(st, "metal", OPENS2);
    ninja_state *s = ns(st);
    apply_all(st, "0:play water-2; 1:play water-7; 1:play wood-1; 0:play wood-3");
    /* seat 0 leads water-5 (its +1 lies on it), seat 1 has no water, the shadow's water-6 wins */
    int shadow_tile = s->scroll_on[card_id("water-6")];
    apply_all(st, "0:play water-5; 1:play wood-6");
    assert_int_equal(s->last_winner, NINJA_SHADOW);
    assert_int_equal(ninja_points(s, NINJA_SHADOW), 1 + shadow_tile);
    /* it leads at once with its leftmost card (after the refill): earth-2 */
    assert_int_equal(s->trick_n, 1);
    assert_int_equal(s->trick_pos[0], NINJA_SHADOW);
    assert_int_equal(s->trick_card[0], card_id("earth-2"));
    assert_int_equal(s->leader, NINJA_SHADOW);
    assert_int_equal(asobi_state_to_move(st), 1u << 0);
    /* its won tiles are shown to everyone */
    for (int seat = 0; seat < 2; seat++) {
        json_t *v = asobi_state_view(st, seat);
        json_t *sh = shadow_of(v);
        assert_int_equal(json_array_size(json_object_get(sh, "won")), 2);
        assert_int_equal(json_integer_value(json_object_get(sh, "points")), 1 + shadow_tile);
        assert_int_equal(json_integer_value(json_object_get(v, "leader")), NINJA_SHADOW);
        json_decref(v);
    }
    /* seat 0 has no earth: anything; seat 1 must follow earth-1 */
    apply_text(st, 0, "play fire-1");
    int ids[NINJA_MAX_ACTIONS];
    assert_int_equal(asobi_state_legal(st, 1, ids), 1);
    assert_int_equal(ids[0], NINJA_ID_PLAY + card_id("earth-1"));
    asobi_state_free(st);
}

/* Tiles won by a place, from a list of values ("+3 +1 -1"; "" for none). */
static void give_tiles(ninja_state *s, int pos, const char *list)
{
    char *end;
    for (const char *p = list; *p; p = end) {
        long v = strtol(p, &end, 10);
        if (end == p)
            break;
        assert_true(ninja_scroll_type((int)v) >= 0);
        s->won[pos][ninja_scroll_type((int)v)]++;
    }
}

/* The last trick of round `round` in a 2-player game: each seat holds one
 * card, the shadow its last row card (water-3, which wins the trick: no
 * tiles on the cards); won[p] the tiles each place has won so far. */
static asobi_state *last_trick2(int round, const char *const *won)
{
    asobi_state *st = new_state("ninja", 2, "{\"start_player\": 0}", 8);
    ninja_state *s = ns(st);
    s->round = (uint8_t)round;
    s->phase = NINJA_PHASE_BATTLE;
    s->tricks_done = NINJA_TRICKS - 1;
    s->trump = 0;
    s->start = s->leader = s->turn = 0;
    memset(s->open, 0, sizeof s->open);
    memset(s->held_n, 0, sizeof s->held_n);
    memset(s->held, 0, sizeof s->held);
    s->hand[0] = cards_of("water-1");
    s->hand[1] = cards_of("water-2");
    s->row[6] = (uint8_t)card_id("water-3");
    s->row_opened = 7;
    s->row_played = 0x3f;
    for (int p = 0; p < 3; p++)
        give_tiles(s, p, won[p]);
    return st;
}

/* ■ラウンドとゲームの終了: "通常と同じく、1番点数が高いプレイヤーは巻物カードを開きます。この時
 * 影が1番点数が高い場合はその時点でゲームオーバーとなります。" — both players lose
 * (reconstructions.md). Issue 11, point 2 (the project's independent review's
 * reading, ruling 13): at the end of every round, the third included, the
 * shadow is ranked with the players by the order of ゲームの終了 ("同点の場合は
 * より獲得した巻物の数が多い方が勝ち、それも同じ場合はプラス点の巻物の数が多い方が
 * 勝利します"); ranking first, alone or tied, it ends the game. */
static void test_shadow_ranked_like_a_player_ends_the_game(void **unused)
{
    (void)unused;
    struct {
        int round;
        const char *won[3]; /* seat 0, seat 1, the shadow */
        bool over;
        uint32_t winners; /* after round 3 when the shadow did not win */
    } cases[] = {
        {1, {"+1 +1", "+1", "+3"}, true, 0},          /* ahead on points after round 1: over at once */
        {1, {"+3", "+1", "+1 +1 +1"}, true, 0},       /* tied on points, more tiles: first */
        {1, {"+1 +1 +1", "+1", "+3"}, false, 0},      /* tied on points, fewer tiles: seat 0 first */
        {1, {"+5 -1 -1", "", "+1 +1 +1"}, true, 0},   /* tied on points and tiles, more positive */
        {1, {"+1 +1 +1", "", "+5 -1 -1"}, false, 0},  /* ... fewer positive: play on */
        {1, {"+3", "-1", "+3"}, true, 0},             /* tied in everything: tied first ends it */
        {2, {"", "-1 -1", "+1"}, true, 0},
        {3, {"+3 +1", "+5", "+5 +1"}, true, 0},       /* after round 3 too */
        {3, {"+3 +1", "+5", "+1 +1 +1 +1 +1"}, true, 0}, /* tied with the top seat on points: more tiles */
        {3, {"+3 +1", "+1 +1 +1 +1 +1", "+5"}, false, 1u << 1}, /* the seat has more tiles: it wins */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        asobi_state *st = last_trick2(cases[k].round, cases[k].won);
        apply_all(st, "0:play water-1; 1:play water-2");
        ninja_state *s = ns(st);
        assert_int_equal(s->last_winner, NINJA_SHADOW);
        asobi_result r;
        asobi_state_result(st, &r);
        if (cases[k].over) {
            if (s->phase != NINJA_PHASE_OVER || !s->shadow_won)
                fail_msg("case %zu: the shadow ranks first, the game should be over", k);
            assert_int_equal(r.winners, 0);
            assert_int_equal(r.rank[0], 2);
            assert_int_equal(r.rank[1], 2);
            json_t *v = asobi_state_view(st, 0);
            assert_true(json_is_true(json_object_get(v, "shadow_won")));
            assert_int_equal(json_array_size(json_object_get(v, "winners")), 0);
            json_decref(v);
            char *text = asobi_state_render(st, 1);
            assert_non_null(strstr(text, "both players lose"));
            free(text);
        } else if (cases[k].round < 3) {
            if (s->phase != NINJA_PHASE_TRUMP)
                fail_msg("case %zu: a seat ranks ahead of the shadow, play should go on", k);
            assert_int_equal(s->round, cases[k].round + 1);
        } else {
            assert_int_equal(s->phase, NINJA_PHASE_OVER);
            assert_false(s->shadow_won);
            assert_int_equal(r.winners, cases[k].winners);
        }
        asobi_state_free(st);
    }
}

/* Rounds 2 and 3: the shadow's three first tiles come from the pile
 * (reconstructions.md); seats draw 3 each; the start player is the lowest
 * seat, never the shadow (ruling 12). */
static void test_shadow_later_rounds(void **unused)
{
    (void)unused;
    static const char *const won[3] = {"+3", "+1", "-5"};
    asobi_state *st = last_trick2(1, won);
    ninja_state *s = ns(st);
    int pile = s->pile_n;
    apply_all(st, "0:play water-1; 1:play water-2");
    assert_int_equal(s->round, 2);
    assert_int_equal(s->pile_n, pile - 6);
    assert_int_equal(s->start, 1); /* the lowest seat; the shadow (-5) is no seat */
    assert_int_equal(s->row_opened, 0);
    apply_text(st, 1, "trump earth");
    assert_int_equal(s->pile_n, pile - 9);
    assert_int_equal(s->row_opened, 3);
    for (int i = 0; i < 3; i++)
        assert_int_not_equal(s->scroll_on[s->row[i]], 0);
    assert_int_equal(s->scroll_up[s->row[0]], 1);
    asobi_state_free(st);
}

/* 準備フェーズ 5) 巻物を開く with the shadow: "3ラウンド目の場合、1番獲得点が高いプレイヤーは
 * 2枚表向きにし、次点に得点の高いプレイヤーは1枚表向きにします。" Issue 11, point 3 (the
 * project's independent review's reading, ruling 19): the shadow's points count
 * when deciding who holds the top score and 次点; the shadow itself turns up
 * nothing (its tiles follow its own rule: only its leftmost lies face up). */
static void test_flips_rank_the_shadow(void **unused)
{
    (void)unused;
    struct {
        int round;
        const char *won[3]; /* seat 0, seat 1, the shadow */
        int flips[2];
    } cases[] = {
        {3, {"+5", "+1", "+3"}, {2, 0}},         /* the shadow holds 次点: seat 1 is third */
        {3, {"+5", "+3", "+1"}, {2, 1}},         /* the shadow last: as without it */
        {3, {"+3 +1 +1", "+1", "+5"}, {2, 1}},   /* shadow tied on top (fewer tiles): 次点 is seat 1 */
        {3, {"+5", "+3", "+3"}, {2, 1}},         /* tied on 次点 with the shadow */
        {2, {"+3 +1 +1", "+1", "+5"}, {1, 0}},   /* round 2: only the top */
        {3, {"+1", "+1", "+5 -1 -3"}, {2, 2}},   /* the shadow, tied on top, takes nothing from them */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        asobi_state *st = rigged2();
        ninja_state *s = ns(st);
        s->round = (uint8_t)cases[k].round;
        for (int p = 0; p < 3; p++)
            give_tiles(s, p, cases[k].won[p]);
        s->pile_n = 20; /* rounds 2-3: the shadow draws its tiles */
        prepare(st, "fire", OPENS2);
        assert_int_equal(s->phase, NINJA_PHASE_FLIP);
        for (int p = 0; p < 2; p++)
            if (s->flips_left[p] != cases[k].flips[p])
                fail_msg("case %zu: seat %d turns up %d, expected %d", k, p, s->flips_left[p], cases[k].flips[p]);
        assert_int_equal(s->flips_left[NINJA_SHADOW], 0);
        int up = 0;
        for (int i = 0; i < 3; i++)
            up += s->scroll_up[s->row[i]];
        assert_int_equal(up, 1);
        assert_int_equal(s->scroll_up[s->row[0]], 1);
        asobi_state_free(st);
    }
}

/* A full 2-player game by the heuristic player ends, and the shadow took part
 * in every trick (three cards per trick, 21 tricks or fewer if it ended early). */
static void test_full_game_with_shadow(void **unused)
{
    (void)unused;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        asobi_state *st = new_state("ninja", 2, NULL, seed);
        asobi_rng rng;
        asobi_rng_seed(&rng, seed);
        int shadow_cards = 0, steps = 0;
        while (!asobi_state_terminal(st)) {
            ninja_state *s = ns(st);
            int seat = __builtin_ctz(asobi_state_to_move(st));
            int before = __builtin_popcount(s->row_played);
            int id = ninja_heuristic(s, seat, &rng);
            assert_int_equal(asobi_state_apply(st, seat, id, NULL), ASOBI_OK);
            int after = __builtin_popcount(s->row_played);
            shadow_cards += after >= before ? after - before : after + 7 - before;
            steps++;
        }
        assert_true(steps < 200);
        ninja_state *s = ns(st);
        if (!s->shadow_won)
            assert_int_equal(s->round, 3);
        assert_true(shadow_cards % 7 == 0 && shadow_cards >= 7);
        asobi_state_free(st);
    }
}

/* The refill late in a round: "影の左側の忍者カードが3枚見えるように開き" can no
 * longer be done once the row is all open, so no card and no tile come; but
 * "1番左の巻物カードが見えていない場合は開いて公開します" still applies (ruling 11). */
static void test_shadow_refill_when_the_row_is_all_open(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("ninja", 2, "{\"start_player\": 0}", 8);
    ninja_state *s = ns(st);
    s->phase = NINJA_PHASE_BATTLE;
    s->trump = 0;
    s->tricks_done = 4;
    s->start = s->leader = s->turn = 0;
    memset(s->open, 0, sizeof s->open);
    memset(s->held_n, 0, sizeof s->held_n);
    memset(s->held, 0, sizeof s->held);
    s->hand[0] = cards_of("water-1 wood-1 wood-2");
    s->hand[1] = cards_of("water-2 wood-3 wood-4");
    const char *row[] = {"earth-1", "earth-2", "earth-3", "earth-4", "water-5", "metal-1", "metal-2"};
    for (int i = 0; i < NINJA_ROW; i++)
        s->row[i] = (uint8_t)card_id(row[i]);
    s->row_opened = 7;
    s->row_played = 0x0f;
    s->scroll_on[card_id("water-5")] = 3;
    s->scroll_up[card_id("water-5")] = 1;
    s->scroll_on[card_id("metal-1")] = 5;
    s->scroll_on[card_id("metal-2")] = -1;
    int pile = s->pile_n;
    apply_all(st, "0:play water-1; 1:play water-2"); /* the shadow's water-5 wins */
    assert_int_equal(s->last_winner, NINJA_SHADOW);
    assert_int_equal(s->pile_n, pile);
    int cards[3];
    /* it led its leftmost at once, metal-1, whose tile had been turned up first */
    assert_int_equal(s->trick_n, 1);
    assert_int_equal(s->trick_card[0], card_id("metal-1"));
    assert_int_equal(s->scroll_up[card_id("metal-1")], 1);
    assert_int_equal(ninja_shadow_open(s, cards), 1);
    assert_int_equal(s->scroll_up[card_id("metal-2")], 0);
    asobi_state_free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shadow_row_laid_after_the_trump),
        cmocka_unit_test(test_shadow_follows_with_its_leftmost_card_of_the_kind),
        cmocka_unit_test(test_shadow_leftmost_when_void_and_refill),
        cmocka_unit_test(test_shadow_wins_takes_tiles_and_leads_its_leftmost),
        cmocka_unit_test(test_shadow_ranked_like_a_player_ends_the_game),
        cmocka_unit_test(test_shadow_later_rounds),
        cmocka_unit_test(test_flips_rank_the_shadow),
        cmocka_unit_test(test_shadow_refill_when_the_row_is_all_open),
        cmocka_unit_test(test_full_game_with_shadow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_ninja_rules.c — one test per rule of seed 002 (3-5 players), each citing its passage. */
#include "ninja_test.h"

/* A rigged 3-player deal, start player seat 0. Seat 0 has no earth. */
static const char *const DEAL3[] = {
    "fire-1 fire-7 water-2 water-5 wood-3 metal-4 metal-5",
    "fire-2 fire-3 water-7 wood-1 wood-6 metal-1 earth-1",
    "fire-4 fire-6 water-1 water-3 wood-7 metal-7 earth-7",
};
/* Opened in this order; tiles +3, +1, -1 go on them in this order. */
static const char *const OPENS3[] = {
    "fire-7 water-5 metal-5",
    "fire-2 fire-3 earth-1",
    "water-1 wood-7 metal-7",
};

static asobi_state *rigged3(void)
{
    asobi_state *st = new_state("ninja", 3, "{\"start_player\": 0}", 42);
    rig_deal(st, DEAL3, NULL);
    return st;
}

static asobi_state *battle3(void)
{
    asobi_state *st = rigged3();
    prepare(st, "metal", OPENS3);
    assert_int_equal(ns(st)->phase, NINJA_PHASE_BATTLE);
    return st;
}

static int legal_count(asobi_state *st, int seat)
{
    int ids[NINJA_MAX_ACTIONS];
    return asobi_state_legal(st, seat, ids);
}

static bool is_legal_text(asobi_state *st, int seat, const char *text)
{
    int id;
    return asobi_state_parse_action(st, seat, text, &id, NULL) == ASOBI_OK;
}

static void refused_with(asobi_state *st, int seat, const char *text, const char *phrase)
{
    assert_text_refused(st, seat, text, ASOBI_E_ILLEGAL_ACTION);
    int id;
    asobi_error err;
    assert_int_not_equal(asobi_state_parse_action(st, seat, text, &id, &err), ASOBI_OK);
    if (!strstr(err.message, phrase))
        fail_msg("refusing \"%s\" said \"%s\", not \"%s\"", text, err.message, phrase);
}

/* seed 002 ゲーム開始の用意 2) "各プレイヤーは巻物タイルから +3 +1 -1 を1枚ずつ取ります。…
 * 残りのタイルは裏向きにし、シャッフルして" and 準備フェーズ 1) "各プレイヤーに7枚ずつ配り
 * ます。カードが余る場合はテーブルの中央に裏向きで重ねて置き". */
static void test_setup_tiles_hands_leftovers(void **unused)
{
    (void)unused;
    for (int n = 3; n <= 5; n++) {
        asobi_state *st = new_state("ninja", n, NULL, 7);
        ninja_state *s = ns(st);
        assert_int_equal(s->round, 1);
        assert_int_equal(s->phase, NINJA_PHASE_TRUMP);
        assert_int_equal(s->pile_n, NINJA_SCROLLS - 3 * n);
        for (int p = 0; p < n; p++) {
            assert_int_equal(__builtin_popcountll(s->hand[p]), 7);
            assert_int_equal(s->held_n[p], 3);
            assert_int_equal(s->held[p][0], 3);
            assert_int_equal(s->held[p][1], 1);
            assert_int_equal(s->held[p][2], -1);
        }
        assert_int_equal(__builtin_popcountll(s->leftover), 35 - 7 * n);
        json_t *v = asobi_state_view(st, 0);
        assert_int_equal(json_integer_value(json_object_get(v, "pile_size")), NINJA_SCROLLS - 3 * n);
        assert_int_equal(json_array_size(json_object_get(v, "players")), (size_t)n);
        json_decref(v);
        asobi_state_free(st);
    }
}

/* seed 002 ゲーム開始の用意 3): the start player. The sheet's rule (the last to
 * have seen a ninja story) is not a program's: the option, or the seed. */
static void test_start_player_option_or_seed(void **unused)
{
    (void)unused;
    for (int p = 0; p < 4; p++) {
        char opt[64];
        snprintf(opt, sizeof opt, "{\"start_player\": %d}", p);
        asobi_state *st = new_state("ninja", 4, opt, 3);
        assert_int_equal(asobi_state_to_move(st), 1u << p);
        assert_int_equal(ns(st)->start, p);
        asobi_state_free(st);
    }
    uint32_t seen = 0;
    for (uint64_t seed = 0; seed < 64; seed++) {
        asobi_state *a = new_state("ninja", 4, NULL, seed), *b = new_state("ninja", 4, NULL, seed);
        assert_true(asobi_state_equal(a, b));
        seen |= asobi_state_to_move(a);
        asobi_state_free(a);
        asobi_state_free(b);
    }
    assert_int_equal(seen, 0xfu); /* every seat starts some games */
    json_t *bad = json_pack("{s:i}", "start_player", 3);
    asobi_error err;
    assert_null(asobi_state_new(asobi_game_find("ninja"), 3, bad, 1, &err));
    assert_int_equal(err.code, ASOBI_E_BAD_OPTION);
    json_decref(bad);
}

/* seed 002 準備フェーズ 2) "スタートプレイヤーは切り札カードを1枚選びます。… 他のプレイヤー
 * からも確認できるように": only the start player picks, any of the 5 kinds, and
 * everyone sees it. A kind outside the five is refused. */
static void test_trump_choice(void **unused)
{
    (void)unused;
    asobi_state *st = rigged3();
    assert_int_equal(legal_count(st, 0), 5);
    assert_text_refused(st, 1, "trump water", ASOBI_E_NOT_YOUR_TURN);
    refused_with(st, 0, "trump wind", "the kinds are fire, water, wood, metal and earth");
    refused_with(st, 0, "trump", "the kinds are");
    refused_with(st, 0, "play fire-1", "it is the trump phase");
    apply_text(st, 0, "Trump  WATER");
    assert_int_equal(ns(st)->trump, 1);
    for (int seat = 0; seat < 3; seat++) {
        json_t *v = asobi_state_view(st, seat);
        assert_string_equal(json_string_value(json_object_get(v, "trump")), "water");
        assert_string_equal(json_string_value(json_object_get(v, "phase")), "open");
        json_decref(v);
    }
    asobi_state_free(st);
}

/* seed 002 準備フェーズ 3) "スタートプレイヤーから順に、手札から1枚選んで自分の前に表向きに
 * 開いて置きます。次に左隣のプレイヤーも同じように手札から開き、全員が3枚のカードを開くまで
 * 繰り返します。" and "開かれたカードは…各プレイヤーの手札の一部と数えます". */
static void test_open_in_turn_until_three_each(void **unused)
{
    (void)unused;
    asobi_state *st = new_state("ninja", 3, "{\"start_player\": 1}", 42);
    rig_deal(st, DEAL3, NULL);
    apply_text(st, 1, "trump fire");
    const int order[] = {1, 2, 0, 1, 2, 0, 1, 2, 0};
    const char *cards[] = {"fire-2", "water-1", "fire-7", "fire-3", "wood-7",
                           "water-5", "earth-1", "metal-7", "metal-5"};
    for (int i = 0; i < 9; i++) {
        assert_int_equal(asobi_state_to_move(st), 1u << order[i]);
        assert_int_equal(ns(st)->phase, NINJA_PHASE_OPEN);
        if (i == 3) {
            refused_with(st, 1, "open fire-2", "already open");
            refused_with(st, 1, "open fire-1", "not in your hand");
        }
        char text[32];
        snprintf(text, sizeof text, "open %s", cards[i]);
        apply_text(st, order[i], text);
    }
    assert_int_equal(ns(st)->phase, NINJA_PHASE_SCROLL);
    assert_int_equal(asobi_state_to_move(st), 1u << 1);
    /* open cards stay in the hand (7 cards: 4 closed + 3 open) */
    json_t *v = asobi_state_view(st, 0);
    json_t *p1 = view_player(v, 1);
    assert_int_equal(json_integer_value(json_object_get(p1, "hand_size")), 4);
    assert_int_equal(json_array_size(json_object_get(p1, "open")), 3);
    assert_true(json_is_null(json_object_get(p1, "hand")));
    assert_int_equal(json_array_size(json_object_get(view_player(v, 0), "hand")), 4);
    json_decref(v);
    assert_int_equal(__builtin_popcountll(ns(st)->hand[1]), 7);
    asobi_state_free(st);
}

/* seed 002 準備フェーズ 4) "開いたカード3枚の上にそれぞれ巻物タイルを1枚ずつ配置します。
 * 巻物タイルは周りのプレイヤーから内容が見えないように裏向きで置きましょう。" The owner
 * knows which tile lies where; the others see "hidden". */
static void test_lay_scrolls_face_down(void **unused)
{
    (void)unused;
    asobi_state *st = rigged3();
    apply_all(st, "0:trump metal; 0:open fire-7; 1:open fire-2; 2:open water-1; 0:open water-5;"
                  "1:open fire-3; 2:open wood-7; 0:open metal-5; 1:open earth-1; 2:open metal-7");
    assert_int_equal(asobi_state_to_move(st), 1u);
    /* 3 distinct tiles x 3 open cards */
    assert_int_equal(legal_count(st, 0), 9);
    refused_with(st, 0, "scroll +5 on fire-7", "you hold no +5 tile");
    refused_with(st, 0, "scroll +3 on fire-1", "not one of your open cards");
    refused_with(st, 0, "scroll +3 on fire-2", "not one of your open cards");
    refused_with(st, 0, "scroll +4 on fire-7", "not a scroll tile");
    apply_text(st, 0, "scroll -1 on fire-7");
    refused_with(st, 0, "scroll +3 on fire-7", "already carries a tile");
    apply_text(st, 0, "+3 on water-5"); /* the verb may be left out */
    assert_int_equal(legal_count(st, 0), 1);
    apply_text(st, 0, "scroll 1 on metal-5");
    assert_int_equal(asobi_state_to_move(st), 2u);
    json_t *mine = asobi_state_view(st, 0), *theirs = asobi_state_view(st, 1);
    json_t *o0 = json_object_get(view_player(mine, 0), "open");
    json_t *o1 = json_object_get(view_player(theirs, 0), "open");
    for (size_t i = 0; i < 3; i++) {
        assert_true(json_is_integer(json_object_get(json_array_get(o0, i), "scroll")));
        assert_string_equal(json_string_value(json_object_get(json_array_get(o1, i), "scroll")), "hidden");
        assert_false(json_is_true(json_object_get(json_array_get(o1, i), "face_up")));
    }
    json_decref(mine);
    json_decref(theirs);
    /* round 1 has no 巻物を開く step: straight to the battle */
    apply_all(st, "1:scroll +3 on fire-2; 1:scroll +1 on fire-3; 1:scroll -1 on earth-1;"
                  "2:scroll +3 on water-1; 2:scroll +1 on wood-7; 2:scroll -1 on metal-7");
    assert_int_equal(ns(st)->phase, NINJA_PHASE_BATTLE);
    assert_int_equal(asobi_state_to_move(st), 1u);
    asobi_state_free(st);
}

/* seed 002 勝負フェーズ ②: "続く左隣のプレイヤーはスタートプレイヤーと同じ種類のカードが手札に
 * ある場合、必ずそのカードを出さなければなりません" and "同じ種類のカードが開いた中にある
 * 場合は開かれたカードから出さなければなりません。開かれたカードを出す場合は上に乗っている
 * 巻物も一緒に出します（裏向きの巻物は開かずに裏向きのまま一緒に出します）。" */
static void test_follow_suit_with_open_cards(void **unused)
{
    (void)unused;
    asobi_state *st = battle3();
    apply_text(st, 0, "play fire-1");
    /* seat 1's only fire cards are open: it must play one of them */
    assert_int_equal(legal_count(st, 1), 2);
    assert_true(is_legal_text(st, 1, "play fire-2"));
    assert_true(is_legal_text(st, 1, "play fire-3"));
    refused_with(st, 1, "play wood-1", "you must follow fire: you hold fire-2 (open) fire-3 (open)");
    refused_with(st, 1, "play fire-1", "not in your hand");
    assert_text_refused(st, 2, "play fire-4", ASOBI_E_NOT_YOUR_TURN);
    apply_text(st, 1, "fire-3"); /* the verb may be left out */
    /* the tile travels face down with the card */
    json_t *v2 = asobi_state_view(st, 2), *v1 = asobi_state_view(st, 1);
    json_t *t2 = json_array_get(json_object_get(v2, "trick"), 1);
    json_t *t1 = json_array_get(json_object_get(v1, "trick"), 1);
    assert_string_equal(json_string_value(json_object_get(t2, "card")), "fire-3");
    assert_string_equal(json_string_value(json_object_get(t2, "scroll")), "hidden");
    assert_int_equal(json_integer_value(json_object_get(t1, "scroll")), 1);
    assert_true(json_is_null(json_object_get(json_array_get(json_object_get(v2, "trick"), 0), "scroll")));
    json_decref(v1);
    json_decref(v2);
    /* seat 2 holds fire closed: it must follow too */
    assert_int_equal(legal_count(st, 2), 2);
    apply_text(st, 2, "play fire-6");
    asobi_state_free(st);
}

/* seed 002 勝負フェーズ: "開かれたカードも手札の一部なので、同じ種類のカードが開いた中に
 * ある場合は開かれたカードから出さなければなりません。" Issue 11, point 1 (ruling 18): a
 * follower with open cards of the led kind must play one of them; only without
 * any do its closed cards of the kind count ("手札に同じ種類がない場合のみ、他の
 * 種類を出すことができます" covers the rest). */
static void test_follow_open_cards_first(void **unused)
{
    (void)unused;
    asobi_state *st = battle3();
    apply_all(st, "0:play fire-1; 1:play fire-2; 2:play fire-6"); /* seat 2 wins, leads */
    char *text = asobi_state_render(st, 2);
    assert_non_null(strstr(text, "To act: seat 3 - lead any card")); /* people count seats from 1 */
    free(text);
    apply_text(st, 2, "play water-3");
    /* the terminal says what the rule asks of the seat to act */
    text = asobi_state_render(st, 0);
    assert_non_null(strstr(text, "water was led; follow it if you can, with an open water card"));
    free(text);
    /* seat 0 holds water-5 open (its +1 on it) and water-2 closed: water-5 only */
    assert_int_equal(legal_count(st, 0), 1);
    assert_true(is_legal_text(st, 0, "play water-5"));
    refused_with(st, 0, "play water-2",
                 "you must follow water: you hold water-2 water-5 (open); open cards are played first: play water-5");
    refused_with(st, 0, "play metal-4", "open cards are played first: play water-5");
    int ids[NINJA_MAX_ACTIONS];
    assert_int_equal(asobi_state_legal(st, 0, ids), 1);
    assert_int_equal(ids[0], NINJA_ID_PLAY + card_id("water-5"));
    apply_text(st, 0, "play water-5");
    /* seat 1: no open water, water-7 closed: that one */
    assert_int_equal(asobi_state_legal(st, 1, ids), 1);
    assert_int_equal(ids[0], NINJA_ID_PLAY + card_id("water-7"));
    refused_with(st, 1, "play earth-1", "you must follow water: you hold water-7");
    apply_text(st, 1, "play water-7");
    assert_int_equal(ns(st)->last_winner, 1);
    /* nobody showed a void: following with an open card says nothing of the closed ones */
    for (int p = 0; p < 3; p++)
        assert_int_equal(ns(st)->void_kinds[p], 0);
    asobi_state_free(st);
}

/* seed 002 勝負フェーズ: "手札に同じ種類がない場合のみ、他の種類を出すことができます。" —
 * a seat without the led kind may play anything, a trump included. */
static void test_void_may_play_anything(void **unused)
{
    (void)unused;
    asobi_state *st = battle3();
    apply_all(st, "0:play fire-1; 1:play fire-3; 2:play fire-6"); /* seat 2 wins, leads */
    apply_text(st, 2, "play earth-7");
    assert_int_equal(legal_count(st, 0), 6); /* no earth: any of its 6 cards */
    apply_text(st, 0, "play metal-4");
    assert_int_equal(ns(st)->void_kinds[0], 1u << 4); /* public: seat 0 has no earth */
    json_t *v = asobi_state_view(st, 1);
    assert_string_equal(json_string_value(json_array_get(json_object_get(view_player(v, 0), "void"), 0)),
                        "earth");
    json_decref(v);
    asobi_state_free(st);
}

/* seed 002 力比べの見方: "切り札と同じ種類を出したプレイヤーがいればその人が力比べに勝ちます。
 * 切り札が複数ある場合は数字の大きい方が勝ちます。切り札と同じ種類が出ていない場合は、
 * スタートプレイヤーが出した種類のカードが勝ち取ります。同じく複数いる場合は数字が大きい方が
 * 勝ち、スタートプレイヤー以外同じ種類のカードがなければスタートプレイヤーが勝ちます。"
 * With the sheet's examples ① (several trumps: the higher) and ② (no trump and
 * nobody else of the led kind: the start player). */
static void test_trick_resolution(void **unused)
{
    (void)unused;
    const uint8_t pos[] = {0, 1, 2, 3};
    int metal = 3;
#define WIN(a, b, c, d) \
    ninja_trick_winner(pos, (const uint8_t[]){(uint8_t)card_id(a), (uint8_t)card_id(b), (uint8_t)card_id(c), (uint8_t)card_id(d)}, 4, metal)
    assert_int_equal(WIN("fire-5", "metal-2", "metal-6", "fire-7"), 2); /* example ① */
    assert_int_equal(WIN("water-3", "fire-7", "earth-7", "wood-7"), 0); /* example ② */
    assert_int_equal(WIN("fire-3", "fire-6", "water-7", "fire-4"), 1); /* the led kind, higher */
    assert_int_equal(WIN("fire-7", "water-7", "earth-7", "metal-1"), 3); /* the lowest trump beats all */
    assert_int_equal(WIN("metal-1", "fire-7", "metal-4", "metal-2"), 2); /* trump led */
#undef WIN
    /* and in play: seat 0, void in earth, trumps seat 2's earth-7 with metal-4 */
    asobi_state *st = battle3();
    apply_all(st, "0:play fire-1; 1:play fire-3; 2:play fire-6; 2:play earth-7; 0:play metal-4;"
                  "1:play earth-1");
    assert_int_equal(ns(st)->last_winner, 0);
    asobi_state_free(st);
}

/* seed 002: the winner leads the next trick (reconstructions.md: "The winner of
 * a trick leads the next one (the 2-player rules say so of the shadow)": "影が
 * 勝利した場合、次の力比べは影がスタートプレイヤーとなり"). And 勝負フェーズ: "力比べに
 * 勝ったプレイヤーは…カードに乗っていた巻物タイルがあれば回収し、獲得点とします。勝ち取った
 * 巻物タイルは自身の前に表向きに公開します。" */
static void test_winner_takes_tiles_and_leads(void **unused)
{
    (void)unused;
    asobi_state *st = battle3();
    apply_all(st, "0:play fire-1; 1:play fire-3; 2:play fire-6");
    ninja_state *s = ns(st);
    assert_int_equal(s->last_winner, 2);
    assert_int_equal(asobi_state_to_move(st), 1u << 2);
    assert_int_equal(s->leader, 2);
    assert_int_equal(ninja_points(s, 2), 1);
    for (int seat = 0; seat < 3; seat++) {
        json_t *v = asobi_state_view(st, seat);
        json_t *won = json_object_get(view_player(v, 2), "won");
        assert_int_equal(json_array_size(won), 1);
        assert_int_equal(json_integer_value(json_array_get(won, 0)), 1);
        assert_int_equal(json_integer_value(json_object_get(view_player(v, 2), "points")), 1);
        json_t *last = json_object_get(v, "last_trick");
        assert_int_equal(json_integer_value(json_object_get(last, "winner")), 2);
        assert_int_equal(json_array_size(json_object_get(v, "discard")), 3);
        assert_int_equal(json_array_size(json_object_get(v, "trick")), 0);
        json_decref(v);
    }
    apply_all(st, "2:play earth-7; 0:play metal-4; 1:play earth-1");
    assert_int_equal(asobi_state_to_move(st), 1u << 0);
    assert_int_equal(ninja_points(s, 0), -1);
    asobi_state_free(st);
}

/* Put a state at the last trick of round `round`: every seat holds one card
 * (cards[p]), won tiles as given (counts by type), start player `start`. */
static void last_trick(asobi_state *st, int round, int start, const char *const *cards)
{
    ninja_state *s = ns(st);
    s->round = (uint8_t)round;
    s->phase = NINJA_PHASE_BATTLE;
    s->tricks_done = NINJA_TRICKS - 1;
    s->trump = 0;
    s->start = s->leader = s->turn = (uint8_t)start;
    memset(s->open, 0, sizeof s->open);
    memset(s->held_n, 0, sizeof s->held_n);
    memset(s->held, 0, sizeof s->held);
    for (int p = 0; p < s->players; p++)
        s->hand[p] = cards_of(cards[p]);
}

/* ninja_scroll_type compares a value with the eight types at once (one word):
 * the type of each of the table's values, -1 for every other value, those
 * that only agree with a type in their low byte included. */
static void test_scroll_type_of_every_value(void **unused)
{
    (void)unused;
    for (int v = -1000; v <= 1000; v++) {
        int want = -1;
        for (int t = NINJA_SCROLL_TYPES - 1; t >= 0; t--)
            if (ninja_table.scroll_values[t] == v)
                want = t;
        assert_int_equal(ninja_scroll_type(v), want);
    }
    assert_int_equal(ninja_scroll_type(INT32_MIN), -1);
    assert_int_equal(ninja_scroll_type(INT32_MAX), -1);
    assert_int_equal(ninja_scroll_type(256 + 3), -1);
}

static void give(asobi_state *st, int pos, int value, int count)
{
    ns(st)->won[pos][ninja_scroll_type(value)] = (uint8_t)(ns(st)->won[pos][ninja_scroll_type(value)] + count);
}

/* seed 002 次のラウンドの用意: "各プレイヤーは新たにテーブル中央の巻物タイルの山からランダムに
 * 3枚引きます。現段階で1番得点の低いプレイヤーがリファレンスカードを受け取り、次ラウンドの
 * スタートプレイヤーとなります。" Ties (reconstructions.md): clockwise from the
 * current start player, beginning on their left; the start player comes last. */
static void test_round_end_draws_and_next_start_player(void **unused)
{
    (void)unused;
    static const char *const cards[] = {"water-1", "water-2", "water-3", "water-4"};
    struct {
        int start;
        int points[4];
        int expect;
    } cases[] = {
        {0, {5, 1, 3, 2}, 1},  /* the lowest */
        {0, {1, 3, 1, 2}, 2},  /* tie 0 and 2, start 0: seat 2 (0 comes last) */
        {2, {1, 3, 1, 2}, 0},  /* tie 0 and 2, start 2: seat 0 (3, 0, 1, 2) */
        {1, {4, 0, 0, 0}, 2},  /* tie 1, 2, 3, start 1: seat 2 */
        {3, {0, 0, 0, 0}, 0},  /* all tied, start 3: seat 0 */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        asobi_state *st = new_state("ninja", 4, NULL, 9);
        last_trick(st, 1, cases[k].start, cards);
        for (int p = 0; p < 4; p++)
            if (cases[k].points[p])
                give(st, p, 1, cases[k].points[p]);
        int pile = ns(st)->pile_n;
        int s0 = cases[k].start;
        for (int j = 0; j < 4; j++) {
            char text[32];
            snprintf(text, sizeof text, "play %s", cards[(s0 + j) % 4]);
            apply_text(st, (s0 + j) % 4, text);
        }
        ninja_state *s = ns(st);
        assert_int_equal(s->round, 2);
        assert_int_equal(s->phase, NINJA_PHASE_TRUMP);
        assert_int_equal(s->pile_n, pile - 12);
        for (int p = 0; p < 4; p++) {
            assert_int_equal(s->held_n[p], 3);
            assert_int_equal(__builtin_popcountll(s->hand[p]), 7);
        }
        if (s->start != cases[k].expect)
            fail_msg("case %zu: start player %d, expected %d", k, s->start, cases[k].expect);
        assert_int_equal(asobi_state_to_move(st), 1u << cases[k].expect);
        asobi_state_free(st);
    }
}

/* Set points (as +1 tiles, or -1 tiles) and go to round `round`'s flip phase. */
static asobi_state *flip_phase(int players, int round, const int *points)
{
    asobi_state *st = new_state("ninja", players, "{\"start_player\": 0}", 11);
    ninja_state *s = ns(st);
    s->round = (uint8_t)round;
    for (int p = 0; p < players; p++)
        give(st, p, points[p] >= 0 ? 1 : -1, abs(points[p]));
    /* open the three lowest cards of each hand */
    char opens[NINJA_MAX_PLAYERS][64];
    const char *op[NINJA_MAX_PLAYERS];
    for (int p = 0; p < players; p++) {
        int n = 0;
        opens[p][0] = '\0';
        for (int c = 0; c < NINJA_CARDS && n < 3; c++)
            if (s->hand[p] & (1ull << c)) {
                char t[16];
                ninja_card_text(c, t, sizeof t);
                strcat(opens[p], n ? " " : "");
                strcat(opens[p], t);
                n++;
            }
        op[p] = opens[p];
    }
    prepare(st, "fire", op);
    return st;
}

/* seed 002 準備フェーズ 5) 巻物を開く: round 2, "今1番獲得点が高いプレイヤーは伏せて置いた
 * 自分の巻物タイルから1枚表向きに開きます"; round 3, "1番獲得点が高いプレイヤーは2枚表向き
 * にし、次点に得点の高いプレイヤーは1枚表向きにします"; "同点のプレイヤーが複数いる場合は
 * 対象のプレイヤーが全員開きます。" */
static void test_flip_counts_with_ties(void **unused)
{
    (void)unused;
    struct {
        int players, round, points[5], flips[5];
    } cases[] = {
        {3, 2, {5, 3, 3}, {1, 0, 0}},
        {3, 2, {4, 4, 0}, {1, 1, 0}},
        {3, 2, {0, 0, 0}, {1, 1, 1}},
        {3, 3, {5, 3, 1}, {2, 1, 0}},
        {4, 3, {5, 5, 3, 1}, {2, 2, 1, 0}},
        {3, 3, {2, 7, 7}, {1, 2, 2}},
        {5, 3, {-2, 6, 1, 1, 6}, {0, 2, 1, 1, 2}},
        {4, 3, {3, 3, 3, 3}, {2, 2, 2, 2}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        asobi_state *st = flip_phase(cases[k].players, cases[k].round, cases[k].points);
        ninja_state *s = ns(st);
        assert_int_equal(s->phase, NINJA_PHASE_FLIP);
        for (int p = 0; p < cases[k].players; p++)
            if (s->flips_left[p] != cases[k].flips[p])
                fail_msg("case %zu: seat %d flips %d, expected %d", k, p, s->flips_left[p], cases[k].flips[p]);
        /* flippers act in turn from the start player, each all its flips */
        int done = 0;
        while (s->phase == NINJA_PHASE_FLIP) {
            int seat = __builtin_ctz(asobi_state_to_move(st));
            int ids[NINJA_MAX_ACTIONS];
            int n = asobi_state_legal(st, seat, ids);
            assert_int_equal(n, 3 - (cases[k].flips[seat] - s->flips_left[seat]));
            int card = ids[0] - NINJA_ID_FLIP;
            asobi_state_apply(st, seat, ids[0], NULL);
            done++;
            /* face up: everyone sees the value now */
            json_t *v = asobi_state_view(st, (seat + 1) % cases[k].players);
            json_t *open = json_object_get(view_player(v, seat), "open");
            bool found = false;
            for (size_t i = 0; i < json_array_size(open); i++) {
                json_t *o = json_array_get(open, i);
                char t[16];
                ninja_card_text(card, t, sizeof t);
                if (strcmp(json_string_value(json_object_get(o, "card")), t) == 0) {
                    found = true;
                    assert_true(json_is_integer(json_object_get(o, "scroll")));
                    assert_true(json_is_true(json_object_get(o, "face_up")));
                }
            }
            assert_true(found);
            json_decref(v);
        }
        int total = 0;
        for (int p = 0; p < cases[k].players; p++)
            total += cases[k].flips[p];
        assert_int_equal(done, total);
        assert_int_equal(s->phase, NINJA_PHASE_BATTLE);
        assert_int_equal(asobi_state_to_move(st), 1u << s->start);
        asobi_state_free(st);
    }
}

/* seed 002 ゲームの終了: "3ラウンド目の【勝負フェーズ】が終わるとゲーム終了です。…1番点数の
 * 高いプレイヤーが勝者となります。同点の場合はより獲得した巻物の数が多い方が勝ち、それも
 * 同じ場合はプラス点の巻物の数が多い方が勝利します。" Still tied: shared. */
static void test_final_tie_breaks(void **unused)
{
    (void)unused;
    static const char *const cards[] = {"water-1", "water-2", "water-3"};
    for (int k = 0; k < 4; k++) {
        asobi_state *st = new_state("ninja", 3, NULL, 5);
        last_trick(st, 3, 0, cards);
        give(st, 2, 1, 1); /* seat 2: 1 point, never ahead */
        uint32_t expect = 0;
        switch (k) {
        case 0: /* points */
            give(st, 0, 5, 1);
            give(st, 1, 3, 1);
            expect = 1u << 0;
            break;
        case 1: /* 3 points each: 3 tiles beat 1 tile */
            give(st, 0, 3, 1);
            give(st, 1, 1, 3);
            expect = 1u << 1;
            break;
        case 2: /* 3 points and 3 tiles each: 3 positive tiles beat 1 */
            give(st, 0, 5, 1);
            give(st, 0, -1, 2);
            give(st, 1, 1, 3);
            expect = 1u << 1;
            break;
        case 3: /* the same in everything: shared */
            give(st, 0, 7, 1);
            give(st, 0, -3, 1);
            give(st, 1, 5, 1);
            give(st, 1, -1, 1);
            expect = (1u << 0) | (1u << 1);
            break;
        }
        apply_all(st, "0:play water-1; 1:play water-2; 2:play water-3");
        ninja_state *s = ns(st);
        assert_int_equal(s->phase, NINJA_PHASE_OVER);
        assert_true(asobi_state_terminal(st));
        asobi_result r;
        asobi_state_result(st, &r);
        assert_true(r.terminal);
        if (r.winners != expect)
            fail_msg("case %d: winners %x, expected %x", k, r.winners, expect);
        for (int p = 0; p < 3; p++)
            assert_int_equal(r.rank[p] == 1, (expect >> p) & 1);
        json_t *v = asobi_state_view(st, 2);
        assert_string_equal(json_string_value(json_object_get(v, "phase")), "over");
        assert_int_equal(json_array_size(json_object_get(v, "winners")), (size_t)__builtin_popcount(expect));
        json_decref(v);
        assert_refused(st, 0, NINJA_ID_PLAY, ASOBI_E_GAME_OVER);
        asobi_state_free(st);
    }
}

/* Every refusal names its reason and leaves the state byte-identical
 * (assert_text_refused checks the bytes). */
static void test_refusals_leave_state_unchanged(void **unused)
{
    (void)unused;
    asobi_state *st = battle3();
    assert_text_refused(st, 1, "play fire-2", ASOBI_E_NOT_YOUR_TURN);
    assert_text_refused(st, 5, "play fire-2", ASOBI_E_BAD_SEAT);
    refused_with(st, 0, "play fire-2", "not in your hand");
    refused_with(st, 0, "open fire-1", "it is the battle phase");
    refused_with(st, 0, "trump water", "it is the battle phase");
    refused_with(st, 0, "play fire-9", "values go from 1 to 7");
    refused_with(st, 0, "play dragon-3", "no kind");
    refused_with(st, 0, "play fire-1 now", "unexpected");
    assert_refused(st, 0, NINJA_ID_PLAY + card_id("fire-2"), ASOBI_E_ILLEGAL_ACTION);
    assert_refused(st, 0, NINJA_MAX_ACTIONS, ASOBI_E_ILLEGAL_ACTION);
    apply_text(st, 0, "play fire-1");
    refused_with(st, 1, "play metal-1", "must follow fire");
    asobi_state_free(st);
}

/* The notation of docs/rules/ninja.md: every text parses back to its action. */
static void test_notation(void **unused)
{
    (void)unused;
    asobi_state *st = rigged3();
    char text[64];
    asobi_state_action_text(st, 0, NINJA_ID_TRUMP + 1, text, sizeof text);
    assert_string_equal(text, "trump water");
    asobi_state_action_text(st, 0, NINJA_ID_OPEN + card_id("fire-5"), text, sizeof text);
    assert_string_equal(text, "open fire-5");
    asobi_state_action_text(st, 0, NINJA_ID_SCROLL + ninja_scroll_type(3) * NINJA_CARDS + card_id("fire-5"),
                            text, sizeof text);
    assert_string_equal(text, "scroll +3 on fire-5");
    asobi_state_action_text(st, 0, NINJA_ID_SCROLL + ninja_scroll_type(10) * NINJA_CARDS + card_id("earth-7"),
                            text, sizeof text);
    assert_string_equal(text, "scroll +10 on earth-7");
    asobi_state_action_text(st, 0, NINJA_ID_FLIP + card_id("fire-5"), text, sizeof text);
    assert_string_equal(text, "flip fire-5");
    asobi_state_action_text(st, 0, NINJA_ID_PLAY + card_id("fire-5"), text, sizeof text);
    assert_string_equal(text, "play fire-5");
    int id;
    assert_int_equal(asobi_state_parse_action(st, 0, " water ", &id, NULL), ASOBI_OK);
    assert_int_equal(id, NINJA_ID_TRUMP + 1);
    apply_text(st, 0, "trump earth");
    assert_int_equal(asobi_state_parse_action(st, 0, "OPEN Fire 7", &id, NULL), ASOBI_OK);
    assert_int_equal(id, NINJA_ID_OPEN + card_id("fire-7"));
    assert_int_equal(asobi_state_parse_action(st, 0, "fire7", &id, NULL), ASOBI_OK);
    assert_int_equal(id, NINJA_ID_OPEN + card_id("fire-7"));
    asobi_state_free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup_tiles_hands_leftovers),
        cmocka_unit_test(test_start_player_option_or_seed),
        cmocka_unit_test(test_trump_choice),
        cmocka_unit_test(test_open_in_turn_until_three_each),
        cmocka_unit_test(test_lay_scrolls_face_down),
        cmocka_unit_test(test_follow_suit_with_open_cards),
        cmocka_unit_test(test_follow_open_cards_first),
        cmocka_unit_test(test_void_may_play_anything),
        cmocka_unit_test(test_trick_resolution),
        cmocka_unit_test(test_winner_takes_tiles_and_leads),
        cmocka_unit_test(test_scroll_type_of_every_value),
        cmocka_unit_test(test_round_end_draws_and_next_start_player),
        cmocka_unit_test(test_flip_counts_with_ties),
        cmocka_unit_test(test_final_tie_breaks),
        cmocka_unit_test(test_refusals_leave_state_unchanged),
        cmocka_unit_test(test_notation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

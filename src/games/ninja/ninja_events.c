/* ninja_events.c — what NINJA SCROLL TRICK's actions make happen, as each viewer may know it: tricks, flips, the shadow, round scores. */
#include <stdio.h>
#include <string.h>

#include "game_def.h"
#include "ninja.h"

static bool is_shadow(const ninja_state *s, int pos) { return ninja_has_shadow(s) && pos == NINJA_SHADOW; }

/* "Seat 2" or "The shadow" (capital: it starts a sentence). */
static void who_text(const ninja_state *s, int pos, char *buf, size_t cap)
{
    if (is_shadow(s, pos))
        snprintf(buf, cap, "The shadow");
    else
        snprintf(buf, cap, "Seat %d", pos + 1);
}

/* A position as fields: "seat" (null for the shadow) and "shadow". */
static void set_who(json_t *e, const ninja_state *s, int pos)
{
    if (is_shadow(s, pos))
        asobi_event_null(e, "seat");
    else
        asobi_event_int(e, "seat", pos);
    asobi_event_bool(e, "shadow", is_shadow(s, pos));
}

static void card_name(int card, char *buf, size_t cap) { ninja_card_text(card, buf, cap); }

static void set_card(json_t *e, const char *key, int card)
{
    char name[16];
    card_name(card, name, sizeof name);
    asobi_event_str(e, key, name);
}

/* 2人で遊ぶ場合 ■準備フェーズ: "並べた忍者カードのうち、左から3枚を表向きに開きます。…
 * そのうち1番左の巻物タイルのみ、点数が見えるように表向きにします。" */
static void add_shadow_row(const ninja_state *after, json_t *events)
{
    char c[3][16];
    for (int i = 0; i < NINJA_OPEN; i++)
        card_name(after->row[i], c[i], sizeof c[i]);
    int tile = after->scroll_on[after->row[0]];
    json_t *e = asobi_event_add(events, "shadow_row", "The shadow lays its row: %s, %s, %s are open; the tile on %s is %+d.",
                                c[0], c[1], c[2], c[0], tile);
    json_t *a = json_array();
    for (int i = 0; i < NINJA_OPEN; i++)
        json_array_append_new(a, json_string(c[i]));
    json_object_set_new(e, "cards", a);
    asobi_event_int(e, "tile", tile);
}

static void add_shadow_plays(json_t *events, int card)
{
    char name[16];
    card_name(card, name, sizeof name);
    json_t *e = asobi_event_add(events, "shadow_plays", "The shadow plays %s.", name);
    asobi_event_null(e, "seat");
    asobi_event_bool(e, "shadow", true);
    asobi_event_str(e, "card", name);
}

/* 準備フェーズ 5) 巻物を開く: the tile turned up is seen by everybody. */
static void add_tile_flipped(const ninja_state *after, int seat, int card, json_t *events)
{
    char name[16];
    card_name(card, name, sizeof name);
    int tile = after->scroll_on[card];
    json_t *e = asobi_event_add(events, "tile_flipped", "Seat %d turns up the tile on %s: %+d.", seat + 1, name, tile);
    asobi_event_int(e, "seat", seat);
    asobi_event_str(e, "card", name);
    asobi_event_int(e, "tile", tile);
}

/* 勝負フェーズ: "力比べに勝ったプレイヤーは…巻物タイルがあれば回収し、獲得点とします。勝ち取った
 * 巻物タイルは自身の前に表向きに公開します": the winner, its card and the tiles it won, face up. */
static void add_trick_won(const ninja_state *after, json_t *events)
{
    int w = after->last_winner, win_card = -1;
    char who[16], tiles[64] = "", name[16];
    int len = 0, ntiles = 0;
    json_t *cards = json_array(), *won = json_array();
    for (int i = 0; i < after->last_n; i++) {
        json_t *c = json_object();
        set_who(c, after, after->last_pos[i]);
        set_card(c, "card", after->last_card[i]);
        json_array_append_new(cards, c);
        if (after->last_pos[i] == w)
            win_card = after->last_card[i];
        if (after->last_scroll[i]) {
            len += snprintf(tiles + len, sizeof tiles - (size_t)len, "%s%+d", ntiles ? ", " : "", after->last_scroll[i]);
            ntiles++;
            json_array_append_new(won, json_integer(after->last_scroll[i]));
        }
    }
    who_text(after, w, who, sizeof who);
    card_name(win_card, name, sizeof name);
    int points = ninja_points(after, w);
    json_t *e;
    if (ntiles)
        e = asobi_event_add(events, "trick_won", "%s wins the trick with %s and takes the tile%s %s (now %d point%s).", who,
                            name, ntiles == 1 ? "" : "s", tiles, points, points == 1 || points == -1 ? "" : "s");
    else
        e = asobi_event_add(events, "trick_won", "%s wins the trick with %s (no tiles; %d point%s).", who, name, points,
                            points == 1 || points == -1 ? "" : "s");
    set_who(e, after, w);
    asobi_event_str(e, "card", name);
    json_object_set_new(e, "cards", cards);
    json_object_set_new(e, "tiles", won);
    asobi_event_int(e, "points", points);
}

/* ■勝負フェーズ (影): "影の左側の忍者カードが3枚見えるように開き、新たな巻物カードを乗せます。
 * 1番左の巻物カードが見えていない場合は開いて公開します。" A new tile lies face down. */
static void add_shadow_refill(const ninja_state *before, const ninja_state *after, json_t *events)
{
    for (int i = before->row_opened; i < after->row_opened; i++) {
        char name[16];
        card_name(after->row[i], name, sizeof name);
        json_t *e = asobi_event_add(events, "shadow_opens", "The shadow opens %s and lays a tile on it face down.", name);
        asobi_event_str(e, "card", name);
        asobi_event_null(e, "tile");
    }
    for (int i = 0; i < after->row_opened; i++) {
        int c = after->row[i];
        if (after->scroll_on[c] && after->scroll_up[c] && !before->scroll_up[c]) {
            char name[16];
            card_name(c, name, sizeof name);
            json_t *e = asobi_event_add(events, "shadow_tile_up", "The shadow's tile on %s is turned up: %+d.", name,
                                        after->scroll_on[c]);
            asobi_event_str(e, "card", name);
            asobi_event_int(e, "tile", after->scroll_on[c]);
        }
    }
}

/* ■ラウンドとゲームの終了: everybody's points, the shadow's too. */
static void add_round_end(const ninja_state *before, const ninja_state *after, json_t *events)
{
    char text[160];
    int len = snprintf(text, sizeof text, "Round %d ends: ", before->round);
    json_t *points = json_array();
    for (int p = 0; p < after->players; p++) {
        int pts = ninja_points(after, p);
        json_array_append_new(points, json_integer(pts));
        len += snprintf(text + len, sizeof text - (size_t)len, "%sSeat %d has %d point%s", p ? ", " : "", p + 1, pts,
                        pts == 1 || pts == -1 ? "" : "s");
    }
    if (ninja_has_shadow(after))
        snprintf(text + len, sizeof text - (size_t)len, ", the shadow %d", ninja_points(after, NINJA_SHADOW));
    json_t *e = asobi_event_add(events, "round_end", "%s.", text);
    asobi_event_int(e, "round", before->round);
    json_object_set_new(e, "points", points);
    if (ninja_has_shadow(after))
        asobi_event_int(e, "shadow_points", ninja_points(after, NINJA_SHADOW));
}

/* 次のラウンドの用意: "各プレイヤーは新たにテーブル中央の巻物タイルの山からランダムに3枚引きます":
 * drawn face down: the seat knows its tiles, the others how many. */
static void add_tiles_drawn(const ninja_state *after, int viewer, json_t *events)
{
    for (int p = 0; p < after->players; p++) {
        int n = after->held_n[p];
        if (asobi_event_sees(viewer, p)) {
            char tiles[48] = "";
            int len = 0;
            json_t *a = json_array();
            for (int i = 0; i < n; i++) {
                len += snprintf(tiles + len, sizeof tiles - (size_t)len, "%s%+d", i ? ", " : "", after->held[p][i]);
                json_array_append_new(a, json_integer(after->held[p][i]));
            }
            json_t *e = asobi_event_add(events, "tiles_drawn", "Seat %d draws %d tiles from the pile: %s.", p + 1, n, tiles);
            asobi_event_int(e, "seat", p);
            asobi_event_int(e, "count", n);
            json_object_set_new(e, "tiles", a);
        } else {
            json_t *e = asobi_event_add(events, "tiles_drawn", "Seat %d draws %d tiles from the pile.", p + 1, n);
            asobi_event_int(e, "seat", p);
            asobi_event_int(e, "count", n);
        }
    }
}

/* 準備フェーズ 5) 巻物を開く: "今1番獲得点が高いプレイヤーは伏せて置いた自分の巻物タイルから1枚表向きに
 * 開きます" (round 3: 2 for the leader, 1 for 次点): who must turn up how many, told when the
 * laying is over. */
static void add_flip_start(const ninja_state *after, json_t *events)
{
    for (int k = 0; k < after->players; k++) {
        int p = (after->start + k) % after->players, n = after->flips_left[p];
        if (n == 0)
            continue;
        json_t *e = asobi_event_add(events, "flip_start", "Seat %d must turn up %d of its tiles (%d points).", p + 1, n,
                                    ninja_points(after, p));
        asobi_event_int(e, "seat", p);
        asobi_event_int(e, "count", n);
        asobi_event_int(e, "points", ninja_points(after, p));
    }
}

static void add_round_start(const ninja_state *after, json_t *events)
{
    json_t *e = asobi_event_add(events, "round_start", "Round %d begins: Seat %d is the start player and chooses the trump.",
                                after->round, after->start + 1);
    asobi_event_int(e, "round", after->round);
    asobi_event_int(e, "seat", after->start);
}

/* The cards this action put into tricks after the seat's own: the shadow's,
 * by its rule. A trick resolved during the action is in last_*, the one
 * being played in trick_*. */
static void add_battle(const ninja_state *before, const ninja_state *after, json_t *events)
{
    bool round_over = after->round != before->round || after->phase == NINJA_PHASE_OVER;
    bool resolved = round_over || after->tricks_done != before->tricks_done;
    int from = before->trick_n + 1; /* the seat's own card is the action itself */
    if (resolved) {
        for (int i = from; i < after->last_n; i++)
            if (is_shadow(after, after->last_pos[i]))
                add_shadow_plays(events, after->last_card[i]);
        add_trick_won(after, events);
        if (!round_over && ninja_has_shadow(after))
            add_shadow_refill(before, after, events);
        from = 0;
    }
    if (round_over)
        return;
    for (int i = from; i < after->trick_n; i++)
        if (is_shadow(after, after->trick_pos[i]))
            add_shadow_plays(events, after->trick_card[i]);
}

void ninja_events(const void *b, int seat, int id, const void *a, int viewer, json_t *events)
{
    const ninja_state *before = b, *after = a;
    if (id < NINJA_ID_OPEN && ninja_has_shadow(after))
        add_shadow_row(after, events);
    if (id >= NINJA_ID_FLIP && id < NINJA_ID_PLAY)
        add_tile_flipped(after, seat, id - NINJA_ID_FLIP, events);
    if (id >= NINJA_ID_PLAY)
        add_battle(before, after, events);
    if (after->phase == NINJA_PHASE_FLIP && before->phase != NINJA_PHASE_FLIP)
        add_flip_start(after, events);
    if (after->phase == NINJA_PHASE_BATTLE && before->phase != NINJA_PHASE_BATTLE) {
        json_t *e = asobi_event_add(events, "battle_start", "The tricks begin: Seat %d leads.", after->leader + 1);
        asobi_event_int(e, "seat", after->leader);
    }
    if (after->round != before->round || (after->phase == NINJA_PHASE_OVER && before->phase != NINJA_PHASE_OVER)) {
        add_round_end(before, after, events);
        if (after->phase != NINJA_PHASE_OVER) {
            add_tiles_drawn(after, viewer, events);
            add_round_start(after, events);
        }
    }
}

/* Why the game ended (ゲームの終了, and the shadow's early end). */
void ninja_over_text(const void *st, char *buf, size_t cap)
{
    const ninja_state *s = st;
    if (s->shadow_won)
        snprintf(buf, cap, "the shadow ranked first at the end of round %d: both players lose", s->round);
    else
        snprintf(buf, cap, "the third round ended; the most points win (then the most tiles, then the most plus tiles)");
}

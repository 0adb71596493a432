/* ninja_rules.c — NINJA SCROLL TRICK's rules: deals, preparation, tricks, the shadow, rounds and the end (seed 002). */
#include <string.h>

#include "bits.h"
#include "rng_inline.h"
#include "game_def.h"
#include "ninja.h"

/* Passages are quoted from seed 002 (the rule sheet); the rulings they need
 * are numbered as in docs/rules/ninja.md. */

/* What happens once a trick or once a phase (a trick's end, a round's end, a
 * phase's change) is kept out of apply() as a call: inlined there, its
 * registers and stack were saved and restored at every action of a playout. */
#define RARE __attribute__((noinline))

static uint64_t bit(int card) { return 1ull << card; }

static uint64_t kind_mask(int kind) { return ((1ull << NINJA_VALUES) - 1) << (kind * NINJA_VALUES); }

/* The next seat, the next place at the table: a compare, not a remainder (a
 * division), at nearly every action of a playout. */
static int next_seat(const ninja_state *s, int seat) { return seat + 1 == s->players ? 0 : seat + 1; }
static int next_pos(const ninja_state *s, int pos) { return pos + 1 == s->positions ? 0 : pos + 1; }

/* Draw the top tile of the face-down pile (0 if it is empty, which the
 * tile counts of ninja_data make impossible; see ruling 9). */
static int8_t pile_draw(ninja_state *s) { return s->pile_n ? s->pile[--s->pile_n] : 0; }

/* Tiles in hand are kept sorted, highest first, so that equal hands are equal bytes. */
static void sort_tiles(int8_t *t, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && t[j] > t[j - 1]; j--) {
            int8_t x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
}

int ninja_points(const ninja_state *s, int pos)
{
    int p = 0;
    for (int t = 0; t < NINJA_SCROLL_TYPES; t++)
        p += s->won[pos][t] * ninja_table.scroll_values[t];
    return p;
}

int ninja_scroll_count(const ninja_state *s, int pos)
{
    int n = 0;
    for (int t = 0; t < NINJA_SCROLL_TYPES; t++)
        n += s->won[pos][t];
    return n;
}

int ninja_positive_count(const ninja_state *s, int pos)
{
    int n = 0;
    for (int t = 0; t < NINJA_SCROLL_TYPES; t++)
        if (ninja_table.scroll_values[t] > 0)
            n += s->won[pos][t];
    return n;
}

/* ゲームの終了: "1番点数の高いプレイヤーが勝者となります。同点の場合はより獲得した
 * 巻物の数が多い方が勝ち、それも同じ場合はプラス点の巻物の数が多い方が勝利します。"
 * That order as one number per place, higher ahead: the counts of tiles are
 * below 64 (the box holds 45), so points, then tiles, then positive tiles
 * compare as the digits of a number in base 64. The end of the game ranks
 * every seat by it, once each, instead of comparing every pair. */
static int final_key(const ninja_state *s, int pos)
{
    _Static_assert(NINJA_SCROLLS < 64, "tile counts are base-64 digits");
    return (ninja_points(s, pos) * 64 + ninja_scroll_count(s, pos)) * 64 + ninja_positive_count(s, pos);
}

int ninja_compare_final(const ninja_state *s, int a, int b)
{
    int d = final_key(s, a) - final_key(s, b);
    return (d > 0) - (d < 0);
}

int ninja_shadow_open(const ninja_state *s, int *cards)
{
    int n = 0;
    for (int i = 0; i < s->row_opened; i++)
        if (!(s->row_played & (1u << i)))
            cards[n++] = s->row[i];
    return n;
}

int ninja_owner(const ninja_state *s, int card)
{
    for (int p = 0; p < s->players; p++)
        if (s->hand[p] & bit(card))
            return p;
    if (ninja_has_shadow(s))
        for (int i = 0; i < NINJA_ROW; i++)
            if (s->row[i] == card && !(s->row_played & (1u << i)))
                return NINJA_SHADOW;
    for (int i = 0; i < s->trick_n; i++)
        if (s->trick_card[i] == card)
            return s->trick_pos[i];
    return -1;
}

/* 力比べの見方: "切り札と同じ種類を出したプレイヤーがいればその人が力比べに勝ちます。
 * 切り札が複数ある場合は数字の大きい方が勝ちます。切り札と同じ種類が出ていない場合は、
 * スタートプレイヤーが出した種類のカードが勝ち取ります。同じく複数いる場合は数字が
 * 大きい方が勝ち": the highest trump played wins, and without a trump the
 * highest card of the led kind (cards[0]'s). A kind's cards are 7 consecutive
 * bits, value ascending, so each is the top bit of the trick's cards masked
 * by the kind; then the card is found among the n played. */
int ninja_trick_winner(const uint8_t *pos, const uint8_t *cards, int n, int trump)
{
    uint64_t played = 0;
    for (int i = 0; i < n; i++)
        played |= bit(cards[i]);
    uint64_t best = trump >= 0 ? played & kind_mask(trump) : 0;
    if (!best)
        best = played & kind_mask(ninja_kind(cards[0]));
    int card = 63 - __builtin_clzll(best);
    int i = 0;
    while (cards[i] != card)
        i++;
    return pos[i];
}

/* 準備フェーズ 1): "全ての忍者カードを裏向きでよくシャッフルし、各プレイヤーに7枚ずつ
 * 配ります。カードが余る場合はテーブルの中央に裏向きで重ねて置き、捨て札の場所とします。"
 * With 2 players the next 7 cards form the shadow's row ("残りの忍者カードから、
 * テーブルの中央に7枚、裏向きにして一列に並べます"); it is turned up after the
 * trump is chosen (the sheet builds it after "スタートプレイヤーは切り札を選びます"). */
static void deal_round(ninja_state *s)
{
    uint8_t deck[NINJA_CARDS];
    for (int c = 0; c < NINJA_CARDS; c++)
        deck[c] = (uint8_t)c;
    asobi_rng_shuffle(&s->rng, deck, NINJA_CARDS, 1);
    memset(s->hand, 0, sizeof s->hand);
    memset(s->open, 0, sizeof s->open);
    memset(s->void_kinds, 0, sizeof s->void_kinds);
    memset(s->flips_left, 0, sizeof s->flips_left);
    memset(s->scroll_on, 0, sizeof s->scroll_on);
    memset(s->scroll_up, 0, sizeof s->scroll_up);
    memset(s->row, 0, sizeof s->row);
    s->leftover = s->discard = 0;
    int k = 0;
    for (int p = 0; p < s->players; p++)
        for (int i = 0; i < NINJA_HAND; i++)
            s->hand[p] |= bit(deck[k++]);
    if (ninja_has_shadow(s))
        for (int i = 0; i < NINJA_ROW; i++)
            s->row[i] = deck[k++];
    while (k < NINJA_CARDS)
        s->leftover |= bit(deck[k++]);
    s->row_opened = 0;
    s->row_played = 0;
    s->trick_n = 0;
    s->tricks_done = 0;
    s->trump = -1;
    s->phase = NINJA_PHASE_TRUMP;
    s->turn = s->start;
    s->leader = s->start;
}

/* ゲーム開始の用意 2): "各プレイヤーは巻物タイルから +3 +1 -1 を1枚ずつ取ります。…
 * 残りのタイルは裏向きにし、シャッフルしてテーブルの中央にまとめておきます。" With 2
 * players the shadow's first +3 +1 -1 also come out of the box ("巻物タイルの【+3】
 * 【+1】【-1】の3枚をシャッフルし"); they wait in held[NINJA_SHADOW] until its row is
 * laid. start < 0: the start player is drawn from the game's generator
 * (ゲーム開始の用意 3) names no rule a program can follow; ruling 1). */
void ninja_setup(ninja_state *s, int players, int start)
{
    s->players = (uint8_t)players;
    s->positions = (uint8_t)(players == 2 ? 3 : players);
    int takers = s->positions;
    uint8_t left[NINJA_SCROLL_TYPES];
    memcpy(left, ninja_table.scroll_copies, sizeof left);
    for (int p = 0; p < takers; p++) {
        for (int i = 0; i < NINJA_OPEN; i++) {
            s->held[p][i] = ninja_table.starting[i];
            left[ninja_scroll_type(ninja_table.starting[i])]--;
        }
        s->held_n[p] = NINJA_OPEN;
        sort_tiles(s->held[p], NINJA_OPEN);
    }
    s->pile_n = 0;
    for (int t = 0; t < NINJA_SCROLL_TYPES; t++)
        for (int i = 0; i < left[t]; i++)
            s->pile[s->pile_n++] = ninja_table.scroll_values[t];
    asobi_rng_shuffle(&s->rng, s->pile, s->pile_n, 1);
    s->start = (uint8_t)(start >= 0 ? start : (int)asobi_rng_below(&s->rng, (uint32_t)players));
    s->round = 1;
    deal_round(s);
}

/* 2人で遊ぶ場合 ■準備フェーズ: "並べた忍者カードのうち、左から3枚を表向きに開きます。
 * 巻物タイルの【+3】【+1】【-1】の3枚をシャッフルし、開いた3枚の忍者カードの上に1枚ずつ
 * 置きます。そのうち1番左の巻物タイルのみ、点数が見えるように表向きにします。" In rounds 2
 * and 3 the shadow's three tiles come from the pile (ruling 10). */
static RARE void shadow_lay_row(ninja_state *s)
{
    int8_t *tiles = s->held[NINJA_SHADOW];
    if (s->round > 1) {
        for (int i = 0; i < NINJA_OPEN; i++)
            tiles[i] = pile_draw(s);
        s->held_n[NINJA_SHADOW] = NINJA_OPEN;
    }
    asobi_rng_shuffle(&s->rng, tiles, NINJA_OPEN, 1);
    s->row_opened = NINJA_OPEN;
    for (int i = 0; i < NINJA_OPEN; i++) {
        s->scroll_on[s->row[i]] = tiles[i];
        tiles[i] = 0;
    }
    s->held_n[NINJA_SHADOW] = 0;
    s->scroll_up[s->row[0]] = 1;
}

/* ■勝負フェーズ: "次の力比べをする前に、影の左側の忍者カードが3枚見えるように開き、
 * 新たな巻物カードを乗せます。1番左の巻物カードが見えていない場合は開いて公開します。"
 * Once the row has no face-down card left, nothing is opened or drawn, but the
 * leftmost tile is still turned up (ruling 11). */
static void shadow_refill(ninja_state *s)
{
    int cards[NINJA_OPEN];
    if (ninja_shadow_open(s, cards) < NINJA_OPEN && s->row_opened < NINJA_ROW) {
        int c = s->row[s->row_opened++];
        s->scroll_on[c] = pile_draw(s);
        s->scroll_up[c] = 0;
    }
    if (ninja_shadow_open(s, cards) > 0 && s->scroll_on[cards[0]] != 0)
        s->scroll_up[cards[0]] = 1;
}

/* 準備フェーズ 5) 巻物を開く: round 2, "今1番獲得点が高いプレイヤーは伏せて置いた自分の
 * 巻物タイルから1枚表向きに開きます"; round 3, "1番獲得点が高いプレイヤーは2枚表向きにし、
 * 次点に得点の高いプレイヤーは1枚表向きにします"; "同点のプレイヤーが複数いる場合は対象の
 * プレイヤーが全員開きます". 次点 is the next score below the top one, whoever
 * holds it (ruling 5). With 2 players the shadow's points take their place in
 * that ranking (a shadow between the seats holds 次点 and the seat below it
 * turns up nothing), but the shadow turns up nothing itself: its tiles follow
 * its own rule (rulings 12 and 19). */
static void begin_battle(ninja_state *s)
{
    s->phase = NINJA_PHASE_BATTLE;
    s->leader = s->start;
    s->turn = s->start;
    s->trick_n = 0;
}

static int next_flipper(const ninja_state *s, int from)
{
    for (int k = 0, p = from; k < s->players; k++, p = next_seat(s, p))
        if (s->flips_left[p] > 0)
            return p;
    return -1;
}

static void begin_flip(ninja_state *s)
{
    int pts[NINJA_POSITIONS], best = -10000, second = -10000;
    for (int p = 0; p < s->positions; p++) {
        pts[p] = ninja_points(s, p);
        if (pts[p] > best)
            best = pts[p];
    }
    for (int p = 0; p < s->positions; p++)
        if (pts[p] < best && pts[p] > second)
            second = pts[p];
    memset(s->flips_left, 0, sizeof s->flips_left);
    for (int p = 0; p < s->players; p++) {
        if (pts[p] == best)
            s->flips_left[p] = s->round == 2 ? 1 : 2;
        else if (pts[p] == second && s->round == 3)
            s->flips_left[p] = 1;
    }
    s->phase = NINJA_PHASE_FLIP;
    s->turn = (uint8_t)next_flipper(s, s->start);
}

/* 準備フェーズ 4) 巻物を置く: "開いたカード3枚の上にそれぞれ巻物タイルを1枚ずつ配置します".
 * Seats lay their tiles in turn from the start player, one tile per action
 * (ruling 4); rounds 2 and 3 then turn tiles up, round 1 goes to battle. */
static RARE void end_scroll_phase(ninja_state *s)
{
    if (s->round >= 2)
        begin_flip(s);
    else
        begin_battle(s);
}

/* 次のラウンドの用意: "各プレイヤーは新たにテーブル中央の巻物タイルの山からランダムに
 * 3枚引きます。現段階で1番得点の低いプレイヤーがリファレンスカードを受け取り、次ラウンドの
 * スタートプレイヤーとなります。" Ties for the lowest score: the first tied
 * seat clockwise after the current start player, who comes last (ruling 7). */
static int lowest_scorer(const ninja_state *s)
{
    int who = -1, low = 0;
    for (int k = 1; k <= s->players; k++) {
        int p = (s->start + k) % s->players, pts = ninja_points(s, p);
        if (who < 0 || pts < low) {
            who = p;
            low = pts;
        }
    }
    return who;
}

/* ■ラウンドとゲームの終了: "この時影が1番点数が高い場合はその時点でゲームオーバーと
 * なります": at the end of every round, the third included, the shadow is
 * ranked with the seats by the final order of ゲームの終了 (points, then tiles
 * won, then positive tiles won); first, alone or tied, it ends the game and
 * both players lose (ruling 13). */
bool ninja_shadow_ranks_first(const ninja_state *s)
{
    if (!ninja_has_shadow(s))
        return false;
    int shadow = final_key(s, NINJA_SHADOW);
    for (int p = 0; p < s->players; p++)
        if (final_key(s, p) > shadow)
            return false;
    return true;
}

/* Then ゲームの終了 after round 3, or the next round. */
static void end_round(ninja_state *s)
{
    if (ninja_shadow_ranks_first(s)) {
        s->phase = NINJA_PHASE_OVER;
        s->shadow_won = 1;
        s->winners = 0;
        return;
    }
    if (s->round == NINJA_ROUNDS) {
        s->phase = NINJA_PHASE_OVER;
        /* the winners: every seat nobody is ahead of */
        int key[NINJA_POSITIONS], top = 0;
        for (int p = 0; p < s->players; p++) {
            key[p] = final_key(s, p);
            if (p == 0 || key[p] > top)
                top = key[p];
        }
        s->winners = 0;
        for (int p = 0; p < s->players; p++)
            if (key[p] == top)
                s->winners |= (uint8_t)(1u << p);
        return;
    }
    for (int p = 0; p < s->players; p++) {
        for (int i = 0; i < NINJA_OPEN; i++)
            s->held[p][i] = pile_draw(s);
        s->held_n[p] = NINJA_OPEN;
        sort_tiles(s->held[p], NINJA_OPEN);
    }
    s->start = (uint8_t)lowest_scorer(s);
    s->round++;
    deal_round(s);
}

/* 勝負フェーズ: "力比べに勝ったプレイヤーは、勝負で出された忍者カードをすべて捨て札の山に
 * 置きます。このときカードに乗っていた巻物タイルがあれば回収し、獲得点とします。勝ち取った
 * 巻物タイルは自身の前に表向きに公開します。" The winner leads the next trick
 * (reconstructions.md; the shadow's rule says so: "影が勝利した場合、次の力比べは影が
 * スタートプレイヤーとなり"; ruling 6). */
static RARE void resolve_trick(ninja_state *s)
{
    int w = ninja_trick_winner(s->trick_pos, s->trick_card, s->trick_n, s->trump);
    for (int i = 0; i < s->trick_n; i++) {
        int c = s->trick_card[i];
        int v = s->scroll_on[c];
        s->last_pos[i] = s->trick_pos[i];
        s->last_card[i] = (uint8_t)c;
        s->last_scroll[i] = (int8_t)v;
        if (v)
            s->won[w][ninja_scroll_type(v)]++;
        s->scroll_on[c] = 0;
        s->scroll_up[c] = 0;
        s->discard |= bit(c);
    }
    s->last_n = s->trick_n;
    s->last_winner = (uint8_t)w;
    s->trick_n = 0;
    s->tricks_done++;
    if (ninja_has_shadow(s))
        shadow_refill(s);
    if (s->tricks_done == NINJA_TRICKS) {
        end_round(s);
        return;
    }
    s->leader = (uint8_t)w;
    s->turn = (uint8_t)w;
}

/* A card leaves its holder for the trick, with the tile lying on it
 * ("開かれたカードを出す場合は上に乗っている巻物も一緒に出します（裏向きの巻物は開かずに
 * 裏向きのまま一緒に出します）"). A seat that does not follow the led kind has
 * shown that it holds none: that is public and search uses it. */
static inline void play_card(ninja_state *s, int pos, int card)
{
    if (s->trick_n > 0) {
        int led = ninja_kind(s->trick_card[0]);
        if (ninja_kind(card) != led && pos < s->players)
            s->void_kinds[pos] |= (uint8_t)(1u << led);
    }
    if (ninja_has_shadow(s) && pos == NINJA_SHADOW) {
        for (int i = 0; i < NINJA_ROW; i++)
            if (s->row[i] == card)
                s->row_played |= (uint8_t)(1u << i);
    } else {
        s->hand[pos] &= ~bit(card);
        s->open[pos] &= ~bit(card);
    }
    s->trick_pos[s->trick_n] = (uint8_t)pos;
    s->trick_card[s->trick_n] = (uint8_t)card;
    s->trick_n++;
}

/* ■勝負フェーズ: "スタートプレイヤーと同じ種類がある場合は優先的にそのカードが出されます。
 * 複数ある場合はより左にあるカードが優先されます。スタートプレイヤーと同じ種類がない場合は
 * 1番左側のカードが出されます。" and, leading, "1番左のカードが最初に出されます". */
int ninja_shadow_choice(const ninja_state *s, int led)
{
    int cards[NINJA_OPEN];
    int n = ninja_shadow_open(s, cards);
    if (n == 0)
        return -1;
    int choice = cards[0];
    if (led >= 0)
        for (int i = n - 1; i >= 0; i--)
            if (ninja_kind(cards[i]) == led)
                choice = cards[i];
    return choice;
}

static void shadow_play(ninja_state *s)
{
    play_card(s, NINJA_SHADOW, ninja_shadow_choice(s, s->trick_n > 0 ? ninja_kind(s->trick_card[0]) : -1));
}

/* After a seat's card: the next place plays; the shadow plays by its rule
 * at once; a full trick is resolved and its winner leads. Stops when a seat
 * must choose (or the round, or the game, ended). */
static void advance_battle(ninja_state *s)
{
    s->turn = (uint8_t)next_pos(s, s->turn);
    for (;;) {
        if (s->trick_n == s->positions) {
            resolve_trick(s);
            if (s->phase != NINJA_PHASE_BATTLE)
                return;
        }
        if (!ninja_has_shadow(s) || s->turn != NINJA_SHADOW)
            return;
        shadow_play(s);
        s->turn = (uint8_t)next_pos(s, s->turn);
    }
}

uint32_t ninja_to_move(const void *st)
{
    const ninja_state *s = st;
    if (s->phase == NINJA_PHASE_OVER)
        return 0;
    return 1u << s->turn;
}

/* 勝負フェーズ ②: "続く左隣のプレイヤーはスタートプレイヤーと同じ種類のカードが手札に
 * ある場合、必ずそのカードを出さなければなりません", and "開かれたカードも手札の一部なので、
 * 同じ種類のカードが開いた中にある場合は開かれたカードから出さなければなりません": a
 * follower with open cards of the led kind plays one of those; only without any
 * do its closed cards of the kind count; only with neither may it play any card
 * (ruling 18). The shadow plays by its own rule (ninja_shadow_choice). */
static inline uint64_t playable(const ninja_state *s, int seat)
{
    uint64_t cards = s->hand[seat];
    if (s->trick_n > 0) {
        uint64_t follow = cards & kind_mask(ninja_kind(s->trick_card[0]));
        if (follow & s->open[seat])
            return follow & s->open[seat];
        if (follow)
            return follow;
    }
    return cards;
}

/* The same behind a call, for the text and the heuristic's tests; the rules inline it. */
uint64_t ninja_playable(const ninja_state *s, int seat) { return playable(s, seat); }

/* What a seat may choose now, in one shape for every phase, so that legal()
 * (the list) and random_action (one draw, no list) enumerate the same ids in
 * the same order from this one place and cannot drift apart:
 *
 *     for each group g in groups, ascending:
 *         for each c in cards, ascending:   id = base + g * NINJA_CARDS + c
 *
 * Every phase but the laying of tiles has the single group 0 and chooses a
 * card (the trump phase a kind: its "cards" are the bits 0..4). Laying a
 * tile chooses a kind of tile held (its type, the group) and a bare open
 * card: the ids of NINJA_ID_SCROLL are type * 35 + card, so the product in
 * that order is ascending too, as legal() promises. The count is
 * popcount(groups) * popcount(cards), and the k-th id is found by bit steps.
 * Always inlined: as a call, its struct's return and its phase tests cost
 * random_action more than the list it saves (callgrind). */
typedef struct ninja_choices {
    uint64_t cards;
    uint32_t groups;
    int base;
} ninja_choices;

static inline __attribute__((always_inline)) ninja_choices choices(const ninja_state *s, int seat)
{
    /* the tricks first (half of all actions), then by frequency; an if
     * chain costs the tricks two instructions, a jump table nine */
    ninja_choices ch = {0, 1, 0};
    if (s->phase == NINJA_PHASE_BATTLE) {
        ch.cards = playable(s, seat);
        ch.base = NINJA_ID_PLAY;
    } else if (s->phase == NINJA_PHASE_OPEN) {
        ch.cards = s->hand[seat] & ~s->open[seat];
        ch.base = NINJA_ID_OPEN;
    } else if (s->phase == NINJA_PHASE_SCROLL) {
        /* the seat's open cards without a tile, times the kinds of tile it holds */
        for (uint64_t m = s->open[seat]; m; m &= m - 1)
            if (s->scroll_on[__builtin_ctzll(m)] == 0)
                ch.cards |= m & -m;
        ch.groups = 0;
        for (int i = 0; i < s->held_n[seat]; i++)
            ch.groups |= 1u << ninja_scroll_type(s->held[seat][i]);
        ch.base = NINJA_ID_SCROLL;
    } else if (s->phase == NINJA_PHASE_FLIP) {
        /* its open cards under a face-down tile */
        for (uint64_t m = s->open[seat]; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            if (s->scroll_on[c] != 0 && !s->scroll_up[c])
                ch.cards |= m & -m;
        }
        ch.base = NINJA_ID_FLIP;
    } else if (s->phase == NINJA_PHASE_TRUMP) {
        ch.cards = (1u << NINJA_KINDS) - 1;
        ch.base = NINJA_ID_TRUMP;
    } else {
        ch.groups = 0; /* over */
    }
    return ch;
}

int ninja_legal(const void *st, int seat, int *ids)
{
    ninja_choices ch = choices(st, seat);
    int n = 0;
    for (uint32_t g = ch.groups; g; g &= g - 1) {
        int base = ch.base + __builtin_ctz(g) * NINJA_CARDS;
        for (uint64_t m = ch.cards; m; m &= m - 1)
            ids[n++] = base + __builtin_ctzll(m);
    }
    return n;
}

/* legal()'s ids[asobi_rng_below(rng, n)] without the list: the same count,
 * the same draw, then the k-th id in choices()'s order. Each group holds
 * popcount(cards) ids, so k first skips whole groups, then names a card. Every
 * phase but the tiles' has one group: no popcount of the groups there. */
int ninja_random_action(const void *st, int seat, asobi_rng *rng)
{
    ninja_choices ch = choices(st, seat);
    int per = asobi_popcount64(ch.cards);
    int n = ch.groups & (ch.groups - 1) ? asobi_popcount32(ch.groups) * per : ch.groups ? per : 0;
    if (n == 0)
        return -1;
    int k = (int)asobi_rng_below_inline(rng, (uint32_t)n);
    uint32_t g = ch.groups;
    for (; k >= per; k -= per)
        g &= g - 1;
    return ch.base + __builtin_ctz(g) * NINJA_CARDS + asobi_nth_bit(ch.cards, k);
}

void ninja_apply(void *st, int seat, int id)
{
    ninja_state *s = st;
    if (id >= NINJA_ID_PLAY) {
        /* a card into the trick: half of all actions, so tested first */
        play_card(s, seat, id - NINJA_ID_PLAY);
        advance_battle(s);
    } else if (id < NINJA_ID_OPEN) {
        /* 2) 切り札を選ぶ; with 2 players the shadow's row is laid next. */
        s->trump = (int8_t)(id - NINJA_ID_TRUMP);
        if (ninja_has_shadow(s))
            shadow_lay_row(s);
        s->phase = NINJA_PHASE_OPEN;
        s->turn = s->start;
    } else if (id < NINJA_ID_SCROLL) {
        /* 3) 手札を開く: one card each in turn, until everyone has 3 open. */
        s->open[seat] |= bit(id - NINJA_ID_OPEN);
        s->turn = (uint8_t)next_seat(s, seat);
        if (asobi_popcount64(s->open[s->turn]) == NINJA_OPEN) {
            s->phase = NINJA_PHASE_SCROLL;
            s->turn = s->start;
        }
    } else if (id < NINJA_ID_FLIP) {
        int t = (id - NINJA_ID_SCROLL) / NINJA_CARDS, c = (id - NINJA_ID_SCROLL) % NINJA_CARDS;
        int8_t v = ninja_table.scroll_values[t];
        int8_t *h = s->held[seat];
        int i = 0;
        while (h[i] != v)
            i++;
        for (; i + 1 < s->held_n[seat]; i++)
            h[i] = h[i + 1];
        h[--s->held_n[seat]] = 0;
        s->scroll_on[c] = v;
        if (s->held_n[seat] == 0) {
            s->turn = (uint8_t)next_seat(s, seat);
            if (s->turn == s->start)
                end_scroll_phase(s);
        }
    } else {
        s->scroll_up[id - NINJA_ID_FLIP] = 1;
        if (--s->flips_left[seat] == 0) {
            int p = next_flipper(s, seat);
            if (p < 0)
                begin_battle(s);
            else
                s->turn = (uint8_t)p;
        }
    }
}

/* ninja_view.c — what each NINJA SCROLL TRICK seat may see, as JSON for programs and as text for the terminal. */
#include <stdio.h>
#include <string.h>

#include "game_def.h"
#include "ninja.h"

static const char *phase_names[] = {"trump", "open", "scroll", "flip", "battle", "over"};

/* What a seat sees of the tile on a card (seed: tiles lie face down; the one
 * who laid it knows it — "巻物タイルは周りのプレイヤーから内容が見えないように裏向きで
 * 置きましょう"): its value when face up or laid by that seat, "hidden" when
 * face down and someone else's, null when the card carries none. */
static void scroll_value(asobi_vw *w, const char *key, const ninja_state *s, int card, int owner, int seat)
{
    int v = s->scroll_on[card];
    if (!v)
        vw_null(w, key);
    else if (s->scroll_up[card] || seat == ASOBI_ALL_SEEING || seat == owner)
        vw_int(w, key, v);
    else
        vw_str(w, key, "hidden");
}

/* A card's text ("fire-3", as ninja_card_text writes it), put together
 * without snprintf: views are built for every seat at every step. */
static void card_value(asobi_vw *w, const char *key, int card)
{
    char t[16];
    const char *kind = ninja_table.kind_names[ninja_kind(card)];
    size_t n = strlen(kind);
    int value = ninja_value(card);
    if (n + 3 <= sizeof t && value >= 0 && value < 10) {
        memcpy(t, kind, n);
        t[n] = '-';
        t[n + 1] = (char)('0' + value);
        t[n + 2] = '\0';
    } else {
        ninja_card_text(card, t, sizeof t);
    }
    vw_str(w, key, t);
}

static void cards_array(asobi_vw *w, const char *key, uint64_t mask)
{
    vw_array_begin(w, key);
    for (int c = 0; c < NINJA_CARDS; c++)
        if (mask & (1ull << c))
            card_value(w, NULL, c);
    vw_array_end(w);
}

static void open_entry(asobi_vw *w, const ninja_state *s, int card, int owner, int seat)
{
    vw_object_begin(w, NULL);
    card_value(w, "card", card);
    scroll_value(w, "scroll", s, card, owner, seat);
    vw_bool(w, "face_up", s->scroll_on[card] && s->scroll_up[card]);
    vw_object_end(w);
}

static void won_array(asobi_vw *w, const ninja_state *s, int pos)
{
    vw_array_begin(w, "won");
    for (int t = 0; t < NINJA_SCROLL_TYPES; t++)
        for (int i = 0; i < s->won[pos][t]; i++)
            vw_int(w, NULL, ninja_table.scroll_values[t]);
    vw_array_end(w);
}

static void kinds_array(asobi_vw *w, const char *key, uint8_t mask)
{
    vw_array_begin(w, key);
    for (int k = 0; k < NINJA_KINDS; k++)
        if (mask & (1u << k))
            vw_str(w, NULL, ninja_table.kind_names[k]);
    vw_array_end(w);
}

/* The tiles in pos's hand: shown when shown is true, else null. */
static void held_array(asobi_vw *w, const ninja_state *s, int pos, bool shown)
{
    if (!shown) {
        vw_null(w, "scrolls");
        return;
    }
    vw_array_begin(w, "scrolls");
    for (int i = 0; i < s->held_n[pos]; i++)
        vw_int(w, NULL, s->held[pos][i]);
    vw_array_end(w);
}

static void seat_entry(asobi_vw *w, const ninja_state *s, int p, int seat)
{
    bool mine = seat == ASOBI_ALL_SEEING || seat == p;
    uint64_t closed = s->hand[p] & ~s->open[p];
    vw_object_begin(w, NULL);
    vw_int(w, "seat", p);
    vw_bool(w, "shadow", false);
    if (mine)
        cards_array(w, "hand", closed);
    else
        vw_null(w, "hand");
    vw_int(w, "hand_size", __builtin_popcountll(closed));
    vw_array_begin(w, "open");
    for (int c = 0; c < NINJA_CARDS; c++)
        if (s->open[p] & (1ull << c))
            open_entry(w, s, c, p, seat);
    vw_array_end(w);
    held_array(w, s, p, mine);
    vw_int(w, "scrolls_held", s->held_n[p]);
    won_array(w, s, p);
    vw_int(w, "points", ninja_points(s, p));
    vw_int(w, "flips_left", s->flips_left[p]);
    kinds_array(w, "void", s->void_kinds[p]);
    vw_object_end(w);
}

/* The shadow: its open cards left to right, its face-down row only as a
 * count ("hand_size"), and, for the all-seeing view, the row itself. */
static void shadow_entry(asobi_vw *w, const ninja_state *s, int seat)
{
    vw_object_begin(w, NULL);
    vw_int(w, "seat", NINJA_SHADOW);
    vw_bool(w, "shadow", true);
    int hidden = NINJA_ROW - s->row_opened;
    if (seat == ASOBI_ALL_SEEING) {
        vw_array_begin(w, "hand");
        for (int i = s->row_opened; i < NINJA_ROW; i++)
            card_value(w, NULL, s->row[i]);
        vw_array_end(w);
    } else {
        vw_null(w, "hand");
    }
    vw_int(w, "hand_size", hidden);
    vw_array_begin(w, "open");
    int cards[NINJA_OPEN];
    int n = ninja_shadow_open(s, cards);
    for (int i = 0; i < n; i++)
        open_entry(w, s, cards[i], NINJA_SHADOW, seat);
    vw_array_end(w);
    held_array(w, s, NINJA_SHADOW, seat == ASOBI_ALL_SEEING);
    vw_int(w, "scrolls_held", s->held_n[NINJA_SHADOW]);
    won_array(w, s, NINJA_SHADOW);
    vw_int(w, "points", ninja_points(s, NINJA_SHADOW));
    vw_object_end(w);
}

/* A card played to a trick: opens its object and writes all but the
 * "scroll" that closes it, which the caller writes before vw_object_end. */
static void played_entry_begin(asobi_vw *w, const ninja_state *s, int pos, int card)
{
    vw_object_begin(w, NULL);
    vw_int(w, "seat", pos);
    if (ninja_has_shadow(s) && pos == NINJA_SHADOW)
        vw_bool(w, "shadow", true);
    card_value(w, "card", card);
}

/* Public: the round, phase, trump, start player, the trick, the last trick,
 * the cards played this round, counts of closed cards, of the pile and of the
 * leftovers, everyone's open cards and face-up tiles, won tiles and points,
 * the kinds a seat has shown it lacks. Private to a seat: its closed cards,
 * its tiles in hand and the values of the tiles it laid face down. */
void ninja_view(const void *st, int seat, asobi_vw *w)
{
    const ninja_state *s = st;
    bool all = seat == ASOBI_ALL_SEEING;
    vw_int(w, "round", s->round);
    vw_str(w, "phase", phase_names[s->phase]);
    if (s->trump < 0)
        vw_null(w, "trump");
    else
        vw_str(w, "trump", ninja_table.kind_names[s->trump]);
    vw_int(w, "start_player", s->start);
    bool battle = s->phase == NINJA_PHASE_BATTLE;
    if (battle)
        vw_int(w, "leader", s->leader);
    else
        vw_null(w, "leader");
    vw_int(w, "tricks_played", s->tricks_done);
    vw_array_begin(w, "trick");
    for (int i = 0; i < s->trick_n; i++) {
        played_entry_begin(w, s, s->trick_pos[i], s->trick_card[i]);
        scroll_value(w, "scroll", s, s->trick_card[i], s->trick_pos[i], seat);
        vw_object_end(w);
    }
    vw_array_end(w);
    if (s->last_n) {
        vw_object_begin(w, "last_trick");
        vw_array_begin(w, "cards");
        for (int i = 0; i < s->last_n; i++) {
            played_entry_begin(w, s, s->last_pos[i], s->last_card[i]);
            if (s->last_scroll[i])
                vw_int(w, "scroll", s->last_scroll[i]);
            else
                vw_null(w, "scroll");
            vw_object_end(w);
        }
        vw_array_end(w);
        vw_int(w, "winner", s->last_winner);
        vw_object_end(w);
    } else {
        vw_null(w, "last_trick");
    }
    cards_array(w, "discard", s->discard);
    vw_int(w, "leftover_size", __builtin_popcountll(s->leftover));
    if (all)
        cards_array(w, "leftover", s->leftover);
    vw_int(w, "pile_size", s->pile_n);
    if (all) {
        vw_array_begin(w, "pile");
        for (int i = s->pile_n - 1; i >= 0; i--)
            vw_int(w, NULL, s->pile[i]);
        vw_array_end(w);
    }
    vw_array_begin(w, "players");
    for (int p = 0; p < s->players; p++)
        seat_entry(w, s, p, seat);
    if (ninja_has_shadow(s))
        shadow_entry(w, s, seat);
    vw_array_end(w);
    bool over = s->phase == NINJA_PHASE_OVER;
    if (over)
        vw_seats(w, "winners", s->winners);
    else
        vw_null(w, "winners");
    vw_bool(w, "shadow_won", s->shadow_won);
}

/* ---- text ---------------------------------------------------------------- */

static void print_card(FILE *out, int card)
{
    char t[16];
    ninja_card_text(card, t, sizeof t);
    fputs(t, out);
}

static const char *pos_name(const ninja_state *s, int pos, char *buf, size_t cap)
{
    if (ninja_has_shadow(s) && pos == NINJA_SHADOW)
        snprintf(buf, cap, "shadow");
    else
        snprintf(buf, cap, "seat %d", pos + 1); /* people count seats from 1 */
    return buf;
}

/* "[+3]" face up or known to the seat, "[?]" face down, "[+3 down]" the
 * seat's own face-down tile. */
static void print_scroll(FILE *out, const ninja_state *s, int card, int owner, int seat)
{
    int v = s->scroll_on[card];
    if (!v)
        return;
    if (s->scroll_up[card])
        fprintf(out, "[%+d]", v);
    else if (seat == ASOBI_ALL_SEEING || seat == owner)
        fprintf(out, "[%+d down]", v);
    else
        fputs("[?]", out);
}

static void print_won(FILE *out, const ninja_state *s, int pos)
{
    fprintf(out, "points %d, won", ninja_points(s, pos));
    if (ninja_scroll_count(s, pos) == 0)
        fputs(" nothing", out);
    for (int t = 0; t < NINJA_SCROLL_TYPES; t++)
        for (int i = 0; i < s->won[pos][t]; i++)
            fprintf(out, " %+d", ninja_table.scroll_values[t]);
    fputc('\n', out);
}

void ninja_render(const void *st, int seat, FILE *out)
{
    const ninja_state *s = st;
    bool all = seat == ASOBI_ALL_SEEING;
    char name[16];
    fprintf(out, "NINJA SCROLL TRICK - round %d of 3 - %s phase - trump: %s - start player: seat %d\n",
            s->round, phase_names[s->phase], s->trump < 0 ? "not chosen" : ninja_table.kind_names[s->trump],
            s->start + 1);
    int out_of_play = __builtin_popcountll(s->leftover);
    fprintf(out, "Scroll pile: %d tile%s. Out of play: %d card%s face down.\n", s->pile_n, s->pile_n == 1 ? "" : "s",
            out_of_play, out_of_play == 1 ? "" : "s");
    /* the last trick of this round only: a new round starts with a clean table */
    bool this_round = (s->phase == NINJA_PHASE_BATTLE && s->tricks_done > 0) || s->phase == NINJA_PHASE_OVER;
    if (s->last_n && this_round) {
        fputs("Last trick:", out);
        for (int i = 0; i < s->last_n; i++) {
            fprintf(out, " %s ", pos_name(s, s->last_pos[i], name, sizeof name));
            print_card(out, s->last_card[i]);
            if (s->last_scroll[i])
                fprintf(out, "[%+d]", s->last_scroll[i]);
        }
        fprintf(out, " - won by %s\n", pos_name(s, s->last_winner, name, sizeof name));
    }
    if (s->phase == NINJA_PHASE_BATTLE) {
        fprintf(out, "Trick %d:", s->tricks_done + 1);
        if (s->trick_n == 0)
            fprintf(out, " %s leads", pos_name(s, s->leader, name, sizeof name));
        for (int i = 0; i < s->trick_n; i++) {
            fprintf(out, " %s ", pos_name(s, s->trick_pos[i], name, sizeof name));
            print_card(out, s->trick_card[i]);
            print_scroll(out, s, s->trick_card[i], s->trick_pos[i], seat);
        }
        fputc('\n', out);
    }
    for (int p = 0; p < s->players; p++) {
        uint64_t closed = s->hand[p] & ~s->open[p];
        fprintf(out, "  seat %d%s%s: ", p + 1, p == s->start ? " (start)" : "", p == seat ? " (you)" : "");
        print_won(out, s, p);
        fputs("      hand:", out);
        if ((all || p == seat) && !closed) {
            fputs(" none", out);
        } else if (all || p == seat) {
            for (int c = 0; c < NINJA_CARDS; c++)
                if (closed & (1ull << c)) {
                    fputc(' ', out);
                    print_card(out, c);
                }
        } else {
            fprintf(out, " %d closed cards", __builtin_popcountll(closed));
        }
        fputs("\n      open:", out);
        if (!s->open[p])
            fputs(" none", out);
        for (int c = 0; c < NINJA_CARDS; c++)
            if (s->open[p] & (1ull << c)) {
                fputc(' ', out);
                print_card(out, c);
                print_scroll(out, s, c, p, seat);
            }
        if (s->held_n[p] && (all || p == seat)) {
            fputs("\n      tiles in hand:", out);
            for (int i = 0; i < s->held_n[p]; i++)
                fprintf(out, " %+d", s->held[p][i]);
        } else if (s->held_n[p]) {
            /* a count, worded so that it cannot be read as a +3 tile */
            fprintf(out, "\n      %d tile%s in hand", s->held_n[p], s->held_n[p] == 1 ? "" : "s");
        }
        if (s->flips_left[p])
            fprintf(out, "  (turns up %d)", s->flips_left[p]);
        fputc('\n', out);
    }
    if (ninja_has_shadow(s)) {
        fputs("  shadow: ", out);
        print_won(out, s, NINJA_SHADOW);
        fputs("      row:", out);
        for (int i = 0; i < NINJA_ROW; i++) {
            if (s->row_played & (1u << i))
                continue;
            fputc(' ', out);
            if (i < s->row_opened) {
                print_card(out, s->row[i]);
                print_scroll(out, s, s->row[i], NINJA_SHADOW, seat);
            } else if (all) {
                fputc('(', out);
                print_card(out, s->row[i]);
                fputc(')', out);
            } else {
                fputs("##", out);
            }
        }
        fputc('\n', out);
    }
    if (s->phase == NINJA_PHASE_OVER) {
        if (s->shadow_won) {
            fputs("GAME OVER - the shadow is ahead: both players lose.\n", out);
        } else {
            fputs("GAME OVER - winner", out);
            fputs(__builtin_popcount(s->winners) > 1 ? "s (shared):" : ":", out);
            for (int p = 0; p < s->players; p++)
                if (s->winners & (1u << p))
                    fprintf(out, " seat %d", p + 1);
            fputc('\n', out);
        }
    } else {
        fprintf(out, "To act: seat %d - ", s->turn + 1);
        switch (s->phase) {
        case NINJA_PHASE_TRUMP: fputs("choose the trump kind (trump KIND)\n", out); break;
        case NINJA_PHASE_OPEN: fputs("open a card (open KIND-VALUE)\n", out); break;
        case NINJA_PHASE_SCROLL: fputs("lay a tile (scroll +N on KIND-VALUE)\n", out); break;
        case NINJA_PHASE_FLIP: fputs("turn up a tile (flip KIND-VALUE)\n", out); break;
        default:
            /* the follow rule of 勝負フェーズ, open cards first (ruling 18) */
            if (s->trick_n > 0)
                fprintf(out, "play a card (play KIND-VALUE): %s was led; follow it if you can, "
                             "with an open %s card if you have one\n",
                        ninja_table.kind_names[ninja_kind(s->trick_card[0])],
                        ninja_table.kind_names[ninja_kind(s->trick_card[0])]);
            else
                fputs("lead any card (play KIND-VALUE)\n", out);
            break;
        }
    }
}

/* ninja_view.c — what each NINJA SCROLL TRICK seat may see, as JSON for programs and as text for the terminal. */
#include <stdio.h>

#include "game_def.h"
#include "ninja.h"

static const char *phase_names[] = {"trump", "open", "scroll", "flip", "battle", "over"};

/* What a seat sees of the tile on a card (seed: tiles lie face down; the one
 * who laid it knows it — "巻物タイルは周りのプレイヤーから内容が見えないように裏向きで
 * 置きましょう"): its value when face up or laid by that seat, "hidden" when
 * face down and someone else's, null when the card carries none. */
static json_t *scroll_json(const ninja_state *s, int card, int owner, int seat)
{
    int v = s->scroll_on[card];
    if (!v)
        return json_null();
    if (s->scroll_up[card] || seat == ASOBI_ALL_SEEING || seat == owner)
        return json_integer(v);
    return json_string("hidden");
}

static json_t *card_json(int card)
{
    char t[16];
    ninja_card_text(card, t, sizeof t);
    return json_string(t);
}

static json_t *cards_json(uint64_t mask)
{
    json_t *a = json_array();
    for (int c = 0; c < NINJA_CARDS; c++)
        if (mask & (1ull << c))
            json_array_append_new(a, card_json(c));
    return a;
}

static json_t *open_entry(const ninja_state *s, int card, int owner, int seat)
{
    json_t *o = json_object();
    json_object_set_new(o, "card", card_json(card));
    json_object_set_new(o, "scroll", scroll_json(s, card, owner, seat));
    json_object_set_new(o, "face_up", json_boolean(s->scroll_on[card] && s->scroll_up[card]));
    return o;
}

static json_t *won_json(const ninja_state *s, int pos)
{
    json_t *a = json_array();
    for (int t = 0; t < NINJA_SCROLL_TYPES; t++)
        for (int i = 0; i < s->won[pos][t]; i++)
            json_array_append_new(a, json_integer(ninja_table.scroll_values[t]));
    return a;
}

static json_t *kinds_json(uint8_t mask)
{
    json_t *a = json_array();
    for (int k = 0; k < NINJA_KINDS; k++)
        if (mask & (1u << k))
            json_array_append_new(a, json_string(ninja_table.kind_names[k]));
    return a;
}

static json_t *seat_entry(const ninja_state *s, int p, int seat)
{
    bool mine = seat == ASOBI_ALL_SEEING || seat == p;
    uint64_t closed = s->hand[p] & ~s->open[p];
    json_t *e = json_object();
    json_object_set_new(e, "seat", json_integer(p));
    json_object_set_new(e, "shadow", json_false());
    json_object_set_new(e, "hand", mine ? cards_json(closed) : json_null());
    json_object_set_new(e, "hand_size", json_integer(__builtin_popcountll(closed)));
    json_t *open = json_array();
    for (int c = 0; c < NINJA_CARDS; c++)
        if (s->open[p] & (1ull << c))
            json_array_append_new(open, open_entry(s, c, p, seat));
    json_object_set_new(e, "open", open);
    if (mine) {
        json_t *held = json_array();
        for (int i = 0; i < s->held_n[p]; i++)
            json_array_append_new(held, json_integer(s->held[p][i]));
        json_object_set_new(e, "scrolls", held);
    } else {
        json_object_set_new(e, "scrolls", json_null());
    }
    json_object_set_new(e, "scrolls_held", json_integer(s->held_n[p]));
    json_object_set_new(e, "won", won_json(s, p));
    json_object_set_new(e, "points", json_integer(ninja_points(s, p)));
    json_object_set_new(e, "flips_left", json_integer(s->flips_left[p]));
    json_object_set_new(e, "void", kinds_json(s->void_kinds[p]));
    return e;
}

/* The shadow: its open cards left to right, its face-down row only as a
 * count ("hand_size"), and, for the all-seeing view, the row itself. */
static json_t *shadow_entry(const ninja_state *s, int seat)
{
    json_t *e = json_object();
    json_object_set_new(e, "seat", json_integer(NINJA_SHADOW));
    json_object_set_new(e, "shadow", json_true());
    int hidden = NINJA_ROW - s->row_opened;
    if (seat == ASOBI_ALL_SEEING) {
        json_t *row = json_array();
        for (int i = s->row_opened; i < NINJA_ROW; i++)
            json_array_append_new(row, card_json(s->row[i]));
        json_object_set_new(e, "hand", row);
    } else {
        json_object_set_new(e, "hand", json_null());
    }
    json_object_set_new(e, "hand_size", json_integer(hidden));
    json_t *open = json_array();
    int cards[NINJA_OPEN];
    int n = ninja_shadow_open(s, cards);
    for (int i = 0; i < n; i++)
        json_array_append_new(open, open_entry(s, cards[i], NINJA_SHADOW, seat));
    json_object_set_new(e, "open", open);
    if (seat == ASOBI_ALL_SEEING) {
        json_t *held = json_array();
        for (int i = 0; i < s->held_n[NINJA_SHADOW]; i++)
            json_array_append_new(held, json_integer(s->held[NINJA_SHADOW][i]));
        json_object_set_new(e, "scrolls", held);
    } else {
        json_object_set_new(e, "scrolls", json_null());
    }
    json_object_set_new(e, "scrolls_held", json_integer(s->held_n[NINJA_SHADOW]));
    json_object_set_new(e, "won", won_json(s, NINJA_SHADOW));
    json_object_set_new(e, "points", json_integer(ninja_points(s, NINJA_SHADOW)));
    return e;
}

static json_t *played_entry(const ninja_state *s, int pos, int card, json_t *scroll)
{
    json_t *e = json_object();
    json_object_set_new(e, "seat", json_integer(pos));
    if (ninja_has_shadow(s) && pos == NINJA_SHADOW)
        json_object_set_new(e, "shadow", json_true());
    json_object_set_new(e, "card", card_json(card));
    json_object_set_new(e, "scroll", scroll);
    return e;
}

/* Public: the round, phase, trump, start player, the trick, the last trick,
 * the cards played this round, counts of closed cards, of the pile and of the
 * leftovers, everyone's open cards and face-up tiles, won tiles and points,
 * the kinds a seat has shown it lacks. Private to a seat: its closed cards,
 * its tiles in hand and the values of the tiles it laid face down. */
void ninja_view(const void *st, int seat, json_t *view)
{
    const ninja_state *s = st;
    bool all = seat == ASOBI_ALL_SEEING;
    json_object_set_new(view, "round", json_integer(s->round));
    json_object_set_new(view, "phase", json_string(phase_names[s->phase]));
    json_object_set_new(view, "trump",
                        s->trump < 0 ? json_null() : json_string(ninja_table.kind_names[s->trump]));
    json_object_set_new(view, "start_player", json_integer(s->start));
    bool battle = s->phase == NINJA_PHASE_BATTLE;
    json_object_set_new(view, "leader", battle ? json_integer(s->leader) : json_null());
    json_object_set_new(view, "tricks_played", json_integer(s->tricks_done));
    json_t *trick = json_array();
    for (int i = 0; i < s->trick_n; i++)
        json_array_append_new(trick, played_entry(s, s->trick_pos[i], s->trick_card[i],
                                                  scroll_json(s, s->trick_card[i], s->trick_pos[i], seat)));
    json_object_set_new(view, "trick", trick);
    if (s->last_n) {
        json_t *cards = json_array();
        for (int i = 0; i < s->last_n; i++)
            json_array_append_new(cards, played_entry(s, s->last_pos[i], s->last_card[i],
                                                      s->last_scroll[i] ? json_integer(s->last_scroll[i])
                                                                        : json_null()));
        json_object_set_new(view, "last_trick",
                            json_pack("{s:o, s:i}", "cards", cards, "winner", s->last_winner));
    } else {
        json_object_set_new(view, "last_trick", json_null());
    }
    json_object_set_new(view, "discard", cards_json(s->discard));
    json_object_set_new(view, "leftover_size", json_integer(__builtin_popcountll(s->leftover)));
    if (all)
        json_object_set_new(view, "leftover", cards_json(s->leftover));
    json_object_set_new(view, "pile_size", json_integer(s->pile_n));
    if (all) {
        json_t *pile = json_array();
        for (int i = s->pile_n - 1; i >= 0; i--)
            json_array_append_new(pile, json_integer(s->pile[i]));
        json_object_set_new(view, "pile", pile);
    }
    json_t *players = json_array();
    for (int p = 0; p < s->players; p++)
        json_array_append_new(players, seat_entry(s, p, seat));
    if (ninja_has_shadow(s))
        json_array_append_new(players, shadow_entry(s, seat));
    json_object_set_new(view, "players", players);
    bool over = s->phase == NINJA_PHASE_OVER;
    json_object_set_new(view, "winners", over ? asobi_json_seats(s->winners) : json_null());
    json_object_set_new(view, "shadow_won", json_boolean(s->shadow_won));
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
        snprintf(buf, cap, "seat %d", pos);
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
            s->start);
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
        fprintf(out, "  seat %d%s%s: ", p, p == s->start ? " (start)" : "", p == seat ? " (you)" : "");
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
                    fprintf(out, " seat %d", p);
            fputc('\n', out);
        }
    } else {
        fprintf(out, "To act: seat %d - ", s->turn);
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

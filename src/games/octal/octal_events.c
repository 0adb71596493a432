/* octal_events.c — what THE OCTAL's actions make happen, as each viewer may know it: draws, Octo! penalties, refills, finishes. */
#include <stdio.h>
#include <string.h>

#include "game_def.h"
#include "octal.h"

static const char *ordinal(int n) { return n == 1 ? "st" : n == 2 ? "nd" : n == 3 ? "rd" : "th"; }

/* The cards new in seat's hand, in the order they were drawn: the deck's top
 * down (as it was before the action), then the cards a refill put under it. */
static int drawn_in_order(const octal_state *before, const octal_state *after, int seat, uint8_t *out)
{
    uint64_t fresh = after->hand[seat] & ~before->hand[seat];
    int n = 0;
    for (int i = before->deck_size - 1; i >= 0; i--)
        if (fresh & (1ull << before->deck[i])) {
            out[n++] = before->deck[i];
            fresh &= ~(1ull << before->deck[i]);
        }
    for (; fresh; fresh &= fresh - 1)
        out[n++] = (uint8_t)__builtin_ctzll(fresh);
    return n;
}

/* One drawing of count cards by seat: the drawer (and the all-seeing
 * viewer) learns which, every other viewer how many ("山札から…引き"). */
static void add_draw(json_t *events, const char *type, const char *why, int seat, const uint8_t *cards, int count,
                     int viewer)
{
    char list[96] = "";
    int len = 0;
    bool sees = asobi_event_sees(viewer, seat);
    json_t *names = json_array();
    for (int i = 0; i < count && sees; i++) {
        char name[16];
        octal_card_text(cards[i], name, sizeof name);
        len += snprintf(list + len, sizeof list - (size_t)len, "%s%s", i ? ", " : "", name);
        json_array_append_new(names, json_string(name));
    }
    const char *noun = count == 1 ? "a card" : count == 2 ? "2 cards" : "cards";
    json_t *e = sees ? asobi_event_add(events, type, "Seat %d %sdraws %s: %s.", seat + 1, why, noun, list)
                     : asobi_event_add(events, type, "Seat %d %sdraws %s.", seat + 1, why, noun);
    asobi_event_int(e, "seat", seat);
    asobi_event_int(e, "count", count);
    if (sees)
        json_object_set_new(e, "cards", names);
    else
        json_decref(names);
}

/* §⑦ the Octo! penalty, then §⑧ a pass's draw, from one seat's new cards. */
static void add_draws(const octal_state *before, const octal_state *after, int seat, int viewer, json_t *events)
{
    const octal_last *l = &after->last;
    int ps = l->penalty_seat;
    if (ps >= 0 && l->penalty > 0) {
        uint8_t cards[OCTAL_CARDS];
        drawn_in_order(before, after, ps, cards);
        add_draw(events, "penalty", "forgot to call Octo! and ", ps, cards, l->penalty, viewer);
    }
    if (l->drew) {
        uint8_t cards[OCTAL_CARDS];
        int n = drawn_in_order(before, after, seat, cards);
        int skip = ps == seat ? l->penalty : 0; /* the same seat's penalty came first */
        add_draw(events, "draw", "", seat, cards + skip, n - skip > 0 ? 1 : 0, viewer);
    }
}

/* §⑥ "捨て札と竜の問い掛け使用カード以外を回収し、リシャッフルして山札の下に加え". */
static void add_refill(const octal_state *after, json_t *events)
{
    const octal_last *l = &after->last;
    int n = l->refilled, d = l->refilled_discards;
    json_t *e = asobi_event_add(events, "refill",
                                "The deck is refilled: %d card%s (%d discard%s, %d question card%s) shuffled under it.", n,
                                n == 1 ? "" : "s", d, d == 1 ? "" : "s", n - d, n - d == 1 ? "" : "s");
    asobi_event_int(e, "count", n);
    asobi_event_int(e, "discards", d);
    asobi_event_int(e, "deck", after->deck_size);
}

/* §遊び方 ③: a seat with no card left is out, in the order they finish. */
static void add_finishes(const octal_state *before, const octal_state *after, json_t *events)
{
    for (int i = 0; i < after->players; i++)
        if (after->finished_rank[i] && !before->finished_rank[i]) {
            int place = after->finished_rank[i];
            json_t *e = asobi_event_add(events, "finish", "Seat %d has no cards left and finishes %d%s.", i + 1, place,
                                        ordinal(place));
            asobi_event_int(e, "seat", i);
            asobi_event_int(e, "place", place);
        }
}

void octal_events(const void *b, int seat, int id, const void *a, int viewer, json_t *events)
{
    (void)id;
    const octal_state *before = b, *after = a;
    add_draws(before, after, seat, viewer, events);
    if (after->last.refilled)
        add_refill(after, events);
    add_finishes(before, after, events);
}

/* Why the game ended (§遊び方 ③, docs rulings 14 and 15). */
void octal_over_text(const void *st, char *buf, size_t cap)
{
    const octal_state *s = st;
    if (s->blocked)
        snprintf(buf, cap, "nothing could ever change again: no card to draw and nobody can place one");
    else if (s->capped)
        snprintf(buf, cap, "the turn cap of %d was reached", s->max_turns);
    else
        snprintf(buf, cap, "%d player%s finished", s->finished_count, s->finished_count == 1 ? "" : "s");
}

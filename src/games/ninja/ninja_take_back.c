/* ninja_take_back.c — NINJA's quiet hook: a seat's step that turned nothing up may be taken back. */
#include "game_def.h"
#include "ninja.h"

/* Core has already seen that the seat is still to move and that chance drew
 * nothing. What is hidden in NINJA: the hands (each its owner's), the cards
 * dealt to nobody and the shadow's row beyond its open cards, the pile of
 * tiles, and the tiles lying face down on open cards (their owner's). A
 * step that leaves all of that as it was made nothing known but itself:
 *  - laying a scroll tile face down on an open card (preparation 4): the
 *    seat knows its tiles, the others see "a tile" on the card; its last
 *    tile passes the turn, which core makes final;
 *  - the trump (preparation 2) with 3 or more players: the start player
 *    names a kind and goes on to open its first card (with 2 players the
 *    shadow then lays its row, turning cards and a tile up: chance too);
 *  - a card that completes a trick its player wins, so that it leads the
 *    next, when no tile lay face down on the trick's cards (with 2 players
 *    the shadow's next card is then turned up: final).
 * Turning a tile up (preparation 5, or a face-down tile won) shows it: final. */
bool ninja_quiet(const void *before, int seat, int id, const void *after)
{
    (void)seat, (void)id;
    const ninja_state *b = before, *a = after;
    for (int c = 0; c < NINJA_CARDS; c++)
        if (b->scroll_on[c] != 0 && !b->scroll_up[c] && (a->scroll_on[c] != b->scroll_on[c] || a->scroll_up[c]))
            return false;
    if (a->row_opened != b->row_opened || a->pile_n != b->pile_n || a->leftover != b->leftover)
        return false;
    for (int p = 0; p < b->positions; p++)
        if (a->held_n[p] > b->held_n[p])
            return false;
    return true;
}

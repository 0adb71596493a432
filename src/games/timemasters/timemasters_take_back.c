/* timemasters_take_back.c — Time Masters' quiet hook: a step of a turn that made nothing known may be taken back. */
#include <string.h>

#include "game_def.h"
#include "timemasters.h"

/* Core has already seen that the seat is still the one to move (the turn
 * goes on: a play, a set, a payment, a pick, an activation, the end of the
 * main phase) and that chance drew nothing (no deck was shuffled). What is
 * hidden in Time Masters, and so what a step must leave alone to be taken
 * back (docs/rules/timemasters.md, "Taking back"):
 *  - every deck: its order is nobody's to know, its cards the owner's; a
 *    card drawn (a spell that draws, a focus) is news to the drawer;
 *  - the spheres below their tops and the cards set aside: a card taken
 *    from a sphere turns the next one up, the hidden second card is shown
 *    to the taker. Taking a sphere's last card shows nothing more;
 *  - the delay cards under timers, seen by their owner only: a timer
 *    discarded with delay cards under it puts them face up on the discard.
 * A card going from the mover's hand to where all see it is the action
 * itself ("play Spark", "pick Focus"), as is a card put face down under a
 * timer (its owner knows it, the others see one more delay card). */
bool tm_quiet(const void *before, int seat, int id, const void *after)
{
    (void)seat;
    const tm_state *b = before, *a = after;
    for (int i = 0; i < b->players; i++) {
        const tm_player *pb = &b->p[i], *pa = &a->p[i];
        if (pa->n_deck != pb->n_deck || memcmp(pa->deck, pb->deck, pb->n_deck) != 0)
            return false;
        if (tm_delay_cards(pa) < tm_delay_cards(pb))
            return false;
    }
    for (int l = 0; l < TM_LEVELS; l++) {
        bool last_taken = id == TM_ID_TAKE + l && b->n_sphere[l] == 1 && a->n_sphere[l] == 0;
        if ((a->n_sphere[l] != b->n_sphere[l] && !last_taken) || a->n_aside[l] != b->n_aside[l])
            return false;
    }
    return true;
}

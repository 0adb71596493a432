/* psycle_take_back.c — PSYCLE's quiet hook: a face-down choice may be withdrawn until the round's last seat has chosen. */
#include <string.h>

#include "game_def.h"
#include "psycle.h"

/* Core has already seen that the choice left the step open (the others still
 * choosing) and drew nothing from chance: the round is revealed only by its
 * last choice (§6.3), which is final. What is left to check is that the
 * choice changed nothing but the mover's own face-down card: the state with
 * that card put back is the state before, byte for byte. */
bool psycle_quiet(const void *before, int seat, int id, const void *after)
{
    (void)id;
    psycle_state undone;
    memcpy(&undone, after, sizeof undone);
    const psycle_state *b = before;
    undone.pending[seat] = b->pending[seat];
    undone.choosing = b->choosing;
    return memcmp(&undone, b, sizeof undone) == 0;
}

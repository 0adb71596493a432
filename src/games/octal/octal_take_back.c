/* octal_take_back.c — THE OCTAL's quiet hook: the late Octo! said at one's own turn may be taken back. */
#include "game_def.h"
#include "octal.h"

/* Core has already seen that the seat is still to move and that chance drew
 * nothing. In THE OCTAL nearly every action ends the turn (a placing, the
 * discard after a pass) or draws (a pass, the Octo! penalty), and is final.
 * The one step that leaves its seat to move is the late Octo! (ruling 12)
 * said at the seat's own turn, before it acts: it says aloud what every
 * seat already knew (the view's undeclared_octo) and shows no card. Said
 * while another seat is to move, it takes the seat out of to_move: final. */
bool octal_quiet(const void *before, int seat, int id, const void *after)
{
    (void)before, (void)seat, (void)after;
    return id == OCTAL_ID_DECLARE;
}

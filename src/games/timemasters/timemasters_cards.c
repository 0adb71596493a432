/* timemasters_cards.c — OUR OWN DESIGN of the Time Masters card set (RECONSTRUCTED: the real list is lost). */
#include "timemasters.h"

/* RECONSTRUCTED — OUR OWN DESIGN, NOT THE PUBLISHED CARDS.
 *
 * The seed (003) explains every mechanism but its card pictures are lost and
 * no public source reachable here lists the cards (../shared/reconstructions.md).
 * This table is a card set of our own, built only from mechanisms the seed
 * describes, keeping what the seed does say:
 *   - 39 spell kinds ("全部で39種類のスペルがあります"), 3 of them the starting
 *     Suggestion, Recovery and Energy; 5 focus kinds ("フォーカスは5種類"),
 *     the starting one included; timers of 1 or 2 slots;
 *   - 20 cards per sphere level 1..5, level = victory points;
 *   - the starting deck: Suggestion x2, Recovery x2, Energy x2, focus x3,
 *     a 1-slot timer x1 (level 0);
 *   - the named cards keep the seed's effects: Cerebral Cleaning (remove 2
 *     cards of your hand from the game), Time Heaviness (each opponent's next
 *     spell costs 1 more Kè), Slow Down (each opponent may spend at most 3 Kè
 *     next turn); focuses recover Kè, stronger at higher levels.
 * The names other than those are ours. Costs grow with the level and so do
 * the effects. Owners of the real cards can load them instead with the option
 * `cards` (a JSON card file, docs/rules/timemasters.md). */

#define FX(op, n) {TM_FX_##op, n}
#define SPELL(nm, lv, c, cp, ...)                                                                  \
    {.name = nm, .type = TM_SPELL, .level = lv, .cost = c, .copies = cp,                           \
     .n_effects = sizeof((uint8_t[][2]){__VA_ARGS__}) / 2, .fx = {__VA_ARGS__}}
#define FOCUS(nm, lv, cp, ...)                                                                     \
    {.name = nm, .type = TM_FOCUS, .level = lv, .copies = cp,                                      \
     .n_effects = sizeof((uint8_t[][2]){__VA_ARGS__}) / 2, .fx = {__VA_ARGS__}}
#define TIMER(nm, lv, cp, sl) {.name = nm, .type = TM_TIMER, .level = lv, .copies = cp, .slots = sl}
#define TIMER_FX(nm, lv, cp, sl, trig, ...)                                                        \
    {.name = nm, .type = TM_TIMER, .level = lv, .copies = cp, .slots = sl, .trigger = trig,        \
     .n_effects = sizeof((uint8_t[][2]){__VA_ARGS__}) / 2, .fx = {__VA_ARGS__}}

const tm_table tm_default_table = {
    .title = "asobi set (our own design)",
    .sphere_size = 10,
    .kinds = 53,
    .card = {
        /* Level 0: the starting deck of every player (10 cards, seed §セットアップ). */
        SPELL("Suggestion", 0, 1, 2, FX(DRAW, 1)),
        SPELL("Recovery", 0, 2, 2, FX(READY, 1)),
        SPELL("Energy", 0, 2, 2, FX(EPHEMERAL, 1)),
        FOCUS("Concentration", 0, 3, FX(READY, 1)),
        TIMER("Small Timer", 0, 1, 1),

        /* Level 1 (20 cards): 7 spell kinds, 1 focus, 2 timers. */
        SPELL("Cerebral Cleaning", 1, 1, 2, FX(REMOVE, 2)),
        SPELL("Insight", 1, 1, 2, FX(DRAW, 2)),
        SPELL("Spark", 1, 1, 2, FX(EPHEMERAL, 2)),
        SPELL("Second Wind", 1, 1, 2, FX(READY, 2)),
        SPELL("Time Lightness", 1, 1, 2, FX(LIGHT, 1), FX(DRAW, 1)),
        SPELL("Glimmer", 1, 1, 2, FX(EPHEMERAL, 1), FX(DRAW, 1)),
        SPELL("Meditation", 1, 1, 2, FX(FOCUS_BACK, 1)),
        FOCUS("Calm Focus", 1, 2, FX(READY, 1), FX(DRAW, 1)),
        TIMER_FX("Hourglass", 1, 2, 1, TM_TRIG_SET, FX(EPHEMERAL, 1)),
        TIMER("Sandglass", 1, 2, 2),

        /* Level 2 (20 cards): 7 spell kinds, 1 focus, 2 timers. */
        SPELL("Time Heaviness", 2, 1, 2, FX(HEAVY, 1)),
        SPELL("Acceleration", 2, 2, 2, FX(LIGHT, 1), FX(DRAW, 1)),
        SPELL("Clarity", 2, 2, 2, FX(DRAW, 2), FX(EPHEMERAL, 1)),
        SPELL("Wellspring", 2, 2, 2, FX(NEW_KE, 1)),
        SPELL("Surge", 2, 2, 2, FX(EPHEMERAL, 2), FX(READY, 1)),
        SPELL("Reminiscence", 2, 2, 2, FX(FOCUS_BACK, 1), FX(DRAW, 1)),
        SPELL("Deep Cleaning", 2, 1, 2, FX(REMOVE, 3)),
        FOCUS("Bright Focus", 2, 2, FX(READY, 2), FX(DRAW, 1), FX(REMOVE, 1)),
        TIMER_FX("Clock", 2, 2, 2, TM_TRIG_SET, FX(EPHEMERAL, 1)),
        TIMER_FX("Pendulum", 2, 2, 1, TM_TRIG_DISCARD, FX(DRAW, 2)),

        /* Level 3 (20 cards): 7 spell kinds, 1 focus, 2 timers. */
        SPELL("Slow Down", 3, 1, 2, FX(SLOW, 3)),
        SPELL("Time Warp", 3, 3, 2, FX(LIGHT, 2), FX(DRAW, 1)),
        SPELL("Flow", 3, 2, 2, FX(EPHEMERAL, 3)),
        SPELL("Renewal", 3, 3, 2, FX(NEW_KE, 1), FX(READY, 1)),
        SPELL("Vision", 3, 2, 2, FX(DRAW, 3)),
        SPELL("Heavy Hours", 3, 2, 2, FX(HEAVY, 1), FX(DRAW, 1)),
        SPELL("Recollection", 3, 3, 2, FX(FOCUS_BACK, 2), FX(DRAW, 1)),
        FOCUS("Deep Focus", 3, 2, FX(READY, 2), FX(DRAW, 2), FX(REMOVE, 1)),
        TIMER_FX("Chronometer", 3, 2, 2, TM_TRIG_SET, FX(READY, 1)),
        TIMER_FX("Sundial", 3, 2, 2, TM_TRIG_DISCARD, FX(EPHEMERAL, 3)),

        /* Level 4 (20 cards): 7 spell kinds, 1 focus, 2 timers. */
        SPELL("Stasis", 4, 3, 2, FX(SLOW, 2)),
        SPELL("Leap", 4, 4, 2, FX(EPHEMERAL, 2), FX(DRAW, 3)),
        SPELL("Torrent", 4, 3, 2, FX(EPHEMERAL, 4), FX(DRAW, 1)),
        SPELL("Mastery", 4, 4, 2, FX(NEW_KE, 2)),
        SPELL("Revelation", 4, 4, 2, FX(DRAW, 3), FX(READY, 1)),
        SPELL("Purge", 4, 2, 2, FX(REMOVE, 2), FX(DRAW, 2)),
        SPELL("Gravity", 4, 3, 2, FX(HEAVY, 2)),
        FOCUS("Pure Focus", 4, 2, FX(READY, 3), FX(DRAW, 2), FX(REMOVE, 1)),
        TIMER_FX("Great Clock", 4, 2, 2, TM_TRIG_SET, FX(EPHEMERAL, 1), FX(READY, 1)),
        TIMER_FX("Water Clock", 4, 2, 2, TM_TRIG_DISCARD, FX(READY, 2), FX(DRAW, 1)),

        /* Level 5 (20 cards): 8 spell kinds (3+7+7+7+7+8 = 39 spell kinds). */
        SPELL("Eternity", 5, 4, 3, FX(NEW_KE, 2), FX(READY, 2)),
        SPELL("Time Stop", 5, 4, 2, FX(SLOW, 2), FX(HEAVY, 1)),
        SPELL("Omniscience", 5, 4, 3, FX(DRAW, 4), FX(EPHEMERAL, 2)),
        SPELL("Infinity", 5, 5, 2, FX(NEW_KE, 2), FX(EPHEMERAL, 2), FX(DRAW, 1)),
        SPELL("Oblivion", 5, 3, 2, FX(REMOVE, 3), FX(READY, 2)),
        SPELL("Chronomancy", 5, 4, 3, FX(FOCUS_BACK, 2), FX(EPHEMERAL, 2)),
        SPELL("Zenith", 5, 3, 2, FX(DRAW, 2), FX(READY, 2)),
        SPELL("Featherweight", 5, 3, 3, FX(LIGHT, 2), FX(EPHEMERAL, 2)),
    },
};

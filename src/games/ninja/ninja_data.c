/* ninja_data.c — NINJA SCROLL TRICK's component data, RECONSTRUCTED from ../shared/reconstructions.md. */
#include "ninja.h"

/* RECONSTRUCTED. The rule sheet (seed 002, 収納物) names the components but
 * its pictures, which showed them, are lost:
 *  - "忍者カード 35枚（5種各7枚）": 5 kinds, values 1..7. The printed kind
 *    names are unknown; ours are the five elements of ninjutsu, chosen by us
 *    and not the game's: fire, water, wood, metal, earth.
 *  - "切り札カード 5枚": one trump card per kind (so a trump is a kind).
 *  - "+1 +3 +5 +7 +10 -1 -3 -5 ・巻物タイル 45枚": the values are printed, the
 *    copies are not. We take +1 x8, +3 x7, +5 x6, +7 x5, +10 x4, -1 x6,
 *    -3 x5, -5 x4 (45): with 5 players, after each takes +3 +1 -1, the 30
 *    left are exactly 3 per player for the draws after rounds 1 and 2.
 *  - "+3 +1 -1 を1枚ずつ取ります": the starting tiles (also the shadow's).
 * Anyone holding the physical game corrects this table and nothing else. */
const ninja_data ninja_table = {
    .kind_names = {"fire", "water", "wood", "metal", "earth"},
    .scroll_values = {1, 3, 5, 7, 10, -1, -3, -5},
    .scroll_copies = {8, 7, 6, 5, 4, 6, 5, 4},
    .starting = {3, 1, -1},
};

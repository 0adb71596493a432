/* psycle_data.c — PSYCLE's component data, RECONSTRUCTED from ../shared/reconstructions.md. */
#include "psycle.h"

/* RECONSTRUCTED. The seed's card pictures carried the beats-relation and the
 * stars; the text confirms only some of it (seed 000 §4: "1 loses to 2,3,4;
 * 1 beats 0 and 5; scores 3"; "0 loses to all but 0"). The rest follows the
 * publisher's instructions and reviews, and the rulebook's two examples agree
 * (tests/games/psycle/test_psycle_rules.c checks them).
 *   1 beats {0,5}; 2 beats {0,1}; 3 beats {0,1,2}; 4 beats {0,1,2,3};
 *   5 beats {0,2,3,4}; 0 beats nothing; equal cards beat nobody.
 * Target tiles 1..5 and bonus tiles +1..+5 (the examples show +1 and +2);
 * 50 gems in the box (seed §2: "リソースジェム:50個"). */
const psycle_data psycle_table = {
    .beats = {
        [0] = 0,
        [1] = (1u << 0) | (1u << 5),
        [2] = (1u << 0) | (1u << 1),
        [3] = (1u << 0) | (1u << 1) | (1u << 2),
        [4] = (1u << 0) | (1u << 1) | (1u << 2) | (1u << 3),
        [5] = (1u << 0) | (1u << 2) | (1u << 3) | (1u << 4),
    },
    .stars = {0, 3, 3, 2, 1, 1},
    .targets = {1, 2, 3, 4, 5},
    .bonuses = {1, 2, 3, 4, 5},
    .gem_supply = 50,
};

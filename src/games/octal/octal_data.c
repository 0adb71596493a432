/* octal_data.c — THE OCTAL's component data, RECONSTRUCTED from ../shared/reconstructions.md. */
#include "octal.h"

const char *const octal_condition_letter[OCTAL_CONDITIONS] = {"大", "小", "同", "異", "倍", "約"};
const char octal_condition_ascii[OCTAL_CONDITIONS] = {'G', 'L', 'S', 'X', 'M', 'D'};

#define G OCTAL_GREATER
#define L OCTAL_LESS
#define S OCTAL_SAME
#define X OCTAL_DIFFERENT
#define M OCTAL_MULTIPLE
#define D OCTAL_DIVISOR
#define U OCTAL_UP
#define B OCTAL_BOTH
/* A set of numbers 1..8 as a bitmask (bit m for the number m). */
#define N1 (1u << 1)
#define N2 (1u << 2)
#define N3 (1u << 3)
#define N4 (1u << 4)
#define N5 (1u << 5)
#define N6 (1u << 6)
#define N7 (1u << 7)
#define N8 (1u << 8)
#define ALLN (N1 | N2 | N3 | N4 | N5 | N6 | N7 | N8)

/* RECONSTRUCTED. The seed (004) names the 34 cards (§内容物: "数値カード32枚
 * (1~8 各4枚)/ALLカード2枚") and the six conditions (§④), but the faces were
 * pictures. Card i (0..31) has number (i mod 8)+1 and copy i div 8; its
 * condition is 大小同異倍約[(number-1+copy) mod 6]; copies 0 and 1 carry ↑,
 * copies 2 and 3 carry ↕. Cards 32 and 33 are ALL. The meanings of the
 * conditions (§④, with §① "8より大きい値は1のみ、1より小さい値は8のみ"):
 * 大 the numbers above N (above 8: {1}); 小 below N (below 1: {8}); 同 {N};
 * 異 all but N; 倍 the multiples of N up to 8, N included; 約 the divisors of
 * N, 1 and N included. Whoever holds the physical cards corrects them here. */
const octal_data octal_table = {
    .cards = {
        /* copy 0: ↑ */
        {1, G, U}, {2, L, U}, {3, S, U}, {4, X, U}, {5, M, U}, {6, D, U}, {7, G, U}, {8, L, U},
        /* copy 1: ↑ */
        {1, L, U}, {2, S, U}, {3, X, U}, {4, M, U}, {5, D, U}, {6, G, U}, {7, L, U}, {8, S, U},
        /* copy 2: ↕ */
        {1, S, B}, {2, X, B}, {3, M, B}, {4, D, B}, {5, G, B}, {6, L, B}, {7, S, B}, {8, X, B},
        /* copy 3: ↕ */
        {1, X, B}, {2, M, B}, {3, D, B}, {4, G, B}, {5, L, B}, {6, S, B}, {7, X, B}, {8, M, B},
        /* the two ALL cards */
        {0, 0, 0}, {0, 0, 0},
    },
    .allows = {
        [G] = {0, N2 | N3 | N4 | N5 | N6 | N7 | N8, N3 | N4 | N5 | N6 | N7 | N8, N4 | N5 | N6 | N7 | N8,
               N5 | N6 | N7 | N8, N6 | N7 | N8, N7 | N8, N8, N1},
        [L] = {0, N8, N1, N1 | N2, N1 | N2 | N3, N1 | N2 | N3 | N4, N1 | N2 | N3 | N4 | N5,
               N1 | N2 | N3 | N4 | N5 | N6, N1 | N2 | N3 | N4 | N5 | N6 | N7},
        [S] = {0, N1, N2, N3, N4, N5, N6, N7, N8},
        [X] = {0, ALLN & ~N1, ALLN & ~N2, ALLN & ~N3, ALLN & ~N4, ALLN & ~N5, ALLN & ~N6, ALLN & ~N7,
               ALLN & ~N8},
        [M] = {0, ALLN, N2 | N4 | N6 | N8, N3 | N6, N4 | N8, N5, N6, N7, N8},
        [D] = {0, N1, N1 | N2, N1 | N3, N1 | N2 | N4, N1 | N5, N1 | N2 | N3 | N6, N1 | N7,
               N1 | N2 | N4 | N8},
    },
};

/* test_hidden_fields.c — every field a seat may not see, listed per game from the rules, is resampled by determinize. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"
#include "game_def.h"
#include "games/ninja/ninja.h"
#include "games/octal/octal.h"
#include "games/psycle/psycle.h"
#include "games/timemasters/timemasters.h"
#include "repetitions.h"

/* Why a list of fields. Every hidden-information check of the suite (the
 * harness's views, renderings and log lines, the server's updates, the
 * bots' blindness) compares the true state with its determinizations: it
 * proves that what a seat is shown does not change when what it cannot see
 * is resampled. If a game's determinize forgot a hidden field (an order
 * nobody may see, another seat's face-down card), that field would be the
 * same in every determinization, and every one of those checks would pass
 * while views, texts and bots could read it. So here each game lists, from
 * its rules and not from its determinize, the fields a seat may not see;
 * along random games each field is compared, field by field, between the
 * true state and a few determinizations for each seat, and each must come
 * out different (from the truth, and from one determinization to another)
 * in a good share of the states where it holds something that could
 * differ. A field determinize forgot never differs; one it rewrote in a
 * canonical form never differs between determinizations. Each zone
 * determinize resamples apart (each shuffle or draw of its own) is a field
 * of its own: PSYCLE's two rows of tiles, NINJA's face-down tiles in hand
 * and in the trick. One field for two zones would pass while one of them
 * kept the truth (issue 41: with the bonus tiles' shuffle deleted, the
 * field of both rows still changed). tests/core/determinize_fields.py holds
 * the sources to it: each call of the generator in a determinize names, in
 * a `hidden field:` comment, its fields in the tables below, one of them
 * its own. */

/* A hidden field's value in st as viewer cannot see it, written as bytes
 * to out (a canonical form: a set as a bitmask or sorted, an order as it
 * lies); 0 when there is nothing to resample there now (an empty hand,
 * a single card left, no other seat at that index). other is the index of
 * another seat (or place) for fields that exist once per seat. */
typedef size_t (*hidden_value)(const void *st, int viewer, int other, uint8_t *out);

typedef struct hidden_field {
    const char *name;
    hidden_value value;
    int min_percent; /* of the states where it holds something, those where a determinization changed it */
} hidden_field;

#define OUT_CAP 4096

static size_t bytes_of(uint8_t *out, const void *p, size_t n)
{
    memcpy(out, p, n);
    return n;
}

static int cmp_u8(const void *a, const void *b) { return *(const uint8_t *)a - *(const uint8_t *)b; }

/* A multiset of card kinds, sorted (where the order is not what is hidden). */
static size_t sorted_of(uint8_t *out, const uint8_t *cards, int n)
{
    memcpy(out, cards, (size_t)n);
    qsort(out, (size_t)n, 1, cmp_u8);
    return (size_t)n;
}

/* Whether a run of cards could come out in another order or make-up: at
 * least two different cards. */
static bool varied(const uint8_t *cards, int n)
{
    for (int i = 1; i < n; i++)
        if (cards[i] != cards[0])
            return true;
    return false;
}

/* ---- PSYCLE (seed 000): the tiles not yet face up, the others' face-down card ---- */
/* The two rows of tiles are shuffled apart (each zone resampled on its own
 * is a field of its own: one field for both would pass while either row
 * kept its true order, the other changing). */
static size_t psycle_row_face_down(const uint8_t *row, int round, int other, uint8_t *out)
{
    int face_up = round + 1, left = PSYCLE_ROUNDS - face_up;
    if (other != 0 || left < 2 || !varied(row + face_up, left))
        return 0;
    return bytes_of(out, row + face_up, (size_t)left);
}

static size_t psycle_victory_tiles_face_down(const void *st, int viewer, int other, uint8_t *out)
{
    (void)viewer;
    const psycle_state *s = st;
    return psycle_row_face_down(s->targets, s->round, other, out);
}

static size_t psycle_bonus_tiles_face_down(const void *st, int viewer, int other, uint8_t *out)
{
    (void)viewer;
    const psycle_state *s = st;
    return psycle_row_face_down(s->bonuses, s->round, other, out);
}

static size_t psycle_choice_face_down(const void *st, int viewer, int other, uint8_t *out)
{
    const psycle_state *s = st;
    /* a seat holding no gem can choose only 0: nothing to resample */
    if (other == viewer || other >= s->players || s->pending[other] < 0 || s->gems[other] == 0)
        return 0;
    return bytes_of(out, &s->pending[other], 1);
}

static const hidden_field psycle_fields[] = {
    {"the victory tiles not yet face up (their order)", psycle_victory_tiles_face_down, 80},
    {"the bonus tiles not yet face up (their order)", psycle_bonus_tiles_face_down, 80},
    {"another seat's face-down card", psycle_choice_face_down, 80},
};

/* ---- NINJA SCROLL TRICK: closed hands, the cards dealt to nobody, face-down tiles, the pile, the shadow's row ---- */
static size_t ninja_closed_hand(const void *st, int viewer, int other, uint8_t *out)
{
    const ninja_state *s = st;
    if (other == viewer || other >= s->players)
        return 0;
    uint64_t closed = s->hand[other] & ~s->open[other];
    return closed ? bytes_of(out, &closed, sizeof closed) : 0;
}

static size_t ninja_leftover(const void *st, int viewer, int other, uint8_t *out)
{
    (void)viewer;
    const ninja_state *s = st;
    return other == 0 && s->leftover ? bytes_of(out, &s->leftover, sizeof s->leftover) : 0;
}

/* The tiles lying face down on another seat's cards: open in its hand, or
 * played into the trick (two zones, each its own field). */
static size_t ninja_tiles_face_down_on(const ninja_state *s, int viewer, int other, bool in_hand, uint8_t *out)
{
    if (other == viewer || other >= s->positions)
        return 0;
    size_t n = 0;
    for (int c = 0; c < NINJA_CARDS; c++)
        if (s->scroll_on[c] && !s->scroll_up[c] && ninja_owner(s, c) == other &&
            (((s->hand[other] >> c) & 1u) != 0) == in_hand)
            out[n++] = (uint8_t)s->scroll_on[c];
    return n;
}

static size_t ninja_tiles_face_down_in_hand(const void *st, int viewer, int other, uint8_t *out)
{
    return ninja_tiles_face_down_on(st, viewer, other, true, out);
}

static size_t ninja_tiles_face_down_in_trick(const void *st, int viewer, int other, uint8_t *out)
{
    return ninja_tiles_face_down_on(st, viewer, other, false, out);
}

static size_t ninja_tiles_held(const void *st, int viewer, int other, uint8_t *out)
{
    const ninja_state *s = st;
    if (other == viewer || other >= s->positions || s->held_n[other] == 0)
        return 0;
    return sorted_of(out, (const uint8_t *)s->held[other], s->held_n[other]);
}

static size_t ninja_pile(const void *st, int viewer, int other, uint8_t *out)
{
    (void)viewer;
    const ninja_state *s = st;
    if (other != 0 || !varied((const uint8_t *)s->pile, s->pile_n))
        return 0;
    return bytes_of(out, s->pile, s->pile_n);
}

static size_t ninja_shadow_row(const void *st, int viewer, int other, uint8_t *out)
{
    (void)viewer;
    const ninja_state *s = st;
    if (other != 0 || !ninja_has_shadow(s) || NINJA_ROW - s->row_opened < 1)
        return 0;
    return bytes_of(out, s->row + s->row_opened, (size_t)(NINJA_ROW - s->row_opened));
}

static const hidden_field ninja_fields[] = {
    {"another seat's closed cards", ninja_closed_hand, 80},
    {"the cards dealt to nobody", ninja_leftover, 80},
    {"the tiles face down on another seat's cards in its hand", ninja_tiles_face_down_in_hand, 70},
    {"the tiles face down on another seat's cards in the trick", ninja_tiles_face_down_in_trick, 70},
    {"another seat's tiles in hand", ninja_tiles_held, 50},
    {"the face-down pile (its order)", ninja_pile, 80},
    {"the shadow's face-down cards", ninja_shadow_row, 80},
};

/* ---- THE OCTAL: the others' hands and face-down discards, the deck ---- */
static size_t octal_hand(const void *st, int viewer, int other, uint8_t *out)
{
    const octal_state *s = st;
    if (other == viewer || other >= s->players || !s->hand[other])
        return 0;
    return bytes_of(out, &s->hand[other], sizeof s->hand[other]);
}

static size_t octal_discards(const void *st, int viewer, int other, uint8_t *out)
{
    const octal_state *s = st;
    if (other == viewer || other >= s->players || !s->discarded[other])
        return 0;
    return bytes_of(out, &s->discarded[other], sizeof s->discarded[other]);
}

static size_t octal_deck(const void *st, int viewer, int other, uint8_t *out)
{
    (void)viewer;
    const octal_state *s = st;
    return other == 0 && s->deck_size >= 2 ? bytes_of(out, s->deck, s->deck_size) : 0;
}

static const hidden_field octal_fields[] = {
    {"another seat's hand", octal_hand, 80},
    {"another seat's face-down discards", octal_discards, 80},
    {"the deck (its order)", octal_deck, 80},
};

/* ---- Time Masters: the others' hands, decks and delay cards, every deck's order, the spheres below their tops, the cards set aside ---- */
static size_t tm_field_hand(const void *st, int viewer, int other, uint8_t *out)
{
    const tm_state *s = st;
    if (other == viewer || other >= s->players || s->p[other].n_hand == 0)
        return 0;
    return sorted_of(out, s->p[other].hand, s->p[other].n_hand);
}

static size_t tm_field_deck_cards(const void *st, int viewer, int other, uint8_t *out)
{
    const tm_state *s = st;
    if (other == viewer || other >= s->players || s->p[other].n_deck == 0)
        return 0;
    return sorted_of(out, s->p[other].deck, s->p[other].n_deck);
}

/* The order of another seat's deck. */
static size_t tm_field_deck_order(const void *st, int viewer, int other, uint8_t *out)
{
    const tm_state *s = st;
    if (other == viewer || other >= s->players || !varied(s->p[other].deck, s->p[other].n_deck))
        return 0;
    return bytes_of(out, s->p[other].deck, s->p[other].n_deck);
}

/* The order of the viewer's own deck: it knows the cards, not their order. */
static size_t tm_field_own_deck_order(const void *st, int viewer, int other, uint8_t *out)
{
    const tm_state *s = st;
    if (other != 0 || !varied(s->p[viewer].deck, s->p[viewer].n_deck))
        return 0;
    return bytes_of(out, s->p[viewer].deck, s->p[viewer].n_deck);
}

static size_t tm_field_delay_cards(const void *st, int viewer, int other, uint8_t *out)
{
    const tm_state *s = st;
    if (other == viewer || other >= s->players)
        return 0;
    size_t n = 0;
    for (int m = 0; m < s->p[other].n_timers; m++) {
        const tm_timer *t = &s->p[other].timers[m];
        n += sorted_of(out + n, t->delay, t->n_delay);
        out[n++] = 0xff; /* one timer's cards from the next's */
    }
    return n > (size_t)s->p[other].n_timers ? n : 0;
}

static size_t tm_field_below_top(const void *st, int viewer, int other, uint8_t *out)
{
    (void)viewer;
    const tm_state *s = st;
    if (other >= TM_LEVELS || s->n_sphere[other] < 3)
        return 0;
    return bytes_of(out, s->sphere[other], (size_t)s->n_sphere[other] - 1);
}

static size_t tm_field_aside(const void *st, int viewer, int other, uint8_t *out)
{
    (void)viewer;
    const tm_state *s = st;
    if (other >= TM_LEVELS || s->n_aside[other] < 1)
        return 0;
    return sorted_of(out, s->aside[other], s->n_aside[other]);
}

static const hidden_field tm_fields[] = {
    {"another seat's hand", tm_field_hand, 70},
    {"another seat's deck (its cards)", tm_field_deck_cards, 80},
    {"another seat's deck (its order)", tm_field_deck_order, 80},
    {"the seat's own deck (its order)", tm_field_own_deck_order, 80},
    {"another seat's delay cards", tm_field_delay_cards, 80},
    {"a sphere below its top", tm_field_below_top, 80},
    {"the cards set aside", tm_field_aside, 70},
};

/* How often each field held something and how often a determinization changed it. */
typedef struct field_count {
    long held, changed;
} field_count;

#define DETERMINIZATIONS 6
#define OTHERS 6 /* indices tried per field: seats, places or sphere levels */

/* For each seat, DETERMINIZATIONS determinizations of s, each field compared
 * with the truth and between them. */
static void compare_fields(const asobi_state *s, const hidden_field *fields, int nfields, field_count *count,
                           asobi_rng *rng)
{
    static uint8_t truth[OUT_CAP], first_value[OUT_CAP], other_value[OUT_CAP];
    const void *raw = asobi_state_data_for_ai(s);
    for (int viewer = 0; viewer < asobi_state_players(s); viewer++) {
        asobi_state *d[DETERMINIZATIONS];
        for (int k = 0; k < DETERMINIZATIONS; k++) {
            d[k] = asobi_state_clone(s);
            asobi_rng r = asobi_rng_split(rng);
            asobi_state_determinize(d[k], viewer, &r);
        }
        for (int f = 0; f < nfields; f++)
            for (int other = 0; other < OTHERS; other++) {
                size_t n = fields[f].value(raw, viewer, other, truth);
                if (n == 0)
                    continue;
                count[f].held++;
                /* resampled: some determinization differs from the truth, and they differ among
                 * themselves (a determinize that wrote the field in one canonical form, the same
                 * every time, would still tell a search which order is the true one) */
                bool differs = false, spread = false;
                size_t first = fields[f].value(asobi_state_data_for_ai(d[0]), viewer, other, first_value);
                for (int k = 0; k < DETERMINIZATIONS; k++) {
                    size_t m = k ? fields[f].value(asobi_state_data_for_ai(d[k]), viewer, other, other_value)
                                 : first;
                    const uint8_t *v = k ? other_value : first_value;
                    differs |= m != n || memcmp(truth, v, n) != 0;
                    spread |= m != first || memcmp(first_value, v, m) != 0;
                }
                count[f].changed += differs && spread;
            }
        for (int k = 0; k < DETERMINIZATIONS; k++)
            asobi_state_free(d[k]);
    }
}

/* Random games of game at every player count, the fields compared at every
 * `every`-th step before the end (at the end nothing is left to resample:
 * determinize may return there); then each field's share. */
static void check_fields(const char *game, const hidden_field *fields, int nfields, int games, int every)
{
    const asobi_game_def *def = asobi_game_find(game);
    assert_non_null(def);
    field_count count[16] = {{0, 0}};
    assert_true(nfields <= 16);
    int *legal = malloc((size_t)asobi_game_max_actions(def) * sizeof *legal);
    asobi_rng rng;
    asobi_rng_seed(&rng, 32);
    for (int p = asobi_game_min_players(def); p <= asobi_game_max_players(def); p++)
        for (int g = 0; g < games; g++) {
            asobi_state *s = new_state(game, p, NULL, 3200u + 100u * (uint64_t)p + (uint64_t)g);
            for (int step = 0; !asobi_state_terminal(s); step++) {
                if (step % every == 0)
                    compare_fields(s, fields, nfields, count, &rng);
                uint32_t to_move = asobi_state_to_move(s);
                int seat = __builtin_ctz(to_move);
                int n = asobi_state_legal(s, seat, legal);
                asobi_state_apply_unchecked(s, seat, legal[asobi_rng_below(&rng, (uint32_t)n)]);
            }
            asobi_state_free(s);
        }
    free(legal);
    bool ok = true;
    for (int f = 0; f < nfields; f++) {
        long share = count[f].held ? 100 * count[f].changed / count[f].held : 0;
        print_message("%s: %s: held something %ld times, resampled %ld (%ld%%, at least %d%% wanted)\n", game,
                      fields[f].name, count[f].held, count[f].changed, share, fields[f].min_percent);
        if (count[f].held == 0 || share < fields[f].min_percent) {
            print_error("%s: %s is %s by determinize\n", game, fields[f].name,
                        count[f].changed ? "too seldom resampled" : "never resampled");
            ok = false;
        }
    }
    if (!ok)
        fail_msg("%s: a field no seat may see is kept by determinize: every check comparing determinizations "
                 "is blind to it", game);
}

#define FIELDS(list) list, (int)(sizeof list / sizeof list[0])

static void test_psycle_hidden_fields_are_resampled(void **unused)
{
    (void)unused;
    check_fields("psycle", FIELDS(psycle_fields), test_reps(20), 1);
}

static void test_ninja_hidden_fields_are_resampled(void **unused)
{
    (void)unused;
    check_fields("ninja", FIELDS(ninja_fields), test_reps(10), 2);
}

static void test_octal_hidden_fields_are_resampled(void **unused)
{
    (void)unused;
    check_fields("octal", FIELDS(octal_fields), test_reps(20), 2);
}

static void test_timemasters_hidden_fields_are_resampled(void **unused)
{
    (void)unused;
    check_fields("timemasters", FIELDS(tm_fields), test_reps(10), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_psycle_hidden_fields_are_resampled),
        cmocka_unit_test(test_ninja_hidden_fields_are_resampled),
        cmocka_unit_test(test_octal_hidden_fields_are_resampled),
        cmocka_unit_test(test_timemasters_hidden_fields_are_resampled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

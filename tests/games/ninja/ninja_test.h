/* ninja_test.h — helpers shared by NINJA SCROLL TRICK's tests: rigged deals, card names, view lookups. */
#ifndef ASOBI_NINJA_TEST_H
#define ASOBI_NINJA_TEST_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"
#include "game_def.h"
#include "games/ninja/ninja.h"

static inline ninja_state *ns(asobi_state *s) { return asobi_state_data_mut(s); }

/* "fire-5" -> its id; fails the test on a bad name. */
static inline int card_id(const char *text)
{
    for (int c = 0; c < NINJA_CARDS; c++) {
        char t[16];
        ninja_card_text(c, t, sizeof t);
        if (strcmp(t, text) == 0)
            return c;
    }
    fail_msg("no card %s", text);
    return -1;
}

/* A mask of cards from a space-separated list. */
static inline uint64_t cards_of(const char *list)
{
    uint64_t m = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *w = strtok(buf, " "); w; w = strtok(NULL, " "))
        m |= 1ull << card_id(w);
    return m;
}

/* Rig the deal of the current round: seat p gets hands[p] (7 cards each), the
 * shadow's row (2 players) the cards of row in order, everything else goes to
 * the leftovers. Must be called in the trump phase. */
static inline void rig_deal(asobi_state *st, const char *const *hands, const char *row)
{
    ninja_state *s = ns(st);
    assert_int_equal(s->phase, NINJA_PHASE_TRUMP);
    uint64_t used = 0;
    for (int p = 0; p < s->players; p++) {
        s->hand[p] = cards_of(hands[p]);
        assert_int_equal(__builtin_popcountll(s->hand[p]), NINJA_HAND);
        assert_true((used & s->hand[p]) == 0);
        used |= s->hand[p];
    }
    if (row) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", row);
        int i = 0;
        for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
            s->row[i++] = (uint8_t)card_id(w);
            assert_true((used & (1ull << s->row[i - 1])) == 0);
            used |= 1ull << s->row[i - 1];
        }
        assert_int_equal(i, NINJA_ROW);
    }
    s->leftover = ((1ull << NINJA_CARDS) - 1) & ~used;
}

/* The JSON view's entry of a place (seat or shadow). */
static inline json_t *view_player(json_t *view, int pos)
{
    return json_array_get(json_object_get(view, "players"), (size_t)pos);
}

/* Apply a list of texts "seat:action" separated by ';'. */
static inline void apply_all(asobi_state *st, const char *script)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", script);
    char *save = NULL;
    for (char *step = strtok_r(buf, ";", &save); step; step = strtok_r(NULL, ";", &save)) {
        while (*step == ' ')
            step++;
        int seat = atoi(step);
        char *colon = strchr(step, ':');
        assert_non_null(colon);
        apply_text(st, seat, colon + 1);
    }
}

/* Choose the trump and open, in turn from the start player, the cards of
 * opens[seat] (3 each, in that order); each seat then lays its tiles, highest
 * first, on its open cards in the order it opened them. */
static inline void prepare(asobi_state *st, const char *trump, const char *const *opens)
{
    ninja_state *s = ns(st);
    char text[64], order[NINJA_MAX_PLAYERS][3][16];
    for (int p = 0; p < s->players; p++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", opens[p]);
        int i = 0;
        for (char *w = strtok(buf, " "); w; w = strtok(NULL, " "))
            snprintf(order[p][i++], 16, "%s", w);
        assert_int_equal(i, 3);
    }
    snprintf(text, sizeof text, "trump %s", trump);
    apply_text(st, s->start, text);
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < s->players; j++) {
            int p = (s->start + j) % s->players;
            snprintf(text, sizeof text, "open %s", order[p][k]);
            apply_text(st, p, text);
        }
    assert_int_equal(s->phase, NINJA_PHASE_SCROLL);
    for (int j = 0; j < s->players; j++) {
        int p = (s->start + j) % s->players;
        for (int k = 0; k < 3; k++) {
            snprintf(text, sizeof text, "scroll %+d on %s", s->held[p][0], order[p][k]);
            apply_text(st, p, text);
        }
    }
}

#endif

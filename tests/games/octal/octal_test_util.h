/* octal_test_util.h — building THE OCTAL positions by hand for the rule tests (cards named by their text). */
#ifndef OCTAL_TEST_UTIL_H
#define OCTAL_TEST_UTIL_H

#include <string.h>

#include "conformance.h"
#include "game_def.h"
#include "games/octal/octal.h"

/* The card whose text (or ASCII alias) is name; the first ALL for "ALL",
 * the second for "ALL2". */
static inline int card_named(const char *name)
{
    if (strcmp(name, "ALL2") == 0)
        return OCTAL_ALL + 1;
    char text[16];
    for (int c = 0; c <= OCTAL_ALL; c++) {
        octal_card_text(c, text, sizeof text);
        if (strcmp(text, name) == 0)
            return c;
        octal_card_ascii(c, text, sizeof text);
        if (strcmp(text, name) == 0)
            return c;
    }
    fail_msg("no card named %s", name);
    return -1;
}

/* Space-separated card names into indices; returns the count. */
static inline int cards_named(const char *names, int *out)
{
    char buf[256];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", names ? names : "");
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
        out[n++] = card_named(t);
    return n;
}

/* A position, described by what matters; every other card goes to the deck
 * (below deck_top, which lists the top cards, the very top last), so that
 * all 34 cards stay accounted for. stack[q] lists a question from the bottom;
 * its top points at the card of index cond_from[q]. */
typedef struct octal_position {
    const char *hand[OCTAL_MAX_PLAYERS];
    const char *discarded[OCTAL_MAX_PLAYERS];
    const char *stack[OCTAL_MAX_QUESTIONS];
    int cond_from[OCTAL_MAX_QUESTIONS];
    bool top_exact[OCTAL_MAX_QUESTIONS]; /* the top lies exactly on the card beneath (a lay, an override, on an ALL) */
    const char *deck_top;
    int deck_size; /* 0: every card left over; otherwise the rest is discarded by seat 0 */
    int seat;
} octal_position;

static inline void arrange(asobi_state *state, const octal_position *p)
{
    octal_state *s = asobi_state_data_mut(state);
    uint64_t used = 0;
    int cards[OCTAL_CARDS];
    memset(s->hand, 0, sizeof s->hand);
    memset(s->discarded, 0, sizeof s->discarded);
    memset(s->deck, 0, sizeof s->deck);
    memset(s->stack, 0, sizeof s->stack);
    for (int i = 0; i < s->players; i++) {
        int n = cards_named(p->hand[i], cards);
        for (int j = 0; j < n; j++)
            s->hand[i] |= 1ull << cards[j];
        n = cards_named(p->discarded[i], cards);
        for (int j = 0; j < n; j++)
            s->discarded[i] |= 1ull << cards[j];
        used |= s->hand[i] | s->discarded[i];
    }
    for (int q = 0; q < s->questions; q++) {
        int n = cards_named(p->stack[q], cards);
        assert_true(n >= 2);
        for (int j = 0; j < n; j++) {
            s->stack[q].e[j].card = (uint8_t)cards[j];
            used |= 1ull << cards[j];
        }
        s->stack[q].size = (uint8_t)n;
        s->stack[q].e[n - 1].cond_from = (uint8_t)p->cond_from[q];
        s->stack[q].e[n - 1].exact = p->top_exact[q];
    }
    int top[OCTAL_CARDS];
    int ntop = cards_named(p->deck_top, top);
    for (int j = 0; j < ntop; j++)
        used |= 1ull << top[j];
    int rest[OCTAL_CARDS], nrest = 0;
    for (int c = 0; c < OCTAL_CARDS; c++)
        if (!(used >> c & 1u))
            rest[nrest++] = c;
    int below = p->deck_size ? p->deck_size - ntop : nrest;
    assert_true(below >= 0 && below <= nrest);
    s->deck_size = 0;
    for (int j = 0; j < below; j++)
        s->deck[s->deck_size++] = (uint8_t)rest[j];
    for (int j = below; j < nrest; j++)
        s->discarded[0] |= 1ull << rest[j];
    for (int j = 0; j < ntop; j++)
        s->deck[s->deck_size++] = (uint8_t)top[j];
    s->seat = (uint8_t)p->seat;
    s->phase = OCTAL_PHASE_PLAY;
    s->passes_in_a_row = 0;
    s->last_placer = -1;
    s->octo_late = -1;
    octal_refresh_questions(s); /* the stacks were written by hand */
}

/* The cards of set (from the deck or the discards) go into question q, in
 * use: just beneath its top, above the card whose condition is in force. */
static inline void bury_in_use(asobi_state *state, int q, uint64_t set)
{
    octal_state *s = asobi_state_data_mut(state);
    octal_stack *st = &s->stack[q];
    octal_entry top = st->e[st->size - 1];
    st->size--;
    for (int c = 0; c < OCTAL_CARDS; c++)
        if (set >> c & 1u) {
            memset(&st->e[st->size], 0, sizeof st->e[st->size]);
            st->e[st->size++].card = (uint8_t)c;
        }
    st->e[st->size++] = top;
    int kept = 0;
    for (int i = 0; i < s->deck_size; i++)
        if (!(set >> s->deck[i] & 1u))
            s->deck[kept++] = s->deck[i];
    memset(s->deck + kept, 0, (size_t)(OCTAL_CARDS - kept));
    s->deck_size = (uint8_t)kept;
    for (int i = 0; i < s->players; i++)
        s->discarded[i] &= ~set;
    octal_refresh_questions(s); /* the card beneath the top changed */
}

/* Every card of the deck into question q, in use: the deck is empty and a
 * refill finds nothing to take (every card in a hand or in use). */
static inline void bury_deck_in_use(asobi_state *state, int q)
{
    const octal_state *s = asobi_state_data_for_ai(state);
    uint64_t set = 0;
    for (int i = 0; i < s->deck_size; i++)
        set |= 1ull << s->deck[i];
    bury_in_use(state, q, set);
}

static inline const octal_state *data(const asobi_state *state) { return asobi_state_data_for_ai(state); }

/* The question q of a state as text: "大4", or "大any" under an ALL. */
static inline void question_is(const asobi_state *state, int q, const char *want)
{
    int condition, reference;
    octal_question(data(state), q, &condition, &reference);
    char got[16];
    if (reference)
        snprintf(got, sizeof got, "%s%d", octal_condition_letter[condition], reference);
    else
        snprintf(got, sizeof got, "%sany", octal_condition_letter[condition]);
    if (strcmp(got, want) != 0)
        fail_msg("question %d is %s, not %s", q + 1, got, want);
}

static inline bool holds(const asobi_state *state, int seat, const char *name)
{
    return data(state)->hand[seat] >> card_named(name) & 1u;
}

static inline int hand_size(const asobi_state *state, int seat) { return octal_hand_size(data(state), seat); }

/* Refused, with a message containing want, and nothing changed. */
static inline void refused_because(asobi_state *state, int seat, const char *text, const char *want)
{
    asobi_state *before = asobi_state_clone(state);
    asobi_error err;
    int id = -1;
    int rc = asobi_state_parse_action(state, seat, text, &id, &err);
    if (rc == ASOBI_OK)
        rc = asobi_state_apply(state, seat, id, &err);
    if (rc == ASOBI_OK)
        fail_msg("\"%s\" was accepted", text);
    if (want && !strstr(err.message, want))
        fail_msg("\"%s\" refused with \"%s\", expected \"%s\"", text, err.message, want);
    assert_true(asobi_state_equal(before, state));
    asobi_state_free(before);
}

#endif

/* tm_sim.h — shared helpers for the Time Masters tests: bot games and direct state access. */
#ifndef TM_SIM_H
#define TM_SIM_H

#include "conformance.h"
#include "game_def.h"
#include "games/timemasters/timemasters.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static inline tm_state *tm_of(asobi_state *s) { return asobi_state_data_mut(s); }

/* The kind of a card by name (fails the test if unknown). */
static inline int tm_kind(const tm_state *t, const char *name)
{
    for (int k = 0; k < t->table.kinds; k++)
        if (strcmp(t->table.card[k].name, name) == 0)
            return k;
    fail_msg("no card named %s", name);
    return -1;
}

/* Replace a zone's cards by the named ones (NULL-terminated list). */
static inline void tm_fill(tm_state *t, uint8_t *zone, uint8_t *n, ...)
{
    va_list ap;
    va_start(ap, n);
    *n = 0;
    for (const char *name; (name = va_arg(ap, const char *)) != NULL;)
        zone[(*n)++] = (uint8_t)tm_kind(t, name);
    va_end(ap);
}
#define TM_HAND(t, seat, ...) tm_fill((t), (t)->p[seat].hand, &(t)->p[seat].n_hand, __VA_ARGS__, (const char *)NULL)
#define TM_DECK(t, seat, ...) tm_fill((t), (t)->p[seat].deck, &(t)->p[seat].n_deck, __VA_ARGS__, (const char *)NULL)
#define TM_DISCARD(t, seat, ...) tm_fill((t), (t)->p[seat].discard, &(t)->p[seat].n_discard, __VA_ARGS__, (const char *)NULL)

static inline int tm_count(const tm_state *t, const uint8_t *zone, int n, const char *name)
{
    return tm_kind_count(zone, n, tm_kind(t, name));
}

/* Is the text a legal action of the seat to move? */
static inline bool tm_text_legal(asobi_state *s, const char *text)
{
    int id;
    int seat = __builtin_ctz(asobi_state_to_move(s));
    if (asobi_state_parse_action(s, seat, text, &id, NULL) != ASOBI_OK)
        return false;
    return asobi_state_is_legal(s, seat, id);
}

/* Play one game to the end; bots[i] is 'r' (uniform random) or 'h' (heuristic).
 * Returns the number of turns played. */
static inline int tm_play_bots(asobi_state *s, const char *bots, asobi_rng *rng)
{
    const asobi_game_def *def = asobi_state_game(s);
    int ids[TM_ACTIONS];
    int guard = 0;
    while (!asobi_state_terminal(s)) {
        int seat = __builtin_ctz(asobi_state_to_move(s));
        int id;
        if (bots[seat] == 'h') {
            asobi_state *d = asobi_state_clone(s);
            asobi_state_determinize(d, seat, rng);
            id = def->heuristic(asobi_state_data_for_ai(d), seat, rng);
            asobi_state_free(d);
        } else {
            int n = asobi_state_legal(s, seat, ids);
            id = ids[asobi_rng_below(rng, (uint32_t)n)];
        }
        assert_true(asobi_state_is_legal(s, seat, id));
        asobi_state_apply_unchecked(s, seat, id);
        assert_true(++guard < 200000);
    }
    return tm_of(s)->turn;
}

#endif

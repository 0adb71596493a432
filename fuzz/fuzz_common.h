/* fuzz_common.h — what the fuzz targets share: the libFuzzer entry point, a check that aborts, random play. */
#ifndef ASOBI_FUZZ_COMMON_H
#define ASOBI_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "asobi/asobi.h"

/* Each target defines this; libFuzzer calls it, and so does replay_main.c
 * (the plain driver CTest runs over the corpus in every build). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A property that must hold: on failure, say which and abort, so that both
 * libFuzzer and the corpus replay report the input as a crash. */
#define FUZZ_CHECK(cond)                                                                                \
    do {                                                                                                \
        if (!(cond)) {                                                                                  \
            fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #cond);                  \
            abort();                                                                                    \
        }                                                                                               \
    } while (0)

/* The seat that moves first among those to move, or -1 when nobody does. */
static inline int fuzz_first_to_move(const asobi_state *s)
{
    unsigned m = asobi_state_to_move(s);
    return m ? __builtin_ctz(m) : -1;
}

/* Play up to steps random legal actions on match (ids buffer of the game's
 * max_actions); stops at the end of the game. */
static inline void fuzz_random_play(asobi_match *m, int steps, asobi_rng *rng, int *ids)
{
    for (int i = 0; i < steps; i++) {
        const asobi_state *s = asobi_match_state(m);
        int seat = fuzz_first_to_move(s);
        if (seat < 0 || asobi_state_terminal(s))
            return;
        int n = asobi_state_legal(s, seat, ids);
        FUZZ_CHECK(n > 0);
        asobi_error err;
        FUZZ_CHECK(asobi_match_act(m, seat, ids[asobi_rng_below(rng, (uint32_t)n)], &err) == ASOBI_OK);
    }
}

/* A record loads, and written back loads to the same state and the same record. */
static inline void fuzz_check_record_roundtrip(const asobi_match *m)
{
    json_t *rec = asobi_match_record(m);
    FUZZ_CHECK(rec);
    char *text = json_dumps(rec, JSON_COMPACT);
    FUZZ_CHECK(text);
    json_t *back = json_loads(text, 0, NULL);
    FUZZ_CHECK(back);
    asobi_error err;
    asobi_match *again = asobi_match_load(back, &err);
    if (!again)
        fprintf(stderr, "a written record does not load: %s\n", err.message);
    FUZZ_CHECK(again);
    FUZZ_CHECK(asobi_state_equal(asobi_match_state(m), asobi_match_state(again)));
    json_t *rec2 = asobi_match_record(again);
    FUZZ_CHECK(json_equal(rec, rec2));
    json_decref(rec2);
    asobi_match_free(again);
    json_decref(back);
    free(text);
    json_decref(rec);
}

#endif

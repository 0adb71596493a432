/* fuzz_record.c — fuzz target: records of every game loaded, replayed and written back (the written record loads the same). */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "fuzz_common.h"

/* A record that loads is written back; that record loads to the identical
 * state and writes the identical record (fuzz_check_record_roundtrip).
 * Reading the text one action at a time (asobi_match_read) gives the same
 * match as loading its JSON tree, and refuses what loading refuses.
 * Replaying every prefix would be quadratic: one prefix, chosen by the
 * record's own length, is checked against a step-by-step replay. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    asobi_error err, rerr;
    asobi_match *r = asobi_match_read((const char *)data, size, &rerr);
    FUZZ_CHECK(r || (rerr.code != ASOBI_OK && rerr.message[0]));
    json_t *record = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
    if (!record) {
        asobi_match_free(r);
        return 0;
    }
    asobi_match *m = asobi_match_load(record, &err);
    /* jansson reads a NUL byte between two tokens as nothing at all (its
     * reader takes NUL for "buffer empty"), so "6\0," is a number and a
     * comma to it; asobi_match_read refuses such text, which is no JSON.
     * Elsewhere the two must agree. */
    if (!memchr(data, 0, size))
        FUZZ_CHECK((m == NULL) == (r == NULL));
    if (m && r)
        FUZZ_CHECK(asobi_state_equal(asobi_match_state(m), asobi_match_state(r)) &&
                   asobi_match_length(m) == asobi_match_length(r));
    asobi_match_free(r);
    if (m) {
        fuzz_check_record_roundtrip(m);
        int n = asobi_match_length(m), half = n / 2;
        asobi_match *p = asobi_match_load_prefix(record, half, &err);
        FUZZ_CHECK(p && asobi_match_length(p) == half);
        for (int i = half; i < n; i++)
            FUZZ_CHECK(asobi_match_act_text(p, asobi_match_action_seat(m, i), asobi_match_action_text(m, i),
                                            &err) == ASOBI_OK);
        FUZZ_CHECK(asobi_state_equal(asobi_match_state(m), asobi_match_state(p)));
        asobi_match_free(p);
        asobi_match_free(m);
    } else {
        FUZZ_CHECK(err.code != ASOBI_OK && err.message[0]);
    }
    json_decref(record);
    return 0;
}

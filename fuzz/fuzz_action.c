/* fuzz_action.c — fuzz target: action texts for every game, on states reached by random play (parse, then apply if legal). */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "fuzz_common.h"

/* Input: byte 0 picks the game, byte 1 the players, byte 2 the number of
 * random actions before (0-255), bytes 3-4 the seed; the rest, cut at each
 * newline, are action texts tried in turn for the seat to move (or a seat
 * picked by the text's length when nobody may move). Properties: a text
 * parses to a legal id or is refused with a message, and a refused parse or
 * apply leaves the state byte-identical; the record of what was applied
 * loads back. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 5 || size > 4096)
        return 0;
    const asobi_game_def *game = asobi_game_at(data[0] % asobi_game_count());
    int span = asobi_game_max_players(game) - asobi_game_min_players(game) + 1;
    int players = asobi_game_min_players(game) + data[1] % span;
    asobi_error err;
    asobi_match *m = asobi_match_new(asobi_game_name(game), players, NULL, (uint64_t)data[3] << 8 | data[4], &err);
    FUZZ_CHECK(m);
    int *ids = malloc((size_t)asobi_game_max_actions(game) * sizeof *ids);
    asobi_rng rng;
    asobi_rng_seed(&rng, data[3]);
    fuzz_random_play(m, data[2], &rng, ids);
    asobi_state *before = asobi_state_clone(asobi_match_state(m));
    const char *p = (const char *)data + 5, *end = (const char *)data + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char *text = strndup(p, len);
        const asobi_state *s = asobi_match_state(m);
        int seat = fuzz_first_to_move(s);
        if (seat < 0)
            seat = (int)(len % (size_t)players);
        asobi_state_copy(before, s);
        int id = -1;
        int rc = asobi_state_parse_action(s, seat, text, &id, &err);
        FUZZ_CHECK(asobi_state_equal(before, s));
        if (rc != ASOBI_OK) {
            FUZZ_CHECK(err.message[0]);
        } else {
            FUZZ_CHECK(id >= 0 && id < asobi_game_max_actions(game));
            rc = asobi_match_act(m, seat, id, &err);
            if (rc != ASOBI_OK)
                FUZZ_CHECK(asobi_state_equal(before, asobi_match_state(m)));
        }
        free(text);
        p += len + (nl != NULL);
    }
    fuzz_check_record_roundtrip(m);
    asobi_state_free(before);
    free(ids);
    asobi_match_free(m);
    return 0;
}

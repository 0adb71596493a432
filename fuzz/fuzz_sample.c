/* fuzz_sample.c — fuzz target: samples (external bots' whole-game states) loaded from garbage, and real samples changed by one byte. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "protocol/protocol.h"

#define FUZZ_SAMPLE_KEY "fuzz-sample-key-0123456789abcdef"

/* The input is loaded as a sample as it is (it never forms a valid MAC: it
 * must be refused with bad_sample), and through the engine protocol's
 * load, which must refuse it and keep its game. Then, led by its first
 * bytes (game, players, random steps, a position and a byte), a real
 * sample of a real state is written, one byte of it is changed, and it
 * must be refused unless that byte was not changed, when it loads to the
 * byte-identical state. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    asobi_error err;
    asobi_state *s = asobi_state_from_sample((const char *)data, size, FUZZ_SAMPLE_KEY, &err);
    FUZZ_CHECK(!s && err.code == ASOBI_E_BAD_SAMPLE && err.message[0]);

    protocol_session *session = protocol_session_new();
    protocol_session_set_sample_key(session, FUZZ_SAMPLE_KEY);
    json_t *req = json_pack("{s:s, s:s%}", "cmd", "load", "sample", (const char *)data, size);
    if (req) { /* jansson refuses text that is not UTF-8 */
        char *line = json_dumps(req, JSON_COMPACT);
        json_t *reply = protocol_handle_line(session, line, strlen(line));
        FUZZ_CHECK(!json_is_true(json_object_get(reply, "ok")));
        json_decref(reply);
        free(line);
        json_decref(req);
    }
    protocol_session_free(session);

    if (size < 6)
        return 0;
    const asobi_game_def *def = asobi_game_at(data[0] % asobi_game_count());
    int low = asobi_game_min_players(def), players = low + data[1] % (asobi_game_max_players(def) - low + 1);
    asobi_state *real = asobi_state_new(def, players, NULL, data[2], &err);
    FUZZ_CHECK(real);
    asobi_rng rng;
    asobi_rng_seed(&rng, data[3]);
    int *ids = malloc(sizeof(int) * (size_t)asobi_game_max_actions(def));
    for (int i = 0; i < data[4] && !asobi_state_terminal(real); i++) {
        int seat = fuzz_first_to_move(real);
        int n = asobi_state_legal(real, seat, ids);
        FUZZ_CHECK(n > 0);
        asobi_state_apply_unchecked(real, seat, ids[asobi_rng_below(&rng, (uint32_t)n)]);
    }
    free(ids);
    char *text = asobi_state_sample(real, FUZZ_SAMPLE_KEY);
    FUZZ_CHECK(text);
    size_t len = strlen(text), at = ((size_t)data[5] << 8 | (size > 6 ? data[6] : 0)) % len;
    char old = text[at];
    text[at] = (char)(size > 7 ? data[7] : 0);
    s = asobi_state_from_sample(text, len, FUZZ_SAMPLE_KEY, &err);
    if (text[at] == old)
        FUZZ_CHECK(s && asobi_state_equal(s, real));
    else
        FUZZ_CHECK(!s && err.code == ASOBI_E_BAD_SAMPLE);
    asobi_state_free(s);
    free(text);
    asobi_state_free(real);
    return 0;
}

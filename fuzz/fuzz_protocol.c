/* fuzz_protocol.c — fuzz target: sequences of request lines through protocol_handle_line, as `asobi engine` reads them. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "fuzz_common.h"
#include "protocol/protocol.h"

/* The properties, after every reply (docs/protocol.md):
 *  - the reply text is exactly one JSON object holding a boolean "ok";
 *  - a refusal ("ok": false) left the game as it was: its record and its
 *    all-seeing view are byte-identical before and after;
 *  - a take-back ("taken_back" in the reply) left a record that replays to
 *    the very state (docs/protocol.md, "Taking back").
 * The input is split at newlines like the engine's stdin. Bots are held to
 * tiny budgets so that one input stays fast (the limits themselves are
 * tested, not searched). */

static const asobi_bot_limits fuzz_limits = {.iters = 64, .seconds = 0.001, .nodes = 256, .worlds = 4,
                                             .depth = 64};

/* The record and the all-seeing view as text (NULL without a game). */
static char *snapshot(const protocol_session *session)
{
    const asobi_match *m = protocol_session_match(session);
    if (!m)
        return NULL;
    json_t *both = json_pack("{s:o, s:o}", "record", asobi_match_record(m), "view",
                             asobi_state_view(asobi_match_state(m), ASOBI_ALL_SEEING));
    FUZZ_CHECK(both);
    char *text = json_dumps(both, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(both);
    FUZZ_CHECK(text);
    return text;
}

/* The session's record replays to its state, byte for byte. */
static void check_record_replays(const protocol_session *session)
{
    const asobi_match *m = protocol_session_match(session);
    size_t len;
    char *text = asobi_match_record_text(m, &len);
    FUZZ_CHECK(text);
    asobi_match *again = asobi_match_read(text, len, NULL);
    FUZZ_CHECK(again && asobi_state_equal(asobi_match_state(again), asobi_match_state(m)));
    asobi_match_free(again);
    free(text);
}

static void check_reply(const json_t *reply, bool *ok)
{
    FUZZ_CHECK(reply);
    char *text = protocol_reply_text(reply);
    FUZZ_CHECK(text && !strchr(text, '\n'));
    json_error_t jerr;
    json_t *back = json_loads(text, 0, &jerr); /* exactly one value: trailing text is an error */
    FUZZ_CHECK(json_is_object(back));
    const json_t *okv = json_object_get(back, "ok");
    FUZZ_CHECK(json_is_boolean(okv));
    *ok = json_is_true(okv);
    if (!*ok) {
        const json_t *error = json_object_get(back, "error");
        FUZZ_CHECK(json_is_string(json_object_get(error, "code")));
        FUZZ_CHECK(json_is_string(json_object_get(error, "message")));
    }
    json_decref(back);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    protocol_session *session = protocol_session_new();
    protocol_session_set_bot_limits(session, &fuzz_limits);
    const char *p = (const char *)data, *end = p + size;
    for (int lines = 0; p < end && lines < 64 && !protocol_session_quit(session); lines++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char *before = snapshot(session);
        json_t *reply = protocol_handle_line(session, p, len);
        bool ok;
        check_reply(reply, &ok);
        if (!ok) {
            char *after = snapshot(session);
            FUZZ_CHECK((before == NULL) == (after == NULL));
            FUZZ_CHECK(!before || strcmp(before, after) == 0);
            free(after);
        } else if (json_object_get(reply, "taken_back")) {
            check_record_replays(session);
        }
        free(before);
        json_decref(reply);
        p += len + (nl != NULL);
    }
    protocol_session_free(session);
    return 0;
}

/* fuzz_cards.c — fuzz target: Time Masters card sets, refused naming the field or played and replayed. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "fuzz_common.h"

/* Input: a card set's JSON content (what `--opt cards=FILE` reads).
 * Properties (issue 13): a set is refused with bad_option and a message
 * "cards: ..." that quotes the field at fault, or it yields a playable game:
 * not over at set-up, every legal action's text parses back to that action
 * (names can be typed), and a game played at random writes a record that
 * loads to the same state. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 16))
        return 0;
    json_t *set = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
    if (!set)
        return 0;
    json_t *options = json_pack("{s:O}", "cards", set);
    asobi_error err;
    asobi_match *m = asobi_match_new("timemasters", 2, options, size, &err);
    if (!m) {
        FUZZ_CHECK(err.code == ASOBI_E_BAD_OPTION);
        /* the message names what is wrong: a quoted field, or the set itself */
        FUZZ_CHECK(strncmp(err.message, "cards: ", 7) == 0);
        FUZZ_CHECK(strchr(err.message, '"') != NULL);
    } else if (json_is_object(set)) {
        FUZZ_CHECK(!asobi_state_terminal(asobi_match_state(m)));
        const asobi_game_def *game = asobi_game_find("timemasters");
        int *ids = malloc((size_t)asobi_game_max_actions(game) * sizeof *ids);
        asobi_rng rng;
        asobi_rng_seed(&rng, size);
        for (int step = 0; step < 400 && !asobi_state_terminal(asobi_match_state(m)); step++) {
            const asobi_state *s = asobi_match_state(m);
            int seat = fuzz_first_to_move(s);
            int n = asobi_state_legal(s, seat, ids);
            FUZZ_CHECK(n > 0);
            char text[256];
            for (int i = 0; i < n; i++) {
                int back = -1;
                asobi_state_action_text(s, seat, ids[i], text, sizeof text);
                FUZZ_CHECK(asobi_state_parse_action(s, seat, text, &back, &err) == ASOBI_OK && back == ids[i]);
            }
            FUZZ_CHECK(asobi_match_act(m, seat, ids[asobi_rng_below(&rng, (uint32_t)n)], &err) == ASOBI_OK);
        }
        fuzz_check_record_roundtrip(m);
        free(ids);
    }
    asobi_match_free(m);
    json_decref(options);
    json_decref(set);
    return 0;
}

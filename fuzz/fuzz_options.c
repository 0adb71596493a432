/* fuzz_options.c — fuzz target: game options (JSON objects) against each game's option table. */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_common.h"

/* Input: byte 0 picks the game and byte 1 the players; the rest is the
 * options JSON. Properties: options are accepted or refused with
 * bad_option and a message; accepted options make a game (or bad_option,
 * or bad_players for options that do not suit the player count),
 * and the options it keeps are accepted again unchanged (a record's options
 * always load back). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > (1u << 16))
        return 0;
    const asobi_game_def *game = asobi_game_at(data[0] % asobi_game_count());
    int span = asobi_game_max_players(game) - asobi_game_min_players(game) + 1;
    int players = asobi_game_min_players(game) + data[1] % span;
    json_t *options = json_loadb((const char *)data + 2, size - 2, JSON_REJECT_DUPLICATES, NULL);
    if (!options)
        return 0;
    asobi_error err;
    json_t *full = asobi_game_options(game, options, &err);
    if (!full) {
        FUZZ_CHECK(err.code == ASOBI_E_BAD_OPTION && err.message[0]);
    } else {
        json_t *again = asobi_game_options(game, full, &err);
        FUZZ_CHECK(again && json_equal(full, again));
        json_decref(again);
        asobi_match *m = asobi_match_new(asobi_game_name(game), players, options, 1, &err);
        if (m) {
            FUZZ_CHECK(json_equal(asobi_match_options(m), full));
            fuzz_check_record_roundtrip(m);
            asobi_match_free(m);
        } else {
            /* options good in themselves may not suit this player count
             * (THE OCTAL's mode twin with 6 players: bad_players, ruling 2
             * of docs/rules/octal.md) */
            FUZZ_CHECK((err.code == ASOBI_E_BAD_OPTION || err.code == ASOBI_E_BAD_PLAYERS) && err.message[0]);
        }
        json_decref(full);
    }
    json_decref(options);
    return 0;
}

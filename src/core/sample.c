/* sample.c — samples: a whole game state as signed text, for external bots that search (docs/protocol.md, "Samples"). */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asobi/asobi.h"
#include "game_def.h"

/* Why signed bytes
 * ----------------
 * A sample is a state's flat block (no pointer inside it: game_def.h), so
 * it loads with one memcpy and everything works on it at once: view,
 * legal, apply, clone, playouts. But bytes that did not come from the
 * library could hold any count or index, and the games trust their own
 * states: a changed or made-up block must never become a state. So each
 * sample carries an HMAC-SHA256 over what it is (the format, the build, the
 * game, the players, the bytes), keyed by a secret of the process that
 * wrote it (`asobi arena` makes one per run and hands it to its external
 * bots in ASOBI_SAMPLE_KEY). A sample whose MAC does not match, for any
 * reason, is refused as bad_sample before a byte of it is used.
 *
 * The build identity makes a sample of another build (where the same game
 * may lay out its state otherwise) fail the MAC too: the library's version,
 * when this file was compiled, and the sizes the layout depends on, which
 * are computed (a game's state size changes with its code), never written
 * down here.
 *
 * Text: S1.GAME.PLAYERS.BASE64(bytes).HEX(mac) */

#define SAMPLE_TAG "S1"
#define SAMPLE_MAC_LEN 32
#define SAMPLE_KEY_MIN 16

/* The MAC of the block bytes of game def with players, under key; false
 * if it could not be computed (then nothing is written or loaded). */
static bool sample_mac(const asobi_game_def *def, int players, const unsigned char *bytes, const char *key,
                       unsigned char mac[SAMPLE_MAC_LEN])
{
    char head[256];
    int n = snprintf(head, sizeof head, "asobi-sample " SAMPLE_TAG "|%s %s %s|%s|%d|%zu|%d|", ASOBI_VERSION,
                     __DATE__, __TIME__, def->name, players, def->state_size, def->max_actions);
    if (n < 0 || (size_t)n >= sizeof head)
        return false;
    unsigned char *msg = malloc((size_t)n + def->state_size);
    if (!msg)
        return false;
    memcpy(msg, head, (size_t)n);
    memcpy(msg + n, bytes, def->state_size);
    unsigned int len = 0;
    bool ok = HMAC(EVP_sha256(), key, (int)strlen(key), msg, (size_t)n + def->state_size, mac, &len) != NULL &&
              len == SAMPLE_MAC_LEN;
    free(msg);
    return ok;
}

static bool key_ok(const char *key) { return key && strlen(key) >= SAMPLE_KEY_MIN; }

/* The text of a sample: S1.GAME.PLAYERS.BASE64(bytes).HEX(mac) (malloc'd). */
static char *sample_text(const asobi_game_def *def, int players, const unsigned char *bytes,
                         const unsigned char mac[SAMPLE_MAC_LEN])
{
    size_t b64 = 4 * ((def->state_size + 2) / 3);
    size_t cap = strlen(SAMPLE_TAG) + strlen(def->name) + 16 + b64 + 2 * SAMPLE_MAC_LEN + 4;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    int n = snprintf(text, cap, SAMPLE_TAG ".%s.%d.", def->name, players);
    n += EVP_EncodeBlock((unsigned char *)text + n, bytes, (int)def->state_size);
    text[n++] = '.';
    for (int i = 0; i < SAMPLE_MAC_LEN; i++)
        n += snprintf(text + n, cap - (size_t)n, "%02x", mac[i]);
    return text;
}

char *asobi_state_sample(const asobi_state *state, const char *key)
{
    const asobi_game_def *def = asobi_state_game(state);
    const unsigned char *bytes = asobi_state_data_for_ai(state);
    unsigned char mac[SAMPLE_MAC_LEN];
    if (!key_ok(key) || !sample_mac(def, asobi_state_players(state), bytes, key, mac))
        return NULL;
    return sample_text(def, asobi_state_players(state), bytes, mac);
}

/* Split [text, text+len) at its first four dots into five fields; false
 * if there are fewer. */
static bool split_fields(const char *text, size_t len, const char *f[5], size_t n[5])
{
    const char *p = text, *end = text + len;
    for (int i = 0; i < 4; i++) {
        const char *dot = memchr(p, '.', (size_t)(end - p));
        if (!dot)
            return false;
        f[i] = p;
        n[i] = (size_t)(dot - p);
        p = dot + 1;
    }
    f[4] = p;
    n[4] = (size_t)(end - p);
    return true;
}

static int bad(asobi_error *err, const char *what)
{
    return asobi_fail(err, ASOBI_E_BAD_SAMPLE, "not a sample of this run: %s", what);
}

asobi_state *asobi_state_from_sample(const char *text, size_t len, const char *key, asobi_error *err)
{
    if (!key_ok(key)) {
        asobi_fail(err, ASOBI_E_BAD_SAMPLE, "no sample key: samples load only where ASOBI_SAMPLE_KEY is the key of "
                                            "the arena that wrote them");
        return NULL;
    }
    const char *f[5];
    size_t n[5];
    char name[32];
    if (!split_fields(text, len, f, n) || n[0] != strlen(SAMPLE_TAG) || memcmp(f[0], SAMPLE_TAG, n[0]) != 0 ||
        n[1] == 0 || n[1] >= sizeof name || n[2] == 0 || n[2] > 1 || n[4] != 2 * SAMPLE_MAC_LEN) {
        bad(err, "a sample is S1.GAME.PLAYERS.DATA.MAC");
        return NULL;
    }
    memcpy(name, f[1], n[1]);
    name[n[1]] = '\0';
    const asobi_game_def *def = asobi_game_find(name);
    int players = f[2][0] - '0';
    if (!def || strlen(name) != n[1] || players < def->min_players || players > def->max_players) {
        bad(err, "its game or player count does not exist");
        return NULL;
    }
    /* the data: exactly the game's state, in base64 */
    if (n[3] != 4 * ((def->state_size + 2) / 3)) {
        bad(err, "its data is not the size of this game's state");
        return NULL;
    }
    /* The text must be exactly the one the writer makes of these bytes
     * with the right MAC: then no other spelling of the same bytes (another
     * base64 padding, upper-case hex, a NUL in the name) passes, and a
     * change to any character is a refusal. */
    unsigned char mac[SAMPLE_MAC_LEN];
    unsigned char *bytes = malloc(n[3] + 3); /* EVP_DecodeBlock writes whole groups of 3 */
    int decoded = bytes ? EVP_DecodeBlock(bytes, (const unsigned char *)f[3], (int)n[3]) : -1;
    char *canonical = decoded >= (int)def->state_size && sample_mac(def, players, bytes, key, mac)
                          ? sample_text(def, players, bytes, mac)
                          : NULL;
    bool ok = canonical && strlen(canonical) == len && CRYPTO_memcmp(canonical, text, len) == 0;
    free(canonical);
    if (!ok) {
        free(bytes);
        bad(err, "it was changed, made up, or written by another run or build");
        return NULL;
    }
    /* Only now, the MAC checked, are the bytes a state. */
    asobi_state *s = asobi_state_new(def, players, NULL, 0, err);
    if (s)
        memcpy(asobi_state_data_mut(s), bytes, def->state_size);
    free(bytes);
    return s;
}

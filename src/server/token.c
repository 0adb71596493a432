/* token.c — seat and session tokens from getrandom(2), hashed with OpenSSL's SHA-256 (libcrypto). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "server/token.h"

static void to_hex(const unsigned char *bytes, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    out[2 * n] = '\0';
}

bool token_random_bytes(unsigned char *out, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom(out + got, n - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        got += (size_t)r;
    }
    return true;
}

/* chars hex digits of fresh random bits into out (chars / 2 <= 32 bytes) */
static bool random_hex(char *out, size_t chars)
{
    unsigned char bits[32];
    if (!token_random_bytes(bits, chars / 2))
        return false;
    to_hex(bits, chars / 2, out);
    return true;
}

bool token_new(char out[TOKEN_CHARS + 1])
{
    return random_hex(out, TOKEN_CHARS);
}

bool token_new_session(char out[SESSION_TOKEN_CHARS + 1])
{
    return random_hex(out, SESSION_TOKEN_CHARS);
}

void token_hash(const char *token, char out[TOKEN_HASH_CHARS + 1])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!EVP_Digest(token, strlen(token), md, &len, EVP_sha256(), NULL) || len != TOKEN_HASH_CHARS / 2) {
        /* no hash means no match: a hash of all 'x' equals no hex digest */
        memset(out, 'x', TOKEN_HASH_CHARS);
        out[TOKEN_HASH_CHARS] = '\0';
        return;
    }
    to_hex(md, len, out);
}

bool token_matches(const char *token, const char *hash)
{
    if (!token || !hash || strlen(hash) != TOKEN_HASH_CHARS)
        return false;
    char mine[TOKEN_HASH_CHARS + 1];
    token_hash(token, mine);
    return CRYPTO_memcmp(mine, hash, TOKEN_HASH_CHARS) == 0;
}

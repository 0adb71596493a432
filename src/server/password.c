/* password.c — Argon2id password hashes with libargon2: hashing with a random salt, constant-time checks, reading a hash's parameters. */
#include <pthread.h>
#include <string.h>

#include <argon2.h>

#include "server/password.h"
#include "server/token.h"

bool password_length_ok(const char *password, size_t len)
{
    if (!password)
        return false;
    size_t chars = 0;
    for (size_t i = 0; i < len; i++)
        chars += ((unsigned char)password[i] & 0xc0) != 0x80; /* every byte but a continuation starts one */
    return chars >= PASSWORD_MIN_CHARS && chars <= PASSWORD_MAX_CHARS;
}

password_result password_hash(const char *password, size_t len, char encoded[PASSWORD_ENCODED_MAX])
{
    if (!password_length_ok(password, len))
        return PASSWORD_BAD_LENGTH;
    unsigned char salt[PASSWORD_SALT_BYTES];
    if (!token_random_bytes(salt, sizeof salt))
        return PASSWORD_FAILED;
    int rc = argon2id_hash_encoded(PASSWORD_PASSES, PASSWORD_MEMORY_KIB, PASSWORD_LANES, password, len, salt,
                                   sizeof salt, PASSWORD_HASH_BYTES, encoded, PASSWORD_ENCODED_MAX);
    return rc == ARGON2_OK ? PASSWORD_OK : PASSWORD_FAILED;
}

/* Read a decimal number of at most 10 digits (no sign, no leading zero)
 * that ends at stop; moves *p past stop. */
static bool parse_number(const char **p, char stop, uint32_t *out)
{
    const char *s = *p;
    uint64_t value = 0;
    size_t digits = 0;
    while (s[digits] >= '0' && s[digits] <= '9' && digits < 11)
        value = value * 10 + (uint64_t)(s[digits++] - '0');
    if (digits == 0 || digits > 10 || (digits > 1 && s[0] == '0') || value > UINT32_MAX || s[digits] != stop)
        return false;
    *out = (uint32_t)value;
    *p = s + digits + 1;
    return true;
}

/* The length in bytes of an unpadded standard base64 field ending at stop
 * (or at the string's end when stop is '\0'); moves *p past it. */
static bool parse_base64(const char **p, char stop, uint32_t *bytes)
{
    const char *s = *p;
    size_t n = 0;
    while ((s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') ||
           s[n] == '+' || s[n] == '/')
        n++;
    if (s[n] != stop || n % 4 == 1 || n > 1024)
        return false;
    *bytes = (uint32_t)(n / 4 * 3 + (n % 4 ? n % 4 - 1 : 0));
    *p = s + n + (stop ? 1 : 0);
    return true;
}

bool password_parse(const char *encoded, password_params *out)
{
    static const char prefix[] = "$argon2id$v=";
    password_params params;
    if (!encoded || strncmp(encoded, prefix, sizeof prefix - 1) != 0)
        return false;
    const char *p = encoded + sizeof prefix - 1;
    if (!parse_number(&p, '$', &params.version) || strncmp(p, "m=", 2) != 0)
        return false;
    p += 2;
    if (!parse_number(&p, ',', &params.memory_kib) || strncmp(p, "t=", 2) != 0)
        return false;
    p += 2;
    if (!parse_number(&p, ',', &params.passes) || strncmp(p, "p=", 2) != 0)
        return false;
    p += 2;
    if (!parse_number(&p, '$', &params.lanes) || !parse_base64(&p, '$', &params.salt_bytes) ||
        !parse_base64(&p, '\0', &params.hash_bytes))
        return false;
    /* what libargon2 accepts, and what a worker will spend */
    if (params.version != ARGON2_VERSION_13 || params.lanes < 1 || params.lanes > PASSWORD_LIMIT_LANES ||
        params.passes < 1 || params.passes > PASSWORD_LIMIT_PASSES || params.memory_kib < 8 * params.lanes ||
        params.memory_kib > PASSWORD_LIMIT_MEMORY_KIB || params.salt_bytes < ARGON2_MIN_SALT_LENGTH ||
        params.hash_bytes < ARGON2_MIN_OUTLEN)
        return false;
    if (out)
        *out = params;
    return true;
}

bool password_needs_rehash(const char *encoded)
{
    password_params params;
    if (!password_parse(encoded, &params))
        return true;
    return params.memory_kib < PASSWORD_MEMORY_KIB || params.passes < PASSWORD_PASSES ||
           params.salt_bytes < PASSWORD_SALT_BYTES || params.hash_bytes < PASSWORD_HASH_BYTES;
}

/* The hash that a sign-in without an account is checked against: today's
 * parameters, made once (the salt need not be secret: whatever matches it,
 * the answer is a mismatch). */
static char nobody_hash[PASSWORD_ENCODED_MAX];
static pthread_once_t nobody_once = PTHREAD_ONCE_INIT;

static void make_nobody_hash(void)
{
    static const char salt[] = "asobi: no account";
    if (argon2id_hash_encoded(PASSWORD_PASSES, PASSWORD_MEMORY_KIB, PASSWORD_LANES, "", 0, salt, sizeof salt - 1,
                              PASSWORD_HASH_BYTES, nobody_hash, sizeof nobody_hash) != ARGON2_OK)
        nobody_hash[0] = '\0';
}

password_result password_verify(const char *password, size_t len, const char *encoded)
{
    if (!password)
        return PASSWORD_MISMATCH;
    if (!encoded) {
        pthread_once(&nobody_once, make_nobody_hash);
        if (nobody_hash[0])
            (void)argon2id_verify(nobody_hash, password, len);
        return PASSWORD_MISMATCH;
    }
    if (!password_parse(encoded, NULL))
        return PASSWORD_MALFORMED;
    /* libargon2 hashes password with encoded's salt and parameters and
     * compares the two hashes in constant time (argon2_compare: an OR of
     * the XORs of every byte, whatever differs first). */
    int rc = argon2id_verify(encoded, password, len);
    if (rc == ARGON2_OK)
        return password_length_ok(password, len) ? PASSWORD_OK : PASSWORD_MISMATCH;
    if (rc == ARGON2_VERIFY_MISMATCH)
        return PASSWORD_MISMATCH;
    return rc == ARGON2_MEMORY_ALLOCATION_ERROR ? PASSWORD_FAILED : PASSWORD_MALFORMED;
}

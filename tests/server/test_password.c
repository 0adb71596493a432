/* test_password.c — account secrets (issue 42): Argon2id password hashes (password.h) and 256-bit session tokens (token.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <cmocka.h>

#include "server/password.h"
#include "server/token.h"

/* ---- what the server's code asks of the system ---------------------------------
 * ld's --wrap (tests/CMakeLists.txt) sends the server library's calls to
 * getrandom(2) and libargon2's argon2id_verify here: the first can be made
 * to fail, the second is counted with the string it was given. */
static bool no_randomness;
static int verifies;
static char verified_against[PASSWORD_ENCODED_MAX];

ssize_t __real_getrandom(void *buf, size_t n, unsigned flags);
ssize_t __wrap_getrandom(void *buf, size_t n, unsigned flags);
ssize_t __wrap_getrandom(void *buf, size_t n, unsigned flags)
{
    if (no_randomness) {
        errno = ENOSYS;
        return -1;
    }
    return __real_getrandom(buf, n, flags);
}

int __real_argon2id_verify(const char *encoded, const void *pwd, const size_t pwdlen);
int __wrap_argon2id_verify(const char *encoded, const void *pwd, const size_t pwdlen);
int __wrap_argon2id_verify(const char *encoded, const void *pwd, const size_t pwdlen)
{
    verifies++;
    snprintf(verified_against, sizeof verified_against, "%s", encoded);
    return __real_argon2id_verify(encoded, pwd, pwdlen);
}

#define OWASP_PREFIX "$argon2id$v=19$m=19456,t=2,p=1$"
static const char secret[] = "correct horse battery staple";

static char *hashed(const char *password)
{
    static char encoded[PASSWORD_ENCODED_MAX];
    assert_int_equal(password_hash(password, strlen(password), encoded), PASSWORD_OK);
    return encoded;
}

/* encoded parses, and its parameters are these */
static void assert_parameters(const char *encoded, password_params want)
{
    password_params got;
    assert_true(password_parse(encoded, &got));
    if (memcmp(&got, &want, sizeof got) != 0)
        fail_msg("%s: v=%u m=%u t=%u p=%u salt %u hash %u bytes", encoded, got.version, got.memory_kib, got.passes,
                 got.lanes, got.salt_bytes, got.hash_bytes);
}

/* The stored string: Argon2id at OWASP's parameters, a 16-byte salt and a
 * 32-byte hash, no trace of the password, a new salt each time. */
static void test_hash_is_argon2id_at_owasp_parameters(void **unused)
{
    (void)unused;
    char first[PASSWORD_ENCODED_MAX];
    snprintf(first, sizeof first, "%s", hashed(secret));
    assert_int_equal(strncmp(first, OWASP_PREFIX, strlen(OWASP_PREFIX)), 0);
    assert_int_equal(strlen(first), 97);
    assert_parameters(first, (password_params){0x13, 19456, 2, 1, 16, 32});
    assert_false(password_needs_rehash(first));
    /* never the password, nor a piece of it */
    assert_null(strstr(first, "horse"));
    assert_null(strstr(first, "correct"));
    const char *again = hashed(secret);
    assert_string_not_equal(first, again);
    assert_int_equal(strncmp(first, again, strlen(OWASP_PREFIX)), 0);
}

/* The right password verifies; any other fails: one character changed,
 * missing or added, another case, empty. */
static void test_only_the_right_password_verifies(void **unused)
{
    (void)unused;
    char encoded[PASSWORD_ENCODED_MAX];
    snprintf(encoded, sizeof encoded, "%s", hashed(secret));
    assert_int_equal(password_verify(secret, strlen(secret), encoded), PASSWORD_OK);
    static const char *const wrong[] = {"correct horse battery stapla", "correct horse battery stapl",
                                        "correct horse battery staple ", "Correct horse battery staple", ""};
    for (size_t i = 0; i < sizeof wrong / sizeof *wrong; i++)
        assert_int_equal(password_verify(wrong[i], strlen(wrong[i]), encoded), PASSWORD_MISMATCH);
    /* the length is the caller's, not strlen: bytes after a NUL count */
    char with_nul[] = "correct horse battery staple\0x";
    assert_int_equal(password_verify(with_nul, sizeof with_nul - 1, encoded), PASSWORD_MISMATCH);
    /* a password in Japanese, 8 characters in 22 bytes */
    const char *japanese = "\xe3\x81\x82\xe3\x81\x84\xe3\x81\x86\xe3\x81\x88\xe3\x81\x8a\xe3\x81\x8b\xe3\x81\x8d!";
    snprintf(encoded, sizeof encoded, "%s", hashed(japanese));
    assert_int_equal(password_verify(japanese, strlen(japanese), encoded), PASSWORD_OK);
    assert_int_equal(password_verify(japanese, strlen(japanese) - 1, encoded), PASSWORD_MISMATCH);
}

/* The reference implementation's own test vector (libargon2's test.c):
 * "password" with salt "somesalt" at m=64 MiB, t=2, p=1: our checks read
 * strings that other Argon2id code wrote. */
static void test_reads_the_reference_vector(void **unused)
{
    (void)unused;
    const char *vector = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";
    assert_parameters(vector, (password_params){0x13, 65536, 2, 1, 8, 32});
    assert_int_equal(password_verify("password", 8, vector), PASSWORD_OK);
    assert_int_equal(password_verify("passwore", 8, vector), PASSWORD_MISMATCH);
    /* stronger in memory, but its 8-byte salt is below today's 16: rehash */
    assert_true(password_needs_rehash(vector));
}

/* A stored string that was tampered with fails cleanly: a changed hash,
 * salt or parameter is a mismatch; anything that is not our format, or
 * asks more than the limits, is malformed, without hashing. */
static void test_tampered_hashes_fail_cleanly(void **unused)
{
    (void)unused;
    char good[PASSWORD_ENCODED_MAX], bad[PASSWORD_ENCODED_MAX + 64];
    snprintf(good, sizeof good, "%s", hashed(secret));
    size_t len = strlen(good);
    const char *salt = good + strlen(OWASP_PREFIX), *hash = strrchr(good, '$') + 1;

    /* one character of the hash, of the salt; m, t, p changed: mismatches */
    const size_t at[] = {(size_t)(hash - good), len - 2, (size_t)(salt - good) + 3};
    for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
        snprintf(bad, sizeof bad, "%s", good);
        bad[at[i]] = bad[at[i]] == 'A' ? 'B' : 'A';
        assert_int_equal(password_verify(secret, strlen(secret), bad), PASSWORD_MISMATCH);
    }
    static const char *const parameters[][2] = {{"m=19456", "m=19457"}, {"t=2", "t=3"}, {"p=1", "p=2"}};
    for (size_t i = 0; i < 3; i++) {
        char *p = strstr(strcpy(bad, good), parameters[i][0]);
        assert_non_null(p);
        memcpy(p, parameters[i][1], strlen(parameters[i][1]));
        assert_true(password_parse(bad, NULL));
        assert_int_equal(password_verify(secret, strlen(secret), bad), PASSWORD_MISMATCH);
    }

    /* not ours: refused before any hashing */
    static const char *const edits[][2] = {
        {"$argon2id$", "$argon2i$"},  {"$argon2id$", "$argon2d$"}, {"v=19", "v=16"},     {"v=19$", ""},
        {"m=19456", "m=019456"},      {"m=19456", "m=-19456"},     {"t=2", "t=0"},       {"p=1", "p=0"},
        {"m=19456", "m=4194304"},     {"t=2", "t=1000"},           {"p=1", "p=64"},      {"m=19456", "m=4"},
        {"m=19456", "m=99999999999"}, {",t=2", ""},                {"m=19456,", "m=19456;"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        char *p = strstr(strcpy(bad, good), edits[i][0]);
        assert_non_null(p);
        size_t from = strlen(edits[i][0]), to = strlen(edits[i][1]);
        memmove(p + to, p + from, strlen(p + from) + 1);
        memcpy(p, edits[i][1], to);
        verifies = 0;
        if (password_verify(secret, strlen(secret), bad) != PASSWORD_MALFORMED)
            fail_msg("%s (%s -> %s) was not refused as malformed", bad, edits[i][0], edits[i][1]);
        assert_int_equal(verifies, 0);
        assert_false(password_parse(bad, NULL));
        assert_true(password_needs_rehash(bad));
    }
    /* cut at every length, a character added, base64 padding or a foreign character, nonsense */
    for (size_t cut = 0; cut < len; cut++) {
        snprintf(bad, sizeof bad, "%.*s", (int)cut, good);
        if (password_parse(bad, NULL)) { /* a cut hash may still be base64 of 4 bytes or more: a mismatch */
            assert_true(cut > (size_t)(hash - good) + 5);
            continue;
        }
        assert_int_equal(password_verify(secret, strlen(secret), bad), PASSWORD_MALFORMED);
    }
    static const char *const tails[] = {"=", "$", "$x", "!", " "};
    for (size_t i = 0; i < sizeof tails / sizeof *tails; i++) {
        snprintf(bad, sizeof bad, "%s%s", good, tails[i]);
        assert_int_equal(password_verify(secret, strlen(secret), bad), PASSWORD_MALFORMED);
    }
    snprintf(bad, sizeof bad, "%s", good);
    bad[(size_t)(salt - good) + 2] = '-';
    assert_int_equal(password_verify(secret, strlen(secret), bad), PASSWORD_MALFORMED);
    static const char *const nonsense[] = {"", "$", "correct horse battery staple", "$argon2id$", "$2b$12$abc"};
    for (size_t i = 0; i < sizeof nonsense / sizeof *nonsense; i++)
        assert_int_equal(password_verify(secret, strlen(secret), nonsense[i]), PASSWORD_MALFORMED);
    /* and the good one still verifies */
    assert_int_equal(password_verify(secret, strlen(secret), good), PASSWORD_OK);
}

/* Rehash when any parameter is below today's; a stronger one is kept. */
static void test_rehash_when_weaker_than_today(void **unused)
{
    (void)unused;
    const char *tail = "$c29tZXNhbHRzb21lc2FsdA$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";
    static const struct {
        const char *params;
        bool rehash;
    } cases[] = {
        {"m=19456,t=2,p=1", false}, {"m=65536,t=3,p=4", false}, {"m=19456,t=2,p=2", false},
        {"m=19455,t=2,p=1", true},  {"m=4096,t=3,p=1", true},   {"m=65536,t=1,p=1", true},
    };
    char encoded[PASSWORD_ENCODED_MAX];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(encoded, sizeof encoded, "$argon2id$v=19$%s%s", cases[i].params, tail);
        assert_true(password_parse(encoded, NULL));
        if (password_needs_rehash(encoded) != cases[i].rehash)
            fail_msg("%s: rehash should be %d", encoded, cases[i].rehash);
    }
    /* a short hash (16 bytes) too */
    snprintf(encoded, sizeof encoded, "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$CTFhFdXPJO1aFaMaO6Mm5Q");
    assert_true(password_parse(encoded, NULL));
    assert_true(password_needs_rehash(encoded));
    assert_true(password_needs_rehash(NULL));
}

/* A sign-in to a name that does not exist does the same work as a wrong
 * password (a hash at today's parameters) and mismatches, whatever the
 * password, so that its time tells nothing. */
static void test_no_account_costs_a_hash_and_mismatches(void **unused)
{
    (void)unused;
    const char *passwords[] = {secret, "", "x"};
    for (size_t i = 0; i < 3; i++) {
        verifies = 0;
        assert_int_equal(password_verify(passwords[i], strlen(passwords[i]), NULL), PASSWORD_MISMATCH);
        assert_int_equal(verifies, 1);
        assert_int_equal(strncmp(verified_against, OWASP_PREFIX, strlen(OWASP_PREFIX)), 0);
    }
    /* a wrong-length password against a real account: the same work, a mismatch */
    char encoded[PASSWORD_ENCODED_MAX];
    snprintf(encoded, sizeof encoded, "%s", hashed(secret));
    verifies = 0;
    assert_int_equal(password_verify("short", 5, encoded), PASSWORD_MISMATCH);
    assert_int_equal(verifies, 1);
}

/* 8 to 256 characters, counted in code points, any characters at all. */
static void test_password_lengths(void **unused)
{
    (void)unused;
    char text[1024];
    assert_false(password_length_ok("1234567", 7));
    assert_true(password_length_ok("12345678", 8));
    assert_true(password_length_ok("        ", 8));
    memset(text, 'a', 257);
    assert_true(password_length_ok(text, 256));
    assert_false(password_length_ok(text, 257));
    /* あ is 3 bytes: 7 of them are 21 bytes but 7 characters; 256 are 768 bytes */
    for (int i = 0; i < 257; i++)
        memcpy(text + 3 * i, "\xe3\x81\x82", 3);
    assert_false(password_length_ok(text, 21));
    assert_true(password_length_ok(text, 24));
    assert_true(password_length_ok(text, 768));
    assert_false(password_length_ok(text, 771));
    assert_false(password_length_ok(NULL, 8));
    char encoded[PASSWORD_ENCODED_MAX] = "untouched";
    assert_int_equal(password_hash("1234567", 7, encoded), PASSWORD_BAD_LENGTH);
    assert_string_equal(encoded, "untouched");
}

/* No salt from the OS: no hash (never a weaker one), and no session token. */
static void test_no_randomness_refuses(void **unused)
{
    (void)unused;
    char encoded[PASSWORD_ENCODED_MAX] = "untouched", session[SESSION_TOKEN_CHARS + 1] = "";
    no_randomness = true;
    assert_int_equal(password_hash(secret, strlen(secret), encoded), PASSWORD_FAILED);
    assert_false(token_new_session(session));
    no_randomness = false;
    assert_string_equal(encoded, "untouched");
}

/* Sessions: 256 random bits as 64 hex digits, kept as their SHA-256 like
 * a seat's token, checked against it. */
static void test_session_tokens(void **unused)
{
    (void)unused;
    char a[SESSION_TOKEN_CHARS + 1], b[SESSION_TOKEN_CHARS + 1], hash[TOKEN_HASH_CHARS + 1];
    assert_true(token_new_session(a));
    assert_true(token_new_session(b));
    assert_int_equal(strlen(a), 64);
    assert_int_equal(strspn(a, "0123456789abcdef"), 64);
    assert_string_not_equal(a, b);
    token_hash(a, hash);
    assert_int_equal(strlen(hash), 64);
    assert_string_not_equal(hash, a);
    assert_true(token_matches(a, hash));
    assert_false(token_matches(b, hash));
    a[63] = a[63] == '0' ? '1' : '0';
    assert_false(token_matches(a, hash));
    /* a seat's token is still 128 bits */
    char seat[TOKEN_CHARS + 1];
    assert_true(token_new(seat));
    assert_int_equal(strlen(seat), 32);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash_is_argon2id_at_owasp_parameters),
        cmocka_unit_test(test_only_the_right_password_verifies),
        cmocka_unit_test(test_reads_the_reference_vector),
        cmocka_unit_test(test_tampered_hashes_fail_cleanly),
        cmocka_unit_test(test_rehash_when_weaker_than_today),
        cmocka_unit_test(test_no_account_costs_a_hash_and_mismatches),
        cmocka_unit_test(test_password_lengths),
        cmocka_unit_test(test_no_randomness_refuses),
        cmocka_unit_test(test_session_tokens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

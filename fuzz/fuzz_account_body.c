/* fuzz_account_body.c — fuzz target: the accounts API's request bodies (accounts_read_body: sign-up, sign-in, a new password, closing, a claim; issue 42). */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "fuzz_common.h"
#include "server/accounts.h"
#include "server/password.h"

/* The input: byte 0's low four bits say which fields are wanted (as the
 * routes ask: ACCOUNTS_WANT_*), the rest is the body. The properties
 * (docs/server.md, "Accounts and ratings"):
 *  - a body is accepted, or refused with 400 and one of bad_request,
 *    bad_name, bad_password, and a message;
 *  - what is accepted is what the rules say: a name of 2 to 20 ASCII
 *    letters, digits, '_' and '-'; passwords of 8 to 256 characters; 1 to
 *    200 seat tokens of 32 lowercase hex digits;
 *  - the same body gives the same answer twice, and an accepted body
 *    written back with its fields alone is accepted again, to the same
 *    fields. */
static void check_accepted(const accounts_body *b, unsigned want)
{
    if (want & ACCOUNTS_WANT_NAME) {
        size_t n = strlen(b->name);
        FUZZ_CHECK(n >= ACCOUNT_NAME_MIN && n <= ACCOUNT_NAME_MAX && accounts_name_ok(b->name));
        for (size_t i = 0; i < n; i++)
            FUZZ_CHECK(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", b->name[i]));
    }
    if (want & ACCOUNTS_WANT_PASSWORD)
        FUZZ_CHECK(b->password && password_length_ok(b->password, b->password_len) && b->password_len >= 8);
    if (want & ACCOUNTS_WANT_NEW_PASSWORD)
        FUZZ_CHECK(b->new_password && password_length_ok(b->new_password, b->new_password_len));
    if (want & ACCOUNTS_WANT_TOKENS) {
        FUZZ_CHECK(b->n_tokens >= 1 && b->n_tokens <= ACCOUNTS_CLAIM_MAX);
        for (size_t i = 0; i < b->n_tokens; i++)
            FUZZ_CHECK(strlen(b->tokens[i]) == 32 && strspn(b->tokens[i], "0123456789abcdef") == 32);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned want = data[0] & 15;
    const char *body = (const char *)data + 1;
    size_t len = size - 1;
    accounts_body b, again;
    srv_error e, e2;
    bool ok = accounts_read_body(body, len, want, &b, &e);
    bool ok2 = accounts_read_body(body, len, want, &again, &e2);
    FUZZ_CHECK(ok == ok2);
    if (!ok) {
        FUZZ_CHECK(e.status == 400 && e.message[0]);
        FUZZ_CHECK(strcmp(e.code, "bad_request") == 0 || strcmp(e.code, "bad_name") == 0 ||
                   strcmp(e.code, "bad_password") == 0);
        FUZZ_CHECK(strcmp(e.code, e2.code) == 0);
    } else {
        check_accepted(&b, want);
        /* written back with its fields alone: the same fields again */
        json_t *out = json_object();
        if (want & ACCOUNTS_WANT_NAME)
            json_object_set_new(out, "name", json_string(b.name));
        if (want & ACCOUNTS_WANT_PASSWORD)
            json_object_set_new(out, "password", json_stringn(b.password, b.password_len));
        if (want & ACCOUNTS_WANT_NEW_PASSWORD)
            json_object_set_new(out, "new_password", json_stringn(b.new_password, b.new_password_len));
        if (want & ACCOUNTS_WANT_TOKENS) {
            json_t *tokens = json_array();
            for (size_t i = 0; i < b.n_tokens; i++)
                json_array_append_new(tokens, json_string(b.tokens[i]));
            json_object_set_new(out, "tokens", tokens);
        }
        char *text = json_dumps(out, JSON_COMPACT);
        json_decref(out);
        FUZZ_CHECK(text);
        accounts_body back;
        FUZZ_CHECK(accounts_read_body(text, strlen(text), want, &back, &e));
        FUZZ_CHECK(strcmp(back.name, b.name) == 0 && back.n_tokens == b.n_tokens);
        FUZZ_CHECK(back.password_len == b.password_len && back.new_password_len == b.new_password_len);
        FUZZ_CHECK(!b.password || memcmp(back.password, b.password, b.password_len) == 0);
        accounts_body_free(&back);
        free(text);
    }
    accounts_body_free(&b);
    accounts_body_free(&again);
    return 0;
}

/* account_body.c — the accounts API's request bodies read and checked: names, passwords, seat tokens (accounts.h). */
#define _DEFAULT_SOURCE
#include <string.h>

#include "server/accounts.h"
#include "server/password.h"

bool accounts_name_ok(const char *name)
{
    size_t n = 0;
    for (; name && name[n]; n++) {
        char c = name[n];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        if (!ok || n >= ACCOUNT_NAME_MAX)
            return false;
    }
    return n >= ACCOUNT_NAME_MIN;
}

static bool hex_token(const char *t)
{
    if (!t || strlen(t) != 32)
        return false;
    for (const char *p = t; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
            return false;
    return true;
}

/* A password field: a string of 8 to 256 characters (UTF-8 code points;
 * jansson has checked the UTF-8 and refuses NUL unless asked). */
static bool password_field(json_t *doc, const char *key, const char **text, size_t *len, srv_error *e)
{
    json_t *v = json_object_get(doc, key);
    if (!json_is_string(v))
        return srv_fail(e, 400, "bad_request", "\"%s\" is missing or not a string", key), false;
    *text = json_string_value(v);
    *len = json_string_length(v);
    if (memchr(*text, '\0', *len) || !password_length_ok(*text, *len))
        return srv_fail(e, 400, "bad_password", "a password has %d to %d characters", PASSWORD_MIN_CHARS,
                        PASSWORD_MAX_CHARS),
               false;
    return true;
}

bool accounts_read_body(const char *body, size_t len, unsigned want, accounts_body *out, srv_error *e)
{
    memset(out, 0, sizeof *out);
    out->doc = json_loadb(body ? body : "", len, JSON_REJECT_DUPLICATES, NULL);
    if (!json_is_object(out->doc))
        return srv_fail(e, 400, "bad_request", "the body must be a JSON object"), false;
    if (want & ACCOUNTS_WANT_NAME) {
        json_t *v = json_object_get(out->doc, "name");
        if (!json_is_string(v))
            return srv_fail(e, 400, "bad_request", "\"name\" is missing or not a string"), false;
        if (!accounts_name_ok(json_string_value(v)) || strlen(json_string_value(v)) != json_string_length(v))
            return srv_fail(e, 400, "bad_name", "a name has %d to %d characters: letters, digits, _ and -",
                            ACCOUNT_NAME_MIN, ACCOUNT_NAME_MAX),
                   false;
        strcpy(out->name, json_string_value(v));
    }
    if ((want & ACCOUNTS_WANT_PASSWORD) &&
        !password_field(out->doc, "password", &out->password, &out->password_len, e))
        return false;
    if ((want & ACCOUNTS_WANT_NEW_PASSWORD) &&
        !password_field(out->doc, "new_password", &out->new_password, &out->new_password_len, e))
        return false;
    if (want & ACCOUNTS_WANT_TOKENS) {
        json_t *v = json_object_get(out->doc, "tokens");
        if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > ACCOUNTS_CLAIM_MAX)
            return srv_fail(e, 400, "bad_request", "\"tokens\" is an array of 1 to %d seat tokens",
                            ACCOUNTS_CLAIM_MAX),
                   false;
        for (size_t i = 0; i < json_array_size(v); i++) {
            const char *t = json_string_value(json_array_get(v, i));
            if (!hex_token(t))
                return srv_fail(e, 400, "bad_request", "a seat token is 32 hexadecimal digits"), false;
            out->tokens[out->n_tokens++] = t;
        }
    }
    return true;
}

/* The passwords' bytes are wiped before the document is freed: a freed
 * block may be handed out again, and a core dump may be read. */
void accounts_body_free(accounts_body *b)
{
    if (b->password)
        explicit_bzero((char *)b->password, b->password_len);
    if (b->new_password)
        explicit_bzero((char *)b->new_password, b->new_password_len);
    json_decref(b->doc);
    memset(b, 0, sizeof *b);
}

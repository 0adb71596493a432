/* token.h — seat and session tokens: random bits from the OS, and the SHA-256 hash that is all the server keeps. */
#ifndef ASOBI_SERVER_TOKEN_H
#define ASOBI_SERVER_TOKEN_H

#include <stdbool.h>
#include <stddef.h>

#define TOKEN_CHARS 32 /* 128 bits as lowercase hex */
#define TOKEN_HASH_CHARS 64
/* A sign-in session's token: 256 bits, a secret that lives for weeks in a
 * cookie (issue 42), kept hashed like a seat's. */
#define SESSION_TOKEN_CHARS 64

/* n random bytes from getrandom(2); false if the OS gives none. */
bool token_random_bytes(unsigned char *out, size_t n);

/* A fresh token (NUL-terminated hex) from getrandom(2); false if the OS
 * gives no randomness (the join is then refused, never weakened). */
bool token_new(char out[TOKEN_CHARS + 1]);
/* A fresh session token, the same way: 256 bits as lowercase hex. */
bool token_new_session(char out[SESSION_TOKEN_CHARS + 1]);
/* SHA-256 of the token's text (either kind), as lowercase hex. */
void token_hash(const char *token, char out[TOKEN_HASH_CHARS + 1]);
/* Does token hash to hash? Compared in constant time. */
bool token_matches(const char *token, const char *hash);

#endif

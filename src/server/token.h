/* token.h — seat tokens: 128 random bits from the OS, and the SHA-256 hash that is all the server keeps. */
#ifndef ASOBI_SERVER_TOKEN_H
#define ASOBI_SERVER_TOKEN_H

#include <stdbool.h>

#define TOKEN_CHARS 32 /* 128 bits as lowercase hex */
#define TOKEN_HASH_CHARS 64

/* A fresh token (NUL-terminated hex) from getrandom(2); false if the OS
 * gives no randomness (the join is then refused, never weakened). */
bool token_new(char out[TOKEN_CHARS + 1]);
/* SHA-256 of the token's text, as lowercase hex. */
void token_hash(const char *token, char out[TOKEN_HASH_CHARS + 1]);
/* Does token hash to hash? Compared in constant time. */
bool token_matches(const char *token, const char *hash);

#endif

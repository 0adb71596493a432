/* password.h — account passwords: Argon2id hashes in their own encoded strings ($argon2id$v=19$m=...,t=...,p=...$salt$hash), checked in constant time. */
#ifndef ASOBI_SERVER_PASSWORD_H
#define ASOBI_SERVER_PASSWORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Only the encoded string is ever stored: the algorithm, its version, the
 * parameters, a random salt and the hash, as libargon2 (Debian's
 * libargon2-dev, the reference implementation) writes and reads it. Since
 * the parameters travel in the string, they can be raised later: old hashes
 * still verify at their own cost, and password_needs_rehash says when a
 * successful sign-in should store a new hash at today's.
 *
 * Every call costs ~19 MiB of memory and tens of milliseconds of one core
 * (bench/password_speed.c; docs/server.md): call them on a worker, never on
 * the event loop, and no more at once than the memory allows.
 */

/* Today's parameters: OWASP's Password Storage Cheat Sheet for Argon2id
 * (19 MiB of memory, 2 passes, 1 lane), a 16-byte salt, a 32-byte hash. */
#define PASSWORD_MEMORY_KIB 19456u
#define PASSWORD_PASSES 2u
#define PASSWORD_LANES 1u
#define PASSWORD_SALT_BYTES 16u
#define PASSWORD_HASH_BYTES 32u
/* Room for an encoded string (ours is 97 characters; raised parameters add a few digits). */
#define PASSWORD_ENCODED_MAX 160

/* A password's length, in characters (UTF-8 code points): 8 to 256, and no
 * rule on what they are (NIST SP 800-63B). */
#define PASSWORD_MIN_CHARS 8
#define PASSWORD_MAX_CHARS 256

/* What a stored string may ask of a worker at most, so that a damaged or
 * planted row cannot make a check take gigabytes or minutes: 256 MiB, 16
 * passes, 8 lanes. A string above is refused as malformed. */
#define PASSWORD_LIMIT_MEMORY_KIB 262144u
#define PASSWORD_LIMIT_PASSES 16u
#define PASSWORD_LIMIT_LANES 8u

/* The parameters read back from an encoded string. */
typedef struct password_params {
    uint32_t version;    /* 0x13 (19): Argon2 1.3 */
    uint32_t memory_kib; /* m */
    uint32_t passes;     /* t */
    uint32_t lanes;      /* p */
    uint32_t salt_bytes, hash_bytes;
} password_params;

typedef enum password_result {
    PASSWORD_OK = 0,     /* hashed; or verified: the password is the one */
    PASSWORD_MISMATCH,   /* verified: another password (or no account) */
    PASSWORD_MALFORMED,  /* the stored string is not one of ours (or asks more than the limits) */
    PASSWORD_BAD_LENGTH, /* the password is not 8 to 256 characters */
    PASSWORD_FAILED,     /* no memory, or no random salt from the OS: refuse, never weaken */
} password_result;

/* Is this a password's length: 8 to 256 UTF-8 code points (len bytes)? */
bool password_length_ok(const char *password, size_t len);

/* Hash password (len bytes, 8 to 256 characters) with a fresh salt from
 * getrandom(2) at today's parameters into encoded (NUL-terminated). */
password_result password_hash(const char *password, size_t len, char encoded[PASSWORD_ENCODED_MAX]);

/* Does password hash to encoded, at encoded's own parameters? The hashes
 * are compared in constant time. encoded NULL (no such account) spends the
 * same time on a hash at today's parameters and gives PASSWORD_MISMATCH: a
 * sign-in to a name that does not exist takes as long as a wrong password,
 * so the time tells nobody which names exist. A password of the wrong
 * length (never stored) mismatches too, after the same work. */
password_result password_verify(const char *password, size_t len, const char *encoded);

/* Read an encoded string's parameters (strictly: $argon2id$v=19$m=M,t=T,p=P$
 * then unpadded base64 salt and hash). false if it is not one of ours. */
bool password_parse(const char *encoded, password_params *out);

/* Should a sign-in that just verified store a new hash? True when the stored
 * string's memory, passes, salt or hash are below today's (or its version is
 * older, or it does not parse). */
bool password_needs_rehash(const char *encoded);

#endif

/* text.h — UTF-8-safe text helpers: every message that quotes input is cut at a character boundary. */
#ifndef ASOBI_TEXT_H
#define ASOBI_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* The length of the longest prefix of s[0..len) that is well-formed UTF-8
 * (the rules jansson applies: no overlong forms, no surrogates, nothing
 * above U+10FFFF). */
size_t asobi_utf8_valid_prefix(const char *s, size_t len);

/* Is the NUL-terminated s well-formed UTF-8? */
bool asobi_utf8_valid(const char *s);

/* Rewrite s in place, dropping every byte that does not belong to a
 * well-formed character. A printf "%.60s" or a full buffer that cut a
 * character in two leaves a lone lead byte: this removes it, so the text
 * can always become a JSON string. */
void asobi_utf8_repair(char *s);

/* Copy at most cap-1 bytes of src into dst (cap >= 1), cut at a character
 * boundary, always NUL-terminated, invalid bytes dropped. */
void asobi_utf8_copy(char *dst, size_t cap, const char *src);

#endif

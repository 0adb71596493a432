/* text.c — UTF-8-safe text helpers (see text.h): validating, repairing and cutting at character boundaries. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "text.h"

/* The length of the well-formed character starting at s (at most n bytes
 * available), or 0 when the bytes there are not one. Follows RFC 3629's
 * table, as jansson's own check does. */
static size_t utf8_char_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t len;
    unsigned lo = 0x80, hi = 0xBF; /* the allowed range of the second byte */
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0; /* no overlong forms */
        else if (c == 0xED)
            hi = 0x9F; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F; /* nothing above U+10FFFF */
    } else {
        return 0;
    }
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return len;
}

size_t asobi_utf8_valid_prefix(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        size_t n = utf8_char_len(u + i, len - i);
        if (n == 0)
            break;
        i += n;
    }
    return i;
}

bool asobi_utf8_valid(const char *s)
{
    size_t len = strlen(s);
    return asobi_utf8_valid_prefix(s, len) == len;
}

void asobi_utf8_repair(char *s)
{
    unsigned char *u = (unsigned char *)s;
    size_t len = strlen(s), r = 0, w = 0;
    while (r < len) {
        size_t n = utf8_char_len(u + r, len - r);
        if (n == 0) {
            r++; /* a byte that starts no character: dropped */
            continue;
        }
        memmove(u + w, u + r, n);
        w += n;
        r += n;
    }
    u[w] = '\0';
}

void asobi_utf8_copy(char *dst, size_t cap, const char *src)
{
    size_t len = strnlen(src, cap - 1);
    memcpy(dst, src, len);
    dst[len] = '\0';
    asobi_utf8_repair(dst);
}

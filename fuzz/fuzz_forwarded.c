/* fuzz_forwarded.c — fuzz target: the client address behind a --trusted-proxy, from X-Forwarded-For and Forwarded headers (limits_client_of, issue 39). */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "fuzz_common.h"
#include "server/limits.h"

/* The input: byte 0 says who sent the headers (bit 0: a trusted front,
 * 127.0.0.1; else a client, 198.51.100.7) and which header it is (bit 1:
 * Forwarded, else X-Forwarded-For); the rest, up to a newline, is the
 * header's value; after it, a --trusted-proxy value to parse. The
 * trusted ranges are 127.0.0.1, 10.0.0.0/8 and fd00::/8. The properties
 * (docs/server.md, "Limits"):
 *  - from anyone but a trusted front the client is the peer, whatever the
 *    header says;
 *  - from a trusted front the client is the peer or an address that
 *    parses from the header, and it is the peer when the header's
 *    right-most entry is no address;
 *  - the answer does not depend on what lies beyond the header's end;
 *  - a range parses or not, and one that parses holds its own address. */

static limits_ip ip_of(const char *text)
{
    limits_ip ip;
    FUZZ_CHECK(limits_ip_parse(text, strlen(text), &ip));
    return ip;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    limits_range trusted[3];
    FUZZ_CHECK(limits_range_parse("127.0.0.1", &trusted[0]) && limits_range_parse("10.0.0.0/8", &trusted[1]) &&
               limits_range_parse("fd00::/8", &trusted[2]));
    limits_ip front = ip_of("127.0.0.1"), client = ip_of("198.51.100.7");
    const limits_ip *peer = data[0] & 1 ? &front : &client;
    const char *rest = (const char *)data + 1;
    size_t n = size - 1;
    const char *nl = memchr(rest, '\n', n);
    size_t hlen = nl ? (size_t)(nl - rest) : n;
    char header[1024], padded[1100];
    if (hlen >= sizeof header)
        hlen = sizeof header - 1;
    memcpy(header, rest, hlen);
    header[hlen] = '\0';
    hlen = strlen(header); /* a NUL inside ends it, as a C string */
    bool forwarded = data[0] & 2;
    limits_ip got = limits_client_of(trusted, 3, peer, forwarded ? NULL : header, forwarded ? header : NULL);
    if (peer == &client)
        FUZZ_CHECK(memcmp(got.b, client.b, 16) == 0);
    /* the same header with something after its end: the same answer */
    memcpy(padded, header, hlen + 1);
    memcpy(padded + hlen + 1, "9.9.9.9", 8);
    limits_ip again = limits_client_of(trusted, 3, peer, forwarded ? NULL : padded, forwarded ? padded : NULL);
    FUZZ_CHECK(memcmp(got.b, again.b, 16) == 0);
    if (!forwarded && peer == &front) {
        const char *last = strrchr(header, ',');
        last = last ? last + 1 : header;
        limits_ip ip;
        if (!limits_ip_parse(last, strlen(last), &ip))
            FUZZ_CHECK(memcmp(got.b, front.b, 16) == 0);
    }
    if (nl) {
        char range_text[128];
        size_t after = (size_t)((const char *)data + size - (nl + 1)); /* the bytes after the newline */
        size_t rlen = after < sizeof range_text - 1 ? after : sizeof range_text - 1;
        memcpy(range_text, nl + 1, rlen);
        range_text[rlen] = '\0';
        limits_range r;
        if (limits_range_parse(range_text, &r))
            FUZZ_CHECK(r.bits >= 0 && r.bits <= 128 && limits_range_has(&r, &r.ip));
    }
    return 0;
}

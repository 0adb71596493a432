/* fuzz_http_api.c — fuzz target: sequences of HTTP API requests through hall_http, as `asobi serve` answers them. */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_server.h"

/* The input is one request a line: its first byte is the method ('P' for
 * POST, anything else GET), then the path up to the first space, then the
 * body (the rest of the line; a body holds no newline, JSON does not need
 * one). The properties, after every request (docs/server.md):
 *  - the reply is one JSON object; a 2xx reply has its documented shape,
 *    a refusal is {"error":{"code","message"}} with the code the hall gave;
 *  - a refusal changed nothing: every table's summary and state are
 *    byte-identical before and after;
 *  - at the end, every table's updates for each seat and a spectator can
 *    be built. */

#define REQUESTS_MAX 48

static void check_success(const char *path, bool post, int status, const json_t *reply)
{
    FUZZ_CHECK(status == 200 || status == 201);
    if (post && strcmp(path, "/api/tables") == 0) {
        FUZZ_CHECK(status == 201 && json_integer_value(json_object_get(reply, "table")) > 0);
    } else if (post) { /* a join */
        FUZZ_CHECK(json_is_integer(json_object_get(reply, "seat")));
        FUZZ_CHECK(strlen(json_string_value(json_object_get(reply, "token"))) == TOKEN_CHARS);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_server fs;
    fuzz_server_open(&fs);
    const char *p = (const char *)data, *end = p + size;
    for (int n = 0; p < end && n < REQUESTS_MAX; n++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        bool post = len > 0 && p[0] == 'P';
        const char *path_start = len > 0 ? p + 1 : p;
        const char *sp = memchr(path_start, ' ', (size_t)(p + len - path_start));
        const char *path_end = sp ? sp : p + len;
        char path[256]; /* as the socket side keeps it (server.c: http_req.path), cut to fit */
        size_t plen = (size_t)(path_end - path_start);
        if (plen >= sizeof path)
            plen = sizeof path - 1;
        memcpy(path, path_start, plen);
        path[plen] = '\0';
        const char *body = sp ? sp + 1 : p + len;
        size_t blen = (size_t)(p + len - body);

        fuzz_snapshot before;
        fuzz_snapshot_take(&fs.hall, &before);
        json_t *reply = NULL;
        srv_error e;
        int status = hall_http(&fs.hall, post, path, body, blen, false, 0, &reply, &e);
        FUZZ_CHECK(json_is_object(reply));
        char *text = json_dumps(reply, JSON_COMPACT);
        FUZZ_CHECK(text);
        free(text);
        FUZZ_CHECK(store_flush(fs.hall.store, NULL) == ASOBI_OK);
        if (status >= 400) {
            fuzz_check_refusal(reply, &e);
            fuzz_snapshot_check_same(&fs.hall, &before);
        } else {
            check_success(path, post, status, reply);
        }
        fuzz_snapshot_free(&before);
        json_decref(reply);
        p += len + (nl != NULL);
    }
    for (int64_t i = 0; i < fs.hall.n_slots; i++)
        if (fs.hall.slots[i].t)
            fuzz_check_updates(fs.hall.slots[i].t);
    fuzz_server_close(&fs);
    return 0;
}

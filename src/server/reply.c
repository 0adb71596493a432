/* reply.c — the server's refusals as JSON (with the engine protocol's codes where the library refused) and its log lines. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/text.h"
#include "protocol/protocol.h"
#include "server/reply.h"

bool srv_log_quiet;

/* Log lines go to stderr, one a line. They quote what clients sent (paths,
 * origins, action texts), so every control character becomes '?': nobody
 * can forge a log line or drive the terminal that shows it. */
void srv_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    srv_vlog(fmt, ap);
    va_end(ap);
}

void srv_vlog(const char *fmt, va_list ap)
{
    if (srv_log_quiet)
        return;
    char line[1024];
    vsnprintf(line, sizeof line, fmt, ap);
    for (char *p = line; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    fprintf(stderr, "asobi serve: %s\n", line);
}

int srv_fail(srv_error *e, int status, const char *code, const char *fmt, ...)
{
    e->status = status;
    snprintf(e->code, sizeof e->code, "%s", code);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    /* a message quoting a client's bytes ("%.40s") may cut a character in
     * two, or quote bytes that are no UTF-8 at all: it must still become a
     * JSON string */
    asobi_utf8_repair(e->message);
    return -1;
}

int srv_fail_asobi(srv_error *e, int status, const asobi_error *err)
{
    return srv_fail(e, status, asobi_code_name(err->code), "%s", err->message);
}

json_t *srv_error_json(const srv_error *e)
{
    /* Built by the protocol layer when the code is the library's, so the
     * server's error objects and the engine's can never drift apart; the
     * engine's reply also has "ok", which HTTP bodies do not carry. */
    for (int c = 1; c < ASOBI_CODE_COUNT; c++) {
        if (strcmp(asobi_code_name(c), e->code) == 0) {
            json_t *reply = protocol_error_reply(c, e->message);
            json_object_del(reply, "ok");
            return reply;
        }
    }
    return json_pack("{s:{s:s, s:s}}", "error", "code", e->code, "message", e->message);
}

json_t *srv_echo_id(const json_t *id)
{
    if (!id)
        return json_null();
    if (json_is_string(id)) {
        char cut[SRV_ECHO_ID_MAX + 1];
        size_t len = json_string_length(id);
        if (len <= SRV_ECHO_ID_MAX)
            return json_incref((json_t *)id);
        memcpy(cut, json_string_value(id), SRV_ECHO_ID_MAX);
        cut[SRV_ECHO_ID_MAX] = '\0';
        asobi_utf8_repair(cut); /* a character cut in two */
        json_t *s = json_string(cut);
        return s ? s : json_null();
    }
    if (!json_is_array(id) && !json_is_object(id))
        return json_incref((json_t *)id);
    /* JSON_COMPACT's text of a container longer than the limit is cut off
     * by json_dumpb's size: a whole one fits */
    char text[SRV_ECHO_ID_MAX + 1];
    size_t len = json_dumpb(id, text, sizeof text, JSON_COMPACT);
    return len && len <= SRV_ECHO_ID_MAX ? json_incref((json_t *)id) : json_null();
}

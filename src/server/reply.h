/* reply.h — the server's refusals (an HTTP status, a stable code and a sentence, as JSON) and its log lines. */
#ifndef ASOBI_SERVER_REPLY_H
#define ASOBI_SERVER_REPLY_H

#include <stdarg.h>
#include <stdbool.h>

#include "asobi/asobi.h"

/* A refusal. code is one of the library's codes (asobi_code_name, the same
 * as the engine protocol's) or one of the server's own (docs/server.md);
 * status is the HTTP status it gets when it answers an HTTP request. */
typedef struct srv_error {
    int status;
    char code[32];
    char message[ASOBI_MESSAGE_MAX];
} srv_error;

/* Fill e; returns -1 so callers can `return srv_fail(...)`. */
int srv_fail(srv_error *e, int status, const char *code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* A library refusal, with the library's code and message unchanged. */
int srv_fail_asobi(srv_error *e, int status, const asobi_error *err);
/* {"error":{"code","message"}} */
json_t *srv_error_json(const srv_error *e);

/* The bytes of a message's "id" a refusal echoes at most. */
#define SRV_ECHO_ID_MAX 64
/* What a refusal echoes of a client's "id" (a new reference): a number,
 * true, false or null as it is; a string cut to SRV_ECHO_ID_MAX bytes (at a
 * character's boundary); an array or object only if its compact text is
 * that short, else null. A client cannot make the server send its 60 KB back
 * (or queue 32 copies of it). NULL id: null. */
json_t *srv_echo_id(const json_t *id);

/* One line on stderr, "asobi serve: ...", control characters shown as '?'. */
void srv_log(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* The same with the arguments in a va_list. */
void srv_vlog(const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 0)))
#endif
    ;
/* Set by tests and fuzz targets that drive the server without wanting its log. */
extern bool srv_log_quiet;

#endif

/* error.c — error code names and the helpers that fill an asobi_error. */
#include <stdarg.h>
#include <stdio.h>

#include "asobi/error.h"
#include "text.h"

static const char *const code_names[ASOBI_CODE_COUNT] = {
    [ASOBI_OK] = "ok",
    [ASOBI_E_UNKNOWN_GAME] = "unknown_game",
    [ASOBI_E_BAD_PLAYERS] = "bad_players",
    [ASOBI_E_BAD_OPTION] = "bad_option",
    [ASOBI_E_BAD_SEAT] = "bad_seat",
    [ASOBI_E_NOT_YOUR_TURN] = "not_your_turn",
    [ASOBI_E_ILLEGAL_ACTION] = "illegal_action",
    [ASOBI_E_GAME_OVER] = "game_over",
    [ASOBI_E_BAD_RECORD] = "bad_record",
    [ASOBI_E_NOMEM] = "no_memory",
    [ASOBI_E_BAD_ARGUMENT] = "bad_argument",
    [ASOBI_E_IO] = "io_error",
    [ASOBI_E_BAD_JSON] = "bad_json",
    [ASOBI_E_UNKNOWN_CMD] = "unknown_cmd",
    [ASOBI_E_NO_GAME] = "no_game",
    [ASOBI_E_BAD_REQUEST] = "bad_request",
    [ASOBI_E_LINE_TOO_LONG] = "line_too_long",
    [ASOBI_E_BAD_BOT] = "bad_bot",
    [ASOBI_E_INTERNAL] = "internal",
    [ASOBI_E_UNDO_NOT_ALLOWED] = "undo_not_allowed",
    [ASOBI_E_BAD_SAMPLE] = "bad_sample",
};

const char *asobi_code_name(int code)
{
    if (code < 0 || code >= ASOBI_CODE_COUNT || !code_names[code])
        return "unknown_error";
    return code_names[code];
}

int asobi_fail(asobi_error *err, int code, const char *fmt, ...)
{
    if (err) {
        err->code = code;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        /* Messages quote input ("%.40s", or a full buffer): a cut may fall
         * inside a character, and a message must always become a JSON
         * string, so the broken pieces go. */
        asobi_utf8_repair(err->message);
    }
    return code;
}

void asobi_error_clear(asobi_error *err)
{
    if (err) {
        err->code = ASOBI_OK;
        err->message[0] = '\0';
    }
}

/* error.h — error codes and messages returned by every libasobi call (the library never prints). */
#ifndef ASOBI_ERROR_H
#define ASOBI_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/* Stable error codes. Their names (asobi_code_name) are part of the engine
 * protocol and must never change; new codes may be added at the end. */
typedef enum asobi_code {
    ASOBI_OK = 0,
    ASOBI_E_UNKNOWN_GAME,   /* "unknown_game": no game of that name */
    ASOBI_E_BAD_PLAYERS,    /* "bad_players": player count outside the game's range */
    ASOBI_E_BAD_OPTION,     /* "bad_option": unknown option, wrong type, out of range */
    ASOBI_E_BAD_SEAT,       /* "bad_seat": seat number outside 0..players-1 */
    ASOBI_E_NOT_YOUR_TURN,  /* "not_your_turn": the seat is not among those to move */
    ASOBI_E_ILLEGAL_ACTION, /* "illegal_action": unknown text, bad id, or against the rules */
    ASOBI_E_GAME_OVER,      /* "game_over": the game has ended, nobody may act */
    ASOBI_E_BAD_RECORD,     /* "bad_record": a record that is malformed or does not replay */
    ASOBI_E_NOMEM,          /* "no_memory" */
    ASOBI_E_BAD_ARGUMENT,   /* "bad_argument": a NULL or absurd argument to the C API */
    ASOBI_E_IO,             /* "io_error": a file could not be read or written */
    ASOBI_E_BAD_JSON,       /* "bad_json": a protocol line that is not a JSON object */
    ASOBI_E_UNKNOWN_CMD,    /* "unknown_cmd": a protocol command that does not exist */
    ASOBI_E_NO_GAME,        /* "no_game": a protocol command that needs a game before "new" */
    ASOBI_E_BAD_REQUEST,    /* "bad_request": a field missing or of the wrong type */
    ASOBI_E_LINE_TOO_LONG,  /* "line_too_long": a protocol line over the size limit */
    ASOBI_E_BAD_BOT,        /* "bad_bot": a bot spec that names no bot or has bad parameters */
    ASOBI_E_INTERNAL,       /* "internal": a reply that could not be built (a bug, reported, never a crash) */
    ASOBI_E_UNDO_NOT_ALLOWED, /* "undo_not_allowed": no action of that seat may be taken back now */
    ASOBI_E_BAD_SAMPLE,     /* "bad_sample": a sample that was changed, made up, or is not of this run */
    ASOBI_CODE_COUNT
} asobi_code;

#define ASOBI_MESSAGE_MAX 256

/* An error: a code and a sentence for a person. Functions that can fail take
 * an asobi_error * (which may be NULL when the caller does not care). */
typedef struct asobi_error {
    int code;
    char message[ASOBI_MESSAGE_MAX];
} asobi_error;

/* The stable snake_case name of a code, e.g. "illegal_action". */
const char *asobi_code_name(int code);

/* Fill err (if not NULL) with code and a printf-style message; returns code. */
int asobi_fail(asobi_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Reset err to ASOBI_OK with an empty message. */
void asobi_error_clear(asobi_error *err);

#ifdef __cplusplus
}
#endif
#endif

/* protocol.h — the engine protocol's request handling, shared by `asobi engine` and `asobi serve`. */
#ifndef ASOBI_PROTOCOL_H
#define ASOBI_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "asobi/asobi.h"

/* Every request and reply is documented in docs/protocol.md; the error codes
 * are the library's (asobi_code_name). A reply is always a JSON object with
 * "ok"; a refused request changes nothing. */

/* Lines longer than this are refused (ASOBI_E_LINE_TOO_LONG) without being
 * held in memory whole. Large enough for any record the engine writes: the
 * longest games the options allow make records of a few MB (docs/protocol.md,
 * "Limits"). */
#define PROTOCOL_LINE_MAX (16u << 20)

/* One client's conversation: the game it drives (one at a time). */
typedef struct protocol_session protocol_session;

protocol_session *protocol_session_new(void);
void protocol_session_free(protocol_session *session);
/* True once the client sent "quit". */
bool protocol_session_quit(const protocol_session *session);
/* The session's game, NULL before "new" or "load". */
const asobi_match *protocol_session_match(const protocol_session *session);

/* Bots of this session's "suggest" obey these limits (a server passes
 * &asobi_bot_server_limits); the default is asobi_bot_default_limits. */
void protocol_session_set_bot_limits(protocol_session *session, const asobi_bot_limits *limits);
/* Named card sets a "new" may pick by name ("options":{"cards":"NAME"}), and
 * "games" lists (as "card_sets"); NULL: none. Not owned: they must outlive
 * the session. */
void protocol_session_set_data_sets(protocol_session *session, const asobi_data_sets *sets);

/* The key that samples must be signed with to load ({"cmd":"load",
 * "sample":S}); NULL (the default): every sample is refused, bad_sample.
 * Not owned. `asobi engine` passes ASOBI_SAMPLE_KEY; the server none. */
void protocol_session_set_sample_key(protocol_session *session, const char *key);

/* Read one request line of at most PROTOCOL_LINE_MAX bytes from in into
 * *buf (grown as needed, at most to the limit; *cap its size). Returns 0 at
 * the end of input, 1 for a line (*len bytes, without the newline), -1 for
 * a line over the limit: the rest of it is read and dropped, never held. */
int protocol_read_line(FILE *in, char **buf, size_t *cap, size_t *len);

/* One request (the text of one line, without its newline) to one reply;
 * never NULL. The caller owns the reply. */
json_t *protocol_handle_line(protocol_session *session, const char *line, size_t len);

/* The reply as one line of compact JSON (malloc'd, never NULL): a reply that
 * cannot be written becomes an "internal" error reply. */
char *protocol_reply_text(const json_t *reply);

/* The pieces a server needs to answer as the engine does. */
json_t *protocol_error_reply(int code, const char *message);
json_t *protocol_error_from(const asobi_error *err);
json_t *protocol_errorf(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* [{"id","text"}] of seat's legal actions; empty when seat is not to move. */
json_t *protocol_legal_actions(const asobi_state *state, int seat);
/* The same list as a member written into w (view_writer.h), as the server's
 * updates carry it. */
struct asobi_vw;
void protocol_vw_legal(struct asobi_vw *w, const char *key, const asobi_state *state, int seat);
/* Play action (a text, an integer id, or {"id":N} / {"text":T}) for seat; on refusal err says why
 * and the match is unchanged. */
int protocol_act(asobi_match *match, int seat, const json_t *action, asobi_error *err);
/* The same, telling the id played in *id (for asobi_state_events). */
int protocol_act_id(asobi_match *match, int seat, const json_t *action, int *id, asobi_error *err);
/* {"terminal","scores","ranks","winners"} */
json_t *protocol_result(const asobi_state *state);

#endif

/* fuzz_ws_message.c — fuzz target: WebSocket messages from seats and a spectator to one table, through hall_message (and chat.c's chat and mute). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include "fuzz_server.h"
#include "server/chat.h"

/* The input: byte 0 picks the game (registry order) and the player count,
 * byte 1 which seats are random bots (bit k: seat k); every seat without a
 * bot is joined by a person. Then one message a line: its first byte says
 * who sends it ('s': a spectator; otherwise byte % players: that seat), the
 * rest is the message as the client sends it. A line "K#N" sends, for seat
 * K, the N-th of its legal actions by id, so that inputs reach deep into a
 * game. A line "h..." sends the rest as a spectator's hello (hall_hello),
 * "hK" a hello with seat K's real token (issue 39). The properties, after
 * every message (docs/server.md):
 *  - a hello changes nothing; it opens the seat of its token (a real one:
 *    exactly that seat), a spectator's place, or is refused with
 *    bad_request, bad_token or not_found;
 *  - a refusal gives a code and a message, and changed nothing: the
 *    table's summary and state are byte-identical; it echoes at most
 *    SRV_ECHO_ID_MAX bytes of the message's id;
 *  - an acceptance added the sender's action (bots may follow), or at a
 *    finished table made one rematch where every person keeps their seat
 *    and token, or took back one action of the sender's ({"type":"undo"}:
 *    the record is the one before without it, and replays to the state;
 *    when it was the last action, every viewer's view is again the one
 *    before it, byte for byte; the log says so);
 *  - a chat, mute or unmute message (chat.c, issue 44) is refused with
 *    bad_request or chat_too_long and changes nothing, or adds exactly one
 *    line (a mute: no line); the game is untouched either way, and while it
 *    is in play no seat's chat history holds a spectator's line;
 *  - what each seat and a spectator is sent can be built and names its
 *    viewer, and what a seat is sent is the same whatever the cards it
 *    cannot see: the update built from a determinization for that seat
 *    equals the real one. */

#define MESSAGES_MAX 96

static char tokens[ASOBI_MAX_SEATS][64]; /* the people's tokens, as their joins gave them */

static int64_t make_table(fuzz_server *fs, uint8_t pick, uint8_t bot_bits)
{
    int games = asobi_game_count();
    const asobi_game_def *g = asobi_game_at(pick % games);
    int span = asobi_game_max_players(g) - asobi_game_min_players(g) + 1;
    int players = asobi_game_min_players(g) + (pick / games) % span;
    json_t *bots = json_array();
    for (int k = 0; k < players; k++)
        json_array_append_new(bots, bot_bits >> k & 1 ? json_string("random") : json_null());
    json_t *req = json_pack("{s:s, s:i, s:i, s:o}", "game", asobi_game_name(g), "players", players, "seed", 7, "bots",
                            bots);
    fs->hall.allow_chosen_seeds = true; /* one deal per input: an input always means the same */
    char *body = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    json_t *reply = NULL;
    srv_error e;
    FUZZ_CHECK(hall_http(&fs->hall, true, "/api/tables", body, strlen(body), false, 0, &reply, &e) == 201);
    free(body);
    int64_t id = json_integer_value(json_object_get(reply, "table"));
    json_decref(reply);
    char path[64];
    snprintf(path, sizeof path, "/api/tables/%lld/join", (long long)id);
    for (int k = 0; k < players; k++) {
        if (bot_bits >> k & 1)
            continue;
        char join[64];
        int n = snprintf(join, sizeof join, "{\"name\":\"P%d\",\"seat\":%d}", k, k);
        FUZZ_CHECK(hall_http(&fs->hall, true, path, join, (size_t)n, false, 0, &reply, &e) == 200);
        snprintf(tokens[k], sizeof tokens[k], "%s", json_string_value(json_object_get(reply, "token")));
        json_decref(reply);
    }
    FUZZ_CHECK(store_flush(fs->hall.store, NULL) == ASOBI_OK);
    return id;
}

/* What viewer is sent must not depend on what viewer cannot see. */
static void check_hidden(const table *t, int viewer, uint64_t seed)
{
    json_t *real = table_update(t, viewer, t->log_count - 4, 0);
    asobi_state *world = asobi_state_clone(asobi_match_state(t->match));
    FUZZ_CHECK(world);
    asobi_rng rng;
    asobi_rng_seed(&rng, seed);
    asobi_state_determinize(world, viewer, &rng);
    json_t *other = table_update_of(t, world, viewer, t->log_count - 4, 0);
    FUZZ_CHECK(json_equal(real, other));
    json_decref(other);
    asobi_state_free(world);
    json_decref(real);
}

/* A take-back by seat (issue 44): the match lost one action of seat's,
 * the record is the one before (was) without it and replays to the state,
 * the log's newest entry says it; if it was the last action, every view is
 * the one before it (at: the state when the history was that long). */
static void check_take_back(const table *t, int seat, const json_t *was, const asobi_state *at)
{
    const json_t *before = json_object_get(was, "actions");
    json_t *now = asobi_match_record(t->match);
    const json_t *after = json_object_get(now, "actions");
    size_t n = json_array_size(after), gone = 0;
    FUZZ_CHECK(seat >= 0 && n + 1 == json_array_size(before));
    while (gone < n && json_equal(json_array_get(before, gone), json_array_get(after, gone)))
        gone++;
    FUZZ_CHECK(json_integer_value(json_object_get(json_array_get(before, gone), "seat")) == seat);
    for (size_t i = gone; i < n; i++)
        FUZZ_CHECK(json_equal(json_array_get(before, i + 1), json_array_get(after, i)));
    asobi_match *again = asobi_match_load(now, NULL);
    FUZZ_CHECK(again && asobi_state_equal(asobi_match_state(again), asobi_match_state(t->match)));
    asobi_match_free(again);
    json_decref(now);
    const table_event *said = &t->log[t->log_count - 1];
    FUZZ_CHECK(said->undo && said->seat == seat);
    if (gone == n && at) /* the last action: every viewer is told what it was told before it */
        for (int v = ASOBI_SPECTATOR; v < t->players; v++) {
            char *a = asobi_state_view_text(asobi_match_state(t->match), v, NULL), *b = asobi_state_view_text(at, v, NULL);
            FUZZ_CHECK(a && b && strcmp(a, b) == 0);
            free(a);
            free(b);
        }
}

/* A seat's changed mutes are kept: the store's last mute row of the seat
 * holds its mutes as they are now (what a restart or a takeover reads). */
static void check_mutes_kept(table *t, int seat)
{
    json_t *rows = NULL, *row;
    size_t i;
    json_int_t kept = -1;
    FUZZ_CHECK(store_load_chat(t->store, t->id, &rows, NULL) == ASOBI_OK);
    json_array_foreach(rows, i, row)
        if (json_object_get(row, "mutes") && json_integer_value(json_object_get(row, "seat")) == seat)
            kept = json_integer_value(json_object_get(row, "mutes"));
    json_decref(rows);
    FUZZ_CHECK(kept == (json_int_t)chat_seat_mutes(t, seat));
}

/* A chat, mute or unmute message through chat.c's side without sockets, as
 * chat_message does it: true when it was one (checked here). */
static bool chat_fuzzed(hall *h, table *t, int seat, const char *msg, size_t len, const fuzz_snapshot *before)
{
    json_t *m = json_loadb(msg, len, JSON_REJECT_DUPLICATES, NULL);
    chat_request req;
    srv_error e;
    int kind = json_is_object(m) ? chat_parse(m, t->players, &req, &e) : CHAT_NOT_MINE;
    if (kind == CHAT_NOT_MINE) {
        json_decref(m);
        return false;
    }
    int lines = t->chat ? t->chat->n : 0;
    uint32_t mutes = chat_seat_mutes(t, seat);
    int rc = kind < 0 ? -1
             : kind == CHAT_SAY ? chat_say(t, seat, seat >= 0 ? t->seat[seat].name : "#1", &req, 0, &e)
             : seat >= 0 ? chat_mute_seat(t, seat, &req, 0, &e) : 0;
    FUZZ_CHECK(store_flush(t->store, NULL) == ASOBI_OK);
    if (rc != 0) {
        FUZZ_CHECK(!strcmp(e.code, "bad_request") || !strcmp(e.code, "chat_too_long"));
        FUZZ_CHECK((t->chat ? t->chat->n : 0) == lines && chat_seat_mutes(t, seat) == mutes);
    } else {
        FUZZ_CHECK((t->chat ? t->chat->n : 0) == lines + (kind == CHAT_SAY));
        if (kind == CHAT_SAY) { /* the line as stored is what chat_restore reads back */
            const chat_line *l = &t->chat->lines[t->chat->n - 1];
            json_t *j = chat_line_json(l);
            FUZZ_CHECK(j && (l->text ? strlen(l->text) == req.text_len : chat_phrase_known(l->phrase)));
            json_decref(j);
        }
        if (kind != CHAT_SAY && seat >= 0 && chat_seat_mutes(t, seat) != mutes)
            check_mutes_kept(t, seat);
    }
    fuzz_snapshot_check_same(h, before); /* the game and the summary as they were, line or not */
    json_decref(m);
    for (int v = 0; v < t->players; v++) {
        json_t *history = chat_history_json(t, v, chat_seat_mutes(t, v));
        size_t i;
        json_t *line;
        json_array_foreach(history, i, line)
            FUZZ_CHECK(t->status == TABLE_OVER || json_is_integer(json_object_get(line, "seat")));
        json_decref(history);
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    fuzz_server fs;
    fuzz_server_open(&fs);
    int64_t id = make_table(&fs, data[0], data[1]);
    table *t = hall_slot_of(&fs.hall, id)->t;
    int ids[4096];
    asobi_state *at_length[MESSAGES_MAX + 1] = {0}; /* the state when the history was that long, as last seen */
    const char *p = (const char *)data + 2, *end = (const char *)data + size;
    for (int n = 0; p < end && n < MESSAGES_MAX; n++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        int seat = len == 0 || p[0] == 's' ? ASOBI_SPECTATOR : (unsigned char)p[0] % t->players;
        const char *msg = len ? p + 1 : p;
        size_t mlen = len ? len - 1 : 0;
        char made[96];
        if (mlen > 0 && msg[0] == '#' && seat >= 0) { /* the N-th legal action, by id */
            const asobi_state *s = asobi_match_state(t->match);
            int count = asobi_state_to_move(s) >> seat & 1 ? asobi_state_legal(s, seat, ids) : 0;
            unsigned k = 0; /* the digits after '#' (the line is not NUL-terminated) */
            for (size_t i = 1; i < mlen && i < 6 && msg[i] >= '0' && msg[i] <= '9'; i++)
                k = k * 10 + (unsigned)(msg[i] - '0');
            mlen = (size_t)snprintf(made, sizeof made, "{\"type\":\"act\",\"action\":%d,\"id\":%d}",
                                    count ? ids[k % (unsigned)count] : -1, n);
            msg = made;
        }
        fuzz_snapshot before;
        fuzz_snapshot_take(&fs.hall, &before);
        if (len > 0 && p[0] == 'h') { /* a hello */
            int real = -1;
            if (mlen == 1 && msg[0] >= '0' && msg[0] <= '9' && (msg[0] - '0') < t->players && !t->seat[msg[0] - '0'].bot) {
                real = msg[0] - '0';
                mlen = (size_t)snprintf(made, sizeof made, "{\"type\":\"hello\",\"token\":\"%s\"}", tokens[real]);
                msg = made;
            }
            json_t *parsed;
            const char *token, *code;
            srv_error e;
            int opens = hall_hello(&fs.hall, id, msg, mlen, &parsed, &token, &code, &e);
            FUZZ_CHECK(real < 0 || opens == real);
            FUZZ_CHECK(opens == HALL_HELLO_NOT || opens == ASOBI_SPECTATOR || (opens >= 0 && opens < t->players) ||
                       opens == HALL_HELLO_REFUSED);
            if (opens >= 0)
                FUZZ_CHECK(token && table_seat_of_token(t, token) == opens);
            if (opens == HALL_HELLO_REFUSED) {
                FUZZ_CHECK(!strcmp(e.code, "bad_request") || !strcmp(e.code, "bad_token") || !strcmp(e.code, "not_found"));
                json_t *reply = srv_error_json(&e);
                fuzz_check_refusal(reply, &e);
                json_decref(reply);
            }
            json_decref(parsed);
            fuzz_snapshot_check_same(&fs.hall, &before);
            fuzz_snapshot_free(&before);
            p += len + (nl != NULL);
            continue;
        }
        if (chat_fuzzed(&fs.hall, t, seat, msg, mlen, &before)) {
            fuzz_snapshot_free(&before);
            p += len + (nl != NULL);
            continue;
        }
        int length = asobi_match_length(t->match);
        if (length <= MESSAGES_MAX) {
            asobi_state_free(at_length[length]);
            at_length[length] = asobi_state_clone(asobi_match_state(t->match));
        }
        json_t *record = asobi_match_record(t->match);
        json_t *msg_id = NULL;
        srv_error e;
        int rc = hall_message(&fs.hall, id, seat, msg, mlen, 0, &msg_id, &e);
        FUZZ_CHECK(store_flush(fs.hall.store, NULL) == ASOBI_OK);
        if (rc != 0) {
            json_t *reply = srv_error_json(&e); /* as the socket side sends it */
            FUZZ_CHECK(json_is_object(reply));
            fuzz_check_refusal(reply, &e);
            json_object_set_new(reply, "type", json_string("error"));
            /* a refusal echoes at most a capped part of the id (srv_echo_id) */
            FUZZ_CHECK(!json_is_string(msg_id) || json_string_length(msg_id) <= SRV_ECHO_ID_MAX);
            FUZZ_CHECK(!(json_is_array(msg_id) || json_is_object(msg_id)) ||
                       json_dumpb(msg_id, NULL, 0, JSON_COMPACT) <= SRV_ECHO_ID_MAX);
            json_object_set(reply, "id", msg_id ? msg_id : json_null());
            char *text = json_dumps(reply, JSON_COMPACT);
            FUZZ_CHECK(text);
            free(text);
            json_decref(reply);
            fuzz_snapshot_check_same(&fs.hall, &before);
        } else if (asobi_match_length(t->match) < length) { /* a take-back */
            check_take_back(t, seat, record, length - 1 <= MESSAGES_MAX ? at_length[length - 1] : NULL);
        } else if (asobi_match_length(t->match) == length) { /* a rematch: asked at a finished table */
            FUZZ_CHECK(seat >= 0 && t->status == TABLE_OVER && t->rematch > 0);
            const hall_slot *next = hall_slot_of(&fs.hall, t->rematch);
            FUZZ_CHECK(next && next->t->players == t->players);
            for (int k = 0; k < t->players; k++) /* every person keeps their seat and token */
                FUZZ_CHECK(strcmp(next->t->seat[k].token_hash, t->seat[k].token_hash) == 0);
        } else {
            FUZZ_CHECK(seat >= 0);
            FUZZ_CHECK(asobi_match_action_seat(t->match, length) == seat);
        }
        json_decref(msg_id);
        json_decref(record);
        fuzz_snapshot_free(&before);
        fuzz_check_updates(t);
        for (int v = 0; v < t->players; v++)
            check_hidden(t, v, (uint64_t)n + 1);
        p += len + (nl != NULL);
    }
    for (int k = 0; k <= MESSAGES_MAX; k++)
        asobi_state_free(at_length[k]);
    fuzz_server_close(&fs);
    return 0;
}

/* state.c — the flat game state and the checks that stand between callers and a game's rules. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "game_def.h"
#include "rng_inline.h"

/* One block: a small header, then the game's own struct. No pointer inside
 * points into the heap (def points at a constant table), so copying a state is
 * one memcpy of state->size bytes. */
struct asobi_state {
    const asobi_game_def *def;
    size_t size;
    int players;
    int reserved;
    _Alignas(16) unsigned char data[];
};

static size_t block_size(const asobi_game_def *def)
{
    return sizeof(asobi_state) + ((def->state_size + 15) & ~(size_t)15);
}

asobi_state *asobi_state_new(const asobi_game_def *game, int players, const json_t *options,
                             uint64_t seed, asobi_error *err)
{
    if (!game) {
        asobi_fail(err, ASOBI_E_UNKNOWN_GAME, "no game given");
        return NULL;
    }
    if (players < game->min_players || players > game->max_players) {
        asobi_fail(err, ASOBI_E_BAD_PLAYERS, "%s is for %d to %d players, not %d", game->title,
                   game->min_players, game->max_players, players);
        return NULL;
    }
    json_t *full = asobi_game_options(game, options, err);
    if (!full)
        return NULL;
    size_t size = block_size(game);
    asobi_state *s = calloc(1, size);
    if (!s) {
        json_decref(full);
        asobi_fail(err, ASOBI_E_NOMEM, "out of memory");
        return NULL;
    }
    s->def = game;
    s->size = size;
    s->players = players;
    asobi_error local;
    asobi_error_clear(&local);
    int rc = game->init(s->data, players, full, seed, &local);
    json_decref(full);
    if (rc != ASOBI_OK) {
        if (err)
            *err = local;
        free(s);
        return NULL;
    }
    asobi_error_clear(err);
    return s;
}

asobi_state *asobi_state_clone(const asobi_state *state)
{
    asobi_state *s = malloc(state->size);
    if (s)
        memcpy(s, state, state->size);
    return s;
}

void asobi_state_copy(asobi_state *dst, const asobi_state *src) { memcpy(dst, src, src->size); }
void asobi_state_free(asobi_state *state) { free(state); }
size_t asobi_state_size(const asobi_state *state) { return state->size; }

bool asobi_state_equal(const asobi_state *a, const asobi_state *b)
{
    return a->size == b->size && memcmp(a, b, a->size) == 0;
}

const void *asobi_state_data_for_ai(const asobi_state *state) { return state->data; }
void *asobi_state_data_mut(asobi_state *state) { return state->data; }

const asobi_game_def *asobi_state_game(const asobi_state *state) { return state->def; }
int asobi_state_players(const asobi_state *state) { return state->players; }
uint32_t asobi_state_to_move(const asobi_state *state) { return state->def->to_move(state->data); }
bool asobi_state_terminal(const asobi_state *state) { return asobi_state_to_move(state) == 0; }

uint32_t asobi_state_turn(const asobi_state *state)
{
    return state->def->turn ? state->def->turn(state->data) : state->def->to_move(state->data);
}

/* The checks every action goes through before a game sees it. */
int asobi_state_may_act(const asobi_state *s, int seat, asobi_error *err)
{
    if (seat < 0 || seat >= s->players)
        return asobi_fail(err, ASOBI_E_BAD_SEAT, "seat %d does not exist (seats are 0 to %d)", seat,
                          s->players - 1);
    uint32_t to_move = asobi_state_to_move(s);
    if (to_move == 0) {
        char why[200] = "";
        if (s->def->over_text)
            s->def->over_text(s->data, why, sizeof why);
        return asobi_fail(err, ASOBI_E_GAME_OVER, "the game is over%s%s", why[0] ? ": " : "", why);
    }
    if (!(to_move & (1u << seat))) {
        /* say whose turn it is: "not your turn: seat 2 is to move" */
        char who[96] = "";
        int len = 0, left = asobi_popcount32(to_move);
        for (int i = 0; i < s->players && len < (int)sizeof who - 16; i++)
            if (to_move & (1u << i)) {
                left--;
                len += snprintf(who + len, sizeof who - (size_t)len, "%s%d",
                                len == 0 ? "" : left == 0 ? " and " : ", ", i);
            }
        return asobi_fail(err, ASOBI_E_NOT_YOUR_TURN, "not your turn: seat%s %s %s to move",
                          asobi_popcount32(to_move) > 1 ? "s" : "", who,
                          asobi_popcount32(to_move) > 1 ? "are" : "is");
    }
    return ASOBI_OK;
}

int asobi_state_legal(const asobi_state *state, int seat, int *ids)
{
    if (seat < 0 || seat >= state->players || !(asobi_state_to_move(state) & (1u << seat)))
        return 0;
    return state->def->legal(state->data, seat, ids);
}

int asobi_state_legal_unchecked(const asobi_state *state, int seat, int *ids)
{
    return state->def->legal(state->data, seat, ids);
}

/* The fallback, listed and drawn from: out of line, so that its array of
 * max_actions ints (a variable-length one) does not make every caller of
 * random_action set up and tear down a stack frame for it, hook or not (39
 * instructions a decision of a NINJA playout, whose hook covers it all). */
static __attribute__((noinline)) int random_action_listed(const asobi_state *state, int seat, asobi_rng *rng)
{
    const asobi_game_def *def = state->def;
    int ids[def->max_actions];
    int n = def->legal(state->data, seat, ids);
    return n > 0 ? ids[asobi_rng_below_inline(rng, (uint32_t)n)] : -1;
}

static inline int random_action(const asobi_state *state, int seat, asobi_rng *rng)
{
    const asobi_game_def *def = state->def;
    if (def->random_action)
        return def->random_action(state->data, seat, rng);
    return random_action_listed(state, seat, rng);
}

int asobi_state_random_action_unchecked(const asobi_state *state, int seat, asobi_rng *rng)
{
    return random_action(state, seat, rng);
}

int asobi_state_random_action(const asobi_state *state, int seat, asobi_rng *rng)
{
    if (seat < 0 || seat >= state->players || !(state->def->to_move(state->data) & (1u << seat)))
        return -1;
    return random_action(state, seat, rng);
}

long asobi_state_random_playout(asobi_state *state, asobi_rng *rng)
{
    const asobi_game_def *def = state->def;
    if (def->random_playout)
        return def->random_playout(state->data, rng);
    long actions = 0;
    uint32_t to_move;
    while ((to_move = def->to_move(state->data)) != 0) {
        int seat = __builtin_ctz(to_move);
        int id = random_action(state, seat, rng);
        if (id < 0) /* a seat to move with no legal action: a broken game, not ours to loop on */
            break;
        def->apply(state->data, seat, id);
        actions++;
    }
    return actions;
}

bool asobi_state_is_legal(const asobi_state *state, int seat, int id)
{
    if (id < 0 || id >= state->def->max_actions)
        return false;
    int ids[state->def->max_actions];
    int n = asobi_state_legal(state, seat, ids);
    for (int i = 0; i < n; i++)
        if (ids[i] == id)
            return true;
    return false;
}

int asobi_state_action_text(const asobi_state *state, int seat, int id, char *buf, size_t cap)
{
    if (cap == 0)
        return 0;
    buf[0] = '\0';
    int n = state->def->action_text(state->data, seat, id, buf, cap);
    return n < 0 ? 0 : n;
}

int asobi_state_public_text(const asobi_state *state, int seat, int id, int viewer, char *buf, size_t cap)
{
    if (viewer == seat || viewer == ASOBI_ALL_SEEING)
        return asobi_state_action_text(state, seat, id, buf, cap);
    if (cap == 0)
        return 0;
    buf[0] = '\0';
    if (state->def->public_text)
        return state->def->public_text(state->data, seat, id, viewer, buf, cap);
    if (asobi_popcount32(asobi_state_to_move(state)) > 1)
        return snprintf(buf, cap, "chooses face down");
    return asobi_state_action_text(state, seat, id, buf, cap);
}

static int illegal(const asobi_state *s, int seat, int id, asobi_error *err)
{
    char why[ASOBI_MESSAGE_MAX] = "";
    if (id >= 0 && id < s->def->max_actions && s->def->explain_illegal)
        s->def->explain_illegal(s->data, seat, id, why, sizeof why);
    if (why[0])
        return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "%s", why);
    return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "action %d is not legal for seat %d now", id, seat);
}

int asobi_state_apply(asobi_state *state, int seat, int id, asobi_error *err)
{
    int rc = asobi_state_may_act(state, seat, err);
    if (rc != ASOBI_OK)
        return rc;
    if (!asobi_state_is_legal(state, seat, id))
        return illegal(state, seat, id, err);
    state->def->apply(state->data, seat, id);
    asobi_error_clear(err);
    return ASOBI_OK;
}

void asobi_state_apply_unchecked(asobi_state *state, int seat, int id)
{
    state->def->apply(state->data, seat, id);
}

/* Action texts are compared after folding ASCII case and runs of spaces, so
 * "Play  3 " finds "play 3". Non-ASCII bytes (UTF-8) are compared as they are. */
static void normalize_text(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    bool space = false;
    while (*in && isspace((unsigned char)*in))
        in++;
    for (; *in && n + 1 < cap; in++) {
        unsigned char c = (unsigned char)*in;
        if (isspace(c)) {
            space = true;
            continue;
        }
        if (space && n + 2 < cap)
            out[n++] = ' ';
        space = false;
        out[n++] = (char)(c < 128 ? tolower(c) : c);
    }
    out[n] = '\0';
}

int asobi_state_parse_action(const asobi_state *state, int seat, const char *text, int *id,
                             asobi_error *err)
{
    int rc = asobi_state_may_act(state, seat, err);
    if (rc != ASOBI_OK)
        return rc;
    if (!text)
        return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "no action given");
    const asobi_game_def *def = state->def;
    if (def->parse_action) {
        int parsed = -1;
        asobi_error local;
        asobi_error_clear(&local);
        if (def->parse_action(state->data, seat, text, &parsed, &local) != ASOBI_OK) {
            if (err)
                *err = local;
            return local.code ? local.code : ASOBI_E_ILLEGAL_ACTION;
        }
        if (!asobi_state_is_legal(state, seat, parsed))
            return illegal(state, seat, parsed, err);
        *id = parsed;
        asobi_error_clear(err);
        return ASOBI_OK;
    }
    char want[256], have[256], buf[256];
    normalize_text(text, want, sizeof want);
    int ids[def->max_actions];
    int n = asobi_state_legal(state, seat, ids);
    for (int i = 0; i < n; i++) {
        asobi_state_action_text(state, seat, ids[i], buf, sizeof buf);
        normalize_text(buf, have, sizeof have);
        if (strcmp(want, have) == 0) {
            *id = ids[i];
            asobi_error_clear(err);
            return ASOBI_OK;
        }
    }
    return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "\"%.80s\" is not a legal action for seat %d now",
                      text, seat);
}

void asobi_state_result(const asobi_state *state, asobi_result *out)
{
    memset(out, 0, sizeof *out);
    out->players = state->players;
    out->terminal = asobi_state_terminal(state);
    state->def->result(state->data, out);
}

json_t *asobi_json_seats(uint32_t mask)
{
    json_t *a = json_array();
    for (int i = 0; i < 32; i++)
        if (mask & (1u << i))
            json_array_append_new(a, json_integer(i));
    return a;
}

static bool viewer_ok(const asobi_state *state, int seat)
{
    return seat == ASOBI_ALL_SEEING || seat == ASOBI_SPECTATOR || (seat >= 0 && seat < state->players);
}

/* The fields every view starts with, then the game's own: one writer call
 * sequence for the text and for the tree. */
static void write_view(const asobi_state *state, int seat, asobi_vw *w)
{
    uint32_t to_move = asobi_state_to_move(state);
    vw_str(w, "game", state->def->name);
    if (seat < 0)
        vw_null(w, "seat");
    else
        vw_int(w, "seat", seat);
    /* A game's view shows a seat's private fields only to that seat or to
     * ASOBI_ALL_SEEING; the spectator is neither, so it sees the public
     * fields alone without any game knowing about spectators. */
    if (seat == ASOBI_SPECTATOR)
        vw_bool(w, "spectator", true);
    vw_seats(w, "to_move", to_move);
    vw_bool(w, "terminal", to_move == 0);
    state->def->view(state->data, seat, w);
}

void vw_view(asobi_vw *w, const char *key, const asobi_state *state, int seat)
{
    if (!viewer_ok(state, seat)) {
        w->failed = true;
        return;
    }
    vw_object_begin(w, key);
    write_view(state, seat, w);
    vw_object_end(w);
}

json_t *asobi_state_view(const asobi_state *state, int seat)
{
    if (!viewer_ok(state, seat))
        return NULL;
    asobi_vw w;
    if (!asobi_vw_start_tree(&w))
        return NULL;
    write_view(state, seat, &w);
    return asobi_vw_finish_tree(&w);
}

char *asobi_state_view_text(const asobi_state *state, int seat, size_t *len)
{
    if (!viewer_ok(state, seat))
        return NULL;
    asobi_vw w;
    if (!asobi_vw_start_text(&w, 2048))
        return NULL;
    write_view(state, seat, &w);
    return asobi_vw_finish_text(&w, len);
}

char *asobi_state_render(const asobi_state *state, int seat)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    state->def->render(state->data, seat, f);
    fclose(f);
    return text;
}

void asobi_state_determinize(asobi_state *state, int viewer, asobi_rng *rng)
{
    state->def->determinize(state->data, viewer, rng);
    /* The state's own generator decides every future shuffle and draw: it is
     * hidden information too, so it is replaced from the caller's rng. */
    asobi_rng *own = (asobi_rng *)(void *)(state->data + state->def->rng_offset);
    asobi_rng_seed(own, asobi_rng_next(rng));
}

void asobi_state_retract_unseen(asobi_state *state, int viewer)
{
    if (state->def->retract_unseen)
        state->def->retract_unseen(state->data, viewer);
}

void asobi_rank_by_score(asobi_result *out)
{
    out->winners = 0;
    for (int i = 0; i < out->players; i++) {
        int rank = 1;
        for (int j = 0; j < out->players; j++)
            if (out->score[j] > out->score[i])
                rank++;
        out->rank[i] = rank;
        if (rank == 1)
            out->winners |= 1u << i;
    }
}

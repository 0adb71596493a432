/* psycle_game.c — PSYCLE behind the game-agnostic interface: set-up, actions, results, determinization. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game_def.h"
#include "hash.h"
#include "rng_inline.h"
#include "psycle.h"

/* Action ids: id N is "play N", the card N (0..5). */

static int psycle_init(void *st, int players, const json_t *options, uint64_t seed, asobi_error *err)
{
    (void)err;
    psycle_state *s = st;
    asobi_rng_seed(&s->rng, seed);
    s->players = (uint8_t)players;
    s->max_cycles = (uint16_t)asobi_option_int(options, "max_cycles");
    for (int i = 0; i < players; i++) {
        s->played[i] = -1;
        s->last_cycle_score[i] = 0;
    }
    psycle_setup_cycle(s);
    return ASOBI_OK;
}

/* §6.2: any card of the hand, but "カードの数字が、所有している『リソース
 * ジェム』の数よりも多い場合、そのカードは出すことが出来ません". */
static int psycle_legal(const void *st, int seat, int *ids)
{
    const psycle_state *s = st;
    int n = 0;
    for (int card = 0; card < PSYCLE_CARDS; card++)
        if (card <= s->gems[seat])
            ids[n++] = card;
    return n;
}

/* legal()'s list is the cards 0..min(gems, 5): its k-th entry is k. */
static int psycle_random_action(const void *st, int seat, asobi_rng *rng)
{
    const psycle_state *s = st;
    int top = s->gems[seat] < PSYCLE_CARDS - 1 ? s->gems[seat] : PSYCLE_CARDS - 1;
    return (int)asobi_rng_below_inline(rng, (uint32_t)top + 1);
}

/* asobi_state_random_playout's loop, a round at a time: each seat still to
 * choose, lowest first, draws its card as psycle_random_action would (a
 * seat's cards depend on its own gems only, so the choices made before it
 * in the round change nothing of its draw), then the round is resolved, as
 * psycle_apply does when the last seat has chosen. */
static long psycle_random_playout(void *st, asobi_rng *rng)
{
    psycle_state *s = st;
    long actions = 0;
    while (s->choosing) {
        for (uint32_t m = s->choosing; m; m &= m - 1) {
            int seat = __builtin_ctz(m);
            s->pending[seat] = (int8_t)psycle_random_action(s, seat, rng);
            actions++;
        }
        s->choosing = 0;
        psycle_resolve_round(s);
    }
    return actions;
}

static void psycle_apply(void *st, int seat, int id)
{
    psycle_state *s = st;
    s->pending[seat] = (int8_t)id;
    s->choosing = (uint8_t)(s->choosing & ~(1u << seat));
    if (s->choosing == 0)
        psycle_resolve_round(s);
}

static int psycle_action_text(const void *st, int seat, int id, char *buf, size_t cap)
{
    (void)st;
    (void)seat;
    if (id >= 0 && id <= 9 && cap >= 7) { /* every card: the server lists them in every update */
        memcpy(buf, "play ", 5);
        buf[5] = (char)('0' + id);
        buf[6] = '\0';
        return 6;
    }
    return snprintf(buf, cap, "play %d", id);
}

/* "play N" (or just "N"), N a card 0..5; case and spaces do not matter. */
static int psycle_parse_action(const void *st, int seat, const char *text, int *id, asobi_error *err)
{
    (void)st;
    (void)seat;
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    if (strncasecmp(p, "play", 4) == 0)
        for (p += 4; isspace((unsigned char)*p);)
            p++;
    bool number = isdigit((unsigned char)*p) || (*p == '-' && isdigit((unsigned char)p[1]));
    if (number) {
        char *end;
        errno = 0;
        long card = strtol(p, &end, 10);
        while (isspace((unsigned char)*end))
            end++;
        if (*end == '\0') {
            if (errno != 0 || card < 0 || card >= PSYCLE_CARDS)
                return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION,
                                  "there is no card %.20s: the cards are 0 to 5", p);
            *id = (int)card;
            return ASOBI_OK;
        }
    }
    return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION,
                      "\"%.60s\" is not a PSYCLE action: write \"play N\" with N from 0 to 5", text);
}

static void psycle_explain_illegal(const void *st, int seat, int id, char *buf, size_t cap)
{
    const psycle_state *s = st;
    if (id > s->gems[seat])
        /* said to the seat that chose: no seat number, which people count from 1 and the protocol from 0 */
        snprintf(buf, cap, "card %d costs %d gem%s and you hold %d: %s%d", id, id, id == 1 ? "" : "s",
                 s->gems[seat], s->gems[seat] == 0 ? "only card " : "choose a card from 0 to ", s->gems[seat]);
}

/* Score: victory tiles. Once over, the winners are those the rules name
 * (two tiles, or the cap's leaders), ranked first; the rest by tiles. */
static void psycle_result(const void *st, asobi_result *out)
{
    const psycle_state *s = st;
    for (int i = 0; i < s->players; i++)
        out->score[i] = s->victory[i];
    asobi_rank_by_score(out);
    if (s->over)
        out->winners = s->winners;
}

/* Hidden from a seat: the order of this cycle's face-down tiles, the other
 * seats' face-down choices of this round (and the generator). The tiles left
 * are known (each value once); their order is reshuffled. A hidden choice is
 * replaced by a uniformly drawn card that seat could afford. */
/* The face-down tiles of a pile: the box's tiles minus those face up. */
static int unrevealed_tiles(const uint8_t *pile, int face_up, const uint8_t *box, uint8_t *out)
{
    int n = 0;
    for (int v = 0; v < PSYCLE_ROUNDS; v++) {
        bool shown = false;
        for (int r = 0; r < face_up; r++)
            shown |= pile[r] == box[v];
        if (!shown)
            out[n++] = box[v];
    }
    return n;
}

/* Hidden from a seat: the order of this cycle's face-down tiles, the other
 * seats' face-down choices of this round (and the generator). The tiles left
 * are known (each value once); their order is reshuffled. A hidden choice is
 * replaced by a uniformly drawn card that seat could afford. */
/* The seat count with the bound the state checks guarantee made visible to
 * the compiler: with s->players alone, GCC -O3 splits the loops below at the
 * viewer and warns (stringop-overflow) that a seat past the arrays could be
 * written. */
static int seats_of(const psycle_state *s)
{
    return s->players < PSYCLE_MAX_PLAYERS ? s->players : PSYCLE_MAX_PLAYERS;
}

static void psycle_determinize(void *st, int viewer, asobi_rng *rng)
{
    psycle_state *s = st;
    if (s->over)
        return;
    int face_up = s->round + 1;
    uint8_t t[PSYCLE_ROUNDS], b[PSYCLE_ROUNDS];
    int left = unrevealed_tiles(s->targets, face_up, psycle_table.targets, t);
    unrevealed_tiles(s->bonuses, face_up, psycle_table.bonuses, b);
    /* hidden field: "the victory tiles not yet face up (their order)" */
    asobi_rng_shuffle(rng, t, (size_t)left, 1);
    /* hidden field: "the bonus tiles not yet face up (their order)" */
    asobi_rng_shuffle(rng, b, (size_t)left, 1);
    memcpy(s->targets + face_up, t, (size_t)left);
    memcpy(s->bonuses + face_up, b, (size_t)left);
    for (int i = 0; i < seats_of(s); i++)
        if (i != viewer && s->pending[i] >= 0) {
            int affordable = s->gems[i] < PSYCLE_CARDS - 1 ? s->gems[i] : PSYCLE_CARDS - 1;
            /* hidden field: "another seat's face-down card" */
            s->pending[i] = (int8_t)asobi_rng_below(rng, (uint32_t)affordable + 1);
        }
}

static void psycle_retract_unseen(void *st, int viewer)
{
    psycle_state *s = st;
    for (int i = 0; i < seats_of(s); i++)
        if (i != viewer)
            s->pending[i] = -1;
    psycle_set_choosing(s);
}

/* The viewer's information set, for search (game_def.h, info_hash): the
 * state with what determinize resamples blanked. The tiles not yet face up
 * are a shuffle of the ones left, which the face-up ones fix; another
 * seat's face-down card becomes "has chosen" (that it chose is seen: its
 * "chosen" flag; what, is not); the state's own generator is left out.
 * test_conformance checks it against determinize-and-compare. */
static uint64_t psycle_info_hash(const void *st, int viewer)
{
    psycle_state c;
    memcpy(&c, st, sizeof c);
    memset(&c.rng, 0, sizeof c.rng);
    if (!c.over) {
        int face_up = c.round + 1;
        memset(c.targets + face_up, 0, (size_t)(PSYCLE_ROUNDS - face_up));
        memset(c.bonuses + face_up, 0, (size_t)(PSYCLE_ROUNDS - face_up));
    }
    for (int i = 0; i < seats_of(&c); i++)
        if (i != viewer && c.pending[i] >= 0)
            c.pending[i] = 100;
    return asobi_hash_bytes(&c, sizeof c, (uint64_t)viewer);
}

static const asobi_option_def psycle_options[] = {
    {.name = "max_cycles",
     .type = ASOBI_OPT_INT,
     .min = 1,
     .max = 10000,
     .default_json = "100",
     .help = "safety cap: the game stops after this many cycles (ties replayed included); the "
             "seats with the most victory tiles then share the victory"},
};

const asobi_game_def asobi_game_psycle = {
    .name = "psycle",
    .title = "PSYCLE",
    .min_players = PSYCLE_MIN_PLAYERS,
    .max_players = PSYCLE_MAX_PLAYERS,
    .state_size = sizeof(psycle_state),
    .rng_offset = offsetof(psycle_state, rng),
    .max_actions = PSYCLE_CARDS,
    .options = psycle_options,
    .option_count = 1,
    .init = psycle_init,
    .to_move = psycle_to_move,
    .legal = psycle_legal,
    .random_action = psycle_random_action,
    .random_playout = psycle_random_playout,
    .apply = psycle_apply,
    .action_text = psycle_action_text,
    .parse_action = psycle_parse_action,
    .explain_illegal = psycle_explain_illegal,
    .over_text = psycle_over_text,
    .events = psycle_events,
    .result = psycle_result,
    .view = psycle_view,
    .render = psycle_render,
    .determinize = psycle_determinize,
    .retract_unseen = psycle_retract_unseen,
    .info_hash = psycle_info_hash,
    .choices_independent = true,
    .quiet = psycle_quiet,
    .heuristic = psycle_heuristic,
};

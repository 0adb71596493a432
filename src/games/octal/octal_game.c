/* octal_game.c — THE OCTAL behind the game-agnostic interface: options, set-up, results, determinization. */
#include <stddef.h>
#include <string.h>

#include "bits.h"
#include "game_def.h"
#include "octal.h"

static int octal_init(void *st, int players, const json_t *options, uint64_t seed, asobi_error *err)
{
    octal_state *s = st;
    /* "auto" (the default) is twin mode, the one the seed explains first and
     * recommends ("初めて遊ぶときにオススメ"), for 3-5 players, and single mode
     * for 6, the only mode the seed allows them (docs ruling 2). */
    const char *mode = asobi_option_string(options, "mode");
    bool twin = strcmp(mode, "twin") == 0 || (strcmp(mode, "auto") == 0 && players <= OCTAL_TWIN_MAX_PLAYERS);
    int ranks = asobi_option_int(options, "ranks");
    /* §モードの選択: "ツインモード プレイヤー数：3～5人", "シングルモード プレイヤー数：3～6人". */
    if (twin && players > OCTAL_TWIN_MAX_PLAYERS)
        return asobi_fail(err, ASOBI_E_BAD_PLAYERS,
                          "twin mode is for 3 to 5 players; %d players play with mode single", players);
    /* §⑩ "基本は1位のみ決めますが、5人以上であれば3位まで決めても良いです". */
    if (ranks > 1 && players < 5)
        return asobi_fail(err, ASOBI_E_BAD_OPTION,
                          "ranks above 1 (playing on for 2nd and 3rd place) need 5 or more players");
    asobi_rng_seed(&s->rng, seed);
    s->players = (uint8_t)players;
    s->questions = twin ? 2 : 1;
    s->ranks_wanted = (uint8_t)ranks;
    s->max_turns = (uint16_t)asobi_option_int(options, "max_turns");
    /* §モードの選択 "一方を交換することもできます": the table's choice (ruling 3). */
    octal_setup(s, strcmp(asobi_option_string(options, "twin_same_condition"), "exchange") == 0);
    return ASOBI_OK;
}

/* Scores while the game runs: minus the cards in hand; a finished seat
 * scores players + 1 - its rank. Once over: the finishers by the order they
 * emptied their hands (§遊び方 ③, §⑩); the others share the next rank
 * (the seed ranks nobody else), except when the game was blocked or hit the
 * turn cap, where fewer cards in hand rank better (docs rulings 14, 15, 16). */
void octal_result(const void *st, asobi_result *out)
{
    const octal_state *s = st;
    for (int i = 0; i < s->players; i++)
        out->score[i] = s->finished_rank[i] ? (double)(s->players + 1 - s->finished_rank[i])
                                            : -(double)octal_hand_size(s, i);
    if (!s->over) {
        asobi_rank_by_score(out);
        return;
    }
    out->winners = 0;
    for (int i = 0; i < s->players; i++) {
        if (s->finished_rank[i]) {
            out->rank[i] = s->finished_rank[i];
        } else {
            int rank = s->finished_count + 1;
            if (s->capped || s->blocked)
                for (int j = 0; j < s->players; j++)
                    if (!s->finished_rank[j] && octal_hand_size(s, j) < octal_hand_size(s, i))
                        rank++;
            out->rank[i] = rank;
        }
        if (out->rank[i] == 1)
            out->winners |= 1u << i;
    }
}

/* Hidden from a seat: the other hands, the deck's order, the cards others
 * discarded face down (and the generator). Known: its own hand and discards,
 * every card of the questions. The unknown cards, collected in card order,
 * are shuffled and dealt back: to the other hands (their sizes kept), to the
 * others' discards (their counts kept), then to the deck. */
static void octal_determinize(void *st, int viewer, asobi_rng *rng)
{
    octal_state *s = st;
    if (viewer < 0 || viewer >= s->players)
        return;
    uint64_t known = s->hand[viewer] | s->discarded[viewer];
    for (int q = 0; q < s->questions; q++)
        for (int i = 0; i < s->stack[q].size; i++)
            known |= 1ull << s->stack[q].e[i].card;
    uint8_t pool[OCTAL_CARDS];
    int n = 0;
    for (int c = 0; c < OCTAL_CARDS; c++)
        if (!(known >> c & 1u))
            pool[n++] = (uint8_t)c;
    /* hidden field: "another seat's hand", "another seat's face-down discards", "the deck (its order)" */
    asobi_rng_shuffle(rng, pool, (size_t)n, 1);
    int next = 0;
    for (int i = 0; i < s->players; i++) {
        if (i == viewer)
            continue;
        int size = octal_hand_size(s, i);
        s->hand[i] = 0;
        while (size-- > 0)
            s->hand[i] |= 1ull << pool[next++];
    }
    for (int i = 0; i < s->players; i++) {
        if (i == viewer)
            continue;
        int size = asobi_popcount64(s->discarded[i]);
        s->discarded[i] = 0;
        while (size-- > 0)
            s->discarded[i] |= 1ull << pool[next++];
    }
    for (int i = 0; i < s->deck_size; i++)
        s->deck[i] = pool[next++];
}

static const char *const mode_choices[] = {"twin", "single", "auto", NULL};
static const char *const same_condition_choices[] = {"exchange", "keep", NULL};

static const asobi_option_def octal_options[] = {
    {.name = "mode",
     .type = ASOBI_OPT_ENUM,
     .choices = mode_choices,
     .default_json = "\"auto\"",
     .help = "twin: two dragon's questions, 3-5 players (the easier mode); single: one question, 3-6 "
             "players; auto: twin for 3-5 players, single for 6"},
    {.name = "ranks",
     .type = ASOBI_OPT_INT,
     .min = 1,
     .max = 3,
     .default_json = "1",
     .help = "play on until this many players have emptied their hands (2 or 3: 5-6 players only)"},
    {.name = "max_turns",
     .type = ASOBI_OPT_INT,
     .min = 10,
     .max = 60000,
     .default_json = "1000",
     .help = "safety cap: the game stops after this many turns; fewer cards in hand then rank better"},
    {.name = "twin_same_condition",
     .type = ASOBI_OPT_ENUM,
     .choices = same_condition_choices,
     .default_json = "\"exchange\"",
     .help = "twin mode, when both questions come out the same (letter and number) at set-up: exchange "
             "question 2's condition card until they differ, or keep them"},
};

const asobi_game_def asobi_game_octal = {
    .name = "octal",
    .title = "THE OCTAL",
    .min_players = OCTAL_MIN_PLAYERS,
    .max_players = OCTAL_MAX_PLAYERS,
    .state_size = sizeof(octal_state),
    .rng_offset = offsetof(octal_state, rng),
    .max_actions = OCTAL_MAX_ACTIONS,
    .options = octal_options,
    .option_count = 4,
    .init = octal_init,
    .to_move = octal_to_move,
    .turn = octal_turn,
    .legal = octal_legal,
    .random_action = octal_random_action,
    .apply = octal_apply,
    .action_text = octal_action_text,
    .parse_action = octal_parse_action,
    .public_text = octal_public_text,
    .explain_illegal = octal_explain_illegal,
    .over_text = octal_over_text,
    .events = octal_events,
    .result = octal_result,
    .view = octal_view,
    .render = octal_render,
    .determinize = octal_determinize,
    .heuristic = octal_heuristic,
    .quiet = octal_quiet,
};

/* octal_view.c — what each OCTAL seat may see, as JSON for programs and as text for the terminal. */
#include <stdio.h>
#include <string.h>

#include "game_def.h"
#include "octal.h"

static void card_value(asobi_vw *w, const char *key, int card)
{
    char text[16];
    octal_card_text(card, text, sizeof text);
    vw_str(w, key, text);
}

/* A set of cards in the order a hand shows them. */
static void cards_array(asobi_vw *w, const char *key, uint64_t set)
{
    uint8_t order[OCTAL_CARDS];
    int n = octal_hand_order(set, order);
    vw_array_begin(w, key);
    for (int i = 0; i < n; i++)
        card_value(w, NULL, order[i]);
    vw_array_end(w);
}

static int discard_size(const octal_state *s)
{
    int n = 0;
    for (int i = 0; i < s->players; i++)
        n += __builtin_popcountll(s->discarded[i]);
    return n;
}

/* Does some placing of seat now leave it exactly one card (so needs Octo!)? */
static bool octo_needed_soon(const octal_state *s, int seat)
{
    int n = octal_hand_size(s, seat);
    return n == 2 || n == OCTAL_HAND_LIMIT;
}

static const char *event_name(int event)
{
    static const char *const names[] = {"none", "play", "lay", "override", "pass", "discard", "octo"};
    return names[event];
}

/* Public: the question stacks in full (face up), the deck's size (never its
 * order), every hand's size, who discarded how many (face down), the
 * counters. Private: a hand, and the cards its owner discarded, shown only to
 * that seat (and to the all-seeing view). What a pass drew and what a
 * discard threw away are never public. */
void octal_view(const void *st, int seat, asobi_vw *w)
{
    const octal_state *s = st;
    bool all = seat == ASOBI_ALL_SEEING;
    vw_str(w, "mode", s->questions == 2 ? "twin" : "single");
    vw_str(w, "phase", s->phase == OCTAL_PHASE_DISCARD ? "discard" : "play");
    vw_array_begin(w, "questions");
    for (int q = 0; q < s->questions; q++) {
        const octal_stack *stk = &s->stack[q];
        int condition, reference;
        octal_question(s, q, &condition, &reference);
        vw_object_begin(w, NULL);
        vw_array_begin(w, "cards");
        for (int i = 0; i < stk->size; i++)
            card_value(w, NULL, stk->e[i].card);
        vw_array_end(w);
        vw_str(w, "condition", octal_condition_letter[condition]);
        if (reference)
            vw_int(w, "reference", reference);
        else
            vw_null(w, "reference");
        vw_int(w, "condition_card", stk->e[stk->size - 1].cond_from);
        vw_bool(w, "all_on_top", octal_is_all(stk->e[stk->size - 1].card));
        vw_bool(w, "below_allowed", octal_may_point_below(s, q));
        vw_object_end(w);
    }
    vw_array_end(w);
    vw_int(w, "deck_size", s->deck_size);
    vw_int(w, "discard_size", discard_size(s));
    vw_int(w, "passes_in_a_row", s->passes_in_a_row);
    if (s->last_placer >= 0)
        vw_int(w, "last_placer", s->last_placer);
    else
        vw_null(w, "last_placer");
    vw_bool(w, "lay_allowed", !s->over && octal_lay_allowed(s, s->seat));
    vw_int(w, "lay_passes_needed", octal_lay_passes_needed(s));
    if (!s->over && s->octo_late >= 0)
        vw_int(w, "undeclared_octo", s->octo_late);
    else
        vw_null(w, "undeclared_octo");
    vw_int(w, "turns", s->turns);
    vw_int(w, "max_turns", s->max_turns);
    vw_int(w, "ranks", s->ranks_wanted);

    vw_array_begin(w, "players");
    for (int i = 0; i < s->players; i++) {
        bool mine = all || i == seat;
        vw_object_begin(w, NULL);
        vw_int(w, "seat", i);
        if (mine)
            cards_array(w, "hand", s->hand[i]);
        else
            vw_null(w, "hand");
        vw_int(w, "hand_size", octal_hand_size(s, i));
        if (s->finished_rank[i])
            vw_int(w, "finished_rank", s->finished_rank[i]);
        else
            vw_null(w, "finished_rank");
        if (mine)
            cards_array(w, "discards", s->discarded[i]);
        else
            vw_null(w, "discards");
        vw_int(w, "discard_count", __builtin_popcountll(s->discarded[i]));
        vw_object_end(w);
    }
    vw_array_end(w);

    if (s->last.seat >= 0) {
        vw_object_begin(w, "last");
        vw_int(w, "seat", s->last.seat);
        vw_str(w, "action", event_name(s->last.event));
        bool placed = s->last.event == OCTAL_EV_PLAY || s->last.event == OCTAL_EV_LAY ||
                      s->last.event == OCTAL_EV_OVERRIDE;
        if (placed)
            vw_int(w, "question", s->last.question + 1);
        else
            vw_null(w, "question");
        vw_array_begin(w, "cards");
        for (int i = 0; i < s->last.ncards; i++)
            card_value(w, NULL, s->last.cards[i]);
        vw_array_end(w);
        vw_bool(w, "point_below", s->last.below);
        vw_bool(w, "octo", s->last.octo);
        vw_int(w, "penalty", s->last.penalty);
        if (s->last.penalty)
            vw_int(w, "penalty_seat", s->last.penalty_seat);
        else
            vw_null(w, "penalty_seat");
        vw_bool(w, "drew", s->last.drew);
        vw_int(w, "refilled", s->last.refilled);
        vw_int(w, "refilled_discards", s->last.refilled_discards);
        vw_object_end(w);
    } else {
        vw_null(w, "last");
    }
    if (s->over) {
        asobi_result r;
        memset(&r, 0, sizeof r);
        r.players = s->players;
        r.terminal = true;
        octal_result(s, &r);
        vw_seats(w, "winners", r.winners);
    } else {
        vw_null(w, "winners");
    }
    vw_bool(w, "capped", s->capped);
    vw_bool(w, "blocked", s->blocked);
}

static void print_set(FILE *out, uint64_t set)
{
    uint8_t order[OCTAL_CARDS];
    char text[16];
    int n = octal_hand_order(set, order);
    for (int i = 0; i < n; i++) {
        octal_card_text(order[i], text, sizeof text);
        fprintf(out, " %s", text);
    }
}

void octal_render(const void *st, int seat, FILE *out)
{
    const octal_state *s = st;
    bool all = seat == ASOBI_ALL_SEEING;
    char text[16];
    if (s->last.seat >= 0) {
        fprintf(out, "Last: seat %d ", s->last.seat + 1);
        switch (s->last.event) {
        case OCTAL_EV_PASS: fprintf(out, "passed%s", s->last.drew ? " and drew a card" : " (the deck is empty)"); break;
        case OCTAL_EV_DISCARD: fprintf(out, "discarded a card face down"); break;
        case OCTAL_EV_DECLARE: fprintf(out, "declared \"Octo!\" late, in time"); break;
        default:
            fprintf(out, "%s", s->last.event == OCTAL_EV_OVERRIDE ? "overrode with"
                               : s->last.event == OCTAL_EV_LAY    ? "laid"
                                                                  : "played");
            for (int i = 0; i < s->last.ncards; i++) {
                octal_card_text(s->last.cards[i], text, sizeof text);
                fprintf(out, " %s", text);
            }
            fprintf(out, " on question %d%s%s", s->last.question + 1, s->last.below ? " pointing below" : "",
                    s->last.octo ? " - \"Octo!\"" : "");
        }
        if (s->last.penalty)
            fprintf(out, " - seat %d forgot Octo! and drew %d", s->last.penalty_seat + 1, s->last.penalty);
        if (s->last.refilled)
            fprintf(out, " - %d card%s (%d discard%s, the rest unused question cards) went under the deck",
                    s->last.refilled, s->last.refilled == 1 ? "" : "s", s->last.refilled_discards,
                    s->last.refilled_discards == 1 ? "" : "s");
        fputc('\n', out);
    }
    fprintf(out, "THE OCTAL (%s mode) - turn %d - deck %d - discards %d - passes in a row %d\n",
            s->questions == 2 ? "twin" : "single", s->turns + 1, s->deck_size, discard_size(s),
            s->passes_in_a_row);
    for (int q = 0; q < s->questions; q++) {
        const octal_stack *stk = &s->stack[q];
        int condition, reference;
        octal_question(s, q, &condition, &reference);
        if (reference) {
            /* in the cards' own notation, number then condition (4小), with
             * the numbers that answer it spelled out for the cyclic ends */
            fprintf(out, "  Question %d: %d%s - answered by", q + 1, reference, octal_condition_letter[condition]);
            for (int m = 1; m <= 8; m++)
                if (octal_condition_allows(condition, reference, m))
                    fprintf(out, " %d", m);
            fprintf(out, " or ALL  (");
        } else {
            fprintf(out, "  Question %d: ALL on top - next, any number card on it; condition %s stays  (",
                    q + 1, octal_condition_letter[condition]);
        }
        int from = stk->size > 6 ? stk->size - 6 : 0;
        if (from)
            fprintf(out, "... ");
        for (int i = from; i < stk->size; i++) {
            octal_card_text(stk->e[i].card, text, sizeof text);
            fprintf(out, "%s%s%s", i > from ? " " : "", i == stk->e[stk->size - 1].cond_from ? "*" : "", text);
        }
        fprintf(out, ")\n");
    }
    if (s->over) {
        asobi_result r;
        memset(&r, 0, sizeof r);
        r.players = s->players;
        r.terminal = true;
        octal_result(s, &r);
        fprintf(out, "GAME OVER%s - winner%s:", s->capped ? " (turn cap reached)" : s->blocked ? " (nobody can ever place a card again)" : "",
                __builtin_popcount(r.winners) > 1 ? "s" : "");
        for (int i = 0; i < s->players; i++)
            if (r.winners & (1u << i))
                fprintf(out, " seat %d", i + 1);
        fputc('\n', out);
    } else {
        if (octal_lay_allowed(s, s->seat))
            fprintf(out, "Two rounds of passes: seat %d may lay any number card on its last card.\n", s->seat + 1);
        if (s->octo_late >= 0)
            fprintf(out, "Seat %d placed leaving one card without \"Octo!\": it may still declare until another "
                         "player puts out a card or it acts again, or draws 2 cards then.\n", s->octo_late + 1);
        if (seat == s->seat && s->phase == OCTAL_PHASE_PLAY && octo_needed_soon(s, seat))
            fprintf(out, "A placing that leaves you one card needs \"Octo!\": without it you draw 2 cards "
                         "unless you declare before another player puts out a card.\n");
    }
    for (int i = 0; i < s->players; i++) {
        fprintf(out, "  seat %d: %d card%s", i + 1, octal_hand_size(s, i), octal_hand_size(s, i) == 1 ? "" : "s");
        if (s->finished_rank[i])
            fprintf(out, " - finished %d%s", s->finished_rank[i],
                    s->finished_rank[i] == 1 ? "st" : s->finished_rank[i] == 2 ? "nd" : "rd");
        if (all || i == seat) {
            fprintf(out, " -");
            print_set(out, s->hand[i]);
        }
        if (!s->over && i == s->seat)
            fprintf(out, s->phase == OCTAL_PHASE_DISCARD ? "  <- to discard" : "  <- to move");
        if (!s->over && i == s->octo_late)
            fprintf(out, "  <- may still declare Octo!");
        if (i == seat)
            fprintf(out, "  (you)");
        fputc('\n', out);
    }
}

/* octal_view.c — what each OCTAL seat may see, as JSON for programs and as text for the terminal. */
#include <stdio.h>
#include <string.h>

#include "game_def.h"
#include "octal.h"

static json_t *card_json(int card)
{
    char text[16];
    octal_card_text(card, text, sizeof text);
    return json_string(text);
}

static json_t *cards_json(uint64_t set)
{
    uint8_t order[OCTAL_CARDS];
    int n = octal_hand_order(set, order);
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, card_json(order[i]));
    return a;
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
void octal_view(const void *st, int seat, json_t *view)
{
    const octal_state *s = st;
    bool all = seat == ASOBI_ALL_SEEING;
    json_object_set_new(view, "mode", json_string(s->questions == 2 ? "twin" : "single"));
    json_object_set_new(view, "phase", json_string(s->phase == OCTAL_PHASE_DISCARD ? "discard" : "play"));
    json_t *questions = json_array();
    for (int q = 0; q < s->questions; q++) {
        const octal_stack *stk = &s->stack[q];
        json_t *cards = json_array();
        for (int i = 0; i < stk->size; i++)
            json_array_append_new(cards, card_json(stk->e[i].card));
        int condition, reference;
        octal_question(s, q, &condition, &reference);
        json_t *qv = json_object();
        json_object_set_new(qv, "cards", cards);
        json_object_set_new(qv, "condition", json_string(octal_condition_letter[condition]));
        json_object_set_new(qv, "reference", reference ? json_integer(reference) : json_null());
        json_object_set_new(qv, "condition_card", json_integer(stk->e[stk->size - 1].cond_from));
        json_object_set_new(qv, "all_on_top", json_boolean(octal_is_all(stk->e[stk->size - 1].card)));
        json_object_set_new(qv, "below_allowed", json_boolean(octal_may_point_below(s, q)));
        json_array_append_new(questions, qv);
    }
    json_object_set_new(view, "questions", questions);
    json_object_set_new(view, "deck_size", json_integer(s->deck_size));
    json_object_set_new(view, "discard_size", json_integer(discard_size(s)));
    json_object_set_new(view, "passes_in_a_row", json_integer(s->passes_in_a_row));
    json_object_set_new(view, "last_placer", s->last_placer >= 0 ? json_integer(s->last_placer) : json_null());
    json_object_set_new(view, "lay_allowed", json_boolean(!s->over && octal_lay_allowed(s, s->seat)));
    json_object_set_new(view, "lay_passes_needed", json_integer(octal_lay_passes_needed(s)));
    json_object_set_new(view, "undeclared_octo",
                        !s->over && s->octo_late >= 0 ? json_integer(s->octo_late) : json_null());
    json_object_set_new(view, "turns", json_integer(s->turns));
    json_object_set_new(view, "max_turns", json_integer(s->max_turns));
    json_object_set_new(view, "ranks", json_integer(s->ranks_wanted));

    json_t *players = json_array();
    for (int i = 0; i < s->players; i++) {
        bool mine = all || i == seat;
        json_t *p = json_object();
        json_object_set_new(p, "seat", json_integer(i));
        json_object_set_new(p, "hand", mine ? cards_json(s->hand[i]) : json_null());
        json_object_set_new(p, "hand_size", json_integer(octal_hand_size(s, i)));
        json_object_set_new(p, "finished_rank",
                            s->finished_rank[i] ? json_integer(s->finished_rank[i]) : json_null());
        json_object_set_new(p, "discards", mine ? cards_json(s->discarded[i]) : json_null());
        json_object_set_new(p, "discard_count", json_integer(__builtin_popcountll(s->discarded[i])));
        json_array_append_new(players, p);
    }
    json_object_set_new(view, "players", players);

    if (s->last.seat >= 0) {
        json_t *cards = json_array();
        for (int i = 0; i < s->last.ncards; i++)
            json_array_append_new(cards, card_json(s->last.cards[i]));
        json_t *l = json_object();
        json_object_set_new(l, "seat", json_integer(s->last.seat));
        json_object_set_new(l, "action", json_string(event_name(s->last.event)));
        bool placed = s->last.event == OCTAL_EV_PLAY || s->last.event == OCTAL_EV_LAY ||
                      s->last.event == OCTAL_EV_OVERRIDE;
        json_object_set_new(l, "question", placed ? json_integer(s->last.question + 1) : json_null());
        json_object_set_new(l, "cards", cards);
        json_object_set_new(l, "point_below", json_boolean(s->last.below));
        json_object_set_new(l, "octo", json_boolean(s->last.octo));
        json_object_set_new(l, "penalty", json_integer(s->last.penalty));
        json_object_set_new(l, "penalty_seat", s->last.penalty ? json_integer(s->last.penalty_seat) : json_null());
        json_object_set_new(l, "drew", json_boolean(s->last.drew));
        json_object_set_new(l, "refilled", json_integer(s->last.refilled));
        json_object_set_new(l, "refilled_discards", json_integer(s->last.refilled_discards));
        json_object_set_new(view, "last", l);
    } else {
        json_object_set_new(view, "last", json_null());
    }
    json_t *winners = json_null();
    if (s->over) {
        asobi_result r;
        memset(&r, 0, sizeof r);
        r.players = s->players;
        r.terminal = true;
        octal_result(s, &r);
        winners = asobi_json_seats(r.winners);
    }
    json_object_set_new(view, "winners", winners);
    json_object_set_new(view, "capped", json_boolean(s->capped));
    json_object_set_new(view, "blocked", json_boolean(s->blocked));
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
        fprintf(out, "Last: seat %d ", s->last.seat);
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
            fprintf(out, " - seat %d forgot Octo! and drew %d", s->last.penalty_seat, s->last.penalty);
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
                fprintf(out, " seat %d", i);
        fputc('\n', out);
    } else {
        if (octal_lay_allowed(s, s->seat))
            fprintf(out, "Two rounds of passes: seat %d may lay any number card on its last card.\n", s->seat);
        if (s->octo_late >= 0)
            fprintf(out, "Seat %d placed leaving one card without \"Octo!\": it may still declare until seat %d "
                         "acts, or draws 2 cards then.\n", s->octo_late, s->seat);
        if (seat == s->seat && s->phase == OCTAL_PHASE_PLAY && octo_needed_soon(s, seat))
            fprintf(out, "A placing that leaves you one card needs \"Octo!\": without it you draw 2 cards "
                         "unless you declare before the next player acts.\n");
    }
    for (int i = 0; i < s->players; i++) {
        fprintf(out, "  seat %d: %d card%s", i, octal_hand_size(s, i), octal_hand_size(s, i) == 1 ? "" : "s");
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

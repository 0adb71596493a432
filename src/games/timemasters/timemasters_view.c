/* timemasters_view.c — what each Time Masters seat may see, as JSON for programs and as text for the terminal. */
#include <stdio.h>
#include <string.h>

#include "game_def.h"
#include "timemasters.h"

static const char *const phase_names[] = {"timer", "main", "pass", "access", "over"};
static const char *const choice_names[] = {"none", "recover", "remove", "delay", "focus_back", "pay"};
static const char *const type_names[] = {"spell", "focus", "timer"};

/* "Spark (L1 spell, 1 Kè: ephemeral 2)" — a card for people. */
void tm_card_text(const tm_table *t, int kind, char *buf, size_t cap)
{
    const tm_card *c = &t->card[kind];
    int n = snprintf(buf, cap, "%s (L%d %s", c->name, c->level, type_names[c->type]);
    if (c->type == TM_SPELL)
        n += snprintf(buf + n, cap > (size_t)n ? cap - (size_t)n : 0, ", %d Kè", c->cost);
    if (c->type == TM_TIMER)
        n += snprintf(buf + n, cap > (size_t)n ? cap - (size_t)n : 0, ", %d slot%s%s", c->slots,
                      c->slots > 1 ? "s" : "",
                      c->trigger == TM_TRIG_SET ? ", on set" : c->trigger == TM_TRIG_DISCARD ? ", on discard" : "");
    for (int e = 0; e < c->n_effects; e++)
        n += snprintf(buf + n, cap > (size_t)n ? cap - (size_t)n : 0, "%s%s %d", e ? ", " : ": ",
                      tm_fx_name(c->fx[e][0]), c->fx[e][1]);
    if (cap > (size_t)n)
        snprintf(buf + n, cap - (size_t)n, ")");
}

static void names(asobi_vw *w, const char *key, const tm_state *s, const uint8_t *cards, int n)
{
    vw_array_begin(w, key);
    for (int i = 0; i < n; i++)
        vw_str(w, NULL, s->table.card[cards[i]].name);
    vw_array_end(w);
}

/* A zone whose order is hidden: its cards in the table's order. */
static void sorted_names(asobi_vw *w, const char *key, const tm_state *s, const uint8_t *cards, int n)
{
    vw_array_begin(w, key);
    for (int k = 0; k < s->table.kinds; k++)
        for (int c = tm_kind_count(cards, n, k); c > 0; c--)
            vw_str(w, NULL, s->table.card[k].name);
    vw_array_end(w);
}

static void int_or_null(asobi_vw *w, const char *key, bool present, int value)
{
    if (present)
        vw_int(w, key, value);
    else
        vw_null(w, key);
}

/* Public: spheres' tops and sizes, discards, timers with their spells, the
 * number of delay cards, released spells, removed cards, Kè and reminders,
 * hand and deck sizes. Private to a seat: its hand, its deck's contents
 * (not their order), its delay cards, its points. Never shown: deck order,
 * the spheres below their tops, the set-aside cards. */
void tm_view(const void *st, int seat, asobi_vw *w)
{
    const tm_state *s = st;
    bool all = seat == ASOBI_ALL_SEEING;
    vw_str(w, "phase", phase_names[s->phase]);
    vw_int(w, "turn", s->turn);
    vw_int(w, "max_turns", s->max_turns);
    vw_int(w, "active", s->seat);
    vw_str(w, "card_set", s->table.title);
    vw_array_begin(w, "spheres");
    for (int l = 0; l < TM_LEVELS; l++) {
        int n = s->n_sphere[l];
        vw_object_begin(w, NULL);
        vw_int(w, "level", l + 1);
        if (n)
            vw_str(w, "top", s->table.card[s->sphere[l][n - 1]].name);
        else
            vw_null(w, "top");
        vw_int(w, "size", n);
        vw_int(w, "set_aside", s->n_aside[l]);
        vw_object_end(w);
    }
    vw_array_end(w);
    names(w, "spell_zone", s, s->zone, s->n_zone);
    vw_int(w, "access_points", s->access);
    vw_array_begin(w, "taken");
    for (int l = 0; l < TM_LEVELS; l++)
        if (s->taken & (1u << l))
            vw_int(w, NULL, l + 1);
    vw_array_end(w);
    if (s->choice == TM_CH_NONE) {
        vw_null(w, "choice");
    } else {
        vw_object_begin(w, "choice");
        vw_str(w, "kind", choice_names[s->choice]);
        vw_int(w, "left", s->choice_left);
        int_or_null(w, "timer", s->choice == TM_CH_DELAY,
                    s->choice == TM_CH_DELAY ? tm_timer_number(&s->p[s->seat], s->choice_timer) : 0);
        if (s->choice == TM_CH_PAY) { /* left: the Kè to pay for card; the ephemeral Kè it may use */
            vw_str(w, "card", s->table.card[s->pay_kind].name);
            vw_int(w, "ephemeral_min", tm_pay_eph_lo(&s->p[s->seat], s->choice_left));
            vw_int(w, "ephemeral_max", tm_pay_eph_hi(&s->p[s->seat], s->choice_left));
        }
        vw_object_end(w);
    }
    if (s->prog_kind == TM_NOCARD)
        vw_null(w, "resolving");
    else
        vw_str(w, "resolving", s->table.card[s->prog_kind].name);

    vw_array_begin(w, "players");
    for (int i = 0; i < s->players; i++) {
        const tm_player *p = &s->p[i];
        bool mine = all || i == seat;
        vw_object_begin(w, NULL);
        vw_int(w, "seat", i);
        if (mine)
            names(w, "hand", s, p->hand, p->n_hand);
        else
            vw_null(w, "hand");
        vw_int(w, "hand_size", p->n_hand);
        vw_int(w, "deck_size", p->n_deck);
        if (mine)
            sorted_names(w, "deck_cards", s, p->deck, p->n_deck);
        else
            vw_null(w, "deck_cards");
        names(w, "discard", s, p->discard, p->n_discard);
        names(w, "removed", s, p->removed, p->n_removed);
        vw_array_begin(w, "gained");
        for (int k = 0; k < s->table.kinds; k++)
            for (int c = 0; c < p->took_seen[k]; c++)
                vw_str(w, NULL, s->table.card[k].name);
        vw_array_end(w);
        vw_array_begin(w, "gained_unseen");
        for (int l = 0; l < TM_LEVELS; l++)
            vw_int(w, NULL, p->took_unseen[l]);
        vw_array_end(w);
        vw_array_begin(w, "timers");
        for (int m = 0; m < p->n_timers; m++) {
            const tm_timer *tm = &p->timers[m];
            vw_object_begin(w, NULL);
            vw_int(w, "number", tm->number);
            vw_str(w, "timer", s->table.card[tm->kind].name);
            vw_int(w, "slots", s->table.card[tm->kind].slots);
            names(w, "spells", s, tm->spells, tm->n_spells);
            vw_int(w, "delay", tm->n_delay);
            vw_bool(w, "full", tm_timer_full(s, tm));
            if (mine)
                names(w, "delay_cards", s, tm->delay, tm->n_delay);
            else
                vw_null(w, "delay_cards");
            vw_object_end(w);
        }
        vw_array_end(w);
        names(w, "released", s, p->released, p->n_released);
        vw_int(w, "ke_ready", p->ke_ready);
        vw_int(w, "ke_spent", p->ke_spent);
        vw_int(w, "ke_ephemeral", p->ke_eph);
        vw_object_begin(w, "reminders");
        vw_int(w, "cost", p->cost_mod);
        int_or_null(w, "ke_limit", p->ke_limit != 0, p->ke_limit);
        int_or_null(w, "ke_limit_next", p->slow_next != 0, p->slow_next);
        vw_object_end(w);
        vw_int(w, "ke_spent_this_turn", p->spent_turn);
        int_or_null(w, "points", mine || s->over, mine || s->over ? tm_points(s, i) : 0);
        vw_object_end(w);
    }
    vw_array_end(w);
    vw_bool(w, "capped", s->capped);
    if (s->over) {
        /* the winners by the rules' order: points, then Kè, then level-5 cards */
        uint32_t won = 0;
        for (int i = 0; i < s->players; i++) {
            bool best = true;
            for (int j = 0; j < s->players; j++) {
                int pi = tm_points(s, i), pj = tm_points(s, j);
                int ki = tm_total_ke(&s->p[i]), kj = tm_total_ke(&s->p[j]);
                if (pj > pi || (pj == pi && (kj > ki || (kj == ki && tm_level5(s, j) > tm_level5(s, i)))))
                    best = false;
            }
            if (best)
                won |= 1u << i;
        }
        vw_seats(w, "winners", won);
    } else {
        vw_null(w, "winners");
    }
}

static void list_cards(const tm_state *s, const uint8_t *cards, int n, FILE *out)
{
    if (n == 0)
        fprintf(out, "-");
    for (int i = 0; i < n; i++)
        fprintf(out, "%s%s", i ? ", " : "", s->table.card[cards[i]].name);
}

void tm_render(const void *st, int seat, FILE *out)
{
    const tm_state *s = st;
    bool all = seat == ASOBI_ALL_SEEING;
    char text[160];
    fprintf(out, "Time Masters - turn %d%s - seat %d, %s phase - card set: %s\n", s->turn,
            s->capped ? " (turn cap reached)" : "", s->seat + 1, phase_names[s->phase], s->table.title);
    fprintf(out, "Spheres (take N: N access points; take N second: N+1, unseen):\n");
    for (int l = 0; l < TM_LEVELS; l++) {
        int n = s->n_sphere[l];
        if (n)
            tm_card_text(&s->table, s->sphere[l][n - 1], text, sizeof text);
        fprintf(out, "  [%d] %2d left  %s%s\n", l + 1, n, n ? text : "empty",
                (s->taken >> l) & 1u ? "  (taken from this turn)" : "");
    }
    if (!s->over) {
        fprintf(out, "Spell zone: ");
        list_cards(s, s->zone, s->n_zone, out);
        fprintf(out, "   access points: %d\n", s->access);
    }
    for (int i = 0; i < s->players; i++) {
        const tm_player *p = &s->p[i];
        bool mine = all || i == seat;
        fprintf(out, "Seat %d%s: Kè %d gold, %d grey, %d ephemeral", i + 1, i == seat ? " (you)" : "", p->ke_ready,
                p->ke_spent, p->ke_eph);
        if (p->cost_mod)
            fprintf(out, ", next spell %+d", p->cost_mod);
        if (p->ke_limit)
            fprintf(out, ", at most %d Kè this turn", p->ke_limit);
        if (p->slow_next)
            fprintf(out, ", at most %d Kè next turn", p->slow_next);
        if (mine || s->over)
            fprintf(out, ", %d point%s", tm_points(s, i), tm_points(s, i) == 1 ? "" : "s");
        fprintf(out, "\n  hand %d, deck %d, discard %d", p->n_hand, p->n_deck, p->n_discard);
        if (p->n_removed)
            fprintf(out, ", removed %d", p->n_removed);
        fputc('\n', out);
        for (int number = 1; number <= TM_MAX_TIMERS; number++) { /* by their numbers */
            int m = tm_timer_index(p, number);
            if (m < 0)
                continue;
            const tm_timer *tm = &p->timers[m];
            fprintf(out, "  timer %d: %s [", tm->number, s->table.card[tm->kind].name);
            list_cards(s, tm->spells, tm->n_spells, out);
            fprintf(out, "] %d/%d slots", tm->n_spells, s->table.card[tm->kind].slots);
            if (tm->n_delay) {
                fprintf(out, ", %d delay card%s", tm->n_delay, tm->n_delay > 1 ? "s" : "");
                if (mine) {
                    fprintf(out, " (");
                    list_cards(s, tm->delay, tm->n_delay, out);
                    fprintf(out, ")");
                }
            }
            fputc('\n', out);
        }
        if (p->n_released) {
            fprintf(out, "  released, to play this turn: ");
            list_cards(s, p->released, p->n_released, out);
            fputc('\n', out);
        }
        if (mine) {
            fprintf(out, "  hand:\n");
            for (int h = 0; h < p->n_hand; h++) {
                tm_card_text(&s->table, p->hand[h], text, sizeof text);
                fprintf(out, "    %s\n", text);
            }
        }
    }
    if (s->choice == TM_CH_PAY)
        fprintf(out, "Pay the %d Kè of %s with gold and ephemeral Kè as you like: pay G gold E ephemeral "
                "(E from %d to %d)\n", s->choice_left, s->table.card[s->pay_kind].name,
                tm_pay_eph_lo(&s->p[s->seat], s->choice_left), tm_pay_eph_hi(&s->p[s->seat], s->choice_left));
    else if (s->choice != TM_CH_NONE)
        fprintf(out, "Choose %d more card%s (%s): pick CARD\n", s->choice_left, s->choice_left > 1 ? "s" : "",
                choice_names[s->choice]);
    if (s->over) {
        fprintf(out, "GAME OVER - points:");
        for (int i = 0; i < s->players; i++)
            fprintf(out, " seat %d %d (Kè %d, level-5 %d)", i + 1, tm_points(s, i), tm_total_ke(&s->p[i]),
                    tm_level5(s, i));
        fputc('\n', out);
    }
}

/* timemasters_view.c — what each Time Masters seat may see, as JSON for programs and as text for the terminal. */
#include <stdio.h>
#include <string.h>

#include "game_def.h"
#include "timemasters.h"

static const char *const phase_names[] = {"timer", "main", "pass", "access", "over"};
static const char *const choice_names[] = {"none", "recover", "remove", "delay", "focus_back"};
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

static json_t *names(const tm_state *s, const uint8_t *cards, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_string(s->table.card[cards[i]].name));
    return a;
}

/* A zone whose order is hidden: its cards in the table's order. */
static json_t *sorted_names(const tm_state *s, const uint8_t *cards, int n)
{
    json_t *a = json_array();
    for (int k = 0; k < s->table.kinds; k++)
        for (int c = tm_kind_count(cards, n, k); c > 0; c--)
            json_array_append_new(a, json_string(s->table.card[k].name));
    return a;
}

/* Public: spheres' tops and sizes, discards, timers with their spells, the
 * number of delay cards, released spells, removed cards, Kè and reminders,
 * hand and deck sizes. Private to a seat: its hand, its deck's contents
 * (not their order), its delay cards, its points. Never shown: deck order,
 * the spheres below their tops, the set-aside cards. */
void tm_view(const void *st, int seat, json_t *view)
{
    const tm_state *s = st;
    bool all = seat == ASOBI_ALL_SEEING;
    json_object_set_new(view, "phase", json_string(phase_names[s->phase]));
    json_object_set_new(view, "turn", json_integer(s->turn));
    json_object_set_new(view, "max_turns", json_integer(s->max_turns));
    json_object_set_new(view, "active", json_integer(s->seat));
    json_object_set_new(view, "card_set", json_string(s->table.title));
    json_t *spheres = json_array();
    for (int l = 0; l < TM_LEVELS; l++) {
        int n = s->n_sphere[l];
        json_array_append_new(spheres, json_pack("{s:i, s:o, s:i, s:i}", "level", l + 1, "top",
                                                 n ? json_string(s->table.card[s->sphere[l][n - 1]].name)
                                                   : json_null(),
                                                 "size", n, "set_aside", s->n_aside[l]));
    }
    json_object_set_new(view, "spheres", spheres);
    json_object_set_new(view, "spell_zone", names(s, s->zone, s->n_zone));
    json_object_set_new(view, "access_points", json_integer(s->access));
    json_t *taken = json_array();
    for (int l = 0; l < TM_LEVELS; l++)
        if (s->taken & (1u << l))
            json_array_append_new(taken, json_integer(l + 1));
    json_object_set_new(view, "taken", taken);
    json_object_set_new(view, "choice",
                        s->choice == TM_CH_NONE
                            ? json_null()
                            : json_pack("{s:s, s:i, s:o}", "kind", choice_names[s->choice], "left",
                                        s->choice_left, "timer",
                                        s->choice == TM_CH_DELAY
                                            ? json_integer(tm_timer_number(&s->p[s->seat], s->choice_timer))
                                            : json_null()));
    json_object_set_new(view, "resolving",
                        s->prog_kind == TM_NOCARD ? json_null() : json_string(s->table.card[s->prog_kind].name));

    json_t *players = json_array();
    for (int i = 0; i < s->players; i++) {
        const tm_player *p = &s->p[i];
        bool mine = all || i == seat;
        json_t *o = json_object();
        json_object_set_new(o, "seat", json_integer(i));
        json_object_set_new(o, "hand", mine ? names(s, p->hand, p->n_hand) : json_null());
        json_object_set_new(o, "hand_size", json_integer(p->n_hand));
        json_object_set_new(o, "deck_size", json_integer(p->n_deck));
        json_object_set_new(o, "deck_cards", mine ? sorted_names(s, p->deck, p->n_deck) : json_null());
        json_object_set_new(o, "discard", names(s, p->discard, p->n_discard));
        json_object_set_new(o, "removed", names(s, p->removed, p->n_removed));
        json_t *gained = json_array(), *unseen = json_array();
        for (int k = 0; k < s->table.kinds; k++)
            for (int c = 0; c < p->took_seen[k]; c++)
                json_array_append_new(gained, json_string(s->table.card[k].name));
        for (int l = 0; l < TM_LEVELS; l++)
            json_array_append_new(unseen, json_integer(p->took_unseen[l]));
        json_object_set_new(o, "gained", gained);
        json_object_set_new(o, "gained_unseen", unseen);
        json_t *timers = json_array();
        for (int m = 0; m < p->n_timers; m++) {
            const tm_timer *tm = &p->timers[m];
            json_t *to = json_pack("{s:i, s:s, s:i, s:o, s:i, s:b}", "number", tm->number, "timer",
                                   s->table.card[tm->kind].name, "slots", s->table.card[tm->kind].slots,
                                   "spells", names(s, tm->spells, tm->n_spells), "delay", tm->n_delay,
                                   "full", tm_timer_full(s, tm));
            json_object_set_new(to, "delay_cards", mine ? names(s, tm->delay, tm->n_delay) : json_null());
            json_array_append_new(timers, to);
        }
        json_object_set_new(o, "timers", timers);
        json_object_set_new(o, "released", names(s, p->released, p->n_released));
        json_object_set_new(o, "ke_ready", json_integer(p->ke_ready));
        json_object_set_new(o, "ke_spent", json_integer(p->ke_spent));
        json_object_set_new(o, "ke_ephemeral", json_integer(p->ke_eph));
        json_object_set_new(o, "reminders",
                            json_pack("{s:i, s:o, s:o}", "cost", p->cost_mod, "ke_limit",
                                      p->ke_limit ? json_integer(p->ke_limit) : json_null(), "ke_limit_next",
                                      p->slow_next ? json_integer(p->slow_next) : json_null()));
        json_object_set_new(o, "ke_spent_this_turn", json_integer(p->spent_turn));
        json_object_set_new(o, "points", mine || s->over ? json_integer(tm_points(s, i)) : json_null());
        json_array_append_new(players, o);
    }
    json_object_set_new(view, "players", players);
    json_object_set_new(view, "capped", json_boolean(s->capped));
    if (s->over) {
        /* the winners by the rules' order: points, then Kè, then level-5 cards */
        uint32_t w = 0;
        for (int i = 0; i < s->players; i++) {
            bool best = true;
            for (int j = 0; j < s->players; j++) {
                int pi = tm_points(s, i), pj = tm_points(s, j);
                int ki = tm_total_ke(&s->p[i]), kj = tm_total_ke(&s->p[j]);
                if (pj > pi || (pj == pi && (kj > ki || (kj == ki && tm_level5(s, j) > tm_level5(s, i)))))
                    best = false;
            }
            if (best)
                w |= 1u << i;
        }
        json_object_set_new(view, "winners", asobi_json_seats(w));
    } else {
        json_object_set_new(view, "winners", json_null());
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
            s->capped ? " (turn cap reached)" : "", s->seat, phase_names[s->phase], s->table.title);
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
        fprintf(out, "Seat %d%s: Kè %d gold, %d grey, %d ephemeral", i, i == seat ? " (you)" : "", p->ke_ready,
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
    if (s->choice != TM_CH_NONE)
        fprintf(out, "Choose %d more card%s (%s): pick CARD\n", s->choice_left, s->choice_left > 1 ? "s" : "",
                choice_names[s->choice]);
    if (s->over) {
        fprintf(out, "GAME OVER - points:");
        for (int i = 0; i < s->players; i++)
            fprintf(out, " seat %d %d (Kè %d, level-5 %d)", i, tm_points(s, i), tm_total_ke(&s->p[i]),
                    tm_level5(s, i));
        fputc('\n', out);
    }
}

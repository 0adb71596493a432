/* psycle_view.c — what each PSYCLE seat may see, as JSON for programs and as text for the terminal. */
#include <stdio.h>

#include "game_def.h"
#include "psycle.h"

static json_t *card_or_null(int card)
{
    char text[12]; /* any int, so that GCC sees no truncation */
    if (card < 0)
        return json_null();
    snprintf(text, sizeof text, "%d", card);
    return json_string(text);
}

/* Public: gems, points, victory tiles, the cards revealed last round, the
 * face-up tiles, the supply; whether a seat has chosen (its card lies face
 * down on the table). Private: a seat's hand and its face-down choice, shown
 * only to that seat (and to the all-seeing view). The face-down tiles are
 * never shown, not even to the all-seeing view's "target" field, which is
 * always the face-up tile of the round being played. */
void psycle_view(const void *st, int seat, json_t *view)
{
    const psycle_state *s = st;
    bool all = seat == ASOBI_ALL_SEEING;
    json_object_set_new(view, "cycle", json_integer(s->cycle));
    json_object_set_new(view, "round", json_integer(s->over ? PSYCLE_ROUNDS : s->round + 1));
    json_object_set_new(view, "target", s->over ? json_null() : json_integer(s->targets[s->round]));
    json_object_set_new(view, "bonus", s->over ? json_null() : json_integer(s->bonuses[s->round]));
    json_t *revealed = json_array();
    int face_up = s->over ? 0 : s->round + 1;
    for (int r = 0; r < face_up; r++)
        json_array_append_new(revealed, json_pack("{s:i, s:i}", "target", s->targets[r], "bonus", s->bonuses[r]));
    json_object_set_new(view, "revealed", revealed);
    json_object_set_new(view, "supply", json_integer(s->supply));

    json_t *players = json_array();
    for (int i = 0; i < s->players; i++) {
        bool mine = all || i == seat;
        bool chosen = s->pending[i] >= 0;
        json_t *p = json_object();
        json_object_set_new(p, "seat", json_integer(i));
        json_object_set_new(p, "gems", json_integer(s->gems[i]));
        json_object_set_new(p, "points", json_integer(s->points[i]));
        json_object_set_new(p, "victory_tiles", json_integer(s->victory[i]));
        if (mine) {
            json_t *hand = json_array();
            for (int c = 0; c < PSYCLE_CARDS; c++)
                if (c != s->pending[i])
                    json_array_append_new(hand, card_or_null(c));
            json_object_set_new(p, "hand", hand);
        } else {
            json_object_set_new(p, "hand", json_null());
        }
        json_object_set_new(p, "hand_size", json_integer(chosen ? PSYCLE_CARDS - 1 : PSYCLE_CARDS));
        json_object_set_new(p, "chosen", json_boolean(chosen));
        if (mine)
            json_object_set_new(p, "choice", card_or_null(s->pending[i]));
        json_object_set_new(p, "played", card_or_null(s->played[i]));
        json_array_append_new(players, p);
    }
    json_object_set_new(view, "players", players);

    if (s->played[0] >= 0) {
        json_t *cards = json_array(), *pts = json_array(), *gems = json_array();
        for (int i = 0; i < s->players; i++) {
            json_array_append_new(cards, card_or_null(s->played[i]));
            json_array_append_new(pts, json_integer(s->last_points[i]));
            json_array_append_new(gems, json_integer(s->last_gems[i]));
        }
        json_object_set_new(view, "last_round",
                            json_pack("{s:i, s:i, s:o, s:o, s:o}", "target", s->last_target, "bonus",
                                      s->last_bonus, "cards", cards, "points", pts, "gems", gems));
    } else {
        json_object_set_new(view, "last_round", json_null());
    }
    if (s->cycles_done > 0) {
        json_t *scores = json_array();
        for (int i = 0; i < s->players; i++)
            json_array_append_new(scores, json_integer(s->last_cycle_score[i]));
        json_object_set_new(view, "last_cycle",
                            json_pack("{s:o, s:o, s:b}", "scores", scores, "winners",
                                      asobi_json_seats(s->last_cycle_winners), "replayed",
                                      s->last_cycle_replayed));
    } else {
        json_object_set_new(view, "last_cycle", json_null());
    }
    json_object_set_new(view, "winners", s->over ? asobi_json_seats(s->winners) : json_null());
    json_object_set_new(view, "capped", json_boolean(s->capped));
}

void psycle_render(const void *st, int seat, FILE *out)
{
    const psycle_state *s = st;
    bool all = seat == ASOBI_ALL_SEEING;
    if (s->played[0] >= 0) {
        fprintf(out, "Last round (target %d, bonus +%d):", s->last_target, s->last_bonus);
        for (int i = 0; i < s->players; i++) {
            fprintf(out, "  seat %d played %d", i, s->played[i]);
            if (s->last_points[i])
                fprintf(out, " (+%d pt%s)", s->last_points[i], s->last_points[i] == 1 ? "" : "s");
            if (s->played[i] == 0 && s->last_gems[i] > 0)
                fprintf(out, " (+%d gem%s)", s->last_gems[i], s->last_gems[i] == 1 ? "" : "s");
            fputc(i + 1 < s->players ? ',' : '\n', out);
        }
    }
    if (s->cycles_done > 0 && (s->round == 0 || s->over)) {
        fprintf(out, "Cycle %d ended: final scores", s->cycles_done);
        for (int i = 0; i < s->players; i++)
            fprintf(out, " %d", s->last_cycle_score[i]);
        if (s->last_cycle_replayed)
            fprintf(out, " - a tie: nobody takes a tile, the cycle is played again\n");
        else {
            fprintf(out, " - victory tile to seat");
            for (int i = 0; i < s->players; i++)
                if (s->last_cycle_winners & (1u << i))
                    fprintf(out, " %d", i);
            fputc('\n', out);
        }
    }
    if (s->over) {
        fprintf(out, "GAME OVER%s - winner%s:", s->capped ? " (cycle cap reached)" : "",
                __builtin_popcount(s->winners) > 1 ? "s (shared victory)" : "");
        for (int i = 0; i < s->players; i++)
            if (s->winners & (1u << i))
                fprintf(out, " seat %d", i);
        fputc('\n', out);
    } else {
        fprintf(out, "PSYCLE - cycle %d, round %d of 5 - target %d, bonus +%d - supply %d gem%s\n",
                s->cycle, s->round + 1, s->targets[s->round], s->bonuses[s->round], s->supply,
                s->supply == 1 ? "" : "s");
        if (s->round > 0) {
            fprintf(out, "Tiles already used this cycle:");
            for (int r = 0; r < s->round; r++)
                fprintf(out, " %d/+%d", s->targets[r], s->bonuses[r]);
            fputc('\n', out);
        }
    }
    fprintf(out, "  seat  gems  points  tiles  status\n");
    for (int i = 0; i < s->players; i++) {
        fprintf(out, "  %-4d  %4d  %6d  %5d  ", i, s->gems[i], s->points[i], s->victory[i]);
        if (s->pending[i] >= 0)
            (all || i == seat) ? fprintf(out, "chose %d", s->pending[i]) : fprintf(out, "has chosen");
        else if (!s->over)
            fprintf(out, "choosing");
        fprintf(out, "%s\n", i == seat ? "  <- you" : "");
    }
}

/* psycle_view.c — what each PSYCLE seat may see, as JSON for programs and as text for the terminal. */
#include <stdio.h>

#include "game_def.h"
#include "psycle.h"

/* A card as the views show it: its number as a string ("5"), null for none. */
static void card_or_null(asobi_vw *w, const char *key, int card)
{
    char text[12]; /* any int, so that GCC sees no truncation */
    if (card < 0) {
        vw_null(w, key);
        return;
    }
    if (card < 10) { /* every card: no snprintf, views are built for every seat at every step */
        text[0] = (char)('0' + card);
        text[1] = '\0';
    } else {
        snprintf(text, sizeof text, "%d", card);
    }
    vw_str(w, key, text);
}

/* Public: gems, points, victory tiles, the cards revealed last round, the
 * face-up tiles, the supply; whether a seat has chosen (its card lies face
 * down on the table). Private: a seat's hand and its face-down choice, shown
 * only to that seat (and to the all-seeing view). The face-down tiles are
 * never shown, not even to the all-seeing view's "target" field, which is
 * always the face-up tile of the round being played. */
void psycle_view(const void *st, int seat, asobi_vw *w)
{
    const psycle_state *s = st;
    bool all = seat == ASOBI_ALL_SEEING;
    vw_int(w, "cycle", s->cycle);
    vw_int(w, "round", s->over ? PSYCLE_ROUNDS : s->round + 1);
    if (s->over) {
        vw_null(w, "target");
        vw_null(w, "bonus");
    } else {
        vw_int(w, "target", s->targets[s->round]);
        vw_int(w, "bonus", s->bonuses[s->round]);
    }
    vw_array_begin(w, "revealed");
    int face_up = s->over ? 0 : s->round + 1;
    for (int r = 0; r < face_up; r++) {
        vw_object_begin(w, NULL);
        vw_int(w, "target", s->targets[r]);
        vw_int(w, "bonus", s->bonuses[r]);
        vw_object_end(w);
    }
    vw_array_end(w);
    vw_int(w, "supply", s->supply);

    vw_array_begin(w, "players");
    for (int i = 0; i < s->players; i++) {
        bool mine = all || i == seat;
        bool chosen = s->pending[i] >= 0;
        vw_object_begin(w, NULL);
        vw_int(w, "seat", i);
        vw_int(w, "gems", s->gems[i]);
        vw_int(w, "points", s->points[i]);
        vw_int(w, "victory_tiles", s->victory[i]);
        if (mine) {
            vw_array_begin(w, "hand");
            for (int c = 0; c < PSYCLE_CARDS; c++)
                if (c != s->pending[i])
                    card_or_null(w, NULL, c);
            vw_array_end(w);
        } else {
            vw_null(w, "hand");
        }
        vw_int(w, "hand_size", chosen ? PSYCLE_CARDS - 1 : PSYCLE_CARDS);
        vw_bool(w, "chosen", chosen);
        if (mine)
            card_or_null(w, "choice", s->pending[i]);
        card_or_null(w, "played", s->played[i]);
        vw_object_end(w);
    }
    vw_array_end(w);

    if (s->played[0] >= 0) {
        vw_object_begin(w, "last_round");
        vw_int(w, "target", s->last_target);
        vw_int(w, "bonus", s->last_bonus);
        vw_array_begin(w, "cards");
        for (int i = 0; i < s->players; i++)
            card_or_null(w, NULL, s->played[i]);
        vw_array_end(w);
        vw_array_begin(w, "points");
        for (int i = 0; i < s->players; i++)
            vw_int(w, NULL, s->last_points[i]);
        vw_array_end(w);
        vw_array_begin(w, "gems");
        for (int i = 0; i < s->players; i++)
            vw_int(w, NULL, s->last_gems[i]);
        vw_array_end(w);
        vw_object_end(w);
    } else {
        vw_null(w, "last_round");
    }
    if (s->cycles_done > 0) {
        vw_object_begin(w, "last_cycle");
        vw_array_begin(w, "scores");
        for (int i = 0; i < s->players; i++)
            vw_int(w, NULL, s->last_cycle_score[i]);
        vw_array_end(w);
        vw_seats(w, "winners", s->last_cycle_winners);
        vw_bool(w, "replayed", s->last_cycle_replayed);
        vw_object_end(w);
    } else {
        vw_null(w, "last_cycle");
    }
    if (s->over)
        vw_seats(w, "winners", s->winners);
    else
        vw_null(w, "winners");
    vw_bool(w, "capped", s->capped);
}

void psycle_render(const void *st, int seat, FILE *out)
{
    const psycle_state *s = st;
    bool all = seat == ASOBI_ALL_SEEING;
    if (s->played[0] >= 0) {
        fprintf(out, "Last round (target %d, bonus +%d):", s->last_target, s->last_bonus);
        for (int i = 0; i < s->players; i++) {
            fprintf(out, "  seat %d played %d", i + 1, s->played[i]);
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
                    fprintf(out, " %d", i + 1);
            fputc('\n', out);
        }
    }
    if (s->over) {
        fprintf(out, "GAME OVER%s - winner%s:", s->capped ? " (cycle cap reached)" : "",
                __builtin_popcount(s->winners) > 1 ? "s (shared victory)" : "");
        for (int i = 0; i < s->players; i++)
            if (s->winners & (1u << i))
                fprintf(out, " seat %d", i + 1);
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
        fprintf(out, "  %-4d  %4d  %6d  %5d  ", i + 1, s->gems[i], s->points[i], s->victory[i]);
        if (s->pending[i] >= 0)
            (all || i == seat) ? fprintf(out, "chose %d", s->pending[i]) : fprintf(out, "has chosen");
        else if (!s->over)
            fprintf(out, "choosing");
        fprintf(out, "%s\n", i == seat ? "  <- you" : "");
    }
}

/* psycle_events.c — what PSYCLE's actions make happen, as each viewer may know it: reveals, round points, cycle ends. */
#include <stdio.h>

#include "game_def.h"
#include "psycle.h"

/* "Seat 1 played 2, Seat 2 played 5" */
static void cards_text(const psycle_state *s, char *buf, size_t cap)
{
    int len = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->players && len < (int)cap; i++)
        len += snprintf(buf + len, cap - (size_t)len, "%sSeat %d played %d", i ? ", " : "", i + 1, s->played[i]);
}

/* §6.3 "全員が一斉にカードを公開します": every card of the round, face up to everybody. */
static void add_reveal(const psycle_state *before, const psycle_state *after, json_t *events)
{
    char cards[160];
    cards_text(after, cards, sizeof cards);
    json_t *e = asobi_event_add(events, "reveal", "Round %d of cycle %d is revealed (target %d, bonus +%d): %s.",
                                before->round + 1, before->cycle, after->last_target, after->last_bonus, cards);
    asobi_event_int(e, "cycle", before->cycle);
    asobi_event_int(e, "round", before->round + 1);
    asobi_event_int(e, "target", after->last_target);
    asobi_event_int(e, "bonus", after->last_bonus);
    json_t *a = json_array();
    for (int i = 0; i < after->players; i++)
        json_array_append_new(a, json_integer(after->played[i]));
    json_object_set_new(e, "cards", a);
}

/* §7: what each seat's card paid, took and scored. */
static void add_round_scores(const psycle_state *before, const psycle_state *after, json_t *events)
{
    for (int i = 0; i < after->players; i++) {
        int card = after->played[i], gems = after->last_gems[i], points = after->last_points[i];
        int total = before->points[i] + points, held = before->gems[i] + gems;
        char gem_part[64];
        if (gems > 0)
            snprintf(gem_part, sizeof gem_part, "takes %d gem%s", gems, gems == 1 ? "" : "s");
        else if (gems < 0)
            snprintf(gem_part, sizeof gem_part, "pays %d gem%s", -gems, gems == -1 ? "" : "s");
        else
            snprintf(gem_part, sizeof gem_part, "pays nothing");
        json_t *e = asobi_event_add(events, "round_score", "Seat %d played %d: %s and scores %d point%s (%d this cycle).",
                                    i + 1, card, gem_part, points, points == 1 ? "" : "s", total);
        asobi_event_int(e, "seat", i);
        asobi_event_int(e, "card", card);
        asobi_event_int(e, "points", points);
        asobi_event_int(e, "gems", gems);
        asobi_event_int(e, "total", total);
        asobi_event_int(e, "gems_held", held);
    }
}

/* §9, §11: the final scores and who takes a victory tile. */
static void add_cycle_end(const psycle_state *before, const psycle_state *after, json_t *events)
{
    char scores[96] = "", who[96] = "";
    int len = 0, wlen = 0, count = __builtin_popcount(after->last_cycle_winners), done = 0;
    for (int i = 0; i < after->players; i++)
        len += snprintf(scores + len, sizeof scores - (size_t)len, "%s%d", i ? ", " : "", after->last_cycle_score[i]);
    for (int i = 0; i < after->players; i++)
        if (after->last_cycle_winners & (1u << i)) {
            done++;
            wlen += snprintf(who + wlen, sizeof who - (size_t)wlen, "%s%d",
                             done == 1 ? "" : done == count ? " and " : ", ", i + 1);
        }
    json_t *e;
    if (after->last_cycle_replayed)
        e = asobi_event_add(events, "cycle_end",
                            "Cycle %d ends (final scores %s): a tie, nobody takes a victory tile and the cycle is "
                            "played again.",
                            before->cycle, scores);
    else
        e = asobi_event_add(events, "cycle_end", "Cycle %d ends (final scores %s): Seat%s %s take%s a victory tile.",
                            before->cycle, scores, count > 1 ? "s" : "", who, count > 1 ? "" : "s");
    asobi_event_int(e, "cycle", before->cycle);
    json_t *a = json_array(), *t = json_array();
    for (int i = 0; i < after->players; i++) {
        json_array_append_new(a, json_integer(after->last_cycle_score[i]));
        json_array_append_new(t, json_integer(after->victory[i]));
    }
    json_object_set_new(e, "scores", a);
    json_object_set_new(e, "winners", asobi_json_seats(after->last_cycle_winners));
    asobi_event_bool(e, "replayed", after->last_cycle_replayed);
    json_object_set_new(e, "tiles", t);
}

/* §6.1: the next round's target tile is turned face up. */
static void add_round_start(const psycle_state *after, json_t *events)
{
    int target = after->targets[after->round], bonus = after->bonuses[after->round];
    json_t *e = asobi_event_add(events, "round_start", "Round %d of cycle %d: the target tile %d (bonus +%d) is turned face up.",
                                after->round + 1, after->cycle, target, bonus);
    asobi_event_int(e, "cycle", after->cycle);
    asobi_event_int(e, "round", after->round + 1);
    asobi_event_int(e, "target", target);
    asobi_event_int(e, "bonus", bonus);
}

/* A choice is face down: it makes nothing happen until the last seat of the
 * round has chosen; then the round resolves, maybe the cycle, maybe the game.
 * Everything that happens is public, so every viewer is told the same. */
void psycle_events(const void *b, int seat, int id, const void *a, int viewer, json_t *events)
{
    (void)seat, (void)id, (void)viewer;
    const psycle_state *before = b, *after = a;
    bool resolved = after->round != before->round || after->cycles_done != before->cycles_done ||
                    after->over != before->over;
    if (!resolved)
        return;
    add_reveal(before, after, events);
    add_round_scores(before, after, events);
    if (after->cycles_done != before->cycles_done)
        add_cycle_end(before, after, events);
    if (!after->over)
        add_round_start(after, events);
}

/* Why the game ended, for game_over and for an action refused after it. */
void psycle_over_text(const void *st, char *buf, size_t cap)
{
    const psycle_state *s = st;
    if (s->capped)
        snprintf(buf, cap, "the cycle cap of %d was reached; the most victory tiles win", s->max_cycles);
    else
        snprintf(buf, cap, "a second victory tile was taken");
}

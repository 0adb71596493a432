/* events.c — what happened because of an action, per viewer: the game's events hook and the game_over that core adds. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "game_def.h"
#include "text.h"

json_t *asobi_event_add(json_t *events, const char *type, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    asobi_utf8_repair(text); /* a long list cut in the middle of a character */
    json_t *event = json_object();
    json_object_set_new(event, "type", json_string(type));
    json_object_set_new(event, "text", json_string(text));
    json_array_append_new(events, event);
    return event;
}

void asobi_event_int(json_t *event, const char *key, long long value)
{
    json_object_set_new(event, key, json_integer(value));
}

void asobi_event_str(json_t *event, const char *key, const char *value)
{
    json_object_set_new(event, key, json_string(value));
}

void asobi_event_bool(json_t *event, const char *key, bool value)
{
    json_object_set_new(event, key, json_boolean(value));
}

void asobi_event_null(json_t *event, const char *key) { json_object_set_new(event, key, json_null()); }

/* "Seat 1 wins", "Seats 1 and 3 share the victory", "nobody wins". */
static void winners_text(uint32_t winners, char *buf, size_t cap)
{
    int count = __builtin_popcount(winners), done = 0, len = 0;
    if (count == 0) {
        snprintf(buf, cap, "nobody wins");
        return;
    }
    len += snprintf(buf, cap, "Seat%s ", count > 1 ? "s" : "");
    for (int i = 0; i < 32 && len < (int)cap; i++)
        if (winners & (1u << i)) {
            done++;
            len += snprintf(buf + len, cap - (size_t)len, "%s%d", done == 1 ? "" : done == count ? " and " : ", ",
                            i + 1);
        }
    if (len < (int)cap)
        snprintf(buf + len, cap - (size_t)len, count > 1 ? " share the victory" : " wins");
}

/* The end of the game, the same for every viewer: who won and why. */
static void add_game_over(const asobi_state *after, json_t *events)
{
    asobi_result r;
    asobi_state_result(after, &r);
    char who[160], why[200] = "";
    winners_text(r.winners, who, sizeof who);
    const asobi_game_def *def = asobi_state_game(after);
    if (def->over_text)
        def->over_text(asobi_state_data_for_ai(after), why, sizeof why);
    json_t *e = asobi_event_add(events, "game_over", "The game is over: %s%s%s.", who, why[0] ? "; " : "", why);
    json_object_set_new(e, "winners", asobi_json_seats(r.winners));
    asobi_event_str(e, "reason", why);
}

json_t *asobi_state_events(const asobi_state *before, int seat, int id, const asobi_state *after, int viewer)
{
    const asobi_game_def *def = asobi_state_game(before);
    int players = asobi_state_players(before);
    if (!after || asobi_state_game(after) != def || asobi_state_players(after) != players)
        return NULL;
    if (viewer != ASOBI_ALL_SEEING && viewer != ASOBI_SPECTATOR && (viewer < 0 || viewer >= players))
        return NULL;
    json_t *events = json_array();
    if (!events)
        return NULL;
    if (def->events)
        def->events(asobi_state_data_for_ai(before), seat, id, asobi_state_data_for_ai(after), viewer, events);
    if (asobi_state_terminal(after) && !asobi_state_terminal(before))
        add_game_over(after, events);
    return events;
}

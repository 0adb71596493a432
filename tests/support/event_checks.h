/* event_checks.h — what the games' event tests share: an action applied and its events for a viewer, an event found by type. */
#ifndef ASOBI_TEST_EVENT_CHECKS_H
#define ASOBI_TEST_EVENT_CHECKS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "asobi/asobi.h"

/* seat's action (a text) applied to st; its events (docs/protocol.md,
 * "Events") as viewer is told them, read off the states before and after
 * as every client reads them (asobi_state_events). The caller frees them. */
static inline json_t *act_told(asobi_state *st, int seat, const char *text, int viewer)
{
    int id = -1;
    asobi_error err;
    assert_int_equal(asobi_state_parse_action(st, seat, text, &id, &err), ASOBI_OK);
    asobi_state *before = asobi_state_clone(st);
    assert_int_equal(asobi_state_apply(st, seat, id, &err), ASOBI_OK);
    json_t *events = asobi_state_events(before, seat, id, st, viewer);
    asobi_state_free(before);
    assert_non_null(events);
    return events;
}

/* The first event of type, or NULL. */
static inline const json_t *find(const json_t *events, const char *type)
{
    size_t i;
    const json_t *e;
    json_array_foreach(events, i, e) if (strcmp(json_string_value(json_object_get(e, "type")), type) == 0) return e;
    return NULL;
}

/* The i-th event, which must be of type. */
static inline const json_t *event_at(const json_t *events, size_t i, const char *type)
{
    const json_t *e = json_array_get(events, i);
    assert_non_null(e);
    assert_string_equal(json_string_value(json_object_get(e, "type")), type);
    return e;
}

/* An integer field of an event. */
static inline long long field(const json_t *e, const char *key) { return json_integer_value(json_object_get(e, key)); }

#endif

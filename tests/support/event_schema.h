/* event_schema.h — the event types and fields docs/protocol.md lists ("Events"), read from the document itself (test support). */
#ifndef ASOBI_EVENT_SCHEMA_H
#define ASOBI_EVENT_SCHEMA_H

#include <jansson.h>
#include <stdbool.h>

/* {"*": {type: [fields]}, "psycle": {...}, ...}: the tables of the section
 * "Events" of docs/protocol.md (found through $ASOBI_SOURCE_DIR), read once
 * and kept; "*" holds the types of every game. NULL when the document
 * cannot be read. */
const json_t *event_schema(void);

/* Is events (asobi_state_events' array) valid for game by that list: every
 * event an object with a listed "type" of the game (or of every game), a
 * non-empty "text", and no field the type does not list? false with a
 * sentence in why (cap bytes) when not. */
bool event_schema_check(const char *game, const json_t *events, char *why, size_t cap);

#endif

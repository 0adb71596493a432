/* ratings.h — rated tables (issue 42): who may sit at one, a finished table's places for the ratings, the profile and leaderboard API. */
#ifndef ASOBI_SERVER_RATINGS_H
#define ASOBI_SERVER_RATINGS_H

#include <stdbool.h>

#include "server/store.h"
#include "server/table.h"

/* A rated table seats only signed-in people: true when bot_list (the spec's
 * "bots", one per seat, null for a person's) holds no bot, else false and
 * e is 400 rated_needs_people. */
bool ratings_people_only(const json_t *bot_list, srv_error *e);

/* POST /api/tables: may this request make the table it asks for? A rated
 * one ("rated": true) is made by a signed-in person only (account: theirs,
 * 0 for a guest): else false, and e is 401 account_required. */
bool ratings_may_create(const json_t *body, int64_t account, srv_error *e);

/* POST /api/tables/ID/join at table t by account (0: a guest) named name:
 * the body table_join reads (a new reference). At a rated table only a
 * signed-in person sits (401 account_required), once (409 already_seated),
 * under the account's name: a "name" in the body is ignored. Elsewhere the
 * body as it is. NULL and e on refusal. */
json_t *ratings_join_body(const table *t, const json_t *body, int64_t account, const char *name, srv_error *e);

/* What a finished table means for the people who played it (store.h's
 * store_result): each seat's account (0: a guest's or a bot's), name, bot
 * strength, and place. The places are the game's ranks (ties share one),
 * but a seat whose person left it for good (POST .../leave) ranks last,
 * below every seat still held, whatever the bot that played it on
 * achieved; such seats tie with each other. A seat the bot played for an
 * away person (--grace, timeouts) keeps the game's rank: it counts for its
 * person. rated: the table is rated (its spec), so the store moves the
 * accounts' ratings of the game; options (NINJA's shadow, THE OCTAL's
 * modes) rate under their game's name. */
void ratings_result(const table *t, store_result *out);

#endif

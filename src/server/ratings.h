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

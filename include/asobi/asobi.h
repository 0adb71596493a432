/* asobi.h — the one header to include for all of libasobi's public API. */
#ifndef ASOBI_H
#define ASOBI_H

#include "asobi/error.h"
#include "asobi/rng.h"
#include "asobi/game.h"
#include "asobi/record.h"
#include "asobi/bot.h"
#include "asobi/rating.h"
#include "asobi/review.h"

#define ASOBI_VERSION "0.1.0"

#endif

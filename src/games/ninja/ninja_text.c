/* ninja_text.c — NINJA SCROLL TRICK's action notation: texts, parsing, and why an action is refused. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game_def.h"
#include "ninja.h"

/* Notation (docs/rules/ninja.md):
 *   trump water            the start player picks the trump kind
 *   open fire-5            open a card of one's hand
 *   scroll +3 on fire-5    lay a tile of one's hand on one's open card
 *   flip fire-5            turn up the tile on one's open card
 *   play fire-5            play a card in the battle
 * A card is KIND-VALUE ("fire-5"; "fire5" and "fire 5" are accepted). The
 * verb may be left out: "water" in the trump phase, "fire-5" when opening,
 * flipping or playing, "+3 on fire-5" when laying tiles. */

static const char *phase_names[] = {"trump", "open", "scroll", "flip", "battle", "over"};

int ninja_card_text(int card, char *buf, size_t cap)
{
    return snprintf(buf, cap, "%s-%d", ninja_table.kind_names[ninja_kind(card)], ninja_value(card));
}

int ninja_action_text(const void *st, int seat, int id, char *buf, size_t cap)
{
    (void)st;
    (void)seat;
    char card[16];
    if (id < NINJA_ID_OPEN)
        return snprintf(buf, cap, "trump %s", ninja_table.kind_names[id - NINJA_ID_TRUMP]);
    if (id < NINJA_ID_SCROLL) {
        ninja_card_text(id - NINJA_ID_OPEN, card, sizeof card);
        return snprintf(buf, cap, "open %s", card);
    }
    if (id < NINJA_ID_FLIP) {
        int t = (id - NINJA_ID_SCROLL) / NINJA_CARDS, c = (id - NINJA_ID_SCROLL) % NINJA_CARDS;
        ninja_card_text(c, card, sizeof card);
        return snprintf(buf, cap, "scroll %+d on %s", ninja_table.scroll_values[t], card);
    }
    if (id < NINJA_ID_PLAY) {
        ninja_card_text(id - NINJA_ID_FLIP, card, sizeof card);
        return snprintf(buf, cap, "flip %s", card);
    }
    ninja_card_text(id - NINJA_ID_PLAY, card, sizeof card);
    return snprintf(buf, cap, "play %s", card);
}

/* What the other seats see of an action: a scroll tile is laid face down,
 * so they see on which card, not its value (seed 002: 「裏向きで」). Every
 * other action is done in the open. */
int ninja_public_text(const void *st, int seat, int id, int viewer, char *buf, size_t cap)
{
    (void)viewer;
    if (id >= NINJA_ID_SCROLL && id < NINJA_ID_FLIP) {
        char card[16];
        ninja_card_text((id - NINJA_ID_SCROLL) % NINJA_CARDS, card, sizeof card);
        return snprintf(buf, cap, "lays a scroll tile face down on %s", card);
    }
    return ninja_action_text(st, seat, id, buf, cap);
}

/* A tiny cursor over the lower-cased text. */
typedef struct cursor {
    const char *p;
} cursor;

static void skip_space(cursor *c)
{
    while (isspace((unsigned char)*c->p))
        c->p++;
}

/* The next run of letters (at most cap-1), lower-cased; 0 if none. */
static int read_word(cursor *c, char *out, size_t cap)
{
    skip_space(c);
    size_t n = 0;
    while (isalpha((unsigned char)c->p[n]) && n + 1 < cap) {
        out[n] = (char)tolower((unsigned char)c->p[n]);
        n++;
    }
    if (isalpha((unsigned char)c->p[n]))
        return 0; /* too long to be a word of ours */
    out[n] = '\0';
    c->p += n;
    return (int)n;
}

static int kind_named(const char *word)
{
    for (int k = 0; k < NINJA_KINDS; k++)
        if (strcmp(word, ninja_table.kind_names[k]) == 0)
            return k;
    return -1;
}

static int kinds_error(asobi_error *err, const char *what)
{
    return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION,
                      "there is no kind \"%.30s\": the kinds are fire, water, wood, metal and earth", what);
}

/* KIND-VALUE, KIND VALUE or KINDVALUE; the value 1..7. */
static int parse_card(cursor *c, int *card, asobi_error *err)
{
    char word[16];
    const char *at = c->p;
    skip_space(c);
    at = c->p;
    if (!read_word(c, word, sizeof word))
        return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION,
                          "\"%.40s\" is not a card: write a card as KIND-VALUE, e.g. fire-5", at);
    int kind = kind_named(word);
    if (kind < 0)
        return kinds_error(err, word);
    skip_space(c);
    if (*c->p == '-')
        c->p++;
    skip_space(c);
    if (!isdigit((unsigned char)*c->p))
        return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION,
                          "\"%.40s\" is not a card: write a card as KIND-VALUE, e.g. %s-5", at, word);
    char *end;
    long v = strtol(c->p, &end, 10);
    if (v < 1 || v > NINJA_VALUES)
        return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "there is no card %s-%ld: values go from 1 to 7",
                          word, v);
    c->p = end;
    *card = ninja_card(kind, (int)v);
    return ASOBI_OK;
}

static int parse_end(cursor *c, const char *text, asobi_error *err)
{
    skip_space(c);
    if (*c->p)
        return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "unexpected \"%.40s\" at the end of \"%.60s\"",
                          c->p, text);
    return ASOBI_OK;
}

/* "+3 on fire-5" (also "3 on fire-5", "+3 fire-5"). */
static int parse_scroll(cursor *c, const char *text, int *id, asobi_error *err)
{
    skip_space(c);
    const char *at = c->p;
    char *end;
    long v = strtol(c->p, &end, 10);
    int t = end == c->p ? -1 : ninja_scroll_type((int)v);
    if (t < 0)
        return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION,
                          "\"%.20s\" is not a scroll tile: the tiles are +1 +3 +5 +7 +10 -1 -3 -5 "
                          "(write e.g. \"scroll +3 on fire-5\")", at);
    c->p = end;
    cursor save = *c;
    char word[8];
    if (!(read_word(c, word, sizeof word) && strcmp(word, "on") == 0))
        *c = save;
    int card;
    int rc = parse_card(c, &card, err);
    if (rc != ASOBI_OK)
        return rc;
    if ((rc = parse_end(c, text, err)) != ASOBI_OK)
        return rc;
    *id = NINJA_ID_SCROLL + t * NINJA_CARDS + card;
    return ASOBI_OK;
}

int ninja_parse_action(const void *st, int seat, const char *text, int *id, asobi_error *err)
{
    (void)seat;
    const ninja_state *s = st;
    cursor c = {text};
    cursor start = c;
    char verb[16];
    int base = -1;
    const char *named = NULL;
    if (read_word(&c, verb, sizeof verb)) {
        static const char *const verbs[] = {"trump", "open", "scroll", "flip", "play"};
        for (int v = 0; v < 5; v++)
            if (strcmp(verb, verbs[v]) == 0) {
                named = verbs[v];
                base = v;
            }
    }
    if (base < 0) {
        /* No verb: the phase says which action is meant. */
        c = start;
        static const int by_phase[] = {0, 1, 2, 3, 4, -1};
        base = by_phase[s->phase];
        if (base < 0)
            return asobi_fail(err, ASOBI_E_GAME_OVER, "the game is over");
    }
    skip_space(&c);
    if (!*c.p && !named)
        return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION,
                          "no action given: it is the %s phase (see \"help\" for the notation)",
                          phase_names[s->phase]);
    int rc, card;
    switch (base) {
    case 0: {
        char word[16];
        const char *at = c.p;
        if (!read_word(&c, word, sizeof word))
            return kinds_error(err, at);
        int kind = kind_named(word);
        if (kind < 0)
            return kinds_error(err, word);
        if ((rc = parse_end(&c, text, err)) != ASOBI_OK)
            return rc;
        *id = NINJA_ID_TRUMP + kind;
        return ASOBI_OK;
    }
    case 2:
        return parse_scroll(&c, text, id, err);
    default:
        if ((rc = parse_card(&c, &card, err)) != ASOBI_OK)
            return rc;
        if ((rc = parse_end(&c, text, err)) != ASOBI_OK)
            return rc;
        *id = (base == 1 ? NINJA_ID_OPEN : base == 3 ? NINJA_ID_FLIP : NINJA_ID_PLAY) + card;
        return ASOBI_OK;
    }
}

static const char *phase_hint(int phase)
{
    switch (phase) {
    case NINJA_PHASE_TRUMP: return "the start player picks the trump (e.g. \"trump water\")";
    case NINJA_PHASE_OPEN: return "open a card of your hand (e.g. \"open fire-5\")";
    case NINJA_PHASE_SCROLL: return "lay your tiles on your open cards (e.g. \"scroll +3 on fire-5\")";
    case NINJA_PHASE_FLIP: return "turn up tiles on your open cards (e.g. \"flip fire-5\")";
    case NINJA_PHASE_BATTLE: return "play a card (e.g. \"play fire-5\")";
    default: return "the game is over";
    }
}

static int phase_of_id(int id)
{
    if (id < NINJA_ID_OPEN)
        return NINJA_PHASE_TRUMP;
    if (id < NINJA_ID_SCROLL)
        return NINJA_PHASE_OPEN;
    if (id < NINJA_ID_FLIP)
        return NINJA_PHASE_SCROLL;
    if (id < NINJA_ID_PLAY)
        return NINJA_PHASE_FLIP;
    return NINJA_PHASE_BATTLE;
}

void ninja_explain_illegal(const void *st, int seat, int id, char *buf, size_t cap)
{
    const ninja_state *s = st;
    if (phase_of_id(id) != s->phase) {
        snprintf(buf, cap, "it is the %s phase: %s", phase_names[s->phase], phase_hint(s->phase));
        return;
    }
    char card[16];
    uint64_t b;
    switch (s->phase) {
    case NINJA_PHASE_OPEN:
        ninja_card_text(id - NINJA_ID_OPEN, card, sizeof card);
        b = 1ull << (id - NINJA_ID_OPEN);
        if (!(s->hand[seat] & b))
            snprintf(buf, cap, "%s is not in your hand", card);
        else
            snprintf(buf, cap, "%s is already open", card);
        return;
    case NINJA_PHASE_SCROLL: {
        int t = (id - NINJA_ID_SCROLL) / NINJA_CARDS, c = (id - NINJA_ID_SCROLL) % NINJA_CARDS;
        int v = ninja_table.scroll_values[t];
        ninja_card_text(c, card, sizeof card);
        bool holds = false;
        for (int i = 0; i < s->held_n[seat]; i++)
            holds |= s->held[seat][i] == v;
        if (!holds)
            snprintf(buf, cap, "you hold no %+d tile", v);
        else if (!(s->open[seat] & (1ull << c)))
            snprintf(buf, cap, "%s is not one of your open cards: tiles go on your open cards", card);
        else
            snprintf(buf, cap, "%s already carries a tile", card);
        return;
    }
    case NINJA_PHASE_FLIP: {
        int c = id - NINJA_ID_FLIP;
        ninja_card_text(c, card, sizeof card);
        if (!(s->open[seat] & (1ull << c)))
            snprintf(buf, cap, "%s is not one of your open cards", card);
        else
            snprintf(buf, cap, "the tile on %s is already face up", card);
        return;
    }
    case NINJA_PHASE_BATTLE: {
        int c = id - NINJA_ID_PLAY;
        ninja_card_text(c, card, sizeof card);
        if (!(s->hand[seat] & (1ull << c))) {
            snprintf(buf, cap, "%s is not in your hand", card);
            return;
        }
        /* Name every card of the led kind held, then, when open and closed
         * ones are both held, that the open ones go first (勝負フェーズ:
         * "同じ種類のカードが開いた中にある場合は開かれたカードから出さなければ
         * なりません"). */
        int led = ninja_kind(s->trick_card[0]);
        uint64_t kind = 0, allowed = ninja_playable(s, seat);
        size_t n = (size_t)snprintf(buf, cap, "you must follow %s: you hold", ninja_table.kind_names[led]);
        for (int v = 1; v <= NINJA_VALUES && n < cap; v++) {
            int f = ninja_card(led, v);
            if (s->hand[seat] & (1ull << f)) {
                kind |= 1ull << f;
                ninja_card_text(f, card, sizeof card);
                n += (size_t)snprintf(buf + n, cap - n, " %s%s", card,
                                      (s->open[seat] & (1ull << f)) ? " (open)" : "");
            }
        }
        if (allowed != kind && n < cap) {
            n += (size_t)snprintf(buf + n, cap - n, "; open cards are played first: play");
            for (int f = 0; f < NINJA_CARDS && n < cap; f++)
                if (allowed & (1ull << f)) {
                    ninja_card_text(f, card, sizeof card);
                    n += (size_t)snprintf(buf + n, cap - n, " %s", card);
                }
        }
        return;
    }
    default:
        return;
    }
}

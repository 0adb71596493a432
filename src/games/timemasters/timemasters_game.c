/* timemasters_game.c — Time Masters behind the game-agnostic interface: options, notation, results, determinization. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game_def.h"
#include "hash.h"
#include "timemasters.h"

static int tm_init(void *st, int players, const json_t *options, uint64_t seed, asobi_error *err)
{
    tm_state *s = st;
    const json_t *cards = json_object_get(options, "cards");
    if (json_is_object(cards)) {
        /* Parse into a zeroed scratch table, then copy: padding stays zero. */
        tm_table t;
        int rc = tm_table_from_json(cards, &t, err);
        if (rc != ASOBI_OK)
            return rc;
        s->table = t;
    } else {
        s->table = tm_default_table;
    }
    s->players = (uint8_t)players;
    s->max_turns = (uint16_t)asobi_option_int(options, "max_turns");
    tm_setup(s, seed);
    return ASOBI_OK;
}

static int tm_state_legal(const void *st, int seat, int *ids) { return tm_legal(st, seat, ids); }

/* ---------------------------------------------------------------- notation */

static const char *kind_name(const tm_state *s, int k)
{
    return k >= 0 && k < s->table.kinds ? s->table.card[k].name : "?";
}

int tm_action_text(const void *st, int seat, int id, char *buf, size_t cap)
{
    const tm_state *s = st;
    const tm_player *p = &s->p[seat];
    if (id == TM_ID_PASS)
        return snprintf(buf, cap, "pass");
    if (id == TM_ID_DONE)
        return snprintf(buf, cap, "done");
    if (id == TM_ID_RECOVER)
        return snprintf(buf, cap, "recover");
    if (id < TM_ID_RELEASE)
        return snprintf(buf, cap, "play %s", kind_name(s, id - TM_ID_PLAY));
    if (id < TM_ID_SET)
        return snprintf(buf, cap, "release %s", kind_name(s, id - TM_ID_RELEASE));
    if (id < TM_ID_ACTIVATE)
        return snprintf(buf, cap, "set %s on %d", kind_name(s, (id - TM_ID_SET) / TM_MAX_TIMERS),
                        tm_timer_number(p, (id - TM_ID_SET) % TM_MAX_TIMERS));
    if (id < TM_ID_DELAY)
        return snprintf(buf, cap, "activate %d", tm_timer_number(p, id - TM_ID_ACTIVATE));
    if (id < TM_ID_DROP)
        return snprintf(buf, cap, "delay %d", tm_timer_number(p, id - TM_ID_DELAY));
    if (id < TM_ID_PICK)
        return snprintf(buf, cap, "drop %d", tm_timer_number(p, id - TM_ID_DROP));
    if (id < TM_ID_TAKE)
        return snprintf(buf, cap, "pick %s", kind_name(s, id - TM_ID_PICK));
    if (id < TM_ID_TAKE2)
        return snprintf(buf, cap, "take %d", id - TM_ID_TAKE + 1);
    if (id < TM_ID_PAY)
        return snprintf(buf, cap, "take %d second", id - TM_ID_TAKE2 + 1);
    /* "pay 2 gold 1 ephemeral": the whole mix while a payment is chosen */
    int eph = id - TM_ID_PAY;
    if (s->choice == TM_CH_PAY)
        return snprintf(buf, cap, "pay %d gold %d ephemeral", s->choice_left - eph, eph);
    return snprintf(buf, cap, "pay %d ephemeral", eph);
}


static int find_kind(const tm_state *s, const char *name)
{
    for (int k = 0; k < s->table.kinds; k++)
        if (strcasecmp(s->table.card[k].name, name) == 0)
            return k;
    return -1;
}

/* A whole-number argument 1..max, or -1. */
static int small_number(const char *p, int max)
{
    char *end;
    long v = strtol(p, &end, 10);
    if (end == p || *end != '\0' || v < 1 || v > max)
        return -1;
    return (int)v;
}

/* The index of the timer people call number (timers keep their numbers);
 * a number no timer bears and past the last index names that index (not
 * legal: the refusal then says why); -1 for a number that another timer's
 * index would misname. */
static int timer_for_number(const tm_player *p, int number)
{
    int t = tm_timer_index(p, number);
    if (t >= 0)
        return t;
    return number - 1 >= p->n_timers ? number - 1 : -1;
}

/* "pay G gold E ephemeral", "pay E ephemeral" or "pay G gold" (ruling 10):
 * the id TM_ID_PAY + E, the gold being the rest of the cost. */
static int parse_pay(const tm_state *s, char *arg, int *id, asobi_error *err)
{
    int gold = -1, eph = -1;
    char *save = NULL;
    for (char *tok = strtok_r(arg, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *word = strtok_r(NULL, " ", &save);
        int v = strcmp(tok, "0") == 0 ? 0 : small_number(tok, 99);
        if (v < 0 || !word)
            return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "write \"pay G gold E ephemeral\" (or \"pay E ephemeral\")");
        if (strcasecmp(word, "gold") == 0 && gold < 0)
            gold = v;
        else if ((strcasecmp(word, "ephemeral") == 0 || strcasecmp(word, "eph") == 0) && eph < 0)
            eph = v;
        else
            return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "write \"pay G gold E ephemeral\" (or \"pay E ephemeral\")");
    }
    bool paying = s->choice == TM_CH_PAY;
    if (gold >= 0 && !paying)
        return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "there is no payment to choose now");
    if (eph < 0)
        eph = gold >= 0 && gold <= s->choice_left ? s->choice_left - gold : -1;
    if (eph < 0 || eph > TM_MAX_EPHEMERAL || (paying && gold >= 0 && gold + eph != s->choice_left))
        return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, paying ? "the spell costs %d Kè: gold and ephemeral add up to it"
                                                              : "at most %d ephemeral Kè",
                          paying ? s->choice_left : TM_MAX_EPHEMERAL);
    *id = TM_ID_PAY + eph;
    return ASOBI_OK;
}

/* The documented texts (docs/rules/timemasters.md), case and spaces free. */
static int tm_parse_action(const void *st, int seat, const char *text, int *id, asobi_error *err)
{
    const tm_state *s = st;
    char buf[96];
    while (isspace((unsigned char)*text))
        text++;
    size_t len = strlen(text);
    while (len > 0 && isspace((unsigned char)text[len - 1]))
        len--;
    if (len == 0 || len >= sizeof buf)
        return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "write an action, e.g. \"play Energy\", \"done\" or \"pass\"");
    memcpy(buf, text, len);
    buf[len] = '\0';
    /* collapse runs of spaces so "set  Spark  on 1" reads like "set Spark on 1" */
    char *w = buf;
    for (char *r = buf; *r; r++)
        if (!(isspace((unsigned char)*r) && (w == buf || w[-1] == ' ')))
            *w++ = isspace((unsigned char)*r) ? ' ' : *r;
    *w = '\0';
    char *arg = strchr(buf, ' ');
    if (arg)
        *arg++ = '\0';
    const char *verb = buf;
    if (!arg) {
        if (strcasecmp(verb, "pass") == 0)
            return *id = TM_ID_PASS, ASOBI_OK;
        if (strcasecmp(verb, "done") == 0 || strcasecmp(verb, "end") == 0)
            return *id = TM_ID_DONE, ASOBI_OK;
        if (strcasecmp(verb, "recover") == 0)
            return *id = TM_ID_RECOVER, ASOBI_OK;
    } else if (strcasecmp(verb, "play") == 0 || strcasecmp(verb, "release") == 0 ||
               strcasecmp(verb, "pick") == 0) {
        int k = find_kind(s, arg);
        if (k < 0)
            return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "there is no card named \"%.40s\"", arg);
        int base = strcasecmp(verb, "play") == 0 ? TM_ID_PLAY
                   : strcasecmp(verb, "release") == 0 ? TM_ID_RELEASE : TM_ID_PICK;
        return *id = base + k, ASOBI_OK;
    } else if (strcasecmp(verb, "set") == 0) {
        char *on = NULL;
        for (char *q = arg; (q = strchr(q, ' ')) != NULL; q++)
            if (strncasecmp(q, " on ", 4) == 0)
                on = q;
        int t = on ? small_number(on + 4, TM_MAX_TIMERS) : -1;
        if (on)
            *on = '\0';
        int k = on ? find_kind(s, arg) : -1;
        if (k < 0 || t < 0)
            return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION,
                              "write \"set CARD on T\": a card name and a timer number 1 to %d", TM_MAX_TIMERS);
        int index = timer_for_number(&s->p[seat], t);
        if (index < 0)
            return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "you have no timer %d", t);
        return *id = TM_ID_SET + k * TM_MAX_TIMERS + index, ASOBI_OK;
    } else if (strcasecmp(verb, "activate") == 0 || strcasecmp(verb, "delay") == 0 ||
               strcasecmp(verb, "drop") == 0) {
        int t = small_number(arg, TM_MAX_TIMERS);
        if (t < 0)
            return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "%s takes a timer number 1 to %d", verb, TM_MAX_TIMERS);
        int base = strcasecmp(verb, "activate") == 0 ? TM_ID_ACTIVATE
                   : strcasecmp(verb, "delay") == 0 ? TM_ID_DELAY : TM_ID_DROP;
        int index = timer_for_number(&s->p[seat], t);
        if (index < 0)
            return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "you have no timer %d", t);
        return *id = base + index, ASOBI_OK;
    } else if (strcasecmp(verb, "pay") == 0) {
        return parse_pay(s, arg, id, err);
    } else if (strcasecmp(verb, "take") == 0) {
        bool second = false;
        char *sp = strchr(arg, ' ');
        if (sp) {
            second = strcasecmp(sp + 1, "second") == 0 || strcasecmp(sp + 1, "2nd") == 0;
            *sp = '\0';
        }
        int l = small_number(arg, TM_LEVELS);
        if (l < 0 || (sp && !second))
            return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "write \"take N\" or \"take N second\", N a sphere 1 to 5");
        return *id = (second ? TM_ID_TAKE2 : TM_ID_TAKE) + l - 1, ASOBI_OK;
    }
    return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION,
                      "\"%.40s\" is not a Time Masters action: pass, done, recover, play CARD, set CARD "
                      "on T, release CARD, activate T, delay T, drop T, pick CARD, pay G gold E ephemeral, "
                      "take N [second]",
                      text);
}

/* How the other seats see an action: all of them are done in the open
 * except the card put under a timer to delay it, which goes face down
 * ("活性化させたくないタイマーカードの下に手札のカード1枚を裏向きに置かなければいけません",
 * §1 タイマー遅延, and the same after a pass): they see that a card went under
 * which timer, never which card. */
static int tm_public_text(const void *st, int seat, int id, int viewer, char *buf, size_t cap)
{
    const tm_state *s = st;
    (void)viewer;
    if (s->choice == TM_CH_DELAY && id >= TM_ID_PICK && id < TM_ID_TAKE)
        return snprintf(buf, cap, "puts a card face down under timer %d",
                        tm_timer_number(&s->p[seat], s->choice_timer));
    return tm_action_text(st, seat, id, buf, cap);
}

static const char *const phase_names[] = {"timer", "main", "pass", "access", "over"};

static void tm_explain_illegal(const void *st, int seat, int id, char *buf, size_t cap)
{
    const tm_state *s = st;
    const tm_player *p = &s->p[seat];
    char what[64];
    tm_action_text(s, seat, id, what, sizeof what);
    if (s->choice == TM_CH_PAY) {
        const tm_player *pp = &s->p[s->seat];
        int lo = tm_pay_eph_lo(pp, s->choice_left), hi = tm_pay_eph_hi(pp, s->choice_left);
        snprintf(buf, cap, "first choose how to pay the %d Kè of %s (ruling 10): \"pay G gold E ephemeral\", "
                 "E from %d to %d", s->choice_left, s->table.card[s->pay_kind].name, lo, hi);
        return;
    }
    if (id >= TM_ID_PAY) {
        snprintf(buf, cap, "there is no payment to choose now: a spell's cost is chosen right after playing it, "
                 "when gold and ephemeral Kè could both pay");
        return;
    }
    if (s->choice != TM_CH_NONE && (id < TM_ID_PICK || id >= TM_ID_TAKE)) {
        /* name the card whose effect asks (an old record of our set meets
         * the focuses' remove of issue 30 here: ruling 24) */
        char card[96] = "";
        if (s->prog_kind != TM_NOCARD)
            tm_card_text(&s->table, s->prog_kind, card, sizeof card);
        snprintf(buf, cap, "first finish choosing cards%s%s: write \"pick CARD\"", card[0] ? " for " : "", card);
        return;
    }
    if (id >= TM_ID_PICK && id < TM_ID_TAKE) {
        snprintf(buf, cap, s->choice == TM_CH_NONE ? "there is nothing to pick now"
                                                   : "that card cannot be picked now");
        return;
    }
    if (id >= TM_ID_DELAY && id < TM_ID_DROP && (s->phase == TM_PH_TIMER || s->phase == TM_PH_PASS)) {
        int tmr = id - TM_ID_DELAY;
        if (tmr < p->n_timers && p->timers[tmr].n_delay >= TM_MAX_DELAY) {
            snprintf(buf, cap, "timer %d already holds %d delay cards, the most one timer holds (ruling 9): "
                     "activate it", tm_timer_number(p, tmr), TM_MAX_DELAY);
            return;
        }
        if (tmr < p->n_timers && p->n_hand == 0) {
            snprintf(buf, cap, "delaying a timer puts a card from your hand under it, and your hand is empty");
            return;
        }
    }
    if (s->phase == TM_PH_TIMER && (id < TM_ID_ACTIVATE || id >= TM_ID_DROP)) {
        snprintf(buf, cap, "timer phase: each full timer must first be activated or delayed");
        return;
    }
    if (s->phase == TM_PH_PASS && (id < TM_ID_DELAY || id >= TM_ID_PICK)) {
        snprintf(buf, cap, "you passed: each full timer takes a card from hand (delay T) or is dropped (drop T)");
        return;
    }
    if (s->phase == TM_PH_ACCESS && id != TM_ID_DONE && id < TM_ID_TAKE) {
        snprintf(buf, cap, "sphere access: take N, take N second, or done");
        return;
    }
    if (s->phase == TM_PH_MAIN && !tm_may_play_more(s) &&
        (id == TM_ID_RECOVER || (id >= TM_ID_PLAY && id < TM_ID_RELEASE) || (id >= TM_ID_SET && id < TM_ID_DELAY))) {
        snprintf(buf, cap, "a turn holds at most %d plays, sets, activations and recoveries (ruling 25): "
                 "play your released spells, then done", TM_MAX_TURN_PLAYS);
        return;
    }
    if (s->choice == TM_CH_NONE && s->phase == TM_PH_MAIN && tm_loop_refused(s, id)) {
        snprintf(buf, cap, "you already did \"%s\" from this very position this turn, and came back to it: "
                 "the loop changed nothing but your deck's order (ruling 25); do something else, or done", what);
        return;
    }
    if (id == TM_ID_PASS && s->main_acted) {
        snprintf(buf, cap, "a pass replaces every other action of the main phase, and you already acted");
        return;
    }
    if ((id == TM_ID_PASS || id == TM_ID_DONE) && p->n_released > 0) {
        snprintf(buf, cap, "the spells released from your timers must be played this turn (release CARD)");
        return;
    }
    if (id == TM_ID_RECOVER) {
        snprintf(buf, cap, "recovering Kè needs 2 cards in hand and a spent (grey) Kè");
        return;
    }
    if (id >= TM_ID_TAKE) {
        int second = id >= TM_ID_TAKE2, l = id - (second ? TM_ID_TAKE2 : TM_ID_TAKE) + 1;
        if (s->taken & (1u << (l - 1)))
            snprintf(buf, cap, "one card per sphere per turn: you already took from sphere %d", l);
        else if (s->n_sphere[l - 1] < 1 + second)
            snprintf(buf, cap, "sphere %d holds %d card%s", l, s->n_sphere[l - 1], s->n_sphere[l - 1] == 1 ? "" : "s");
        else
            snprintf(buf, cap, "%s costs %d access point%s and you have %d", what, l + second,
                     l + second == 1 ? "" : "s", s->access);
        return;
    }
    if (id >= TM_ID_PLAY && id < TM_ID_SET) {
        int k = id < TM_ID_RELEASE ? id - TM_ID_PLAY : id - TM_ID_RELEASE;
        if (k >= s->table.kinds)
            snprintf(buf, cap, "there is no such card");
        else if (id >= TM_ID_RELEASE)
            snprintf(buf, cap, "no %s was released from your timers", s->table.card[k].name);
        else if (tm_kind_count(p->hand, p->n_hand, k) == 0)
            snprintf(buf, cap, "you hold no %s", s->table.card[k].name);
        else if (s->table.card[k].type == TM_TIMER)
            snprintf(buf, cap, "you already have %d timers in play", TM_MAX_TIMERS);
        else
            snprintf(buf, cap, "%s costs %d Kè: you have %d gold and %d ephemeral%s", s->table.card[k].name,
                     tm_effective_cost(s, seat, k), p->ke_ready, p->ke_eph,
                     p->ke_limit ? " and a Slow Down limit" : "");
        return;
    }
    snprintf(buf, cap, "\"%s\" is not allowed now (%s phase)", what, phase_names[s->phase]);
}

/* Why the game is over, for an action refused then (an old record's take
 * after the second sphere ran out, ruling 1). */
static void tm_over_text(const void *st, char *buf, size_t cap)
{
    const tm_state *s = st;
    if (s->capped)
        snprintf(buf, cap, "the turn cap (max_turns %d) was reached", s->max_turns);
    else
        snprintf(buf, cap, "a second sphere ran out, which ends the game at once, nothing more taken "
                 "(ruling 1: \"ゲームは即座に終了します\")");
}

/* ---------------------------------------------------------------- results */

/* Most points; ties: most Kè (ephemeral included), then most level-5 cards
 * ("同点の場合、より多くのKe(一時的なKeも含む)を持っていたプレイヤーの勝利です。
 * Keも同数の場合は、レベル5の意識スフィアから獲得したカード枚数が多いプレイヤー"). */
static long long tm_rank_key(const tm_state *s, int i)
{
    return (long long)tm_points(s, i) * 1000000 + tm_total_ke(&s->p[i]) * 1000 + tm_level5(s, i);
}

static void tm_result(const void *st, asobi_result *out)
{
    const tm_state *s = st;
    out->winners = 0;
    for (int i = 0; i < s->players; i++) {
        out->score[i] = tm_points(s, i);
        int better = 0;
        for (int j = 0; j < s->players; j++)
            better += tm_rank_key(s, j) > tm_rank_key(s, i);
        out->rank[i] = better + 1;
        if (s->over && better == 0)
            out->winners |= 1u << i;
    }
}

/* ---------------------------------------------------------------- determinization */

/* Hidden from a viewer: the order of its own deck (its contents are known
 * and shown), the other players' hands, decks and delay cards, the spheres
 * below their top cards and the cards set aside. Resampled consistently with
 * everything the view shows:
 *  - the unseen cards are the whole box minus what the view shows;
 *  - another player certainly holds, hidden, the cards it is known to own
 *    (its starting deck and the face-up cards it took, listed in the view)
 *    minus those in sight; its other hidden cards are its unseen takes, of
 *    known levels (a card in sight beyond what it is known to own was one);
 *  - the unseen cards, collected in kind order and shuffled, fill the
 *    level-bound places (spheres below the top, set-aside, unseen takes)
 *    level by level; each player's hidden cards are then shuffled into its
 *    hand, deck and delay places. */
static void count_cards(int *count, const uint8_t *cards, int n, int sign)
{
    for (int i = 0; i < n; i++)
        count[cards[i]] += sign;
}

/* The cards of seat i that every seat sees. */
static void public_cards(const tm_state *s, int i, int *count, int sign)
{
    const tm_player *p = &s->p[i];
    count_cards(count, p->discard, p->n_discard, sign);
    count_cards(count, p->removed, p->n_removed, sign);
    count_cards(count, p->released, p->n_released, sign);
    for (int m = 0; m < p->n_timers; m++) {
        count_cards(count, &p->timers[m].kind, 1, sign);
        count_cards(count, p->timers[m].spells, p->timers[m].n_spells, sign);
    }
    if (i == s->seat)
        count_cards(count, s->zone, s->n_zone, sign);
}

static void tm_determinize(void *st, int viewer, asobi_rng *rng)
{
    tm_state *s = st;
    const tm_table *t = &s->table;
    if (s->over)
        return; /* the end reveals every score: nothing is hidden that matters */
    int unseen[TM_MAX_KINDS];
    for (int k = 0; k < t->kinds; k++)
        unseen[k] = t->card[k].copies * (t->card[k].level == 0 ? s->players : 1);
    for (int i = 0; i < s->players; i++)
        public_cards(s, i, unseen, -1);
    const tm_player *me = &s->p[viewer];
    count_cards(unseen, me->hand, me->n_hand, -1);
    count_cards(unseen, me->deck, me->n_deck, -1);
    for (int m = 0; m < me->n_timers; m++)
        count_cards(unseen, me->timers[m].delay, me->timers[m].n_delay, -1);
    for (int l = 0; l < TM_LEVELS; l++)
        if (s->n_sphere[l] > 0)
            unseen[s->sphere[l][s->n_sphere[l] - 1]]--;

    /* each other player's certain hidden cards, and its unseen takes by level */
    uint8_t hidden[TM_MAX_PLAYERS][TM_ZONE];
    int n_hidden[TM_MAX_PLAYERS] = {0}, slots[TM_MAX_PLAYERS][TM_LEVELS] = {{0}};
    for (int i = 0; i < s->players; i++) {
        if (i == viewer)
            continue;
        const tm_player *p = &s->p[i];
        int owned[TM_MAX_KINDS] = {0};
        for (int k = 0; k < t->kinds; k++)
            owned[k] = (t->card[k].level == 0 ? t->card[k].copies : 0) + p->took_seen[k];
        public_cards(s, i, owned, -1);
        for (int l = 0; l < TM_LEVELS; l++)
            slots[i][l] = p->took_unseen[l];
        for (int k = 0; k < t->kinds; k++) {
            if (owned[k] < 0 && t->card[k].level > 0)
                slots[i][t->card[k].level - 1] += owned[k]; /* in sight: an unseen take */
            for (int c = 0; c < owned[k]; c++)
                hidden[i][n_hidden[i]++] = (uint8_t)k;
            if (owned[k] > 0)
                unseen[k] -= owned[k];
        }
    }

    uint8_t pool[TM_MAX_KINDS * TM_MAX_LEVEL_CARDS];
    int n = 0;
    for (int k = 0; k < t->kinds; k++)
        for (int c = 0; c < unseen[k]; c++)
            pool[n++] = (uint8_t)k;
    /* hidden field: "a sphere below its top", "the cards set aside" */
    asobi_rng_shuffle(rng, pool, (size_t)n, 1);
    /* in shuffled order, each level-L card goes to the next free level-L
     * place: below the sphere's top, set aside, then the players' unseen takes */
    int filled[TM_LEVELS] = {0}, rest = 0;
    for (int i = 0; i < n; i++) {
        int l = t->card[pool[i]].level - 1;
        int j = l >= 0 ? filled[l] : -1;
        int below_top = l >= 0 && s->n_sphere[l] > 0 ? s->n_sphere[l] - 1 : 0;
        if (l >= 0 && j < below_top) {
            s->sphere[l][j] = pool[i];
        } else if (l >= 0 && j < below_top + s->n_aside[l]) {
            s->aside[l][j - below_top] = pool[i];
        } else {
            int at = l >= 0 ? j - below_top - s->n_aside[l] : -1, who = -1;
            for (int q = 0; l >= 0 && q < s->players && who < 0; q++) {
                if (q == viewer)
                    continue;
                if (at < slots[q][l])
                    who = q;
                else
                    at -= slots[q][l];
            }
            if (who < 0) {
                pool[rest++] = pool[i]; /* not expected: kept for the hidden places below */
                continue;
            }
            hidden[who][n_hidden[who]++] = pool[i];
        }
        filled[l]++;
    }
    int next = 0;
    for (int i = 0; i < s->players; i++) {
        tm_player *p = &s->p[i];
        if (i == viewer) {
            /* canonical order, then a fresh shuffle */
            uint8_t sorted[TM_ZONE];
            int m = 0;
            for (int k = 0; k < t->kinds; k++)
                for (int c = tm_kind_count(p->deck, p->n_deck, k); c > 0; c--)
                    sorted[m++] = (uint8_t)k;
            memcpy(p->deck, sorted, (size_t)m);
            /* hidden field: "the seat's own deck (its order)" */
            asobi_rng_shuffle(rng, p->deck, p->n_deck, 1);
            continue;
        }
        uint8_t *h = hidden[i];
        /* hidden field: "another seat's hand", "another seat's deck (its cards)", "another seat's deck (its
         * order)", "another seat's delay cards" (every timer's) */
        asobi_rng_shuffle(rng, h, (size_t)n_hidden[i], 1);
        int used = 0;
#define DEAL() (used < n_hidden[i] ? h[used++] : next < rest ? pool[next++] : h[0])
        for (int j = 0; j < p->n_hand; j++)
            p->hand[j] = DEAL();
        for (int j = 0; j < p->n_deck; j++)
            p->deck[j] = DEAL();
        for (int m = 0; m < p->n_timers; m++)
            for (int j = 0; j < p->timers[m].n_delay; j++)
                p->timers[m].delay[j] = DEAL();
#undef DEAL
    }
}

/* The viewer's information set, for search (game_def.h, info_hash): the
 * state's bytes with what tm_determinize resamples blanked (the others'
 * hands, decks and delay cards, the spheres below their tops, the cards set
 * aside), the viewer's own deck in kind order (determinize keeps its
 * contents and resamples its order) and the generator left out. Everything
 * else, counts and stale bytes past them included, is hashed as it is,
 * so two states share the hash exactly when their determinizations
 * would be byte-identical. The card table is the same in every state of
 * a game and is left out. */
static uint64_t tm_info_hash(const void *st, int viewer)
{
    tm_state c;
    memcpy(&c, st, offsetof(tm_state, table));
    memset(&c.rng, 0, sizeof c.rng);
    if (!c.over && viewer >= 0 && viewer < c.players) {
        const tm_table *t = &((const tm_state *)st)->table;
        for (int i = 0; i < c.players; i++) {
            tm_player *p = &c.p[i];
            if (i == viewer) {
                int count[TM_MAX_KINDS] = {0}, m = 0;
                for (int j = 0; j < p->n_deck; j++)
                    count[p->deck[j]]++;
                for (int k = 0; k < t->kinds; k++)
                    for (int n = count[k]; n > 0; n--)
                        p->deck[m++] = (uint8_t)k;
                continue;
            }
            memset(p->hand, 0, p->n_hand);
            memset(p->deck, 0, p->n_deck);
            for (int m = 0; m < p->n_timers; m++)
                memset(p->timers[m].delay, 0, p->timers[m].n_delay);
        }
        for (int l = 0; l < TM_LEVELS; l++) {
            if (c.n_sphere[l] > 1)
                memset(c.sphere[l], 0, (size_t)c.n_sphere[l] - 1);
            memset(c.aside[l], 0, c.n_aside[l]);
        }
    }
    return asobi_hash_bytes(&c, offsetof(tm_state, table), (uint64_t)viewer);
}

static int tm_heuristic_hook(const void *st, int seat, asobi_rng *rng) { return tm_heuristic(st, seat, rng); }

static const asobi_option_def tm_options[] = {
    {.name = "cards",
     .type = ASOBI_OPT_DATA,
     .default_json = "null",
     .normalize = tm_cards_option,
     .help = "a card set to play with instead of ours (null): its JSON content, kept with a name and a "
             "hash; on the command line --opt cards=FILE reads a file; the format and its limits are in "
             "docs/rules/timemasters.md"},
    {.name = "max_turns",
     .type = ASOBI_OPT_INT,
     .min = 2,
     .max = 2000,
     .default_json = "200",
     .help = "safety cap: the game ends after this many turns (all players together) and is scored "
             "as usual"},
};

const asobi_game_def asobi_game_timemasters = {
    .name = "timemasters",
    .title = "Time Masters",
    .min_players = TM_MIN_PLAYERS,
    .max_players = TM_MAX_PLAYERS,
    .state_size = sizeof(tm_state),
    .rng_offset = offsetof(tm_state, rng),
    .max_actions = TM_ACTIONS,
    .options = tm_options,
    .option_count = 2,
    .init = tm_init,
    .to_move = tm_to_move,
    .legal = tm_state_legal,
    .random_action = tm_random_action, /* the set actions counted, not listed (timemasters_moves.c) */
    .apply = tm_apply,
    .action_text = tm_action_text,
    .public_text = tm_public_text,
    .parse_action = tm_parse_action,
    .explain_illegal = tm_explain_illegal,
    .over_text = tm_over_text,
    .events = tm_events,
    .result = tm_result,
    .view = tm_view,
    .render = tm_render,
    .determinize = tm_determinize,
    .info_hash = tm_info_hash,
    .heuristic = tm_heuristic_hook,
    .heuristic_playouts = true, /* random playouts: 35% against the heuristic, heuristic ones 71% (docs/ai.md) */
    .quiet = tm_quiet,
};

/* timemasters_events.c — what Time Masters' actions make happen, as each viewer may know it: draws, Kè, timers, spheres, turns. */
#include <stdio.h>
#include <string.h>

#include "game_def.h"
#include "timemasters.h"

/* The action decoded once: what it takes from or puts into the actor's hand,
 * and what it pays. */
typedef struct tm_move {
    int seat;
    int hand_out; /* a kind leaving the hand by the action itself, -1: none */
    int hand_in;  /* a kind entering it by the action itself (a take, a focus back), -1: none */
    bool pays;    /* a spell paid now: cost gold + eph ephemeral */
    int cost, eph;
    bool resets_mod; /* a spell was paid for: the reminder tokens are used up */
} tm_move;

static void decode(const tm_state *s, int seat, int id, tm_move *m)
{
    memset(m, 0, sizeof *m);
    m->seat = seat;
    m->hand_out = m->hand_in = -1;
    const tm_player *p = &s->p[seat];
    if (s->choice == TM_CH_PAY) {
        m->pays = true;
        m->cost = s->choice_left;
        m->eph = id - TM_ID_PAY;
        return;
    }
    if (s->choice != TM_CH_NONE) {
        int k = id - TM_ID_PICK;
        if (s->choice == TM_CH_FOCUS_BACK)
            m->hand_in = k;
        else
            m->hand_out = k;
        return;
    }
    int k = -1;
    if (id >= TM_ID_PLAY && id < TM_ID_RELEASE)
        k = id - TM_ID_PLAY;
    else if (id >= TM_ID_SET && id < TM_ID_ACTIVATE)
        k = (id - TM_ID_SET) / TM_MAX_TIMERS;
    if (k >= 0) {
        m->hand_out = k;
        if (s->table.card[k].type == TM_SPELL) {
            /* begin_payment: paid at once when only one mix can pay it */
            m->resets_mod = true;
            int cost = tm_effective_cost(s, seat, k);
            int lo = tm_pay_eph_lo(p, cost), hi = tm_pay_eph_hi(p, cost);
            if (lo >= hi) {
                m->pays = true;
                m->cost = cost;
                m->eph = lo;
            }
        }
    }
    if (id >= TM_ID_TAKE && id < TM_ID_PAY) {
        int second = id >= TM_ID_TAKE2;
        int l = id - (second ? TM_ID_TAKE2 : TM_ID_TAKE) + 1;
        m->hand_in = s->sphere[l - 1][s->n_sphere[l - 1] - 1 - second];
    }
}

static const char *card_name(const tm_state *s, int kind) { return s->table.card[kind].name; }

/* "Spark, Blaze" and the same as a JSON array. */
static json_t *names_of(const tm_state *s, const uint8_t *cards, int n, char *buf, size_t cap)
{
    json_t *a = json_array();
    int len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        json_array_append_new(a, json_string(card_name(s, cards[i])));
        if (len < (int)cap)
            len += snprintf(buf + len, cap - (size_t)len, "%s%s", i ? ", " : "", card_name(s, cards[i]));
    }
    return a;
}

/* A timer leaves play (timer phase or main-phase activation, a discard
 * effect, the pass's drop): its spells released or discarded with it. */
static void add_timer(const tm_state *before, int seat, int id, json_t *events)
{
    const tm_player *p = &before->p[seat];
    bool activate = id >= TM_ID_ACTIVATE && id < TM_ID_DELAY, drop = id >= TM_ID_DROP && id < TM_ID_PICK;
    if (before->choice != TM_CH_NONE || (!activate && !drop))
        return;
    int t = id - (activate ? TM_ID_ACTIVATE : TM_ID_DROP);
    const tm_timer *tm = &p->timers[t];
    const tm_card *c = &before->table.card[tm->kind];
    int number = tm_timer_number(p, t);
    char spells[160];
    json_t *list = names_of(before, tm->spells, tm->n_spells, spells, sizeof spells);
    bool released = activate && (before->phase == TM_PH_TIMER || c->trigger != TM_TRIG_DISCARD);
    json_t *e;
    if (released) {
        e = asobi_event_add(events, "timer_released", "Seat %d's timer %d (%s) goes off: %s %s released.", seat + 1,
                            number, c->name, tm->n_spells ? spells : "nothing", tm->n_spells == 1 ? "is" : "are");
        json_object_set_new(e, "spells", list);
    } else {
        e = asobi_event_add(events, "timer_discarded", "Seat %d discards timer %d (%s)%s%s%s.", seat + 1, number,
                            c->name, tm->n_spells ? " with " : "", spells,
                            tm->n_delay ? " and the cards under it" : "");
        json_object_set_new(e, "spells", list);
        asobi_event_int(e, "delay", tm->n_delay);
    }
    asobi_event_int(e, "seat", seat);
    asobi_event_int(e, "timer", number);
    asobi_event_str(e, "card", c->name);
}

/* 3. sphere access: the card taken (the face-down second card: only the
 * taker learns which), the sphere's new top, a sphere run out. */
static void add_take(const tm_state *before, const tm_state *after, int seat, int id, int viewer, json_t *events)
{
    if (id < TM_ID_TAKE || id >= TM_ID_PAY || before->choice != TM_CH_NONE)
        return;
    int second = id >= TM_ID_TAKE2;
    int l = id - (second ? TM_ID_TAKE2 : TM_ID_TAKE) + 1;
    int kind = before->sphere[l - 1][before->n_sphere[l - 1] - 1 - second];
    /* a seat's points are its own ("相手の現在の勝利点は確認できません"), as in the views */
    bool mine = asobi_event_sees(viewer, seat) || after->over;
    int points = tm_points(after, seat);
    char score[32] = "";
    if (mine)
        snprintf(score, sizeof score, " (%d point%s)", points, points == 1 ? "" : "s");
    json_t *e;
    if (second && !asobi_event_sees(viewer, seat)) {
        e = asobi_event_add(events, "card_taken", "Seat %d takes the hidden second card of sphere %d%s.", seat + 1, l,
                            score);
        asobi_event_null(e, "card");
    } else {
        e = asobi_event_add(events, "card_taken", "Seat %d takes %s%s from sphere %d%s.", seat + 1,
                            card_name(before, kind), second ? ", the hidden second card," : "", l, score);
        asobi_event_str(e, "card", card_name(before, kind));
    }
    asobi_event_int(e, "seat", seat);
    asobi_event_int(e, "level", l);
    asobi_event_bool(e, "hidden", second);
    if (mine)
        asobi_event_int(e, "points", points);
    int left = after->n_sphere[l - 1];
    if (left > 0 && !second) {
        const char *top = card_name(after, after->sphere[l - 1][left - 1]);
        e = asobi_event_add(events, "sphere_top", "Sphere %d now shows %s.", l, top);
        asobi_event_int(e, "level", l);
        asobi_event_str(e, "card", top);
    }
    if (left == 0) {
        int empty = tm_empty_spheres(after);
        e = asobi_event_add(events, "sphere_emptied", "Sphere %d is empty (%d sphere%s empty).", l, empty,
                            empty == 1 ? "" : "s");
        asobi_event_int(e, "level", l);
        asobi_event_int(e, "empty", empty);
    }
}

/* Kè: paid, gained (ephemeral, new recurrent), turned back to ready. */
static void add_ke(const tm_state *before, const tm_state *after, const tm_move *m, json_t *events)
{
    const tm_player *b = &before->p[m->seat], *a = &after->p[m->seat];
    int seat = m->seat, gold = m->pays ? m->cost - m->eph : 0, eph = m->pays ? m->eph : 0;
    if (m->pays && m->cost > 0) {
        json_t *e = gold && eph ? asobi_event_add(events, "ke_spent", "Seat %d pays %d gold and %d ephemeral Kè.", seat + 1, gold, eph)
                    : asobi_event_add(events, "ke_spent", "Seat %d pays %d %s Kè.", seat + 1, gold + eph, gold ? "gold" : "ephemeral");
        asobi_event_int(e, "seat", seat);
        asobi_event_int(e, "gold", gold);
        asobi_event_int(e, "ephemeral", eph);
    }
    int eph_gain = a->ke_eph - (b->ke_eph - eph);
    int new_ke = (a->ke_ready + a->ke_spent) - (b->ke_ready + b->ke_spent);
    int readied = a->ke_ready - (b->ke_ready - gold) - (new_ke > 0 ? new_ke : 0);
    const char *kinds[2] = {"ephemeral", "recurrent"};
    int gains[2] = {eph_gain, new_ke};
    for (int i = 0; i < 2; i++)
        if (gains[i] > 0) {
            json_t *e = asobi_event_add(events, "ke_gained", "Seat %d gains %d %s Kè.", seat + 1, gains[i], kinds[i]);
            asobi_event_int(e, "seat", seat);
            asobi_event_str(e, "kind", kinds[i]);
            asobi_event_int(e, "count", gains[i]);
        }
    if (readied > 0) {
        json_t *e = asobi_event_add(events, "ke_readied", "Seat %d turns %d spent Kè back to ready.", seat + 1, readied);
        asobi_event_int(e, "seat", seat);
        asobi_event_int(e, "count", readied);
    }
    /* the gains beyond the caps: the seed's 4 ephemeral ("「一時的なKe」は4つまで
     * しか保持することができません") and our recurrent bound (ruling 14) */
    int lost[2] = {after->lost_eph, after->lost_rec}, caps[2] = {TM_MAX_EPHEMERAL, TM_MAX_RECURRENT};
    for (int i = 0; i < 2; i++)
        if (lost[i] > 0) {
            json_t *e = asobi_event_add(events, "ke_lost", "Seat %d loses %d %s Kè to the cap of %d.", seat + 1, lost[i],
                                        kinds[i], caps[i]);
            asobi_event_int(e, "seat", seat);
            asobi_event_str(e, "kind", kinds[i]);
            asobi_event_int(e, "count", lost[i]);
            asobi_event_int(e, "cap", caps[i]);
        }
}

/* Heavy, Slow Down, Light: the reminder tokens each seat received, and
 * those used up: a +n/-n by the spell it changed the cost of, a Kè limit by
 * the end of the turn it held for. */
static void add_reminders(const tm_state *before, const tm_state *after, const tm_move *m, json_t *events)
{
    const tm_player *actor = &before->p[m->seat];
    if (m->resets_mod && actor->cost_mod != 0) {
        int cost = actor->cost_mod;
        json_t *e = asobi_event_add(events, "reminder_used", "Seat %d's reminder (%d %s Kè) is used up.", m->seat + 1,
                                    cost > 0 ? cost : -cost, cost > 0 ? "more" : "less");
        asobi_event_int(e, "seat", m->seat);
        asobi_event_int(e, "cost", cost);
        asobi_event_int(e, "limit", 0);
    }
    if (actor->ke_limit > 0 && after->p[m->seat].ke_limit == 0) {
        json_t *e = asobi_event_add(events, "reminder_used", "Seat %d's limit of %d Kè ends with its turn.",
                                    m->seat + 1, actor->ke_limit);
        asobi_event_int(e, "seat", m->seat);
        asobi_event_int(e, "cost", 0);
        asobi_event_int(e, "limit", actor->ke_limit);
    }
    for (int i = 0; i < after->players; i++) {
        const tm_player *b = &before->p[i], *a = &after->p[i];
        int base = i == m->seat && m->resets_mod ? 0 : b->cost_mod;
        int cost = a->cost_mod - base;
        int limit = a->slow_next != b->slow_next && a->slow_next > 0 ? a->slow_next : 0;
        if (cost != 0) {
            json_t *e = asobi_event_add(events, "reminder", "Seat %d's next spell costs %d %s Kè.", i + 1,
                                        cost > 0 ? cost : -cost, cost > 0 ? "more" : "less");
            asobi_event_int(e, "seat", i);
            asobi_event_int(e, "cost", cost);
            asobi_event_int(e, "limit", 0);
        }
        if (limit) {
            json_t *e = asobi_event_add(events, "reminder", "Seat %d may spend at most %d Kè next turn.", i + 1, limit);
            asobi_event_int(e, "seat", i);
            asobi_event_int(e, "cost", 0);
            asobi_event_int(e, "limit", limit);
        }
    }
}

/* Cards removed from the game (a remove effect's picks: Cerebral Cleaning
 * "自分の手札のカード2枚を即座にゲームから除外します"). Removed cards are public
 * (ruling 15: every view lists them, and the pick's text names the card), so
 * every viewer is told which. */
static void add_removed(const tm_state *before, const tm_state *after, const tm_move *m, json_t *events)
{
    const tm_player *b = &before->p[m->seat], *a = &after->p[m->seat];
    for (int i = b->n_removed; i < a->n_removed; i++) {
        const char *name = card_name(after, a->removed[i]);
        json_t *e = asobi_event_add(events, "card_removed", "Seat %d removes %s from the game.", m->seat + 1, name);
        asobi_event_int(e, "seat", m->seat);
        asobi_event_str(e, "card", name);
    }
}

/* Cards drawn from the deck: what entered the hand beyond what the action
 * itself put there. The drawer learns which, the others how many ("山札から
 * 引く"). A draw from an empty deck shuffles the discard into a new one. */
static void add_draws(const tm_state *before, const tm_state *after, const tm_move *m, int viewer, json_t *events)
{
    const tm_player *b = &before->p[m->seat], *a = &after->p[m->seat];
    int count[TM_MAX_KINDS] = {0};
    for (int i = 0; i < a->n_hand; i++)
        count[a->hand[i]]++;
    for (int i = 0; i < b->n_hand; i++)
        count[b->hand[i]]--;
    if (m->hand_out >= 0)
        count[m->hand_out]++;
    if (m->hand_in >= 0)
        count[m->hand_in]--;
    uint8_t drawn[TM_ZONE];
    int n = 0;
    for (int k = 0; k < TM_MAX_KINDS; k++)
        for (int c = 0; c < count[k]; c++)
            drawn[n++] = (uint8_t)k;
    if (n == 0)
        return;
    int seat = m->seat;
    if (n > b->n_deck) {
        int size = a->n_deck + n - b->n_deck;
        json_t *e = asobi_event_add(events, "reshuffle", "Seat %d shuffles %d discarded card%s into a new deck.",
                                    seat + 1, size, size == 1 ? "" : "s");
        asobi_event_int(e, "seat", seat);
        asobi_event_int(e, "count", size);
    }
    json_t *e;
    if (asobi_event_sees(viewer, seat)) {
        char list[256];
        json_t *names = names_of(after, drawn, n, list, sizeof list);
        e = asobi_event_add(events, "draw", "Seat %d draws %d card%s: %s.", seat + 1, n, n == 1 ? "" : "s", list);
        json_object_set_new(e, "cards", names);
    } else {
        e = asobi_event_add(events, "draw", "Seat %d draws %d card%s.", seat + 1, n, n == 1 ? "" : "s");
    }
    asobi_event_int(e, "seat", seat);
    asobi_event_int(e, "count", n);
}

void tm_events(const void *b, int seat, int id, const void *a, int viewer, json_t *events)
{
    const tm_state *before = b, *after = a;
    tm_move m;
    decode(before, seat, id, &m);
    add_timer(before, seat, id, events);
    add_take(before, after, seat, id, viewer, events);
    add_ke(before, after, &m, events);
    add_reminders(before, after, &m, events);
    add_removed(before, after, &m, events);
    add_draws(before, after, &m, viewer, events);
    if (after->turn != before->turn && !after->over) {
        json_t *e = asobi_event_add(events, "turn_start", "Turn %d: Seat %d plays.", after->turn, after->seat + 1);
        asobi_event_int(e, "seat", after->seat);
        asobi_event_int(e, "turn", after->turn);
    }
}

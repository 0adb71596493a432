/* octal_actions.c — THE OCTAL's action ids and their text: "play 4大↑ on 1", "override 8小↑ 6同↕ 3異↑ on 1 Octo!". */
#include <ctype.h>
#include <string.h>

#include "game_def.h"
#include "octal.h"

void octal_decode(int id, octal_action *a)
{
    memset(a, 0, sizeof *a);
    if (id == OCTAL_ID_PASS) {
        a->event = OCTAL_EV_PASS;
    } else if (id < OCTAL_ID_PLAY) {
        a->event = OCTAL_EV_DISCARD;
        a->kind = (uint8_t)(id - OCTAL_ID_DISCARD);
    } else if (id < OCTAL_ID_LAY) {
        int x = id - OCTAL_ID_PLAY;
        a->event = OCTAL_EV_PLAY;
        a->octo = (uint8_t)!(x & 1); /* the lowest bit is "silent" (octal.h) */
        a->below = (uint8_t)(x >> 1 & 1);
        a->question = (uint8_t)(x >> 2 & 1);
        a->kind = (uint8_t)(x >> 3);
    } else if (id < OCTAL_ID_OVERRIDE) {
        int x = id - OCTAL_ID_LAY;
        a->event = OCTAL_EV_LAY;
        a->octo = (uint8_t)!(x & 1);
        a->question = (uint8_t)(x >> 1 & 1);
        a->kind = (uint8_t)(x >> 2);
    } else if (id < OCTAL_ID_DECLARE) {
        int x = id - OCTAL_ID_OVERRIDE;
        a->event = OCTAL_EV_OVERRIDE;
        a->octo = (uint8_t)!(x & 1);
        a->question = (uint8_t)(x >> 1 & 1);
        a->perm = (uint8_t)((x >> 2) % OCTAL_PERMS);
        a->mask = (uint8_t)((x >> 2) / OCTAL_PERMS);
    } else {
        a->event = OCTAL_EV_DECLARE;
        a->octo = 1;
    }
}

int octal_encode(const octal_action *a)
{
    switch (a->event) {
    case OCTAL_EV_PASS: return OCTAL_ID_PASS;
    case OCTAL_EV_DISCARD: return OCTAL_ID_DISCARD + a->kind;
    case OCTAL_EV_PLAY: return OCTAL_ID_PLAY + ((a->kind * 2 + a->question) * 2 + a->below) * 2 + !a->octo;
    case OCTAL_EV_LAY: return OCTAL_ID_LAY + (a->kind * 2 + a->question) * 2 + !a->octo;
    case OCTAL_EV_OVERRIDE:
        return OCTAL_ID_OVERRIDE + ((a->mask * OCTAL_PERMS + a->perm) * 2 + a->question) * 2 + !a->octo;
    case OCTAL_EV_DECLARE: return OCTAL_ID_DECLARE;
    default: return -1;
    }
}

/* Built by hand, not with snprintf: texts are made for every legal action
 * by the notation checks and by records, so this is on hot paths. */
int octal_card_text(int card, char *buf, size_t cap)
{
    char text[16];
    size_t n = 0;
    if (card >= OCTAL_ALL) {
        memcpy(text, "ALL", 4);
        n = 3;
    } else {
        const octal_card *c = &octal_table.cards[card];
        const char *letter = octal_condition_letter[c->condition];
        const char *arrow = c->arrow == OCTAL_UP ? "↑" : "↕";
        text[n++] = (char)('0' + c->number);
        memcpy(text + n, letter, 3); /* every letter and arrow is 3 bytes of UTF-8 */
        n += 3;
        memcpy(text + n, arrow, 3);
        n += 3;
        text[n] = '\0';
    }
    if (cap > 0) {
        size_t m = n < cap - 1 ? n : cap - 1;
        memcpy(buf, text, m);
        buf[m] = '\0';
    }
    return (int)n;
}

int octal_card_ascii(int card, char *buf, size_t cap)
{
    if (card >= OCTAL_ALL)
        return snprintf(buf, cap, "ALL");
    const octal_card *c = &octal_table.cards[card];
    return snprintf(buf, cap, "%d%c%c", c->number, octal_condition_ascii[c->condition],
                    c->arrow == OCTAL_UP ? '^' : '|');
}

/* Append to buf at *len, snprintf-style, never past cap. */
static void add(char *buf, size_t cap, int *len, const char *text)
{
    size_t l = strlen(text);
    if ((size_t)*len + 1 < cap) {
        size_t room = cap - 1 - (size_t)*len, m = l < room ? l : room;
        memcpy(buf + *len, text, m);
        buf[(size_t)*len + m] = '\0';
    }
    *len += (int)l;
}

int octal_action_text(const void *st, int seat, int id, char *buf, size_t cap)
{
    const octal_state *s = st;
    octal_action a;
    octal_decode(id, &a);
    char card[16];
    int len = 0;
    buf[0] = '\0';
    switch (a.event) {
    case OCTAL_EV_PASS: add(buf, cap, &len, "pass"); return len;
    case OCTAL_EV_DECLARE: add(buf, cap, &len, "Octo!"); return len;
    case OCTAL_EV_DISCARD:
        octal_card_text(a.kind, card, sizeof card);
        add(buf, cap, &len, "discard ");
        add(buf, cap, &len, card);
        return len;
    case OCTAL_EV_PLAY:
    case OCTAL_EV_LAY:
        octal_card_text(a.kind, card, sizeof card);
        add(buf, cap, &len, a.event == OCTAL_EV_PLAY ? "play " : "lay ");
        add(buf, cap, &len, card);
        break;
    case OCTAL_EV_OVERRIDE: {
        uint8_t placed[OCTAL_OVERRIDE_MAX];
        int k = octal_override_cards(s, seat, a.mask, a.perm, placed);
        add(buf, cap, &len, "override");
        for (int i = 0; i < k; i++) {
            octal_card_text(placed[i], card, sizeof card);
            add(buf, cap, &len, " ");
            add(buf, cap, &len, card);
        }
        break;
    }
    default: add(buf, cap, &len, "?"); return len;
    }
    add(buf, cap, &len, a.question ? " on 2" : " on 1");
    if (a.below)
        add(buf, cap, &len, " point below");
    if (a.octo)
        add(buf, cap, &len, " Octo!");
    return len;
}

/* What the others see: a discard is face down (§⑤ "裏向きにして捨てる札");
 * every other action is done in the open (a pass's drawn card is not in its
 * text). */
int octal_public_text(const void *st, int seat, int id, int viewer, char *buf, size_t cap)
{
    (void)viewer;
    octal_action a;
    octal_decode(id, &a);
    if (a.event == OCTAL_EV_DISCARD) {
        int len = 0;
        buf[0] = '\0';
        add(buf, cap, &len, "discard a card face down");
        return len;
    }
    return octal_action_text(st, seat, id, buf, cap);
}

/* ---- parsing ------------------------------------------------------------- */

#define MAX_TOKENS 12

static int split(const char *text, char tokens[MAX_TOKENS][32], char original[MAX_TOKENS][32])
{
    int n = 0;
    const char *p = text;
    for (;;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            return n;
        if (n == MAX_TOKENS)
            return -1;
        size_t len = 0;
        while (p[len] && !isspace((unsigned char)p[len]))
            len++;
        if (len >= 32)
            return -1;
        for (size_t i = 0; i < len; i++) {
            unsigned char c = (unsigned char)p[i];
            tokens[n][i] = (char)(c < 128 ? tolower(c) : c);
            original[n][i] = (char)c;
        }
        tokens[n][len] = '\0';
        original[n][len] = '\0';
        n++;
        p += len;
    }
}

/* A card: "all", or its number, its condition (大小同異倍約 or G L S X M D)
 * and optionally its arrow (↑ ↕ or ^ |). Number and condition alone already
 * name one card (the four copies of a number bear four conditions). Returns
 * the card index, OCTAL_ALL for an ALL, or -1 (message in why). */
static int parse_card(const char *t, const char *shown, char *why, size_t cap)
{
    if (strcmp(t, "all") == 0)
        return OCTAL_ALL;
    if (t[0] < '1' || t[0] > '8') {
        snprintf(why, cap, "\"%s\" is not a card: write e.g. 4大↕ (or 4G|), or ALL", shown);
        return -1;
    }
    int number = t[0] - '0', condition = -1;
    const char *p = t + 1;
    for (int c = 0; c < OCTAL_CONDITIONS && condition < 0; c++) {
        size_t l = strlen(octal_condition_letter[c]);
        if (strncmp(p, octal_condition_letter[c], l) == 0) {
            condition = c;
            p += l;
        } else if (tolower((unsigned char)*p) == tolower((unsigned char)octal_condition_ascii[c])) {
            condition = c;
            p++;
        }
    }
    if (condition < 0) {
        snprintf(why, cap, "\"%s\": a card's condition is one of 大小同異倍約 (G L S X M D)", shown);
        return -1;
    }
    int arrow = -1;
    if (strcmp(p, "↑") == 0 || strcmp(p, "^") == 0)
        arrow = OCTAL_UP;
    else if (strcmp(p, "↕") == 0 || strcmp(p, "|") == 0)
        arrow = OCTAL_BOTH;
    else if (*p) {
        snprintf(why, cap, "\"%s\": a card's arrow is ↑ (^) or ↕ (|)", shown);
        return -1;
    }
    for (int card = 0; card < OCTAL_NUMBER_CARDS; card++) {
        const octal_card *c = &octal_table.cards[card];
        if (c->number == number && c->condition == condition && (arrow < 0 || c->arrow == arrow))
            return card;
    }
    snprintf(why, cap, "there is no card %s in THE OCTAL", shown);
    return -1;
}

static bool is_octo(const char *t)
{
    return strcmp(t, "octo!") == 0 || strcmp(t, "octo") == 0 || strcmp(t, "オクト") == 0 ||
           strcmp(t, "オクト!") == 0 || strcmp(t, "オクト！") == 0;
}

static const int fact[5] = {1, 1, 2, 6, 24};

/* The hand mask and Lehmer code of an override naming cards (bottom first). */
static int override_ids(const octal_state *s, int seat, const int *cards, int k, octal_action *a,
                        asobi_error *err)
{
    uint8_t hand[OCTAL_CARDS];
    int n = octal_hand_order(s->hand[seat], hand);
    int pos[OCTAL_OVERRIDE_MAX];
    unsigned mask = 0;
    char name[16];
    for (int i = 0; i < k; i++) {
        pos[i] = -1;
        for (int j = 0; j < n && pos[i] < 0; j++) {
            bool same = cards[i] == OCTAL_ALL ? octal_is_all(hand[j]) : hand[j] == cards[i];
            if (same && !(mask >> j & 1u))
                pos[i] = j;
        }
        if (pos[i] < 0) {
            octal_card_text(cards[i], name, sizeof name);
            return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "you do not hold %s%s", cards[i] == OCTAL_ALL &&
                              (s->hand[seat] >> OCTAL_ALL & 3u) ? "a second " : "", name);
        }
        mask |= 1u << pos[i];
    }
    /* The index of each placed card among the chosen ones (hand order). */
    int rel[OCTAL_OVERRIDE_MAX];
    for (int i = 0; i < k; i++) {
        rel[i] = 0;
        for (int j = 0; j < k; j++)
            rel[i] += pos[j] < pos[i];
    }
    int perm = 0;
    for (int i = 0; i < k; i++) {
        int smaller = 0;
        for (int j = i + 1; j < k; j++)
            smaller += rel[j] < rel[i];
        perm += smaller * fact[k - 1 - i];
    }
    a->mask = (uint8_t)mask;
    a->perm = (uint8_t)perm;
    return ASOBI_OK;
}

int octal_parse_action(const void *st, int seat, const char *text, int *id, asobi_error *err)
{
    const octal_state *s = st;
    static const char usage[] = "write pass, discard CARD, play CARD on Q [point below] [Octo!], "
                                "lay CARD on Q, override CARD CARD... on Q [Octo!], or Octo! (late)";
    char tok[MAX_TOKENS][32], orig[MAX_TOKENS][32], why[160];
    int n = split(text, tok, orig);
    if (n <= 0)
        return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "%s", n == 0 ? "no action given" : "that is too long");
    octal_action a;
    memset(&a, 0, sizeof a);
    int t = 1;
    if (strcmp(tok[0], "pass") == 0 && n == 1) {
        *id = OCTAL_ID_PASS;
        return ASOBI_OK;
    }
    if (is_octo(tok[0]) && n == 1) { /* §⑦ the late declaration */
        *id = OCTAL_ID_DECLARE;
        return ASOBI_OK;
    }
    if (strcmp(tok[0], "discard") == 0) {
        if (n != 2)
            return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "write discard CARD, e.g. discard 4大↑");
        int card = parse_card(tok[1], orig[1], why, sizeof why);
        if (card < 0)
            return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "%s", why);
        a.event = OCTAL_EV_DISCARD;
        a.kind = (uint8_t)card;
        *id = octal_encode(&a);
        return ASOBI_OK;
    }
    int cards[OCTAL_OVERRIDE_MAX], k = 0;
    if (strcmp(tok[0], "play") == 0)
        a.event = OCTAL_EV_PLAY;
    else if (strcmp(tok[0], "lay") == 0)
        a.event = OCTAL_EV_LAY;
    else if (strcmp(tok[0], "override") == 0)
        a.event = OCTAL_EV_OVERRIDE;
    else
        return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "\"%.60s\" is not an OCTAL action: %s", text, usage);
    int most = a.event == OCTAL_EV_OVERRIDE ? OCTAL_OVERRIDE_MAX : 1;
    while (t < n && strcmp(tok[t], "on") != 0 && strcmp(tok[t], "point") != 0 && strcmp(tok[t], "below") != 0 &&
           !is_octo(tok[t])) {
        if (k == most)
            return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "%s", a.event == OCTAL_EV_OVERRIDE ?
                              "an override places 2 to 4 cards" : "one card at a time (or override)");
        cards[k] = parse_card(tok[t], orig[t], why, sizeof why);
        if (cards[k] < 0)
            return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "%s", why);
        k++;
        t++;
    }
    if (k == 0)
        return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "name the card: %s", usage);
    if (a.event == OCTAL_EV_OVERRIDE && k < OCTAL_OVERRIDE_MIN)
        return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "an override places 2 to 4 cards; to place one, write play");
    int question = -1;
    for (; t < n; t++) {
        if (strcmp(tok[t], "on") == 0 && t + 1 < n && (strcmp(tok[t + 1], "1") == 0 || strcmp(tok[t + 1], "2") == 0)) {
            question = tok[++t][0] - '1';
        } else if (strcmp(tok[t], "point") == 0 && t + 1 < n &&
                   (strcmp(tok[t + 1], "below") == 0 || strcmp(tok[t + 1], "top") == 0)) {
            a.below = strcmp(tok[++t], "below") == 0;
        } else if (strcmp(tok[t], "below") == 0) {
            a.below = 1;
        } else if (is_octo(tok[t])) {
            a.octo = 1;
        } else {
            return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "\"%s\" is not understood here: %s", orig[t], usage);
        }
    }
    if (a.below && a.event != OCTAL_EV_PLAY)
        return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "only a single card played with ↕ may point below");
    if (a.event == OCTAL_EV_OVERRIDE) {
        int rc = override_ids(s, seat, cards, k, &a, err);
        if (rc != ASOBI_OK)
            return rc;
    } else {
        a.kind = (uint8_t)cards[0];
    }
    if (question < 0) {
        /* Without "on Q": the only question the action is legal on, or 1. */
        question = 0;
        if (s->questions == 2) {
            octal_action b = a;
            b.question = 1;
            char r0[ASOBI_MESSAGE_MAX], r1[ASOBI_MESSAGE_MAX];
            a.question = 0;
            octal_why_illegal(s, seat, &a, r0, sizeof r0);
            octal_why_illegal(s, seat, &b, r1, sizeof r1);
            if (!r0[0] && !r1[0])
                return asobi_fail(err, ASOBI_E_ILLEGAL_ACTION, "that fits both questions: add on 1 or on 2");
            if (r0[0] && !r1[0])
                question = 1;
        }
    }
    a.question = (uint8_t)question;
    *id = octal_encode(&a);
    return ASOBI_OK;
}

/* Refusals are read by people at the table: the seed's section numbers
 * the rules cite for their authors ("(seed §⑤ ...)", "; seed §⑧") are taken
 * out of the sentence. */
static void drop_seed_citations(char *buf)
{
    char *cite;
    while ((cite = strstr(buf, "seed §")) != NULL) {
        char *from = cite, *to = strchr(cite, ')');
        to = to ? to : cite + strlen(cite);
        while (from > buf && from[-1] == ' ')
            from--;
        if (from > buf && from[-1] == '(' && *to == ')') {
            from--; /* a whole "(seed §...)" goes, with the space before it */
            to++;
            while (from > buf && from[-1] == ' ')
                from--;
        } else if (from > buf && (from[-1] == ';' || from[-1] == ',')) {
            from--; /* "(..., seed §⑧)": keep the parenthesis */
        }
        memmove(from, to, strlen(to) + 1);
    }
}

void octal_explain_illegal(const void *st, int seat, int id, char *buf, size_t cap)
{
    octal_action a;
    octal_decode(id, &a);
    octal_why_illegal(st, seat, &a, buf, cap);
    drop_seed_citations(buf);
}

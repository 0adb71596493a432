/* test_timemasters_names.c — every card of our set has its Japanese name in the web client (web/js/games/timemasters_names.js). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "tm_sim.h"

/* The web client shows a card by its Japanese name on the Japanese page and falls back to the protocol's English
 * name for a card it has no name for (a loaded set's). For our own set that fallback would be a defect: a card
 * added to timemasters_cards.c without its name would show in English among Japanese words. So the engine's table
 * is read here, card by card, against the names module's lines ('English': 'Japanese',). */

enum { MAX_NAMES = 128 };
typedef struct {
    char en[TM_NAME_MAX];
    char ja[128];
} name_pair;

static const char *names_path(void)
{
    const char *dir = getenv("ASOBI_SOURCE_DIR");
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/web/js/games/timemasters_names.js", dir ? dir : ".");
    return buf;
}

/* The module's lines of the form   'English': 'Japanese',   into PAIRS; their count. */
static int read_names(name_pair *pairs)
{
    FILE *f = fopen(names_path(), "r");
    if (!f)
        fail_msg("cannot read %s (ASOBI_SOURCE_DIR)", names_path());
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        char en[64], ja[256];
        int end = 0;
        if (sscanf(line, " '%63[^']': '%255[^']',%n", en, ja, &end) != 2 || end == 0)
            continue;
        assert_true(n < MAX_NAMES);
        assert_true(strlen(en) < TM_NAME_MAX && strlen(ja) < sizeof pairs[n].ja);
        strcpy(pairs[n].en, en);
        strcpy(pairs[n].ja, ja);
        n++;
    }
    fclose(f);
    return n;
}

static const char *japanese_of(const name_pair *pairs, int n, const char *en)
{
    for (int i = 0; i < n; i++)
        if (strcmp(pairs[i].en, en) == 0)
            return pairs[i].ja;
    return NULL;
}

/* Japanese: no ASCII letter, and at least one character outside ASCII. */
static bool reads_as_japanese(const char *s)
{
    bool wide = false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'))
            return false;
        wide |= *p >= 0x80;
    }
    return wide;
}

static void test_every_card_of_our_set_has_a_japanese_name(void **unused)
{
    (void)unused;
    static name_pair pairs[MAX_NAMES];
    int n = read_names(pairs);
    const tm_table *t = &tm_default_table;
    for (int k = 0; k < t->kinds; k++) {
        const char *ja = japanese_of(pairs, n, t->card[k].name);
        if (!ja)
            fail_msg("%s has no Japanese name in web/js/games/timemasters_names.js", t->card[k].name);
        if (!reads_as_japanese(ja))
            fail_msg("%s's Japanese name \"%s\" is not Japanese", t->card[k].name, ja);
    }
    /* and the module names nothing else: each of its names is a card of our set, once */
    for (int i = 0; i < n; i++) {
        bool known = false;
        for (int k = 0; k < t->kinds; k++)
            known |= strcmp(t->card[k].name, pairs[i].en) == 0;
        if (!known)
            fail_msg("web/js/games/timemasters_names.js names %s, not a card of our set", pairs[i].en);
    }
    assert_int_equal(n, t->kinds);
}

/* Two cards never share a Japanese name: a Japanese player could not tell them apart. */
static void test_japanese_names_are_distinct(void **unused)
{
    (void)unused;
    static name_pair pairs[MAX_NAMES];
    int n = read_names(pairs);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (strcmp(pairs[i].ja, pairs[j].ja) == 0)
                fail_msg("%s and %s are both %s", pairs[i].en, pairs[j].en, pairs[i].ja);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_card_of_our_set_has_a_japanese_name),
        cmocka_unit_test(test_japanese_names_are_distinct),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* timemasters_cards.c — per-card balance of a Time Masters card set: the win rate of the player-games a card was bought in. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asobi/asobi.h"
#include "game_def.h"
#include "games/timemasters/timemasters.h"

/* Bots play 2-player games (seats alternate between the two specs when they
 * differ); at the end, every card of level 1-5 a player bought from the
 * spheres (it still owns it, or removed it from the game) counts that
 * player-game for the card, won or not. A shared victory counts as a win
 * for each winner. 50% is neutral; cards of higher levels sit higher because
 * only strong decks reach those spheres, so compare a card with its level
 * (the "level" line: player-games that bought any card of that level).
 * docs/rules/timemasters.md ("Play-testing") reports these figures. */

typedef struct tally {
    long bought, won;
} tally;

static void usage(void)
{
    fprintf(stderr, "usage: bench_timemasters_cards [--games N] [--seed S] [--bots SPEC[,SPEC]] "
                    "[--cards PATH] [--markdown]\n"
                    "  default: 1000 games, seed 1, heuristic,heuristic, our card set\n");
}

/* The 95% Wilson score interval of k successes in n trials. */
static void wilson95(double k, double n, double *low, double *high)
{
    if (n <= 0) {
        *low = 0, *high = 1;
        return;
    }
    const double z = 1.959963984540054;
    double p = k / n, d = 1 + z * z / n;
    double c = (p + z * z / (2 * n)) / d, h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d;
    *low = c - h < 0 ? 0 : c - h;
    *high = c + h > 1 ? 1 : c + h;
}

/* How many cards of kind k player seat bought: all it owns, plus the cards it
 * removed from the game (they came from the spheres too). The game is over:
 * nothing is hidden any more, this only counts. */
static int bought(const tm_state *t, int seat, int k)
{
    const tm_player *p = &t->p[seat];
    int n = tm_kind_count(p->hand, p->n_hand, k) + tm_kind_count(p->deck, p->n_deck, k) +
            tm_kind_count(p->discard, p->n_discard, k) + tm_kind_count(p->removed, p->n_removed, k) +
            tm_kind_count(p->released, p->n_released, k);
    for (int m = 0; m < p->n_timers; m++)
        n += (p->timers[m].kind == k) + tm_kind_count(p->timers[m].spells, p->timers[m].n_spells, k) +
             tm_kind_count(p->timers[m].delay, p->timers[m].n_delay, k);
    if (seat == t->seat)
        n += tm_kind_count(t->zone, t->n_zone, k);
    return n;
}

static void print_pct(long k, long n, bool markdown)
{
    double lo, hi;
    wilson95((double)k, (double)n, &lo, &hi);
    if (markdown)
        printf("%ld, %.1f%% [%.1f, %.1f]", n, n ? 100.0 * (double)k / (double)n : 0.0, 100 * lo, 100 * hi);
    else
        printf("%6ld %6.1f%% [%4.1f, %4.1f]", n, n ? 100.0 * (double)k / (double)n : 0.0, 100 * lo, 100 * hi);
}

int main(int argc, char **argv)
{
    int games = 1000;
    uint64_t seed = 1;
    const char *bots = "heuristic,heuristic", *cards = NULL;
    bool markdown = false;
    static const struct option longopts[] = {{"games", required_argument, NULL, 'g'},
                                              {"seed", required_argument, NULL, 's'},
                                              {"bots", required_argument, NULL, 'b'},
                                              {"cards", required_argument, NULL, 'c'},
                                              {"markdown", no_argument, NULL, 'm'},
                                              {"help", no_argument, NULL, 'h'},
                                              {NULL, 0, NULL, 0}};
    for (int o; (o = getopt_long(argc, argv, "g:s:b:c:mh", longopts, NULL)) != -1;) {
        switch (o) {
        case 'g': games = atoi(optarg); break;
        case 's': seed = strtoull(optarg, NULL, 10); break;
        case 'b': bots = optarg; break;
        case 'c': cards = optarg; break;
        case 'm': markdown = true; break;
        default: usage(); return o == 'h' ? 0 : 2;
        }
    }
    if (games < 1 || optind != argc) {
        usage();
        return 2;
    }
    char spec[2][256];
    const char *comma = strchr(bots, ',');
    snprintf(spec[0], sizeof spec[0], "%.*s", comma ? (int)(comma - bots) : (int)strlen(bots), bots);
    snprintf(spec[1], sizeof spec[1], "%s", comma ? comma + 1 : bots);

    const asobi_game_def *g = asobi_game_find("timemasters");
    /* the option holds the set's JSON content (a record is self-contained); read the file here */
    json_t *options = NULL;
    if (cards) {
        json_error_t jerr;
        json_t *set = json_load_file(cards, 0, &jerr);
        if (!set) {
            fprintf(stderr, "%s: %s (line %d)\n", cards, jerr.text, jerr.line);
            return 2;
        }
        options = json_pack("{s:o}", "cards", set);
    }
    tally card[TM_MAX_KINDS] = {{0}}, level[TM_LEVELS + 1] = {{0}}, per_spec[2] = {{0}};
    tm_table table = {0};
    long turns = 0, capped = 0, seat0_won = 0;
    for (int k = 0; k < games; k++) {
        asobi_error err;
        asobi_state *s = asobi_state_new(g, 2, options, seed + (uint64_t)k, &err);
        if (!s) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        int a_seat = k % 2; /* spec[0] plays seat a_seat */
        asobi_bot *bot[2];
        for (int i = 0; i < 2; i++) {
            bot[i] = asobi_bot_new(spec[i == a_seat ? 0 : 1], g, 2, i, seed * 7919 + (uint64_t)k, &err);
            if (!bot[i]) {
                fprintf(stderr, "%s\n", err.message);
                return 1;
            }
        }
        while (!asobi_state_terminal(s)) {
            int seat = __builtin_ctz(asobi_state_to_move(s));
            int id = asobi_bot_choose(bot[seat], s, &err);
            if (id < 0 || asobi_state_apply(s, seat, id, &err) != ASOBI_OK) {
                fprintf(stderr, "%s\n", err.message);
                return 1;
            }
        }
        asobi_result r;
        asobi_state_result(s, &r);
        const tm_state *t = asobi_state_data_for_ai(s);
        table = t->table;
        turns += t->turn;
        capped += t->capped;
        seat0_won += r.winners & 1u;
        for (int i = 0; i < 2; i++) {
            long won = (r.winners >> i) & 1u;
            per_spec[i == a_seat ? 0 : 1].bought++;
            per_spec[i == a_seat ? 0 : 1].won += won;
            bool any[TM_LEVELS + 1] = {false};
            for (int c = 0; c < t->table.kinds; c++)
                if (t->table.card[c].level > 0 && bought(t, i, c) > 0) {
                    card[c].bought++;
                    card[c].won += won;
                    any[t->table.card[c].level] = true;
                }
            for (int l = 1; l <= TM_LEVELS; l++)
                if (any[l]) {
                    level[l].bought++;
                    level[l].won += won;
                }
        }
        asobi_bot_free(bot[0]);
        asobi_bot_free(bot[1]);
        asobi_state_free(s);
    }
    json_decref(options);

    printf("%s, bots %s vs %s, %d games (seed %llu): %.1f turns a game, %ld capped; seat 0 won ", table.title,
           spec[0], spec[1], games, (unsigned long long)seed, (double)turns / games, capped);
    print_pct(seat0_won, games, false);
    printf("\n%s won ", spec[0]);
    print_pct(per_spec[0].won, per_spec[0].bought, false);
    printf(" of its player-games, %s ", spec[1]);
    print_pct(per_spec[1].won, per_spec[1].bought, false);
    printf("\nper card: player-games it was bought in, won %% [95%% interval]\n");
    if (markdown)
        printf("\n| level | cards (bought in player-games, won %% [95%% interval]) |\n|---|---|\n");
    for (int l = 1; l <= TM_LEVELS; l++) {
        if (markdown) {
            printf("| %d | any card of the level (", l);
            print_pct(level[l].won, level[l].bought, true);
            printf(")");
        } else {
            printf("L%d %-22s", l, "(any card of the level)");
            print_pct(level[l].won, level[l].bought, false);
            printf("\n");
        }
        for (int c = 0; c < table.kinds; c++) {
            if (table.card[c].level != l)
                continue;
            if (markdown) {
                printf("; %s (", table.card[c].name);
                print_pct(card[c].won, card[c].bought, true);
                printf(")");
            } else {
                printf("L%d %-22s", l, table.card[c].name);
                print_pct(card[c].won, card[c].bought, false);
                printf("\n");
            }
        }
        if (markdown)
            printf(" |\n");
    }
    return 0;
}

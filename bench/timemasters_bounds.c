/* timemasters_bounds.c — how close real Time Masters games come to the engine's own bounds (recurrent Kè, timers, released spells, delay cards, plays a main phase). */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asobi/asobi.h"
#include "game_def.h"
#include "games/timemasters/timemasters.h"

/* The state is one flat struct, so a few of its counts have a bound of our
 * own (timemasters.h). A bound is only right where no real game meets it
 * (issue 40): this driver plays games with the given bots and reports, for
 * each bound, the most any game reached, after every action, and the game
 * (its seed) that reached it. docs/rules/timemasters.md quotes its figures
 * (rulings 9, 14, 25 and "The state's bounds"):
 *
 *   build/bench_timemasters_bounds --games 10000 --bots heuristic
 *   build/bench_timemasters_bounds --games 10000 --bots random
 */

typedef struct peak {
    const char *what;
    long bound;
    long most;
    uint64_t seed; /* the first game that reached most */
} peak;

enum { RECURRENT, EPHEMERAL, TIMERS, RELEASED, DELAY, PLAYS, ACTIONS, TURNS, N_PEAKS };

static void see(peak *p, long value, uint64_t seed)
{
    if (value > p->most) {
        p->most = value;
        p->seed = seed;
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_timemasters_bounds [--games N] [--seed S] [--players P] [--bots SPEC[,SPEC...]] "
                    "[--cards PATH]\n"
                    "  default: 1000 games, seed 1, 2 players, heuristic for every seat, our card set\n");
}

int main(int argc, char **argv)
{
    int games = 1000, players = 2;
    uint64_t seed = 1;
    const char *bots = "heuristic", *cards = NULL;
    static const struct option longopts[] = {{"games", required_argument, NULL, 'g'},
                                              {"seed", required_argument, NULL, 's'},
                                              {"players", required_argument, NULL, 'p'},
                                              {"bots", required_argument, NULL, 'b'},
                                              {"cards", required_argument, NULL, 'c'},
                                              {"help", no_argument, NULL, 'h'},
                                              {NULL, 0, NULL, 0}};
    for (int o; (o = getopt_long(argc, argv, "g:s:p:b:c:h", longopts, NULL)) != -1;) {
        switch (o) {
        case 'g': games = atoi(optarg); break;
        case 's': seed = strtoull(optarg, NULL, 10); break;
        case 'p': players = atoi(optarg); break;
        case 'b': bots = optarg; break;
        case 'c': cards = optarg; break;
        default: usage(); return o == 'h' ? 0 : 2;
        }
    }
    if (games < 1 || players < TM_MIN_PLAYERS || players > TM_MAX_PLAYERS || optind != argc) {
        usage();
        return 2;
    }
    /* one spec per seat, the last one repeated */
    char spec[TM_MAX_PLAYERS][256];
    const char *at = bots;
    for (int i = 0; i < players; i++) {
        const char *comma = strchr(at, ',');
        snprintf(spec[i], sizeof spec[i], "%.*s", comma ? (int)(comma - at) : (int)strlen(at), at);
        if (comma)
            at = comma + 1;
    }
    const asobi_game_def *g = asobi_game_find("timemasters");
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
    peak peaks[N_PEAKS] = {
        [RECURRENT] = {"recurrent Kè held (gold + grey)", TM_MAX_RECURRENT, 0, 0},
        [EPHEMERAL] = {"ephemeral Kè held", TM_MAX_EPHEMERAL, 0, 0},
        [TIMERS] = {"timers in play", TM_MAX_TIMERS, 0, 0},
        [RELEASED] = {"released spells waiting", TM_MAX_RELEASED, 0, 0},
        [DELAY] = {"delay cards under one timer", TM_MAX_DELAY, 0, 0},
        [PLAYS] = {"plays in one main phase (ruling 25)", TM_MAX_TURN_PLAYS, 0, 0},
        [ACTIONS] = {"actions in one main phase", 0, 0, 0},
        [TURNS] = {"turns in a game", 0, 0, 0},
    };
    long capped = 0, actions = 0;
    for (int k = 0; k < games; k++) {
        uint64_t game_seed = seed + (uint64_t)k;
        asobi_error err;
        asobi_state *s = asobi_state_new(g, players, options, game_seed, &err);
        if (!s) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        asobi_bot *bot[TM_MAX_PLAYERS];
        for (int i = 0; i < players; i++) {
            bot[i] = asobi_bot_new(spec[i], g, players, i, game_seed * 7919 + (uint64_t)i, &err);
            if (!bot[i]) {
                fprintf(stderr, "%s\n", err.message);
                return 1;
            }
        }
        long main_actions = 0;
        int main_turn = -1;
        while (!asobi_state_terminal(s)) {
            int seat = __builtin_ctz(asobi_state_to_move(s));
            int id = asobi_bot_choose(bot[seat], s, &err);
            if (id < 0 || asobi_state_apply(s, seat, id, &err) != ASOBI_OK) {
                fprintf(stderr, "game seed %llu: %s\n", (unsigned long long)game_seed, err.message);
                return 1;
            }
            actions++;
            const tm_state *t = asobi_state_data_for_ai(s);
            if (t->phase == TM_PH_MAIN) {
                main_actions = main_turn == t->turn ? main_actions + 1 : 1;
                main_turn = t->turn;
                see(&peaks[ACTIONS], main_actions, game_seed);
            }
            see(&peaks[PLAYS], t->turn_plays, game_seed);
            for (int i = 0; i < t->players; i++) {
                const tm_player *p = &t->p[i];
                see(&peaks[RECURRENT], p->ke_ready + p->ke_spent, game_seed);
                see(&peaks[EPHEMERAL], p->ke_eph, game_seed);
                see(&peaks[TIMERS], p->n_timers, game_seed);
                see(&peaks[RELEASED], p->n_released, game_seed);
                for (int m = 0; m < p->n_timers; m++)
                    see(&peaks[DELAY], p->timers[m].n_delay, game_seed);
            }
        }
        const tm_state *t = asobi_state_data_for_ai(s);
        see(&peaks[TURNS], t->turn, game_seed);
        capped += t->capped;
        for (int i = 0; i < players; i++)
            asobi_bot_free(bot[i]);
        asobi_state_free(s);
    }
    json_decref(options);
    printf("%d games of %d players (seeds %llu-%llu), bots %s: %.1f actions a game, %ld reached the turn cap\n", games,
           players, (unsigned long long)seed, (unsigned long long)(seed + (uint64_t)games - 1), bots,
           (double)actions / games, capped);
    printf("%-40s %8s %8s  %s\n", "count", "most", "bound", "first reached in the game of seed");
    for (int i = 0; i < N_PEAKS; i++) {
        char bound[16] = "-";
        if (peaks[i].bound)
            snprintf(bound, sizeof bound, "%ld", peaks[i].bound);
        printf("%-40s %8ld %8s  %llu\n", peaks[i].what, peaks[i].most, bound, (unsigned long long)peaks[i].seed);
    }
    return 0;
}

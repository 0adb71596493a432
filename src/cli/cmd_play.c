/* cmd_play.c — `asobi play`: a game in the terminal, a person at one seat and bots at the others. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"

static void play_usage(FILE *out)
{
    fprintf(out,
            "usage: asobi play GAME [--players N] [--seat K[,K...]|none] [--bots LIST] [--seed S]\n"
            "                       [--opt KEY=VALUE]... [--card-sets DIR] [--options JSON] [--record FILE] [--quiet]\n"
            "\n"
            "Play GAME in the terminal: you at seat K (default 0), bots at the other seats.\n"
            "Seats are numbered from 0 here (as in records and the engine protocol) and from 1 on\n"
            "the screen: --seat 0 is the first seat, shown as 'seat 1'.\n"
            "  --players N     how many players (default: the game's smallest count)\n"
            "  --seat K|none   your seat; 'none' lets the bots play each other while you watch;\n"
            "                  several seats (--seat 0,1) seat several people at one terminal,\n"
            "                  who take turns at the keyboard (the screen is cleared between them)\n"
            "  --bots LIST     bot specs for the other seats in order, comma-separated; the last\n"
            "                  one fills the remaining seats (default: the strongest practical\n"
            "                  bot at about a second a move: psycle-nash for 2-player PSYCLE,\n"
            "                  ismcts:time=1 elsewhere, which plays out with the game's\n"
            "                  heuristic in Time Masters and NINJA). See 'asobi bots'.\n"
            "  --seed S        the game's seed (default: a fresh one; it decides every hidden\n"
            "                  card, so it is printed when the game is over)\n"
            "  --opt KEY=VALUE a game option (see 'asobi games'); --options takes a JSON object\n"
            "  --record FILE   write the game's record there when it ends or you quit\n"
            "  --quiet         with --seat none: print only the result\n"
            "At your prompt: the number or letter of a listed action or its text; 'view'\n"
            "prints your view as JSON, 'record' the game so far as you saw it, 'help' or\n"
            "'rules' the commands and a short legend of the game, 'quit' leaves.\n");
}

static void print_render(const asobi_state *s, int seat)
{
    char *text = asobi_state_render(s, seat);
    if (text) {
        fputs(text, stdout);
        free(text);
    }
}

/* What seat's action id made happen, as viewer knew it (asobi_state_events),
 * under the action's line. */
static void print_events(const asobi_state *before, int seat, int id, const asobi_state *after, int viewer)
{
    if (!before)
        return;
    json_t *events = asobi_state_events(before, seat, id, after, viewer);
    cli_print_events(events);
    json_decref(events);
}

/* Read one line from stdin into buf; false on end of input. */
static bool read_line(char *buf, size_t cap)
{
    if (!fgets(buf, (int)cap, stdin))
        return false;
    size_t n = strlen(buf);
    if (n > 0 && buf[n - 1] != '\n' && !feof(stdin)) {
        int c; /* an overlong line: drop the rest so it is refused once */
        while ((c = getchar()) != EOF && c != '\n') {
        }
        buf[0] = '\x01';
    }
    buf[strcspn(buf, "\r\n")] = '\0';
    return true;
}

/* How the menu of legal actions is labelled. Numbers, unless the game reads
 * a bare number as an action of its own (PSYCLE's "3" is the card 3): then
 * the number must mean that action, so the menu uses letters, or, when
 * there are more actions than letters a to p (q quits), lists the texts. */
typedef enum menu_labels { LABEL_NUMBERS, LABEL_LETTERS, LABEL_NONE } menu_labels;

static menu_labels choose_labels(const asobi_state *s, int seat, int n)
{
    for (int i = 1; i <= n; i++) {
        char number[16];
        int id;
        asobi_error err;
        snprintf(number, sizeof number, "%d", i);
        if (asobi_state_parse_action(s, seat, number, &id, &err) == ASOBI_OK)
            return n <= 16 ? LABEL_LETTERS : LABEL_NONE; /* a..p: 'q' quits */
    }
    return LABEL_NUMBERS;
}

/* The menu: the legal actions, each with its text, in the order a person
 * reads the table: grouped by their first word (play, override, ...) in the
 * order the game lists them, and within a group in the order the seat's
 * hand is shown (the view's own "hand", when it has one). */
typedef struct menu_entry {
    int id;
    int group, hand_pos, order;
    char text[256];
} menu_entry;

/* The seat's hand as its view lists it (players[seat].hand or hand), or NULL. */
static const json_t *view_hand(const json_t *view, int seat)
{
    const json_t *players = json_object_get(view, "players");
    const json_t *hand = json_object_get(json_array_get(players, (size_t)seat), "hand");
    if (!json_is_array(hand))
        hand = json_object_get(view, "hand");
    return json_is_array(hand) ? hand : NULL;
}

/* Where the first card an action names lies in the hand (words after the verb). */
static int hand_position(const json_t *hand, const char *text)
{
    if (!hand)
        return 0;
    const char *w = strchr(text, ' ');
    while (w) {
        w++;
        size_t len = strcspn(w, " ");
        for (size_t i = 0; i < json_array_size(hand); i++) {
            const char *card = json_string_value(json_array_get(hand, i));
            if (card && strlen(card) == len && strncmp(card, w, len) == 0)
                return (int)i;
        }
        w = strchr(w, ' ');
    }
    return (int)json_array_size(hand);
}

static int by_menu_order(const void *pa, const void *pb)
{
    const menu_entry *a = pa, *b = pb;
    if (a->group != b->group)
        return a->group - b->group;
    if (a->hand_pos != b->hand_pos)
        return a->hand_pos - b->hand_pos;
    return a->order - b->order;
}

static int build_menu(const asobi_state *s, int seat, menu_entry *menu)
{
    int max = asobi_game_max_actions(asobi_state_game(s));
    int *ids = malloc((size_t)max * sizeof *ids);
    int n = asobi_state_legal(s, seat, ids);
    json_t *view = asobi_state_view(s, seat);
    const json_t *hand = view_hand(view, seat);
    char verbs[64][32];
    int nverbs = 0;
    for (int i = 0; i < n; i++) {
        menu_entry *e = &menu[i];
        e->id = ids[i];
        e->order = i;
        asobi_state_action_text(s, seat, ids[i], e->text, sizeof e->text);
        size_t len = strcspn(e->text, " ");
        len = len < sizeof verbs[0] - 1 ? len : sizeof verbs[0] - 1;
        e->group = nverbs;
        for (int g = 0; g < nverbs; g++)
            if (strlen(verbs[g]) == len && strncmp(verbs[g], e->text, len) == 0)
                e->group = g;
        if (e->group == nverbs && nverbs < 64) {
            memcpy(verbs[nverbs], e->text, len);
            verbs[nverbs++][len] = '\0';
        }
        e->hand_pos = hand_position(hand, e->text);
    }
    qsort(menu, (size_t)n, sizeof *menu, by_menu_order);
    json_decref(view);
    free(ids);
    return n;
}

/* A long menu folds its big groups into one line each: 40 ways to override
 * are listed when the person types "override" (or any start of a text). */
enum { MENU_FOLD_ABOVE = 20, GROUP_FOLD_ABOVE = 10 };

/* The bounds [*first, *end) of the group of menu line i. */
static void group_bounds(const menu_entry *menu, int n, int i, int *first, int *end)
{
    *first = i;
    while (*first > 0 && menu[*first - 1].group == menu[i].group)
        (*first)--;
    *end = i;
    while (*end < n && menu[*end].group == menu[i].group)
        (*end)++;
}

/* Is menu line i folded into its group's one line ("override ... (18 ways)")? */
static bool entry_folded(const menu_entry *menu, int n, int i)
{
    int first, end;
    group_bounds(menu, n, i, &first, &end);
    return n > MENU_FOLD_ABOVE && end - first > GROUP_FOLD_ABOVE;
}

static void print_entry(const menu_entry *e, int i, menu_labels labels)
{
    if (labels == LABEL_NUMBERS)
        printf("  %2d) %s\n", i + 1, e->text);
    else if (labels == LABEL_LETTERS)
        printf("   %c) %s\n", 'a' + i, e->text);
    else
        printf("    %s\n", e->text);
}

static void print_menu(int seat, const menu_entry *menu, int n, menu_labels labels)
{
    printf("\nYour move, seat %d. Legal actions%s:\n", seat + 1,
           labels == LABEL_NONE ? " (type one)" : labels == LABEL_LETTERS ? " (a letter or the text)" : "");
    for (int i = 0; i < n;) {
        int first, end;
        group_bounds(menu, n, i, &first, &end); /* first == i: i starts a group */
        if (entry_folded(menu, n, i)) {
            int verb = (int)strcspn(menu[i].text, " ");
            printf("      %.*s ... (%d ways: type \"%.*s\" to list them)\n", verb, menu[i].text, end - i, verb,
                   menu[i].text);
        } else {
            for (int k = i; k < end; k++)
                print_entry(&menu[k], k, labels);
        }
        i = end;
    }
}

/* The menu line an entry names (0-based), or -1 if it names none. A
 * number out of range is reported, and *refused set. A letter names a line
 * in a numbered menu too (issue 43: someone fresh from PSYCLE's lettered
 * menu typed "a" in NINJA's): the line the letter counts to, a to p ('q'
 * quits), when that line is printed with its number (not folded away into
 * "override ... (18 ways)"), so that "a" is always the menu's first line. */
static int menu_pick(const char *p, const menu_entry *menu, menu_labels labels, int n, bool *refused)
{
    *refused = false;
    if (labels != LABEL_NONE && p[0] >= 'a' && p[0] <= 'z' && p[1] == '\0') {
        int i = p[0] - 'a';
        bool named = labels == LABEL_LETTERS ? i < n : i < n && i < 16 && !entry_folded(menu, n, i);
        if (named)
            return i;
        if (labels == LABEL_LETTERS) {
            printf("There is no action %s: choose from a to %c.\n", p, 'a' + n - 1);
        } else {
            int last = n < 16 ? n - 1 : 15;
            while (last > 0 && entry_folded(menu, n, last))
                last--;
            printf("There is no action %s: choose from a to %c, or a number from 1 to %d.\n", p, 'a' + last, n);
        }
        *refused = true;
        return -1;
    }
    if (labels != LABEL_NUMBERS)
        return -1;
    char *end;
    long pick = strtol(p, &end, 10);
    if (*end != '\0' || end == p)
        return -1;
    if (pick < 1 || pick > n) {
        printf("There is no action %s: choose from 1 to %d.\n", p, n);
        *refused = true;
        return -1;
    }
    return (int)pick - 1;
}

/* Whether text begins with the whole words of prefix (len bytes). */
static bool starts_with_words(const char *text, const char *prefix, size_t len)
{
    return strncasecmp(text, prefix, len) == 0 && text[len] == ' ';
}

/* When the entry is the start of action texts (whole words, not itself an
 * action): list them, with their labels; when there are many, one line per
 * next word ("override 7小↑ ... (12 ways)"), to be narrowed the same way.
 * Returns how many actions it begins. */
static int list_matching(const menu_entry *menu, int n, const char *p, menu_labels labels)
{
    size_t len = strlen(p);
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (strcasecmp(menu[i].text, p) == 0)
            return 0;
        count += starts_with_words(menu[i].text, p, len);
    }
    if (count == 0)
        return 0;
    for (int i = 0; i < n; i++) {
        if (!starts_with_words(menu[i].text, p, len))
            continue;
        if (count <= MENU_FOLD_ABOVE) {
            print_entry(&menu[i], i, labels);
            continue;
        }
        /* the words up to and including the next one, and how many share them */
        size_t upto = len + 1 + strcspn(menu[i].text + len + 1, " ");
        bool seen = false;
        int same = 0;
        for (int k = 0; k < n; k++)
            if (strncmp(menu[k].text, menu[i].text, upto) == 0 &&
                (menu[k].text[upto] == ' ' || menu[k].text[upto] == '\0')) {
                seen |= k < i;
                same++;
            }
        if (seen)
            continue;
        if (same == 1)
            print_entry(&menu[i], i, labels);
        else
            printf("      %.*s ... (%d ways)\n", (int)upto, menu[i].text, same);
    }
    return count;
}

/* The person's turn: list the legal actions, read until one is accepted.
 * Returns false when the person quits or input ends. */
static bool human_turn(asobi_match *m, int seat)
{
    const asobi_state *s = asobi_match_state(m);
    int max = asobi_game_max_actions(asobi_state_game(s));
    menu_entry *menu = malloc((size_t)max * sizeof *menu);
    char line[1024];
    bool ok = false;
    printf("\n");
    print_render(s, seat);
    int n = build_menu(s, seat, menu);
    menu_labels labels = choose_labels(s, seat, n);
    print_menu(seat, menu, n, labels);
    for (;;) {
        printf("> ");
        fflush(stdout);
        if (!read_line(line, sizeof line))
            break;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        for (size_t len = strlen(p); len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t');)
            p[--len] = '\0';
        if (!*p)
            continue;
        if (strcmp(p, "quit") == 0 || strcmp(p, "q") == 0 || strcmp(p, "exit") == 0)
            break;
        if (strcmp(p, "help") == 0 || strcmp(p, "?") == 0 || strcmp(p, "rules") == 0) {
            printf("%s, or its text; the start of a text lists the actions it begins.\n"
                   "'view': your view as JSON; 'record': the game so far as you saw it; 'board': the\n"
                   "table and the menu again; 'quit': leave the game.\n\n",
                   labels == LABEL_NUMBERS   ? "Type the number of an action"
                   : labels == LABEL_LETTERS ? "Type the letter of an action"
                                             : "Type one of the listed actions");
            cli_print_legend(stdout, asobi_game_name(asobi_state_game(s)), cli_default_lang());
            continue;
        }
        if (strcmp(p, "board") == 0) {
            print_render(s, seat);
            print_menu(seat, menu, n, labels);
            continue;
        }
        if (strcmp(p, "view") == 0) {
            json_t *j = asobi_state_view(s, seat);
            char *dump = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
            puts(dump);
            free(dump);
            json_decref(j);
            continue;
        }
        if (strcmp(p, "record") == 0) {
            /* never the record itself: it holds every face-down card */
            cli_print_seat_log(m, seat);
            continue;
        }
        asobi_error err;
        int rc;
        bool refused;
        int line_no = menu_pick(p, menu, labels, n, &refused);
        if (refused)
            continue;
        if (line_no < 0 && list_matching(menu, n, p, labels) > 0)
            continue;
        int id = line_no >= 0 ? menu[line_no].id : -1;
        rc = line_no >= 0 ? ASOBI_OK : asobi_state_parse_action(s, seat, p, &id, &err);
        asobi_state *before = rc == ASOBI_OK ? asobi_state_clone(s) : NULL;
        if (rc == ASOBI_OK)
            rc = asobi_match_act(m, seat, id, &err);
        if (rc != ASOBI_OK) {
            asobi_state_free(before);
            printf("Not accepted: %s\n", err.message);
            continue;
        }
        print_events(before, seat, id, s, seat);
        asobi_state_free(before);
        ok = true;
        break;
    }
    free(menu);
    return ok;
}

/* Once the game is over for the people at the terminal: the seed, which
 * was kept from them while it could reveal the hidden cards, and how to see
 * the whole game. */
static void print_seed_at_end(const asobi_match *m, const char *record_path)
{
    printf("\nThe seed was %llu", (unsigned long long)asobi_match_seed(m));
    if (record_path)
        printf(". Record written to %s; the whole game, every hidden card included: asobi replay %s\n",
               record_path, record_path);
    else
        printf(" (--record FILE keeps the whole game for asobi replay)\n");
}

/* The opponents when --bots is not given: the strongest practical bot at a
 * budget that answers in about a second (docs/ai.md has the figures). In
 * 2-player PSYCLE that is the exact equilibrium, which answers at once. */
static const char *default_bots(const asobi_game_def *game, int players)
{
    if (strcmp(asobi_game_name(game), "psycle") == 0 && players == 2)
        return "psycle-nash";
    /* ismcts picks each game's playout policy itself (playout=auto) */
    return "ismcts:time=1";
}

/* "none", or seats "0" / "0,2": the seats played by people. */
static bool parse_seats(const char *text, uint32_t *humans)
{
    *humans = 0;
    if (strcmp(text, "none") == 0)
        return true;
    char *copy = strdup(text), *save = NULL;
    bool ok = true;
    for (char *item = strtok_r(copy, ",", &save); item && ok; item = strtok_r(NULL, ",", &save)) {
        long seat;
        ok = cli_parse_long(item, 0, ASOBI_MAX_SEATS - 1, "--seat", &seat);
        if (ok)
            *humans |= 1u << seat;
    }
    free(copy);
    if (ok && *humans == 0) {
        fprintf(stderr, "asobi: --seat takes seat numbers (0,1) or none\n");
        ok = false;
    }
    return ok;
}

/* Several people at one terminal: clear the screen so that the next one
 * does not see what the last one saw, and wait until they are there. */
static void hand_over(int seat)
{
    bool terminal = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
    if (terminal)
        printf("\033[2J\033[H");
    printf("\n===== Seat %d's turn: only seat %d should look now =====\n", seat + 1, seat + 1);
    if (terminal) {
        printf("Press Enter when seat %d is at the keyboard.", seat + 1);
        fflush(stdout);
        int c;
        while ((c = getchar()) != EOF && c != '\n') {
        }
    }
}

int cli_play(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"players", required_argument, NULL, 'p'}, {"seat", required_argument, NULL, 'k'},
        {"bots", required_argument, NULL, 'b'},    {"seed", required_argument, NULL, 's'},
        {"opt", required_argument, NULL, 'o'}, CLI_CARD_SETS_OPTION, {"options", required_argument, NULL, 'O'},
        {"record", required_argument, NULL, 'r'},  {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
    };
    uint32_t humans = 1; /* seat 0 */
    bool quiet = false;
    cli_game_args ga = {0};
    const char *bots_arg = NULL, *record_path = NULL;
    int status = 2, c, handled;
    optind = 1;
    while ((c = getopt_long(argc, argv, "p:k:b:s:o:O:r:qC:h", longopts, NULL)) != -1) {
        if ((handled = cli_game_flag(c, optarg, &ga)) != 0) {
            if (handled < 0)
                goto done;
            continue;
        }
        switch (c) {
        case 'k':
            if (!parse_seats(optarg, &humans))
                goto done;
            break;
        case 'b': bots_arg = optarg; break;
        case 'r': record_path = optarg; break;
        case 'q': quiet = true; break;
        case 'h': play_usage(stdout); status = 0; goto done;
        default: play_usage(stderr); goto done;
        }
    }
    asobi_error seed_err;
    if (!ga.seeded && asobi_fresh_seed(&ga.seed, &seed_err) != ASOBI_OK) {
        fprintf(stderr, "asobi: %s\n", seed_err.message);
        status = 1;
        goto done;
    }
    const asobi_game_def *game = cli_game_operand(argc, argv, &ga, play_usage);
    if (!game)
        goto done;
    long players = ga.players;
    uint64_t seed = ga.seed;
    if (humans >> players) {
        fprintf(stderr, "asobi: --seat must be from 0 to %ld for %ld players\n", players - 1, players);
        goto done;
    }
    bool spectate = humans == 0, several = __builtin_popcount(humans) > 1;
    asobi_error err;
    asobi_match *m = asobi_match_new(asobi_game_name(game), (int)players, ga.options, seed, &err);
    if (!m) {
        fprintf(stderr, "asobi: %s\n", err.message);
        goto done;
    }
    char *specs[ASOBI_MAX_SEATS];
    int nspecs = cli_parse_bot_list(bots_arg ? bots_arg : default_bots(game, (int)players), specs,
                                    ASOBI_MAX_SEATS);
    asobi_bot *bots[ASOBI_MAX_SEATS] = {0};
    if (nspecs < 0) {
        asobi_match_free(m);
        goto done;
    }
    int next = 0;
    bool bots_ok = true;
    for (int i = 0; i < players && bots_ok; i++) {
        if (humans & (1u << i))
            continue;
        const char *spec = specs[next < nspecs ? next : nspecs - 1];
        next++;
        bots[i] = asobi_bot_new(spec, game, (int)players, i, seed + 7919u * (uint64_t)(i + 1), &err);
        if (!bots[i]) {
            fprintf(stderr, "asobi: bot \"%s\": %s\n", spec, err.message);
            bots_ok = false;
        }
    }
    for (int i = 0; i < nspecs; i++)
        free(specs[i]);
    if (!bots_ok)
        goto cleanup;

    if (!quiet) {
        /* The seed decides every hidden card: a person learns it only at the
         * end (print_seed_at_end), a spectator sees everything anyway. */
        printf("%s, %ld players", asobi_game_title(game), players);
        if (spectate)
            printf(", seed %llu", (unsigned long long)seed);
        printf(".");
        for (int i = 0; i < players; i++)
            if (bots[i]) /* a strength people understand; the spec a detail */
                printf(" seat %d: %s bot (%s)%s", i + 1, asobi_bot_level(asobi_bot_spec(bots[i])),
                       asobi_bot_spec(bots[i]), i + 1 < players ? "," : "\n");
            else
                printf(" seat %d: %s%s", i + 1, several ? "a person" : "you", i + 1 < players ? "," : "\n");
        if (!spectate)
            printf("Type 'help' at the prompt for the commands.\n");
    }
    const asobi_state *s = asobi_match_state(m);
    /* the seat whose eyes are on the screen: the one person, or (several)
     * the one who acted last; bots' moves are announced as that seat sees them */
    int human = spectate ? ASOBI_ALL_SEEING : __builtin_ctz(humans);
    bool quit = false;
    char text[256];
    status = 0;
    while (!asobi_state_terminal(s)) {
        uint32_t to_move = asobi_state_to_move(s);
        int actor = -1;
        for (int i = 0; i < players && actor < 0; i++)
            if ((to_move & (1u << i)) && bots[i])
                actor = i;
        if (actor < 0) {
            int next_human = __builtin_ctz(to_move & humans);
            if (several && next_human != human)
                hand_over(next_human);
            human = next_human;
            if (!human_turn(m, human)) {
                quit = true;
                break;
            }
            continue;
        }
        int id = asobi_bot_choose(bots[actor], s, &err);
        asobi_state *before = id >= 0 && !quiet ? asobi_state_clone(s) : NULL;
        /* what the person (or, watching, everyone) sees of it, told before it changes the table */
        if (id >= 0 && !quiet)
            asobi_state_public_text(s, actor, id, spectate ? ASOBI_ALL_SEEING : human, text, sizeof text);
        if (id < 0 || asobi_match_act(m, actor, id, &err) != ASOBI_OK) {
            fprintf(stderr, "asobi: bot at seat %d failed: %s\n", actor + 1, err.message);
            asobi_state_free(before);
            status = 1;
            break;
        }
        if (!quiet) {
            printf("seat %d (%s): %s\n", actor + 1, asobi_bot_spec(bots[actor]), text);
            print_events(before, actor, id, s, spectate ? ASOBI_ALL_SEEING : human);
            if (spectate && !(asobi_state_to_move(s) & to_move & ~(1u << actor)))
                print_render(s, ASOBI_ALL_SEEING);
        }
        asobi_state_free(before);
    }
    if (quit)
        printf("\nYou left the game.\n");
    else if (status == 0) {
        if (!quiet) {
            printf("\n");
            print_render(s, several ? ASOBI_ALL_SEEING : human);
        }
        printf("\n");
        cli_print_result(s);
    }
    bool written = record_path && cli_write_record(m, record_path);
    if (!spectate && (quit || status == 0))
        print_seed_at_end(m, written ? record_path : NULL);
    else if (written && !quiet)
        printf("Record written to %s (replay it with: asobi replay %s)\n", record_path, record_path);
cleanup:
    for (int i = 0; i < ASOBI_MAX_SEATS; i++)
        asobi_bot_free(bots[i]);
    asobi_match_free(m);
    if (!bots_ok)
        status = 2;
done:
    json_decref(ga.options);
    return status;
}

/* cli_exec_bot.c — external bots: a program per seat (per game, or for many with reuse=1), asked for each decision by numbered JSON lines. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli_exec_bot.h"
#include "protocol/protocol.h"

extern char **environ;

#define EXEC_PREFIX "exec:"
#define EXEC_DEFAULT_TIMEOUT 10.0
#define EXEC_DEFAULT_STARTUP 10.0
#define EXEC_LINE_MAX (1 << 20) /* the engine protocol's own line limit */
#define EXEC_EXIT_GRACE 1.0     /* seconds a program may take to exit after "quit" */
#define EXEC_PROTOCOL 2         /* 2: numbered requests, hello, new (docs/protocol.md) */

/* What an "exec:" spec says. */
typedef struct exec_spec {
    char *cmd;      /* malloc'd */
    double timeout; /* seconds a decision may take */
    double startup; /* seconds the program may take to answer "hello" */
    bool reuse;     /* one program for many games */
    long samples;   /* states drawn for the seat and sent with each choose */
} exec_spec;

struct cli_exec_bot {
    pid_t pid;
    int fd;      /* our end of a socket pair: the program's stdin and stdout */
    bool alive;  /* false once it crashed, timed out or was stopped */
    exec_spec spec;
    char *spec_text;
    long next_id; /* the id of the next request: replies name the request they answer */
    long game;
    int players, seat;
    json_t *log; /* [{"seat","text"}] since its last decision */
    long forfeits, stray;
    asobi_rng rng;
    asobi_rng sample_rng; /* draws the samples: the same game gives the same samples */
    char *buf;   /* bytes read but not yet consumed as a line */
    size_t len;
};

/* The key samples are signed with: one per run, made at the first program
 * that asks for samples, and handed to such programs (and so to an `asobi
 * engine` they start, or asobi.State.load_sample) in ASOBI_SAMPLE_KEY. */
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static char sample_key[65];
static char sample_key_env[sizeof "ASOBI_SAMPLE_KEY=" + sizeof sample_key];

static void make_sample_key(void)
{
    uint64_t words[4];
    asobi_error err;
    for (int i = 0; i < 4; i++)
        if (asobi_fresh_seed(&words[i], &err) != ASOBI_OK)
            return; /* no key: no sample can be signed, and each choose's "samples" is empty */
    for (int i = 0; i < 4; i++)
        snprintf(sample_key + 16 * i, 17, "%016llx", (unsigned long long)words[i]);
    snprintf(sample_key_env, sizeof sample_key_env, "ASOBI_SAMPLE_KEY=%s", sample_key);
}

/* environ, with ASOBI_SAMPLE_KEY set to this run's key (malloc'd array;
 * its strings are environ's and the key's); NULL when out of memory. */
static char **environ_with_key(void)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 2, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "ASOBI_SAMPLE_KEY=", 17) != 0)
            env[k++] = environ[i];
    env[k] = sample_key_env;
    return env;
}

/* One warning per run about stray lines, whichever program writes them first. */
static atomic_bool stray_warned;

bool cli_is_exec_spec(const char *spec) { return strncmp(spec, EXEC_PREFIX, strlen(EXEC_PREFIX)) == 0; }

/* Seconds in (0, 3600] for key, or false with err. */
static bool parse_seconds(const char *key, const char *text, double *out, asobi_error *err)
{
    char *end;
    errno = 0;
    *out = strtod(text, &end);
    if (!errno && !*end && end != text && *out > 0 && *out <= 3600)
        return true;
    asobi_fail(err, ASOBI_E_BAD_BOT, "exec: %s must be seconds in (0, 3600], not \"%s\"", key, text);
    return false;
}

#define EXEC_KEYS "cmd, timeout, startup, reuse, samples"
#define EXEC_MAX_SAMPLES 256

/* "exec:cmd=COMMAND[,timeout=SECONDS][,startup=SECONDS][,reuse=0|1]" (keys
 * in any order). */
static bool parse_exec_spec(const char *spec, exec_spec *out, asobi_error *err)
{
    *out = (exec_spec){.timeout = EXEC_DEFAULT_TIMEOUT, .startup = EXEC_DEFAULT_STARTUP};
    char *copy = strdup(spec + strlen(EXEC_PREFIX)), *save = NULL;
    bool ok = true;
    for (char *item = strtok_r(copy, ",", &save); ok && item; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (!eq) {
            ok = false;
            asobi_fail(err, ASOBI_E_BAD_BOT, "exec: \"%s\" is not KEY=VALUE (keys: " EXEC_KEYS ")", item);
        } else if (strncmp(item, "cmd=", 4) == 0) {
            free(out->cmd);
            out->cmd = strdup(eq + 1);
        } else if (strncmp(item, "timeout=", 8) == 0) {
            ok = parse_seconds("timeout", eq + 1, &out->timeout, err);
        } else if (strncmp(item, "startup=", 8) == 0) {
            ok = parse_seconds("startup", eq + 1, &out->startup, err);
        } else if (strncmp(item, "samples=", 8) == 0) {
            char *end;
            errno = 0;
            out->samples = strtol(eq + 1, &end, 10);
            ok = !errno && !*end && end != eq + 1 && out->samples >= 0 && out->samples <= EXEC_MAX_SAMPLES;
            if (!ok)
                asobi_fail(err, ASOBI_E_BAD_BOT, "exec: samples is a count from 0 to %d, not \"%s\"",
                           EXEC_MAX_SAMPLES, eq + 1);
        } else if (strncmp(item, "reuse=", 6) == 0) {
            ok = strcmp(eq + 1, "0") == 0 || strcmp(eq + 1, "1") == 0;
            out->reuse = strcmp(eq + 1, "1") == 0;
            if (!ok)
                asobi_fail(err, ASOBI_E_BAD_BOT, "exec: reuse is 0 or 1, not \"%s\"", eq + 1);
        } else {
            ok = false;
            asobi_fail(err, ASOBI_E_BAD_BOT, "exec: unknown key \"%.*s\" (keys: " EXEC_KEYS ")",
                       (int)(eq - item), item);
        }
    }
    free(copy);
    if (ok && (!out->cmd || !*out->cmd)) {
        ok = false;
        asobi_fail(err, ASOBI_E_BAD_BOT, "exec: needs cmd=COMMAND (run with /bin/sh -c; no commas)");
    }
    if (!ok) {
        free(out->cmd);
        out->cmd = NULL;
    }
    return ok;
}

int cli_check_bot_spec(const char *spec, const asobi_game_def *game, asobi_error *err)
{
    if (!cli_is_exec_spec(spec))
        return asobi_bot_check_spec(spec, game, err);
    exec_spec parsed;
    if (!parse_exec_spec(spec, &parsed, err))
        return err ? err->code : ASOBI_E_BAD_BOT;
    free(parsed.cmd);
    return ASOBI_OK;
}

/* Kill the program's whole process group (sh -c may have started children)
 * and reap it: after this it is no zombie and no orphan. */
static void stop_program(cli_exec_bot *bot, bool reaped)
{
    if (!bot->alive)
        return;
    /* the group outlives its reaped leader while members remain, so its id
     * is not reused; the pid alone is signalled only while still ours */
    kill(-bot->pid, SIGKILL);
    if (!reaped) {
        kill(bot->pid, SIGKILL);
        while (waitpid(bot->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    close(bot->fd);
    bot->alive = false;
}

/* Milliseconds left until deadline (cli_now seconds), at least 0. */
static int ms_until(double deadline)
{
    double left = deadline - cli_now();
    return left <= 0 ? 0 : left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
}

/* Write msg as one line (stealing the reference) before deadline, with the
 * next request id put in as "id" (its value returned in *id when id is not
 * NULL); false if the program is gone or does not read. */
static bool send_request(cli_exec_bot *bot, json_t *msg, long *id, double deadline)
{
    if (!msg || !bot->alive) {
        json_decref(msg);
        return false;
    }
    if (id)
        *id = bot->next_id;
    json_object_set_new(msg, "id", json_integer(bot->next_id++));
    char *text = json_dumps(msg, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(msg);
    if (!text)
        return false;
    size_t len = strlen(text), done = 0;
    text[len++] = '\n'; /* json_dumps's NUL becomes the newline: len is no longer a C string */
    bool ok = true;
    while (ok && done < len) {
        ssize_t n = send(bot->fd, text + done, len - done, MSG_NOSIGNAL);
        if (n > 0) {
            done += (size_t)n;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            struct pollfd p = {.fd = bot->fd, .events = POLLOUT};
            int ms = ms_until(deadline);
            ok = ms > 0 && poll(&p, 1, ms) > 0 && !(p.revents & (POLLERR | POLLHUP));
        } else {
            ok = false;
        }
    }
    free(text);
    return ok;
}

/* One line from the program (malloc'd, without the newline) before
 * deadline; NULL on end of file, error, an over-long line or timeout. */
static char *read_line(cli_exec_bot *bot, double deadline)
{
    for (;;) {
        char *nl = bot->len ? memchr(bot->buf, '\n', bot->len) : NULL;
        if (nl) {
            size_t n = (size_t)(nl - bot->buf);
            char *line = malloc(n + 1);
            memcpy(line, bot->buf, n);
            line[n] = '\0';
            memmove(bot->buf, nl + 1, bot->len - n - 1);
            bot->len -= n + 1;
            return line;
        }
        if (bot->len >= EXEC_LINE_MAX)
            return NULL;
        struct pollfd p = {.fd = bot->fd, .events = POLLIN};
        int ms = ms_until(deadline);
        int ready = ms > 0 ? poll(&p, 1, ms) : 0;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return NULL;
        if (!bot->buf)
            bot->buf = malloc(EXEC_LINE_MAX);
        ssize_t n = recv(bot->fd, bot->buf + bot->len, EXEC_LINE_MAX - bot->len, 0);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            continue;
        if (n <= 0)
            return NULL;
        bot->len += (size_t)n;
    }
}

/* The reply to request id: the first line that is a JSON object whose "id"
 * is id. Every other line (a stray print, a late reply to an earlier
 * request) is skipped and counted. NULL if none came before deadline (or
 * the program ended). */
static json_t *read_reply(cli_exec_bot *bot, long id, double deadline)
{
    char *line;
    while ((line = read_line(bot, deadline)) != NULL) {
        json_t *reply = json_loads(line, 0, NULL);
        const json_t *rid = json_object_get(reply, "id");
        if (json_is_integer(rid) && json_integer_value(rid) == id) {
            free(line);
            return reply;
        }
        json_decref(reply);
        bot->stray++;
        if (!atomic_exchange(&stray_warned, true))
            fprintf(stderr,
                    "asobi: warning: %s wrote a line that answers no request (skipped, counted as stray; "
                    "stdout is the protocol, print diagnostics to stderr): %.80s\n",
                    bot->spec_text, line);
        free(line);
    }
    return NULL;
}

cli_exec_bot *cli_exec_bot_start(const char *spec, asobi_error *err)
{
    exec_spec parsed;
    if (!parse_exec_spec(spec, &parsed, err))
        return NULL;
    /* A socket pair rather than two pipes: send(MSG_NOSIGNAL) to a program
     * that died reports EPIPE instead of killing the arena with SIGPIPE.
     * SOCK_CLOEXEC: programs started by other runner threads at the same
     * moment must not inherit this one's end (they would keep it open). */
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        asobi_fail(err, ASOBI_E_IO, "exec: socketpair: %s", strerror(errno));
        free(parsed.cmd);
        return NULL;
    }
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, sv[1], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, sv[1], STDOUT_FILENO);
    posix_spawnattr_init(&attr);
    /* its own process group, so that stop_program reaches everything it started */
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    char *argv[] = {"sh", "-c", parsed.cmd, NULL};
    char **env = environ;
    if (parsed.samples > 0) {
        pthread_once(&key_once, make_sample_key);
        env = environ_with_key();
        if (!env)
            env = environ; /* out of memory: no key, so no sample loads; the game goes on */
    }
    pid_t pid;
    int rc = posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, env);
    if (env != environ)
        free(env);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    close(sv[1]);
    if (rc != 0) {
        close(sv[0]);
        free(parsed.cmd);
        asobi_fail(err, ASOBI_E_IO, "exec: cannot start /bin/sh: %s", strerror(rc));
        return NULL;
    }
    /* non-blocking: a program that stops reading must not block our writes forever */
    fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK);
    cli_exec_bot *bot = calloc(1, sizeof *bot);
    *bot = (cli_exec_bot){.pid = pid, .fd = sv[0], .alive = true, .spec = parsed, .spec_text = strdup(spec),
                          .log = json_array()};
    /* The handshake: a program that starts slowly (an interpreter, a model
     * to load) has its own time limit for it, and no decision pays for it. */
    double deadline = cli_now() + parsed.startup;
    long id;
    json_t *reply = send_request(bot, json_pack("{s:s, s:i}", "cmd", "hello", "protocol", EXEC_PROTOCOL), &id,
                                 deadline)
                        ? read_reply(bot, id, deadline)
                        : NULL;
    if (!json_is_true(json_object_get(reply, "ok")))
        stop_program(bot, false);
    json_decref(reply);
    return bot;
}

bool cli_exec_bot_reusable(const cli_exec_bot *bot) { return bot->spec.reuse && bot->alive; }

const char *cli_exec_bot_spec(const cli_exec_bot *bot) { return bot->spec_text; }

void cli_exec_bot_begin(cli_exec_bot *bot, long game_index, int players, int seat, uint64_t seed)
{
    bot->game = game_index;
    bot->players = players;
    bot->seat = seat;
    json_array_clear(bot->log);
    asobi_rng_seed(&bot->rng, seed);
    asobi_rng_seed(&bot->sample_rng, seed ^ 0x5a4d504c45ULL);
    if (!send_request(bot,
                      json_pack("{s:s, s:I, s:i, s:i}", "cmd", "new", "game", (json_int_t)game_index, "players",
                                players, "seat", seat),
                      NULL, cli_now() + bot->spec.timeout))
        stop_program(bot, false);
}

void cli_exec_bot_observe(cli_exec_bot *bot, const asobi_state *state, int seat, int id)
{
    char text[256];
    asobi_state_public_text(state, seat, id, bot->seat, text, sizeof text);
    json_array_append_new(bot->log, json_pack("{s:i, s:s}", "seat", seat, "text", text));
}

/* The id the reply names, if it is {"ok":true,"action":A} with A an id, a
 * text, or an object with "id" (or else "text") as in the engine's suggest
 * reply, and that action is legal for the bot's seat; else -1. */
static int answer_action(const cli_exec_bot *bot, const asobi_state *state, const json_t *reply)
{
    int id = -1;
    const json_t *action = json_object_get(reply, "action");
    if (json_is_true(json_object_get(reply, "ok")) && action) {
        if (json_is_object(action))
            action = json_object_get(action, "id") ? json_object_get(action, "id")
                                                   : json_object_get(action, "text");
        if (json_is_integer(action)) {
            json_int_t n = json_integer_value(action);
            if (n >= 0 && n <= 0x7fffffff && asobi_state_is_legal(state, bot->seat, (int)n))
                id = (int)n;
        } else if (json_is_string(action) &&
                   asobi_state_parse_action(state, bot->seat, json_string_value(action), &id, NULL) != ASOBI_OK) {
            id = -1;
        }
    }
    return id;
}

/* K states of the whole game drawn for the bot's seat by the game's
 * determinize (what the C bots search over), as signed samples; NULL
 * without samples=. */
static json_t *draw_samples(cli_exec_bot *bot, const asobi_state *state)
{
    if (bot->spec.samples <= 0)
        return NULL;
    json_t *list = json_array();
    asobi_state *copy = asobi_state_clone(state);
    for (long k = 0; copy && k < bot->spec.samples; k++) {
        asobi_state_copy(copy, state);
        asobi_state_determinize(copy, bot->seat, &bot->sample_rng);
        char *text = asobi_state_sample(copy, sample_key);
        if (text)
            json_array_append_new(list, json_string(text));
        free(text);
    }
    asobi_state_free(copy);
    return list;
}

int cli_exec_bot_choose(cli_exec_bot *bot, const asobi_state *state)
{
    int id = -1;
    if (bot->alive) {
        json_t *msg = json_pack("{s:s, s:I, s:i, s:i, s:o, s:o, s:o}", "cmd", "choose", "game",
                                (json_int_t)bot->game, "players", bot->players, "seat", bot->seat, "view",
                                asobi_state_view(state, bot->seat), "legal",
                                protocol_legal_actions(state, bot->seat), "log", bot->log);
        bot->log = json_array(); /* the message took the old one */
        json_t *samples = draw_samples(bot, state);
        if (samples)
            json_object_set_new(msg, "samples", samples);
        double deadline = cli_now() + bot->spec.timeout; /* from when the request is ready */
        long request;
        json_t *reply = send_request(bot, msg, &request, deadline) ? read_reply(bot, request, deadline) : NULL;
        if (reply)
            id = answer_action(bot, state, reply);
        else
            stop_program(bot, false); /* crashed, or late: no decision waits longer than the limit */
        json_decref(reply);
    }
    if (id >= 0)
        return id;
    /* a forfeit: a random legal action plays for it */
    bot->forfeits++;
    int *ids = malloc(sizeof(int) * (size_t)asobi_game_max_actions(asobi_state_game(state)));
    int n = asobi_state_legal(state, bot->seat, ids);
    id = n > 0 ? ids[asobi_rng_below(&bot->rng, (uint32_t)n)] : -1;
    free(ids);
    return id;
}

void cli_exec_bot_take_counts(cli_exec_bot *bot, long *forfeits, long *stray)
{
    *forfeits = bot->forfeits;
    *stray = bot->stray;
    bot->forfeits = bot->stray = 0;
}

void cli_exec_bot_end(cli_exec_bot *bot, const asobi_state *state)
{
    if (state && !send_request(bot,
                               json_pack("{s:s, s:I, s:o}", "cmd", "over", "game", (json_int_t)bot->game,
                                         "result", protocol_result(state)),
                               NULL, cli_now() + EXEC_EXIT_GRACE))
        stop_program(bot, false);
}

void cli_exec_bot_free(cli_exec_bot *bot)
{
    if (!bot)
        return;
    if (bot->alive) {
        double deadline = cli_now() + EXEC_EXIT_GRACE;
        send_request(bot, json_pack("{s:s}", "cmd", "quit"), NULL, deadline);
        shutdown(bot->fd, SHUT_WR); /* end of its input, in case it reads to the end */
        /* give it a moment to exit by itself, then make sure */
        bool reaped = false;
        while (!reaped && cli_now() < deadline) {
            pid_t r = waitpid(bot->pid, NULL, WNOHANG);
            reaped = r == bot->pid || (r < 0 && errno != EINTR);
            if (!reaped)
                nanosleep(&(struct timespec){.tv_nsec = 5000000}, NULL);
        }
        stop_program(bot, reaped); /* kills whatever is left of it */
    }
    json_decref(bot->log);
    free(bot->spec.cmd);
    free(bot->spec_text);
    free(bot->buf);
    free(bot);
}

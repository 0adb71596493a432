/* cli_exec_bot.c — external bots: a program started per seat per game, asked for each decision by JSON lines. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
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
#define EXEC_LINE_MAX (1 << 20) /* the engine protocol's own line limit */
#define EXEC_EXIT_GRACE 1.0     /* seconds a program may take to exit after "quit" */

struct cli_exec_bot {
    pid_t pid;
    int fd;      /* our end of a socket pair: the program's stdin and stdout */
    bool alive;  /* false once it crashed, timed out or was stopped */
    double timeout;
    long game;
    int players, seat;
    json_t *log; /* [{"seat","text"}] since its last decision */
    long forfeits;
    asobi_rng rng;
    char *buf;   /* bytes read but not yet consumed as a line */
    size_t len;
};

bool cli_is_exec_spec(const char *spec) { return strncmp(spec, EXEC_PREFIX, strlen(EXEC_PREFIX)) == 0; }

/* "exec:cmd=COMMAND[,timeout=SECONDS]" (keys in any order): the command
 * (malloc'd) and the per-decision time limit. */
static bool parse_exec_spec(const char *spec, char **cmd, double *timeout, asobi_error *err)
{
    *cmd = NULL;
    *timeout = EXEC_DEFAULT_TIMEOUT;
    char *copy = strdup(spec + strlen(EXEC_PREFIX)), *save = NULL;
    bool ok = true;
    for (char *item = strtok_r(copy, ",", &save); ok && item; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (!eq) {
            ok = false;
            asobi_fail(err, ASOBI_E_BAD_BOT, "exec: \"%s\" is not KEY=VALUE (keys: cmd, timeout)", item);
        } else if (strncmp(item, "cmd=", 4) == 0) {
            free(*cmd);
            *cmd = strdup(eq + 1);
        } else if (strncmp(item, "timeout=", 8) == 0) {
            char *end;
            errno = 0;
            *timeout = strtod(eq + 1, &end);
            if (errno || *end || end == eq + 1 || !(*timeout > 0 && *timeout <= 3600)) {
                ok = false;
                asobi_fail(err, ASOBI_E_BAD_BOT, "exec: timeout must be seconds in (0, 3600], not \"%s\"", eq + 1);
            }
        } else {
            ok = false;
            asobi_fail(err, ASOBI_E_BAD_BOT, "exec: unknown key \"%.*s\" (keys: cmd, timeout)", (int)(eq - item),
                       item);
        }
    }
    free(copy);
    if (ok && (!*cmd || !**cmd)) {
        ok = false;
        asobi_fail(err, ASOBI_E_BAD_BOT, "exec: needs cmd=COMMAND (run with /bin/sh -c; no commas)");
    }
    if (!ok) {
        free(*cmd);
        *cmd = NULL;
    }
    return ok;
}

int cli_check_bot_spec(const char *spec, const asobi_game_def *game, asobi_error *err)
{
    if (!cli_is_exec_spec(spec))
        return asobi_bot_check_spec(spec, game, err);
    char *cmd;
    double timeout;
    if (!parse_exec_spec(spec, &cmd, &timeout, err))
        return err ? err->code : ASOBI_E_BAD_BOT;
    free(cmd);
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

cli_exec_bot *cli_exec_bot_new(const char *spec, long game_index, int players, int seat, uint64_t seed,
                               asobi_error *err)
{
    char *cmd;
    double timeout;
    if (!parse_exec_spec(spec, &cmd, &timeout, err))
        return NULL;
    /* A socket pair rather than two pipes: send(MSG_NOSIGNAL) to a program
     * that died reports EPIPE instead of killing the arena with SIGPIPE.
     * SOCK_CLOEXEC: programs started by other runner threads at the same
     * moment must not inherit this one's end (they would keep it open). */
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        asobi_fail(err, ASOBI_E_IO, "exec: socketpair: %s", strerror(errno));
        free(cmd);
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
    char *argv[] = {"sh", "-c", cmd, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    close(sv[1]);
    free(cmd);
    if (rc != 0) {
        close(sv[0]);
        asobi_fail(err, ASOBI_E_IO, "exec: cannot start /bin/sh: %s", strerror(rc));
        return NULL;
    }
    /* non-blocking: a program that stops reading must not block our writes forever */
    fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK);
    cli_exec_bot *bot = calloc(1, sizeof *bot);
    *bot = (cli_exec_bot){.pid = pid, .fd = sv[0], .alive = true, .timeout = timeout, .game = game_index,
                          .players = players, .seat = seat, .log = json_array()};
    asobi_rng_seed(&bot->rng, seed);
    return bot;
}

/* Milliseconds left until deadline (cli_now seconds), at least 0. */
static int ms_until(double deadline)
{
    double left = deadline - cli_now();
    return left <= 0 ? 0 : left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
}

/* Write msg as one line (stealing the reference) before deadline; false
 * if the program is gone or does not read. */
static bool send_line(cli_exec_bot *bot, json_t *msg, double deadline)
{
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

void cli_exec_bot_observe(cli_exec_bot *bot, const asobi_state *state, int seat, int id)
{
    char text[256];
    asobi_state_public_text(state, seat, id, bot->seat, text, sizeof text);
    json_array_append_new(bot->log, json_pack("{s:i, s:s}", "seat", seat, "text", text));
}

/* The id the answer names, if it is {"ok":true,"action":A} with A an id, a
 * text, or an object with "id" (or else "text") as in the engine's suggest
 * reply, and that action is legal for the bot's seat; else -1. */
static int answer_action(const cli_exec_bot *bot, const asobi_state *state, const char *line)
{
    json_t *reply = json_loads(line, 0, NULL);
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
    json_decref(reply);
    return id;
}

int cli_exec_bot_choose(cli_exec_bot *bot, const asobi_state *state)
{
    int id = -1;
    if (bot->alive) {
        double deadline = cli_now() + bot->timeout;
        json_t *msg = json_pack("{s:s, s:I, s:i, s:i, s:o, s:o, s:o}", "cmd", "choose", "game",
                                (json_int_t)bot->game, "players", bot->players, "seat", bot->seat, "view",
                                asobi_state_view(state, bot->seat), "legal",
                                protocol_legal_actions(state, bot->seat), "log", bot->log);
        bot->log = json_array(); /* the message took the old one */
        char *line = msg && send_line(bot, msg, deadline) ? read_line(bot, deadline) : NULL;
        if (line)
            id = answer_action(bot, state, line);
        else
            stop_program(bot, false); /* crashed, or late: a late answer would be taken for the next one */
        free(line);
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

long cli_exec_bot_forfeits(const cli_exec_bot *bot) { return bot->forfeits; }

void cli_exec_bot_finish(cli_exec_bot *bot, const asobi_state *state)
{
    if (!bot)
        return;
    if (bot->alive) {
        double deadline = cli_now() + EXEC_EXIT_GRACE;
        if (state)
            send_line(bot, json_pack("{s:s, s:o}", "cmd", "over", "result", protocol_result(state)), deadline);
        send_line(bot, json_pack("{s:s}", "cmd", "quit"), deadline);
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
    free(bot->buf);
    free(bot);
}

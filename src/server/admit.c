/* admit.c — connections per client address: admitting accepted sockets, carrying their address, refusals' log lines. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "server/internal.h"

/* ---------------------------------------------------------------------------
 * Connections per client address (limits.c keeps the counts).
 * ------------------------------------------------------------------------- */
/* A refusal's line in the log, within its share (internal.h). */
void log_refusal(server *s, limits_address *a, const char *fmt, ...)
{
    if (!limits_log_line(&s->limits, a, now_s()))
        return;
    va_list ap;
    va_start(ap, fmt);
    srv_vlog(fmt, ap);
    va_end(ap);
}

/* A refused connection is told why in a few bytes, best effort (it is
 * closed right after, whatever the socket took): status is the HTTP status
 * line's rest ("429 Too Many Requests"). */
void refuse_raw(int fd, const char *status, int retry_after, const char *code, const char *message)
{
    char body[256], reply[640];
    int n = snprintf(body, sizeof body, "{\"error\":{\"code\":\"%s\",\"message\":\"%s\"}}", code, message);
    int m = snprintf(reply, sizeof reply,
                     "HTTP/1.1 %s\r\nContent-Type: application/json\r\nRetry-After: %d\r\n"
                     "Connection: close\r\nContent-Length: %d\r\n\r\n%s",
                     status, retry_after, n, body);
    if (m > 0 && m < (int)sizeof reply && send(fd, reply, (size_t)m, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
        return; /* nobody to tell */
}

static void refuse_socket(int fd, const char *code, const char *message)
{
    refuse_raw(fd, "429 Too Many Requests", 10, code, message);
}

/* The address of a socket's peer; false when it is no IP client. */
static bool peer_of(int fd, limits_ip *ip)
{
    struct sockaddr_storage peer;
    socklen_t len = sizeof peer;
    return getpeername(fd, (struct sockaddr *)&peer, &len) == 0 &&
           limits_ip_of_sockaddr((struct sockaddr *)&peer, len, ip);
}

/* The entry of an address (NULL: out of memory). */
static limits_address *address_of(server *s, const limits_ip *ip)
{
    unsigned char key[LIMITS_KEY_BYTES];
    char name[48];
    limits_key_of(ip, key, name, sizeof name);
    return limits_address_of(&s->limits, key, name);
}

/* The address counted for fd's previous connection, if the library never
 * bound it to a connection (it failed to take it on): let go of it. */
static void release_pending(server *s, int fd)
{
    if (fd < 0 || fd >= s->fd_limit || !s->pending[fd])
        return;
    limits_disconnect(&s->limits, s->pending[fd], now_s());
    s->pending[fd] = NULL;
}

/* A connection was just accepted on fd (LWS_CALLBACK_FILTER_NETWORK_CONNECTION):
 * 0 to take it, 1 to close it (the library closes it). Refused: one past
 * --max-connections-per-address from its address or past --max-connections
 * in all, and any on the last FD_RESERVE descriptors. Not logged one by one
 * (a flood of them would fill the disk): counted, and summed up in the log
 * once a second (on_tick). The library's own limits per peer (ip_limit_wsi)
 * are not in Debian's build (LWS_WITH_PEER_LIMITS is off), hence limits.c;
 * the hook and the per-connection pointer are the library's. */
int admit_connection(server *s, int fd)
{
    release_pending(s, fd);
    if (fd >= s->fd_limit - FD_RESERVE) {
        limits_refused(&s->limits, LIMIT_CONNECTIONS, NULL);
        refuse_socket(fd, "too_many_connections", "the server is full: try again later");
        return 1;
    }
    limits_ip peer;
    if (!peer_of(fd, &peer))
        return 0; /* not an IP client: not counted */
    limits_address *a = address_of(s, &peer);
    if (!a)
        return 1; /* out of memory */
    /* A trusted proxy's connection is its client's, known at its head
     * (client_from_head): until then it counts in the server's total only. */
    a->trusted_proxy = limits_trusted(&s->limits, &peer);
    if (!limits_connect(&s->limits, a, now_s())) {
        refuse_socket(fd, "too_many_connections", "too many connections from your address: close some first");
        return 1;
    }
    s->pending[fd] = a;
    return 0;
}

/* The library made the connection of an accepted socket: it carries its
 * address from now on (the opaque user data stays through the upgrade to a
 * WebSocket; the protocol's per-session data does not). */
void bind_address(server *s, struct lws *wsi)
{
    int fd = lws_get_socket_fd(wsi);
    if (fd < 0 || fd >= s->fd_limit || !s->pending[fd] || lws_get_opaque_user_data(wsi))
        return;
    lws_set_opaque_user_data(wsi, s->pending[fd]);
    s->pending[fd] = NULL;
}

/* A connection is gone (LWS_CALLBACK_WSI_DESTROY). */
void release_address(server *s, struct lws *wsi)
{
    limits_address *a = lws_get_opaque_user_data(wsi);
    if (!a)
        return;
    lws_set_opaque_user_data(wsi, NULL);
    limits_disconnect(&s->limits, a, now_s());
}

limits_address *client_address(struct lws *wsi)
{
    return lws_get_opaque_user_data(wsi);
}

/* A header's value (malloc'd; NULL when absent or too long to be honest). */
static char *header_text(struct lws *wsi, enum lws_token_indexes token, const char *custom)
{
    int len = custom ? lws_hdr_custom_length(wsi, custom, (int)strlen(custom)) : lws_hdr_total_length(wsi, token);
    if (len <= 0 || len > HEADERS_MAX_BYTES)
        return NULL;
    char *text = malloc((size_t)len + 1);
    if (!text)
        return NULL;
    int n = custom ? lws_hdr_custom_copy(wsi, text, len + 1, custom, (int)strlen(custom))
                   : lws_hdr_copy(wsi, text, len + 1, token);
    if (n < 0) {
        free(text);
        return NULL;
    }
    text[n] = '\0';
    return text;
}

/* From a trusted proxy, the connection becomes its client's at each
 * request's head (a kept-alive connection of the proxy may carry another
 * client's next request): counted there, and every limit reads it from
 * then on (client_address). The header of anyone else is ignored. */
bool client_from_head(server *s, struct lws *wsi)
{
    bind_address(s, wsi);
    limits_address *a = client_address(wsi);
    limits_ip peer;
    if (!a || !s->limits.cfg.n_trusted || !peer_of(lws_get_socket_fd(wsi), &peer) ||
        !limits_trusted(&s->limits, &peer))
        return true;
    char *xff = header_text(wsi, WSI_TOKEN_X_FORWARDED_FOR, NULL);
    char *forwarded = xff ? NULL : header_text(wsi, WSI_TOKEN_COUNT, "forwarded:");
    limits_ip client = limits_client_of(s->limits.cfg.trusted, s->limits.cfg.n_trusted, &peer, xff, forwarded);
    free(xff);
    free(forwarded);
    limits_address *to = address_of(s, &client);
    if (!to)
        return false;
    to->trusted_proxy = limits_trusted(&s->limits, &client);
    if (!limits_move(&s->limits, a, to, now_s()))
        return false;
    lws_set_opaque_user_data(wsi, to);
    return true;
}

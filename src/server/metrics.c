/* metrics.c — GET /metrics: the server's counters and latency histograms in Prometheus' text format. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/resource.h>

#include "server/internal.h"

static const double latency_buckets[] = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                         0.01,   0.025,   0.05,   0.1,   0.25,   1.0};
_Static_assert(sizeof latency_buckets / sizeof latency_buckets[0] == LATENCY_BUCKETS, "LATENCY_BUCKETS");

void observe(histogram *h, double seconds)
{
    for (size_t i = 0; i < LATENCY_BUCKETS; i++)
        if (seconds <= latency_buckets[i])
            h->count[i]++;
    h->total++;
    h->sum += seconds;
}

static void metric_histogram(FILE *f, const char *name, const char *help, const histogram *h)
{
    fprintf(f, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
    for (size_t i = 0; i < LATENCY_BUCKETS; i++)
        fprintf(f, "%s_bucket{le=\"%g\"} %llu\n", name, latency_buckets[i], (unsigned long long)h->count[i]);
    fprintf(f, "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %.6f\n%s_count %llu\n", name, (unsigned long long)h->total, name,
            h->sum, name, (unsigned long long)h->total);
}

/* One metric of one value, in Prometheus' text format: its HELP, its TYPE, its sample. */
static void metric_value(FILE *f, const char *name, const char *type, const char *help, uint64_t value)
{
    fprintf(f, "# HELP %s %s\n# TYPE %s %s\n%s %llu\n", name, help, name, type, name, (unsigned long long)value);
}

char *metrics_text(server *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    uint64_t by_status[3] = {0, 0, 0};
    for (int64_t i = 0; i < s->hall.n_slots; i++)
        if (s->hall.slots[i].t)
            by_status[s->hall.slots[i].t->status]++;
    fprintf(f, "# HELP asobi_tables Tables in memory by status.\n# TYPE asobi_tables gauge\n");
    for (int st = 0; st < 3; st++)
        fprintf(f, "asobi_tables{status=\"%s\"} %llu\n", table_status_name((table_status)st),
                (unsigned long long)by_status[st]);
    metric_value(f, "asobi_connections", "gauge", "Open WebSocket connections.", s->connections);
    metric_value(f, "asobi_actions_accepted_total", "counter", "Actions accepted (people, bots, timeouts).",
                 s->hall.actions_accepted);
    metric_value(f, "asobi_takebacks_total", "counter", "Actions taken back by their people ({\"type\":\"undo\"}).",
                 s->hall.takebacks_accepted);
    metric_value(f, "asobi_refusals_total", "counter", "Requests and messages refused.", s->refusals);
    fprintf(f, "# HELP asobi_limited_total Connections, requests and messages refused by a limit (docs/server.md, "
               "Limits).\n# TYPE asobi_limited_total counter\n");
    for (int k = 0; k < LIMIT_KINDS; k++)
        fprintf(f, "asobi_limited_total{limit=\"%s\"} %llu\n", limits_kind_name((limits_kind)k),
                (unsigned long long)s->limits.refused[k]);
    metric_value(f, "asobi_client_connections", "gauge", "Open connections (HTTP and WebSockets) of IP clients.",
                 (uint64_t)s->limits.connections);
    metric_value(f, "asobi_client_addresses", "gauge", "Client addresses the limits keep track of.",
                 (uint64_t)s->limits.addresses);
    metric_value(f, "asobi_updates_sent_total", "counter", "Update messages sent.", s->updates_sent);
    metric_value(f, "asobi_bot_moves_overdue_total", "counter",
                 "Bot moves abandoned past --bot-deadline (the heuristic moved instead).", s->bots_overdue);
    metric_value(f, "asobi_tables_expired_total", "counter", "Unfinished tables expired (nobody joined, nobody there).",
                 s->tables_expired);
    metric_value(f, "asobi_ws_bytes_sent_total", "counter", "WebSocket payload bytes sent.", s->bytes_sent);
    metric_histogram(f, "asobi_action_latency_seconds",
                     "From a person's act message received to the update showing it written to that person's "
                     "socket.",
                     &s->action_latency);
    pthread_mutex_lock(&s->lock);
    histogram bot = s->bot_time;
    pthread_mutex_unlock(&s->lock);
    metric_histogram(f, "asobi_bot_move_seconds", "Time a bot took to choose a move (on a worker).", &bot);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fprintf(f, "# HELP process_cpu_seconds_total CPU time of the server.\n# TYPE process_cpu_seconds_total counter\n"
               "process_cpu_seconds_total %.3f\n",
            (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
                (double)ru.ru_stime.tv_usec / 1e6);
    fprintf(f, "# HELP process_max_resident_bytes Peak resident memory.\n# TYPE process_max_resident_bytes gauge\n"
               "process_max_resident_bytes %lld\n",
            (long long)ru.ru_maxrss * 1024);
    fclose(f);
    return text;
}

/* The request's path with its query ("/api/tables?before=7"), as the hall
 * takes it: the library keeps the query's arguments apart, one fragment each. */

/* workers.c — the bot worker pool: its two lanes, jobs queued and taken, results back on the loop, overdue bots. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "server/internal.h"

/* ---------------------------------------------------------------------------
 * The worker pool.
 * ------------------------------------------------------------------------- */
/* Append n to a job queue (todo or done; under the lock). */
static void queue_append(job_node **head, job_node **tail, job_node *n)
{
    n->next = NULL;
    if (*tail)
        (*tail)->next = n;
    else
        *head = n;
    *tail = n;
}

/* The table's queue in ring r, or NULL. */
static table_queue *ring_find(ring *r, int64_t id)
{
    for (table_queue *q = r->head; q; q = q->next)
        if (q->table == id)
            return q;
    return NULL;
}

/* The first job of the ring's first table; that table goes to the back. */
static job_node *ring_take(ring *r)
{
    table_queue *q = r->head;
    if (!q)
        return NULL;
    job_node *n = q->head;
    q->head = n->next;
    if (!q->head)
        q->tail = NULL;
    r->head = q->next;
    if (!r->head)
        r->tail = NULL;
    if (q->head) { /* more moves of this table: behind every other table's */
        q->next = NULL;
        if (r->tail)
            r->tail->next = q;
        else
            r->head = q;
        r->tail = q;
    } else {
        free(q);
    }
    return n;
}

/* Append a bot job to its table's queue in ring r (under the lock); false
 * when out of memory. */
static bool ring_append(ring *r, job_node *n)
{
    table_queue *q = ring_find(r, n->job.table);
    if (!q) {
        q = calloc(1, sizeof *q);
        if (!q)
            return false;
        q->table = n->job.table;
        if (r->tail)
            r->tail->next = q;
        else
            r->head = q;
        r->tail = q;
    }
    queue_append(&q->head, &q->tail, n);
    return true;
}

/* The next job for worker w (under the lock), or NULL: the fast lane first,
 * then tables with people, then tables only bots play while they hold
 * fewer than bots_only_max workers. */
static job_node *take_job(server *s, const worker *w)
{
    job_node *n = s->fast;
    if (n) {
        s->fast = n->next;
        if (!s->fast)
            s->fast_tail = NULL;
        return n;
    }
    if (w->fast_only)
        return NULL;
    if ((n = ring_take(&s->people)) != NULL)
        return n;
    if (s->bots_only_running < s->bots_only_max && (n = ring_take(&s->bots_only)) != NULL)
        s->bots_only_running++;
    return n;
}

/* The threads of a lane that are not stuck (under the lock). */
static int lane_threads(const server *s, bool fast_only)
{
    int n = 0;
    for (int i = 0; i < s->n_workers; i++) {
        const worker *w = &s->workers[i];
        n += w->started && !w->exited && !w->stuck && w->fast_only == fast_only;
    }
    return n;
}

/* How many threads a lane should have: --workers for bot moves, one for the fast lane. */
static int lane_size(const server *s, bool fast_only) { return fast_only ? 1 : s->cfg.workers; }

static void *worker_main(void *arg);

/* Start a thread for a lane that lacks one (under the lock); false when
 * there is no room (every entry holds a stuck thread) or no thread. */
bool add_worker(server *s, bool fast_only)
{
    for (int i = 0; i < s->n_workers; i++) {
        worker *w = &s->workers[i];
        if (w->started && !w->exited)
            continue;
        if (w->started)
            pthread_join(w->thread, NULL); /* it has left its loop: at once */
        *w = (worker){.s = s, .fast_only = fast_only};
        w->started = pthread_create(&w->thread, NULL, worker_main, w) == 0;
        return w->started;
    }
    return false;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    server *s = w->s;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        job_node *n = NULL;
        while (!s->stopping && !(n = take_job(s, w)))
            pthread_cond_wait(&s->wake, &s->lock);
        if (s->stopping) {
            if (n) /* taken just now: back to the front, for stop_workers to free */
                queue_append(&s->done, &s->done_tail, n);
            break;
        }
        n->started_ms = now_ms();
        w->running = n;
        pthread_mutex_unlock(&s->lock);
        if (n->reload)
            hall_reload_replay(n->reload, s->store, now_ms());
        else
            table_job_run(&n->job);
        pthread_mutex_lock(&s->lock);
        w->running = NULL;
        bool was_stuck = w->stuck;
        w->stuck = false;
        if (n->bots_only) {
            s->bots_only_running--;
            pthread_cond_broadcast(&s->wake); /* a bots-only move may start now */
        }
        queue_append(&s->done, &s->done_tail, n);
        /* the loop picks it up; under the lock, which the loop takes to say
         * it is stopping before it destroys the context */
        if (!s->stopping)
            lws_cancel_service(s->context);
        if (was_stuck && lane_threads(s, w->fast_only) > lane_size(s, w->fast_only))
            break; /* back from a stuck job: another thread took its place meanwhile */
    }
    w->exited = true;
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* Queue a job in its lane; false when out of memory (the caller keeps it). */
static bool enqueue(server *s, job_node *node)
{
    bool queued = true;
    pthread_mutex_lock(&s->lock);
    if (node->fast || node->reload)
        queue_append(&s->fast, &s->fast_tail, node);
    else
        queued = ring_append(node->bots_only ? &s->bots_only : &s->people, node);
    if (queued)
        pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    return queued;
}

/* Hand every bot move now due at this table to the workers. A table only
 * bots play starts its moves at most every --bot-table-pace: the tick
 * comes back for it (pace_waiting). */
void schedule_bots(server *s, slot *sl)
{
    table *t = sl->t;
    bool bots_only = table_bots_only(t);
    int64_t now = now_ms();
    if (bots_only && now < sl->paced_until_ms) {
        sl->pace_waiting = t->status == TABLE_PLAYING;
        return;
    }
    sl->pace_waiting = false;
    table_job jobs[ASOBI_MAX_SEATS];
    int n = table_due_jobs(t, now, s->cfg.grace_ms, jobs, ASOBI_MAX_SEATS);
    if (n && bots_only)
        sl->paced_until_ms = now + s->cfg.bot_table_pace_ms;
    for (int i = 0; i < n; i++) {
        job_node *node = malloc(sizeof *node);
        /* a person's seat (a timeout, a grace move, a handed seat) gets the
         * heuristic, quick: the fast lane; a bot's seat its own bot */
        if (node)
            *node = (job_node){.job = jobs[i], .fast = !t->seat[jobs[i].seat].bot, .bots_only = bots_only};
        if (!node || !enqueue(s, node)) {
            t->seat[jobs[i].seat].busy = false;
            table_job_release(&jobs[i]);
            free(node);
        }
    }
}

/* A connection opened on table id, which is not in memory: HALL_RELOAD_STARTED
 * when it is a finished table being brought back, now or already (a worker
 * replays it; the connection waits for it in ws_established), else
 * HALL_RELOAD_NONE (no such table) or HALL_RELOAD_BUSY (too many under way). */
/* r's rows are in: its replay goes to the fast lane; false (r released,
 * not freed) when out of memory. */
static bool replay_queued(server *s, hall_reload *r)
{
    job_node *node = calloc(1, sizeof *node);
    if (node) {
        node->reload = r;
        node->fast = true;
    }
    if (!node || !enqueue(s, node)) {
        hall_reload_release(&s->hall, r);
        free(node);
        return false;
    }
    return true;
}

int reload_started(server *s, int64_t id)
{
    if (hall_reloading(&s->hall, id))
        return HALL_RELOAD_STARTED;
    hall_reload *r = malloc(sizeof *r);
    if (!r)
        return HALL_RELOAD_NONE;
    /* PostgreSQL: the rows are read on the store's reader thread, the loop
     * goes on (reload_rows_read takes them); SQLite reads them here */
    int rc = hall_reload_begin(&s->hall, id, r);
    if (rc == HALL_RELOAD_STARTED && store_lookup_start(s->store, id, true, r))
        return HALL_RELOAD_STARTED;
    if (rc == HALL_RELOAD_STARTED) {
        hall_reload_release(&s->hall, r);
        rc = hall_reload_read(&s->hall, id, r);
    }
    if (rc != HALL_RELOAD_STARTED || !replay_queued(s, r)) {
        free(r);
        return rc == HALL_RELOAD_STARTED ? HALL_RELOAD_NONE : rc;
    }
    return HALL_RELOAD_STARTED;
}

void reload_rows_read(server *s, store_lookup *l)
{
    hall_reload *r = l->cookie;
    r->spec = l->spec;
    r->seats = l->seats;
    r->actions = l->actions;
    r->summary = l->summary;
    l->spec = l->seats = l->actions = l->summary = NULL;
    if (hall_reload_rows(&s->hall, r) == HALL_RELOAD_STARTED && replay_queued(s, r))
        return;
    int64_t id = r->id;
    free(r);
    reload_refused(s, id, l->owner_url != NULL);
}

void drain_done(server *s)
{
    pthread_mutex_lock(&s->lock);
    job_node *n = s->done;
    s->done = s->done_tail = NULL;
    pthread_mutex_unlock(&s->lock);
    while (n) {
        job_node *next = n->next;
        if (n->reload) {
            reload_done(s, n->reload);
            free(n->reload);
            free(n);
            n = next;
            continue;
        }
        pthread_mutex_lock(&s->lock);
        observe(&s->bot_time, n->job.ms / 1000.0);
        bool abandoned = n->abandoned;
        pthread_mutex_unlock(&s->lock);
        slot *sl = hall_slot_of(&s->hall, n->job.table);
        if (abandoned) {
            /* a stand-in played (or the table moved on): the seat is not this job's any more */
            srv_log("table %lld: the late move of seat %d's bot (%s, %.0f ms) is dropped", (long long)n->job.table,
                    n->job.seat, n->job.spec, n->job.ms);
            table_job_release(&n->job);
        } else if (sl) {
            if (n->job.id < 0)
                srv_log("table %lld: the bot of seat %d found no move: %s", (long long)n->job.table, n->job.seat,
                      n->job.err.message);
            srv_error e;
            int rc = table_job_done(sl->t, &n->job, now_ms(), &e);
            if (rc < 0)
                srv_log("table %lld: a bot's move was not stored: %s", (long long)sl->t->id, e.message);
            if (rc > 0)
                s->hall.actions_accepted++;
            table_changed(s, sl);
        } else {
            table_job_release(&n->job);
        }
        free(n);
        n = next;
    }
}

/* A bot move past --bot-deadline cannot be stopped (a worker thread that
 * is stuck cannot be killed safely), so it is left to finish and its
 * result dropped (abandoned); the seat plays a stand-in at once, on the
 * fast lane: the heuristic, or random when the heuristic itself overran.
 * A table never waits behind a bot for more than the deadline. */
void stand_in_for_overdue_bots(server *s, int64_t now)
{
    table_job late[64];
    int standin[64], n = 0;
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < s->n_workers && n < 64; i++) {
        worker *w = &s->workers[i];
        job_node *r = w->running;
        if (!r || r->reload || r->abandoned || r->standin >= 2 || now - r->started_ms <= s->cfg.bot_deadline_ms)
            continue;
        r->abandoned = true;
        /* what names the move (the worker writes the result's fields meanwhile; the state and spec stay its) */
        late[n] = (table_job){.table = r->job.table, .seat = r->job.seat, .at = r->job.at, .by = r->job.by,
                              .seed = r->job.seed};
        /* the heuristic stands in, unless it is the heuristic that overran */
        standin[n++] = r->standin == 0 && strcmp(r->job.spec, "heuristic") != 0 ? 1 : 2;
        /* the thread may never come back: another takes its place in its lane, and
         * a move at a table only bots play no longer counts against their share */
        w->stuck = true;
        if (r->bots_only) {
            r->bots_only = false;
            s->bots_only_running--;
        }
        if (lane_threads(s, w->fast_only) < lane_size(s, w->fast_only) && !add_worker(s, w->fast_only))
            srv_log("no thread can take the place of a stuck worker: %d are stuck", s->n_workers);
    }
    pthread_mutex_unlock(&s->lock);
    for (int i = 0; i < n; i++) {
        const char *spec = standin[i] == 1 ? "heuristic" : "random";
        slot *sl = hall_slot_of(&s->hall, late[i].table);
        if (!sl)
            continue;
        s->bots_overdue++;
        srv_log("table %lld: the bot of seat %d is past its deadline of %.1f s: %s moves instead",
                (long long)late[i].table, late[i].seat, (double)s->cfg.bot_deadline_ms / 1000.0, spec);
        job_node *node = malloc(sizeof *node);
        if (node) {
            *node = (job_node){.fast = true, .standin = standin[i]};
            if (table_standin_job(sl->t, &late[i], spec, &node->job) != 0 || !enqueue(s, node)) {
                table_job_release(&node->job);
                free(node);
                node = NULL;
            }
        }
        if (!node) { /* the table moved on (or no memory): the seat is free for its next move */
            sl->t->seat[late[i].seat].busy = false;
            schedule_bots(s, sl);
        }
    }
}

/* Free a queue of jobs (the workers are stopped). */
static void free_jobs(server *s, job_node *n)
{
    while (n) {
        job_node *next = n->next;
        if (n->reload)
            hall_reload_release(&s->hall, n->reload);
        else
            table_job_release(&n->job);
        free(n->reload);
        free(n);
        n = next;
    }
}

static void free_ring(server *s, ring *r)
{
    while (r->head) {
        table_queue *q = r->head;
        r->head = q->next;
        free_jobs(s, q->head);
        free(q);
    }
    r->tail = NULL;
}

/* Stop the workers and free what they had not done. A worker still inside
 * an abandoned bot move (past its deadline: stuck) is waited for a few
 * seconds, then left to the end of the process; false then, and the server
 * keeps what that thread may still touch. */
bool stop_workers(server *s)
{
    pthread_mutex_lock(&s->lock);
    s->stopping = true;
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    bool all = true;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 5;
    for (int i = 0; i < s->n_workers; i++)
        if (s->workers[i].started)
            all &= pthread_timedjoin_np(s->workers[i].thread, NULL, &until) == 0;
    if (!all) {
        srv_log("a worker is still inside a bot move past its deadline: not waiting for it");
        return false;
    }
    free_jobs(s, s->fast);
    free_jobs(s, s->done);
    free_ring(s, &s->people);
    free_ring(s, &s->bots_only);
    s->fast = s->done = NULL;
    free(s->workers);
    return true;
}

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

/* Sharing the bot lane by address
 * ------------------------------
 * Taking the tables in turn is not enough: one address that made 60
 * quick-play tables with searching bots had 60 turns for every other
 * person's one, and held every worker (another person's random bot answered
 * after a minute). So each queued job carries its address (bot_owner: the
 * table's maker, or a replay's asker), and a worker takes the job of the
 * address that holds the fewest workers now, then of the one served longest
 * ago; within an address, its tables in turn. One address holds at most
 * bot_share workers (--max-bot-workers-per-address: by default half of
 * them, at least one; with two workers, one),
 * so another address's move finds a worker free or waits for one move at
 * most; and it spends at most --bot-seconds-per-minute-per-address of
 * worker time, measured as spent: beyond it, its jobs wait until the
 * bucket is above zero again. A stuck job stops counting (workers.c,
 * stand_in_for_overdue_bots). */

/* The per-minute bucket's rate and size (seconds of worker time). */
static double seconds_per_minute(const server *s) { return s->cfg.limits.bot_seconds_per_minute; }

/* The entry of an address (under the lock), made if missing; NULL when out of memory. */
static bot_owner *owner_of(server *s, const unsigned char key[LIMITS_KEY_BYTES])
{
    for (bot_owner *o = s->owners; o; o = o->next)
        if (memcmp(o->key, key, LIMITS_KEY_BYTES) == 0)
            return o;
    bot_owner *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    memcpy(o->key, key, LIMITS_KEY_BYTES);
    o->next = s->owners;
    s->owners = o;
    return o;
}

/* Let go of the entries that hold nothing (under the lock): none running,
 * none queued, no time to pay back. */
static void owners_forget_idle(server *s, double now)
{
    double per_minute = seconds_per_minute(s);
    for (bot_owner **p = &s->owners; *p;) {
        bot_owner *o = *p;
        if (o->running || o->queued || !limits_bucket_full(&o->seconds, per_minute / 60.0, per_minute, now)) {
            p = &o->next;
            continue;
        }
        *p = o->next;
        free(o);
    }
}

/* May the address take one more worker now (under its share, and with bot time left)? */
static bool owner_may_take(server *s, bot_owner *o, double now)
{
    double per_minute = seconds_per_minute(s);
    return o->running < s->bot_share && limits_bucket_left(&o->seconds, per_minute / 60.0, per_minute, now);
}

/* The table's queue in ring r, or NULL. */
static table_queue *ring_find(ring *r, int64_t id)
{
    for (table_queue *q = r->head; q; q = q->next)
        if (q->table == id)
            return q;
    return NULL;
}

/* The first job of the ring's table whose address goes first (above): the
 * table goes to the back of the ring. NULL when no address may take one. */
static job_node *ring_take(server *s, ring *r, double now)
{
    table_queue *best = NULL, *best_prev = NULL, *prev = NULL;
    for (table_queue *q = r->head; q; prev = q, q = q->next) {
        const bot_owner *o = q->owner, *b = best ? best->owner : NULL;
        if (b && (o->running > b->running || (o->running == b->running && o->served >= b->served)))
            continue; /* not before the best so far (an address's own tables: the first in the ring) */
        if (!owner_may_take(s, q->owner, now))
            continue;
        best = q;
        best_prev = prev;
    }
    if (!best)
        return NULL;
    if (best_prev)
        best_prev->next = best->next;
    else
        r->head = best->next;
    if (r->tail == best)
        r->tail = best_prev;
    job_node *n = best->head;
    best->head = n->next;
    if (!best->head)
        best->tail = NULL;
    if (best->head) { /* more moves of this table: behind every other table's */
        best->next = NULL;
        if (r->tail)
            r->tail->next = best;
        else
            r->head = best;
        r->tail = best;
    } else {
        free(best);
    }
    return n;
}

/* Append a job to its table's queue in ring r (under the lock), the queue
 * being table_id's, of address o; false when out of memory. */
static bool ring_append(ring *r, int64_t table_id, bot_owner *o, job_node *n)
{
    table_queue *q = ring_find(r, table_id);
    if (!q) {
        q = calloc(1, sizeof *q);
        if (!q)
            return false;
        q->table = table_id;
        q->owner = o;
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
 * then tables with people, then tables bots play alone while they hold
 * fewer than bots_only_max workers; in both, by address (above). */
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
    double now = now_s();
    if ((n = ring_take(s, &s->people, now)) == NULL && s->bots_only_running < s->bots_only_max &&
        (n = ring_take(s, &s->bots_only, now)) != NULL)
        s->bots_only_running++;
    if (n) {
        n->owner->running++;
        n->owner->queued--;
        n->owner->served = ++s->takes;
        return n;
    }
    /* the lowest lane: a review's search, only when no bot move is taken above */
    if (s->review_q && s->review_running < s->review_share && !s->people.head && !s->bots_only.head) {
        n = s->review_q;
        s->review_q = n->next;
        if (!s->review_q)
            s->review_q_tail = NULL;
        s->review_running++;
    }
    return n;
}

/* A job of the bot lane is done or abandoned (under the lock): its address
 * holds one worker less and has spent the time it held it. */
static void owner_done(server *s, job_node *n, int64_t now)
{
    bot_owner *o = n->owner;
    if (!o)
        return;
    n->owner = NULL;
    o->running--;
    double per_minute = seconds_per_minute(s);
    limits_bucket_spend(&o->seconds, per_minute / 60.0, per_minute, now_s(), (double)(now - n->started_ms) / 1000.0);
    owners_forget_idle(s, now_s());
    pthread_cond_broadcast(&s->wake); /* another address's move may start now */
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
        while (!s->stopping && !(n = take_job(s, w))) {
            if (!s->owners) {
                pthread_cond_wait(&s->wake, &s->lock);
                continue;
            }
            /* jobs may be waiting for their address's bot time to come back: look again in a while */
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += 100 * 1000000L;
            if (until.tv_nsec >= 1000000000L) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&s->wake, &s->lock, &until);
        }
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
        else if (n->replay)
            replay_job_run(n->replay);
        else if (n->review)
            review_task_run(s, n->review);
        else if (n->ratings)
            ratings_read_run(s, n->ratings);
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
        if (n->review && !n->fast) {
            s->review_running--;
            pthread_cond_broadcast(&s->wake); /* another search may start now */
        }
        owner_done(s, n, now_ms());
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

/* Queue a job in its lane (a bot lane's in the queue of table_id, as the work
 * of address key); false when out of memory (the caller keeps it). */
static bool enqueue(server *s, job_node *node, int64_t table_id, const unsigned char key[LIMITS_KEY_BYTES])
{
    bool queued = true;
    pthread_mutex_lock(&s->lock);
    if (node->fast || node->reload) {
        queue_append(&s->fast, &s->fast_tail, node);
    } else {
        node->owner = owner_of(s, key);
        queued = node->owner && ring_append(node->bots_only ? &s->bots_only : &s->people, table_id, node->owner, node);
        if (queued)
            node->owner->queued++;
        else
            node->owner = NULL; /* an entry made for nothing goes at the next sweep */
    }
    if (queued)
        pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    return queued;
}

/* The address whose work a table's bots are: its maker's; a table whose
 * maker is unknown (restored after a restart) counts as an address of its
 * own (ff00::/8 is multicast: no client comes from there). */
static void owner_key(const slot *sl, unsigned char key[LIMITS_KEY_BYTES])
{
    memcpy(key, sl->owner, LIMITS_KEY_BYTES);
    if (!sl->owner_known) {
        memset(key, 0, LIMITS_KEY_BYTES);
        key[0] = 0xff;
        memcpy(key + 8, &sl->id, sizeof sl->id);
    }
}

/* Hand every bot move now due at this table to the workers. A table bots
 * play alone (only bots, or its people away, handed or gone) starts its
 * moves at most every --bot-table-pace: the tick comes back for it
 * (pace_waiting). */
void schedule_bots(server *s, slot *sl)
{
    table *t = sl->t;
    int64_t now = now_ms();
    bool bots_only = table_bots_alone(t, now);
    if (bots_only && now < sl->paced_until_ms) {
        sl->pace_waiting = t->status == TABLE_PLAYING;
        return;
    }
    sl->pace_waiting = false;
    table_job jobs[ASOBI_MAX_SEATS];
    int n = table_due_jobs(t, now, s->cfg.grace_ms, jobs, ASOBI_MAX_SEATS);
    if (n && bots_only)
        sl->paced_until_ms = now + s->cfg.bot_table_pace_ms;
    unsigned char key[LIMITS_KEY_BYTES];
    owner_key(sl, key);
    for (int i = 0; i < n; i++) {
        job_node *node = malloc(sizeof *node);
        /* a person's seat (a timeout, a grace move, a handed seat) gets the
         * heuristic, quick: the fast lane; a bot's seat its own bot */
        if (node)
            *node = (job_node){.job = jobs[i], .fast = !t->seat[jobs[i].seat].bot, .bots_only = bots_only};
        if (!node || !enqueue(s, node, t->id, key)) {
            t->seat[jobs[i].seat].busy = false;
            table_job_release(&jobs[i]);
            free(node);
        }
    }
}

bool queue_fast(server *s, job_node *node)
{
    node->fast = true;
    return enqueue(s, node, 0, NULL);
}

bool queue_review(server *s, job_node *node)
{
    if (node->fast)
        return queue_fast(s, node);
    pthread_mutex_lock(&s->lock);
    queue_append(&s->review_q, &s->review_q_tail, node);
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    return true;
}

bool queue_replay(server *s, struct replay_job *j, const unsigned char key[LIMITS_KEY_BYTES])
{
    job_node *node = calloc(1, sizeof *node);
    if (!node)
        return false;
    node->replay = j;
    /* each request is a queue of its own in the ring (numbers below zero: no table's) */
    if (!enqueue(s, node, --s->next_replay, key)) {
        free(node);
        return false;
    }
    return true;
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
    if (!node || !enqueue(s, node, 0, NULL)) {
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
        if (n->replay) {
            replay_job_done(s, n->replay);
            free(n);
            n = next;
            continue;
        }
        if (n->review) {
            review_task_done(s, n->review);
            free(n);
            n = next;
            continue;
        }
        if (n->ratings) {
            ratings_read_done(s, n->ratings);
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
        if (!r || r->reload || r->replay || r->review || r->ratings || r->abandoned || r->standin >= 2 ||
            now - r->started_ms <= s->cfg.bot_deadline_ms)
            continue;
        r->abandoned = true;
        /* what names the move (the worker writes the result's fields meanwhile; the state and spec stay its) */
        late[n] = (table_job){.table = r->job.table, .seat = r->job.seat, .at = r->job.at, .journal = r->job.journal,
                              .by = r->job.by, .seed = r->job.seed};
        /* the heuristic stands in, unless it is the heuristic that overran */
        standin[n++] = r->standin == 0 && strcmp(r->job.spec, "heuristic") != 0 ? 1 : 2;
        /* the thread may never come back: another takes its place in its lane, and
         * a move at a table only bots play no longer counts against their share */
        w->stuck = true;
        if (r->bots_only) {
            r->bots_only = false;
            s->bots_only_running--;
        }
        owner_done(s, r, now); /* nor against its address's share */
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
            if (table_standin_job(sl->t, &late[i], spec, &node->job) != 0 || !enqueue(s, node, 0, NULL)) {
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
        else if (n->replay)
            replay_job_free(s, n->replay);
        else if (n->review)
            review_task_free(s, n->review);
        else if (n->ratings)
            ratings_read_free(n->ratings);
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
    free_jobs(s, s->review_q);
    s->review_q = s->review_q_tail = NULL;
    while (s->owners) {
        bot_owner *o = s->owners;
        s->owners = o->next;
        free(o);
    }
    s->fast = s->done = NULL;
    free(s->workers);
    return true;
}

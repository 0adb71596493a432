/* table_undo.c — taking back at a table: {"type":"undo"} judged, stored, logged, and the mover's clock put back. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "server/table.h"

/* The library says which action a seat may take back (core/take_back.c: it
 * made nothing known, nobody else acted on it, the seat is still to move).
 * The table adds what only it knows: a person takes back their own move,
 * never one a bot or a timeout made for them (bots never undo, and a seat
 * handed to a bot is not its person's to rewrite), and only while the game
 * is played.
 *
 * How it is kept. The store's rows of a table are a journal, append-only:
 * a take-back is one more row, by "undo", of the seat that took back and the
 * withdrawn action's text, at the next index. Restoring replays the journal
 * through the same calls (table_restore), so the table comes back with the
 * same state, the same log and the same take-backs still allowed; nothing
 * is ever deleted or renumbered, and on several nodes (PostgreSQL) the row is
 * fenced by the table's lease like any action. The record (asobi_match_record,
 * what store_finish keeps and /record serves) is the match's history, from
 * which the withdrawn action is gone: it replays to the same game. As for
 * an action, the row joins the loop's batch and nobody is told of the
 * take-back before the batch is committed (hall.c: changed()). */

/* The log entry of the match's action index (the live actions of the log,
 * those neither taken back nor take-backs, are the match's history in
 * order); NULL if the log lacks it (an entry dropped for want of memory). */
static table_event *entry_of_action(table *t, int index)
{
    int at = asobi_match_length(t->match) - 1;
    for (int i = t->log_count - 1; i >= 0 && at >= index; i--) {
        table_event *ev = &t->log[i];
        if (ev->undo || ev->taken_back)
            continue;
        if (at == index)
            return ev;
        at--;
    }
    return NULL;
}

/* The action seat may take back now, and its log entry; -1 if none. */
static int undoable(const table *t, int seat, table_event **entry)
{
    if (t->status != TABLE_PLAYING || seat < 0 || seat >= t->players || t->seat[seat].bot || t->seat[seat].left)
        return -1;
    int index = asobi_match_undo_index(t->match, seat);
    if (index < 0)
        return -1;
    table_event *ev = entry_of_action((table *)t, index);
    if (!ev || strcmp(ev->by, "human") != 0)
        return -1;
    if (entry)
        *entry = ev;
    return index;
}

bool table_may_undo(const table *t, int seat) { return undoable(t, seat, NULL) >= 0; }

/* The take-back's own log entry: each viewer told the withdrawn action as
 * it was told it (a face-down choice stays face down). */
static void log_take_back(table *t, int seat, const table_event *gone)
{
    char **text = gone->text ? calloc((size_t)t->players + 1, sizeof *text) : NULL;
    for (int v = 0; text && v <= t->players; v++)
        text[v] = gone->text[v] ? strdup(gone->text[v]) : NULL;
    table_log_append(t, (table_event){.seat = seat, .by = "human", .text = text, .undo = true});
}

/* Take back seat's action index (its log entry gone), stored at the journal's
 * next row when commit (else read from it: clock_ms is the stored clock). */
static int take_back(table *t, int seat, table_event *gone, bool commit, int64_t clock_ms, srv_error *e)
{
    const char *text = asobi_match_action_text(t->match, asobi_match_undo_index(t->match, seat));
    table_seat *ts = &t->seat[seat];
    if (commit)
        clock_ms = t->clock == CLOCK_FISCHER ? gone->bank_before : -1;
    asobi_error err;
    if (commit && store_add_action(t->store, t->id, t->journal, seat, text ? text : "", "undo", clock_ms, &err) != ASOBI_OK)
        return srv_fail_asobi(e, 500, &err);
    if (asobi_match_undo(t->match, seat, &err) != ASOBI_OK) /* cannot fail: undoable() asked the same */
        return srv_fail_asobi(e, 409, &err);
    t->journal++;
    /* The clock as it was before the action: the time spent on it and on
     * taking it back counts, the Fischer increment it earned is returned. */
    ts->since_ms = gone->since_before;
    if (t->clock == CLOCK_FISCHER)
        ts->bank_ms = commit ? gone->bank_before : clock_ms;
    gone->taken_back = true;
    log_take_back(t, seat, gone);
    t->version++;
    return 0;
}

int table_undo(table *t, int seat, int64_t now_ms, srv_error *e)
{
    (void)now_ms;
    if (seat < 0 || seat >= t->players)
        return srv_fail(e, 403, "not_seated", "a spectator cannot take anything back");
    if (t->status == TABLE_OPEN)
        return srv_fail(e, 409, "not_started", "the game starts when every seat is taken");
    table_event *gone = NULL;
    if (undoable(t, seat, &gone) >= 0)
        return take_back(t, seat, gone, true, -1, e);
    if (t->status == TABLE_PLAYING && asobi_match_undo_index(t->match, seat) >= 0)
        return srv_fail(e, 409, "undo_not_allowed", "seat %d's last action was made for it by a bot: only a "
                        "person's own action may be taken back", seat);
    /* The library's refusal says why (it ended the turn, made something
     * known, another seat acted since): asked with nothing to take back, it
     * refuses and changes nothing. */
    asobi_error err;
    asobi_match_undo(t->match, seat, &err);
    return srv_fail_asobi(e, 409, &err);
}

int table_undo_restored(table *t, int seat, int64_t clock_ms, srv_error *e)
{
    table_event *gone = NULL;
    if (undoable(t, seat, &gone) < 0)
        return srv_fail(e, 409, "undo_not_allowed", "seat %d had nothing to take back there", seat);
    return take_back(t, seat, gone, false, clock_ms, e);
}

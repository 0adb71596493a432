// pacing.js — the table's updates shown one move at a time: bots' moves and events about 0.6 s apart, at once when the browser asks for reduced motion.

/** Milliseconds between two shown moves: 0 when the browser asks for reduced motion (prefers-reduced-motion)
 * or when localStorage says otherwise (`asobi.pace`, in ms: a test hook, and a setting for the impatient). */
export function paceMs() {
  const chosen = localStorage.getItem('asobi.pace');
  if (chosen !== null && chosen !== '' && !Number.isNaN(Number(chosen))) return Math.max(0, Number(chosen));
  return matchMedia('(prefers-reduced-motion: reduce)').matches ? 0 : 600;
}

/** At most this many steps wait: a longer queue (a burst of bots' moves, a tab woken up) is shortened by
 * showing the older steps together, so the player's own turn is never more than a few steps away. */
const MAX_WAITING = 3;

/** A pacer: push(step) shows a step at once when nothing is on its way, else queues it; SHOW(step) draws it.
 * A step is { update, entries, last }: an update, the log entries it shows (one move's, or one event), and
 * whether it is its update's last. Steps
 * of the player's own moves (MINE) are shown at once, with whatever waited before them. */
export function makePacer(show) {
  const queue = [];
  let timer = null;
  const next = () => {
    timer = null;
    if (!queue.length) return;
    while (queue.length > MAX_WAITING) merge(queue);
    show(queue.shift());
    timer = setTimeout(next, paceMs());
  };
  return {
    push(step, mine = false) {
      queue.push(step);
      if (mine || paceMs() === 0) { flush(queue, show); return; }
      if (timer === null) next();
    },
    /** Everything waiting, shown now (a reconnection's whole history, the player's own act). */
    flush() { flush(queue, show); },
    get waiting() { return queue.length; },
  };
}

/** The first two waiting steps as one: the second's update with both steps' entries. */
function merge(queue) {
  const [a, b] = queue.splice(0, 2);
  queue.unshift({ ...b, entries: [...a.entries, ...b.entries] });
}

function flush(queue, show) {
  while (queue.length > 1) merge(queue);
  if (queue.length) show(queue.shift());
}

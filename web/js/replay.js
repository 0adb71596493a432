// replay.js — a finished table stepped through: first / previous / next / last and the arrow keys, each step's board as the server replays it (GET /api/tables/ID/replay?step=K).
import { el, api } from './dom.js';
import { t, tf } from './i18n.js';

/** The replay of table ID, of STEPS() moves: `shown` is { step, steps, view, log } of the step on the page, or
 * null while the page shows the table as it ended. Step 0 is the deal, step STEPS() the end. */
export function makeReplay(id, steps, redraw) {
  const r = { shown: null, busy: false };
  r.go = async step => {
    if (r.busy) return;
    r.busy = true;
    const k = Math.max(0, Math.min(step, steps()));
    try { r.shown = await api(`/api/tables/${id}/replay?step=${k}`); } catch { /* the page stays as it was */ }
    r.busy = false;
    redraw();
  };
  r.move = where => {
    const n = steps(), at = r.shown?.step ?? n;
    r.go({ first: 0, prev: at - 1, next: at + 1, last: n }[where]);
  };
  return r;
}

/** The replay's controls (data-replay first|prev|next|last) and where it stands ("Move 12 of 40"). */
export function replaySection(replay) {
  const shown = replay.shown;
  const button = (where, symbol) => el('button', { 'data-replay': where, title: t(`replay.${where}`),
    onclick: () => replay.move(where) }, el('span', { 'aria-hidden': 'true' }, symbol), ` ${t(`replay.${where}`)}`);
  return el('section', { class: 'replay', 'aria-label': t('replay') }, el('h2', {}, t('replay')),
    el('div', { class: 'replay-buttons' },
      button('first', '«'), button('prev', '‹'), button('next', '›'), button('last', '»')),
    el('p', { class: 'replay-step', 'aria-live': 'polite', 'data-step': shown?.step ?? '' },
      shown ? tf('replay.step', { k: shown.step, n: shown.steps }) : ''),
    el('p', { class: 'hint' }, t('replay.keys')));
}

/** The arrow keys step through a finished table's game (not while typing in a field). */
export function replayKeys(replay, active) {
  document.addEventListener('keydown', e => {
    if (!active() || e.target.closest?.('input, textarea, select')) return;
    const where = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' }[e.key];
    if (!where) return;
    e.preventDefault();
    replay.move(where);
  });
}

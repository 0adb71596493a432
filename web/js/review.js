// review.js — a finished table's game review: "Review my game" per seat, the seat's value over the game (plain SVG), its mistakes marked on the move list, a decision's best move and alternatives (POST/GET /api/tables/ID/review).
import { el, tokenKey, watchKey } from './dom.js';
import { t, tf, count, actionLabel } from './i18n.js';

const POLL_MS = 1000;
const LABEL_MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** What opens a private table's review: the same secret as its record (a header, never the URL). */
function headers(id) {
  const secret = localStorage.getItem(tokenKey(id)) ?? localStorage.getItem(watchKey(id));
  return secret ? { 'X-Asobi-Code': secret } : {};
}

async function call(id, method, seat) {
  const r = await fetch(method === 'POST' ? `/api/tables/${id}/review` : `/api/tables/${id}/review?seat=${seat}`,
    method === 'POST' ? { method, headers: { 'Content-Type': 'application/json', ...headers(id) },
      body: JSON.stringify({ seat }) } : { headers: headers(id) });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error?.code ?? r.statusText);
  return j;
}

/** The review of table ID: `seat` reviewed (null: none asked), `data` the server's reply (status, decisions,
 * summary), `error` a refusal's code. REDRAW draws the page again. */
export function makeReview(id, redraw) {
  const rv = { seat: null, data: null, error: '', timer: null };
  const poll = async () => {
    rv.timer = null;
    try { rv.data = await call(id, 'GET', rv.seat); rv.error = ''; } catch (e) { rv.error = e.message; }
    if (rv.data && rv.data.status !== 'done' && rv.data.status !== 'failed' && !rv.error)
      rv.timer = setTimeout(poll, POLL_MS);
    redraw();
  };
  rv.ask = async seat => {
    clearTimeout(rv.timer);
    rv.seat = seat; rv.data = null; rv.error = '';
    redraw();
    try { rv.data = await call(id, 'POST', seat); } catch (e) { rv.error = e.message; }
    if (rv.data && rv.data.status !== 'done' && !rv.error) rv.timer = setTimeout(poll, POLL_MS);
    redraw();
  };
  /** The seat's decision made after INDEX actions (the step that shows it), or null. */
  rv.decisionAt = index => (rv.data?.status === 'done' ? rv.data.decisions.find(d => d.index === index) : null) ?? null;
  return rv;
}

const percent = v => (v === null || v === undefined ? '–' : `${Math.round(v * 100)}%`);

/** The seat's value over the game: its best move's value at each decision, a dot per mistake (plain SVG). */
function curve(rv, replay, game) {
  const ds = rv.data.decisions, w = 300, h = 80, pad = 4;
  const x = i => pad + (ds.length > 1 ? (i * (w - 2 * pad)) / (ds.length - 1) : (w - 2 * pad) / 2);
  const y = v => pad + (1 - v) * (h - 2 * pad);
  const svg = (tag, attrs) => {
    const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  };
  const root = svg('svg', { viewBox: `0 0 ${w} ${h}`, class: 'review-curve', role: 'img',
    'aria-label': tf('review.curve', { name: rv.seatName }) });
  root.append(svg('line', { x1: 0, x2: w, y1: y(0.5), y2: y(0.5), class: 'review-half' }));
  const points = ds.map((d, i) => `${x(i)},${y(d.best_value ?? 0)}`).join(' ');
  root.append(svg('polyline', { points, class: 'review-line' }));
  ds.forEach((d, i) => {
    if (!d.label) return;
    const dot = svg('circle', { cx: x(i), cy: y(d.played_value ?? 0), r: 3.5, class: `review-dot ${d.label}` });
    const title = svg('title', {});
    title.textContent = `${t(`review.${d.label}`)}: ${actionLabel(game, d.played)}`;
    dot.append(title);
    dot.addEventListener('click', () => replay.go(d.index));
    root.append(dot);
  });
  return root;
}

/** A decision in words: the move played and the bot's best with their values, and every move it weighed. */
function decisionDetail(d, game) {
  return el('div', { class: 'review-decision', 'data-review-index': d.index },
    el('p', { class: 'review-before' }, tf('review.before', { k: d.index + 1 })),
    el('p', {}, tf('review.played', { move: actionLabel(game, d.played), value: percent(d.played_value) }),
      d.label ? el('strong', { class: `review-label ${d.label}` }, ` ${t(`review.${d.label}`)}`) : ''),
    el('p', {}, tf('review.best', { move: actionLabel(game, d.best), value: percent(d.best_value) })),
    el('table', { class: 'review-moves' },
      el('caption', {}, t('review.moves')),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('review.move')),
        el('th', { scope: 'col' }, t('review.value')))),
      el('tbody', {}, d.moves.map(m => el('tr', { class: m.action === d.played ? 'played' : null },
        el('td', {}, actionLabel(game, m.action)), el('td', {}, percent(m.value)))))));
}

/** The review's part of a finished table's side: a button per seat ("Review my game" for MYSEAT's), then the asked review's state, curve,
 * summary, its mistakes (each steps the replay to it) and the decision at the replay's step. */
export function reviewSection(rv, replay, game, names, mySeat = null) {
  rv.seatName = rv.seat === null ? '' : names[rv.seat];
  const buttons = el('div', { class: 'review-buttons' }, names.map((name, k) =>
    el('button', { 'data-review-seat': k, 'aria-pressed': rv.seat === k ? 'true' : 'false', onclick: () => rv.ask(k) },
      k === mySeat ? t('review.mine') : tf('review.ask', { name }))));
  const d = rv.data, parts = [];
  if (rv.error) parts.push(el('p', { class: 'error', role: 'alert' }, tf('review.error', { code: rv.error })));
  else if (rv.seat !== null && (!d || d.status === 'queued' || d.status === 'running'))
    parts.push(el('p', { class: 'review-status' }, d?.progress
      ? tf('review.progress', { k: d.progress.searched, n: d.progress.decisions }) : t(`review.${d?.status ?? 'queued'}`)));
  else if (d?.status === 'failed') parts.push(el('p', { class: 'error' }, t('review.failed')));
  else if (d?.status === 'done') {
    const s = d.summary;
    parts.push(el('p', { class: 'review-summary', 'data-review-done': rv.seat },
      tf('review.summary', { accuracy: percent(s.accuracy), i: count(s.inaccuracies, 'review.n_inaccuracy'),
        m: count(s.mistakes, 'review.n_mistake'), b: count(s.blunders, 'review.n_blunder') })));
    parts.push(curve(rv, replay, game));
    const marked = d.decisions.filter(x => x.label);
    parts.push(marked.length ? el('ol', { class: 'review-mistakes' }, marked.map(x => el('li', {},
      el('button', { 'data-review-step': x.index, onclick: () => replay.go(x.index) },
        tf('review.at', { k: x.index + 1, label: t(`review.${x.label}`), move: actionLabel(game, x.played) })))))
      : el('p', {}, t('review.clean')));
    const at = replay.shown ? rv.decisionAt(replay.shown.step) : null;
    parts.push(at ? decisionDetail(at, game) : el('p', { class: 'hint' }, t('review.hint')));
  }
  return el('section', { class: 'review', 'aria-label': t('review') }, el('h2', {}, t('review')), buttons,
    el('div', { 'aria-live': 'polite' }, parts));
}

/** Marks the reviewed seat's labelled moves on the move list (log.js's items carry their action's index). */
export function markLog(rv) {
  for (const old of document.querySelectorAll('.review-mark')) old.remove();
  if (rv.data?.status !== 'done') return;
  for (const d of rv.data.decisions) {
    if (!d.label) continue;
    const item = document.querySelector(`li[data-kind="action"][data-index="${d.index}"]`);
    if (item) item.append(el('span', { class: `review-mark ${d.label}`, title: t(`review.${d.label}`) },
      ` ${LABEL_MARKS[d.label]}`, el('span', { class: 'sr-only' }, ` ${t(`review.${d.label}`)}`)));
  }
}

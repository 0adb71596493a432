// table.js — the table screen: the WebSocket to /ws/tables/ID, the seat's token, the game's drawing, legal actions, log, clock, result.
import { t, tf, count, phrase, placed, actionLabel, languageSwitch } from './i18n.js';
import { el, api, tokenKey, invitesKey } from './dom.js';
import { qrSvg } from './qr.js';

const app = document.getElementById('app');
const id = Number(location.pathname.split('/')[2]);
const games = {};
let summary = null, last = null, log = [], ws = null, conn = 'connecting', retry = 500, error = '', menu = null;
let leaving = false;   // on the way to the rematch's table (goToRematch)
let joinError = '';    // why a join link did not seat this page (kept: the next update clears `error`)
let sentAt = null;     // when an act went out whose answer (an update or a refusal) has not come yet (act)

/** The seat's token: from #token=T (a shared link), else localStorage; kept in localStorage. */
function takeToken() {
  const m = location.hash.match(/token=([0-9a-f]+)/i);
  if (m) { localStorage.setItem(tokenKey(id), m[1]); history.replaceState(null, '', location.pathname); }
  return localStorage.getItem(tokenKey(id));
}
let token = takeToken();

/** A join link (/t/ID?join=K) takes seat K; a private table's link carries the seat's invite code after '#'
 * (#invite=CODE: a fragment is never sent to the server in the page's request, nor in a Referer). */
async function joinFromLink() {
  const seat = new URLSearchParams(location.search).get('join');
  const invite = location.hash.match(/invite=([0-9a-f]+)/i)?.[1];
  if (token || seat === null) return;
  const name = prompt(t('your_name'), t('name_default'));
  if (!name) return;
  try {
    const j = await api(`/api/tables/${id}/join`, { name, seat: Number(seat), ...(invite ? { invite } : {}) });
    localStorage.setItem(tokenKey(id), j.token); token = j.token;
  } catch (e) { joinError = /^(invite_required|bad_invite):/.test(e.message) ? t('invite_needed') : e.message; }
  history.replaceState(null, '', location.pathname);
}

let wsUrl = null;   // where the table is played: its summary's "ws" (several nodes: docs/server.md); null: here
function connect() {
  conn = last ? 'reconnecting' : 'connecting';
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  ws = new WebSocket(`${wsUrl || `${proto}://${location.host}/ws/tables/${id}`}${token ? `?token=${token}` : ''}`);
  let fresh = true;
  ws.onopen = () => { conn = 'connected'; retry = 500; draw(); };
  ws.onmessage = ev => {
    const m = JSON.parse(ev.data);
    sentAt = null;
    if (m.type === 'update') {
      if (fresh) { log = []; fresh = false; }   // the first update of a connection carries the whole history
      const seen = new Set(log.map(e => e.index));
      for (const e of m.log) if (!seen.has(e.index)) log.push(e);
      last = m; last.received = performance.now(); error = ''; menu = null;
      // a rematch: the people at the table hold the same seats there and the game has begun, so their
      // pages follow at once; a spectator's page offers the way (resultSection)
      if (m.rematch && m.seat !== null && token) { goToRematch(m.rematch); return; }
      if (m.status === 'over') api(`/api/tables/${id}`).then(s => { summary = s; draw(); }).catch(() => {});
      draw();
    } else if (m.type === 'error') {
      error = `${t('error')}: ${m.error.message}`;
      if (m.error.code === 'bad_token') { localStorage.removeItem(tokenKey(id)); token = null; }
      draw();
    }
  };
  ws.onclose = () => { sentAt = null; conn = 'reconnecting'; draw(); setTimeout(reconnect, retry); retry = Math.min(retry * 2, 8000); };
}

/** Before connecting again, the summary says where the table is played now: another node took it (this one
 * closed with 4001 "moved", refused the upgrade with 421, or died); the same token goes there. */
function reconnect() {
  api(`/api/tables/${id}`).then(s => { if (s.ws) wsUrl = s.ws; }).catch(() => {}).finally(connect);
}

/** Sends one act. Until its answer comes (every act gets an update or a refusal: docs/server.md) further clicks
 * are ignored: a double click or a double tap would send the act twice, and the second, refused, would show
 * its error until the next update, which in a game between people may be a whole turn away. A lost answer
 * frees the page after ACT_ANSWER_MS. */
const ACT_ANSWER_MS = 3000;
function act(text) {
  if (sentAt !== null && performance.now() - sentAt < ACT_ANSWER_MS) return;
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  sentAt = performance.now();
  ws.send(JSON.stringify({ type: 'act', action: text }));
}

/** What a game's drawing uses: its legal actions and the way to make a clickable thing. */
function context() {
  const legal = last.status === 'playing' ? last.legal.map(a => a.text) : [];
  return {
    t, tf, count, el, legal, seat: last.seat, seats: last.seats, label: a => actionLabel(last.view?.game, a),
    name: s => { const x = last.seats[s]; return x ? (x.name || (x.bot ? `${t('bot')} ${x.bot}` : `${t('seat')} ${s + 1}`)) : `${s + 1}`; },
    /** A drawn thing NODE that performs the legal actions MATCHing it: one action → the click does it;
     * several → the click opens a menu of them (each a data-action button). */
    actionable(node, match) {
      const acts = legal.filter(match);
      if (!acts.length) return node;
      node.classList.add('can');
      node.tabIndex = 0; node.setAttribute('role', 'button');
      if (acts.length === 1) node.dataset.action = acts[0];
      const go = () => { if (acts.length === 1) act(acts[0]); else { menu = { acts, label: node.getAttribute('aria-label') || node.textContent }; draw(); } };
      node.addEventListener('click', go);
      node.addEventListener('keydown', e => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(); } });
      return node;
    },
  };
}

function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function seatsBar() {
  const toMove = last.view?.to_move ?? [];
  const c = last.clock;
  return el('ol', { class: 'seats-bar' }, last.seats.map(s => {
    let remaining = c ? c.remaining_ms[s.seat] : null;
    if (c && c.running.includes(s.seat)) remaining -= performance.now() - last.received;
    return el('li', { class: `seatchip${toMove.includes(s.seat) ? ' turn' : ''}${s.seat === last.seat ? ' me' : ''}` },
      `${s.seat + 1}. ${context().name(s.seat)}`, s.seat === last.seat ? ` (${t('you')})` : '',
      toMove.includes(s.seat) && last.status === 'playing' ? el('span', { class: 'badge' }, ` ▶ ${t('to_move')}`) : '',
      !s.connected ? el('span', { class: 'badge' }, ` ${t('away')}`) : '', s.handed ? el('span', { class: 'badge' }, ` (${t('bot')})`) : '',
      remaining !== null ? el('span', { class: 'clock', 'data-seat': s.seat }, ` ${t('clock')} ${clockText(remaining)}`) : '');
  }));
}

/** A button that performs legal action A: its words in the page's language, the text itself in data-action
 * (what is sent) and in the tooltip. */
function actionButton(a) {
  return el('button', { 'data-action': a, title: a, onclick: () => act(a) }, actionLabel(last.view?.game, a));
}

function legalList(ctx) {
  return el('section', { class: 'legal' }, el('h2', {}, t('legal')),
    ctx.legal.length ? el('ul', {}, ctx.legal.map(a => el('li', {}, actionButton(a))))
      : el('p', {}, t('no_legal')));
}

function logSection() {
  const game = last.view?.game;
  const items = log.slice(-200).map(e => el('li', { title: e.text, 'data-text': e.text },
    phrase(game, context().name(e.seat), e.text), e.by === 'timeout' ? ` (${t('timeout')})` : ''));
  return el('section', { class: 'log' }, el('h2', {}, t('log')), el('ol', { reversed: true, start: log.length ? log[log.length - 1].index + 1 : 0 }, items.reverse()));
}

function resultSection() {
  const r = last.result;
  if (!r) return '';
  const me = last.seat, game = games[last.view.game];
  // a game may rank someone who holds no seat (NINJA's shadow) and say a word on it
  const among = game?.participants?.(last.view) ?? r.scores.length;
  const outcome = me === null ? ''
    : el('p', { class: 'outcome' }, !r.winners.includes(me) ? placed(r.ranks[me], among)
      : r.winners.length > 1 ? t('won_shared') : t('won'));
  const note = game?.resultNote?.(last.view, context()) || '';
  return el('section', { class: 'result', id: 'result' }, el('h2', {}, t('result')), outcome,
    note ? el('p', { class: 'note' }, note) : '',
    el('table', {}, el('tr', {}, el('th', {}, t('seat')), el('th', {}, t('rank')), el('th', {}, t('score'))),
      r.scores.map((sc, i) => el('tr', { class: r.winners.includes(i) ? 'winner' : '' },
        el('td', {}, `${i + 1}. ${context().name(i)}`), el('td', {}, r.ranks[i]), el('td', {}, sc, r.winners.includes(i) ? ` ★ ${t('winner')}` : '')))),
    last.seat === null
      ? (last.rematch ? el('a', { class: 'primary', id: 'rematch', href: `/t/${last.rematch}` }, t('watch_rematch')) : '')
      : el('button', { class: 'primary', id: 'rematch', onclick: rematch }, t('rematch')),
    ' ', el('a', { href: '/' }, t('back')));
}

/** Rematch (docs/server.md): ask the server; it makes one new table where everyone keeps their seat under the
 * same token, and every page of this table hears of it in its next update ("rematch"). */
function rematch() {
  if (last.rematch) { goToRematch(last.rematch); return; }
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'rematch' }));
}

/** Once: until the new page has loaded, this one still hears updates that carry the same rematch (another
 * seat's page leaving makes one), and a second `location.href` would abort the first navigation. */
function goToRematch(table) {
  if (leaving) return;
  leaving = true;
  if (token) localStorage.setItem(tokenKey(table), token);
  if (ws) ws.onclose = null;   // the socket closes with the page: no reconnecting meanwhile
  location.href = `/t/${table}`;
}

/** The invite codes this browser keeps for a private table it created (lobby.js), or null. */
function invites() {
  try { return JSON.parse(localStorage.getItem(invitesKey(id))); } catch { return null; }
}

/** Each free seat's join link while the table is open; a private table's carries the seat's invite code, known
 * only to the page of whoever created it (elsewhere the page says where the links are). */
function waitingSection() {
  if (last.status !== 'open') return '';
  const codes = last.private ? invites() : null;
  const free = last.seats.filter(s => !s.bot && !s.name && (!last.private || codes?.[s.seat]));
  return el('section', { class: 'waiting' }, el('p', {}, t('waiting')), el('ul', {}, free.map(s => {
    const link = `${location.origin}/t/${id}?join=${s.seat}${last.private ? `#invite=${codes[s.seat]}` : ''}`;
    // a QR code per link: friends at the same table scan it with their phones
    return el('li', { class: 'invite' }, `${t('seat')} ${s.seat + 1}: `, el('a', { href: link }, link),
      qrSvg(link, `${t('qr_of')} ${t('seat')} ${s.seat + 1}`));
  })), last.private && !codes ? el('p', {}, t('private_no_links')) : '');
}

/** What everyone at the table is told about how it was made: a deal its creator chose, a private table. */
function noticesSection() {
  return [last.seed_chosen ? el('p', { class: 'notice seed-chosen', role: 'note' }, `⚠ ${t('seed_chosen')}`) : '',
    last.private ? el('p', { class: 'notice private', role: 'note' }, t('private_table')) : ''];
}

function menuSection() {
  if (!menu) return '';
  return el('div', { class: 'menu', role: 'dialog' }, el('p', {}, t('choose')),
    menu.acts.map(actionButton),
    el('button', { onclick: () => { menu = null; draw(); } }, t('cancel')));
}

async function draw() {
  document.title = `${t('table')} ${id} — asobi`;
  const header = el('header', {}, el('a', { href: '/' }, 'asobi'), ` ${t('table')} ${id} `,
    el('span', { class: 'conn', 'data-conn': conn }, t(conn)), languageSwitch(draw));
  if (!last) { app.replaceChildren(header, el('p', {}, t('connecting')), el('p', { class: 'error' }, error || joinError)); return; }
  // Keyboard players keep their place across redraws: refocus the element with the same action or id.
  const focused = document.activeElement;
  const refocus = focused?.dataset?.action ? `[data-action="${CSS.escape(focused.dataset.action)}"]`
    : focused?.dataset?.card ? `[data-card="${CSS.escape(focused.dataset.card)}"]` : focused?.id ? `#${CSS.escape(focused.id)}` : null;
  const g = last.view.game;
  if (!games[g]) games[g] = await import(`./games/${g}.js`);
  const ctx = context();
  // the tab's title says when this seat has something to do, for a player who waits in another tab
  if (ctx.legal.length) document.title = `▶ ${t('your_move')} · ${t('table')} ${id} — asobi`;
  const lastIndex = log.length ? log[log.length - 1].index : -1;
  document.body.dataset.index = lastIndex; document.body.dataset.status = last.status;
  app.replaceChildren(header,
    el('p', { class: 'who' }, last.seat === null ? t('spectator') : `${t('your_seat')}: ${last.seat + 1}`),
    ...noticesSection(), seatsBar(), waitingSection(), resultSection(), menuSection(),
    el('p', { class: 'error', role: 'alert' }, error || joinError),
    el('section', { class: `board ${g}` }, games[g].render(last.view, ctx)),
    last.seat === null ? '' : legalList(ctx), logSection());   // a spectator has no actions to list
  if (refocus) document.querySelector(refocus)?.focus();
}

setInterval(() => { if (last?.clock && last.status === 'playing') for (const n of document.querySelectorAll('.seats-bar')) n.replaceWith(seatsBar()); }, 1000);
await joinFromLink();
draw();
connect();

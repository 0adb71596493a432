// table.js — the table screen: its state, the WebSocket to /ws/tables/ID, and the page drawn from its parts (seats.js, log.js, result.js, join.js, replay.js; pacing.js shows moves one at a time, announce.js says them).
import { t, tf, count, actionLabel, languageSwitch, serverWords } from './i18n.js';
import { el, api, tokenKey, watchKey, lazyModule } from './dom.js';
import { takeToken, joinRequest, joinSection } from './join.js';
import { makePacer } from './pacing.js';
import { logSection, lastMover, mergeEntries, sentence, kindOf } from './log.js';
import { announce, cue, soundSwitch } from './announce.js';
import { seatsBar, seatName, ticking } from './seats.js';
import { resultSection } from './result.js';
import { makeReplay, replaySection, replayKeys } from './replay.js';
import { waitingSection, noticesSection, awayNotices, handoverText, joiningNow } from './waiting.js';
import { promptLine } from './prompt.js';
import { playMoments, flyMoments } from './moments.js';
import { teachLine } from './teach.js';
import { undoButton, undoKeys } from './undo.js';
import { makeChat } from './chat.js';
import { makeStanding, ratedBadge } from './standing.js';

const app = document.getElementById('app');
const id = Number(location.pathname.split('/')[2]);
// a watch link's code (#watch=CODE: a fragment, never sent) is kept for this table's requests and socket
const watchCode = location.hash.match(/watch=([0-9a-f]+)/i)?.[1];
if (watchCode) localStorage.setItem(watchKey(id), watchCode);
const games = {};
/** The game's module (games/GAME.js), imported once. An update waits for it: its entries are said (the live
 * region) before the page is drawn, and in the game's words (Time Masters' card names on the Japanese page). */
const loading = {};
const gameModule = g => (loading[g] ??= import(`./games/${g}.js`).then(m => { games[g] = m; },
  e => { delete loading[g]; throw e; }));   // a failed load is tried again by the next update or drawing
let arrived = Promise.resolve();   // the updates in the order they came

/** Everything the page knows. `last` is the update on the page (pacing may hold newer ones back), `log` the
 * entries shown, `heard` every entry received; `sentAt` when an act went out whose answer has not come. */
const page = {
  id, token: takeToken(id), joining: joinRequest(), last: null, log: [], heard: [], conn: 'connecting', error: '',
  menu: null, summary: null, sentAt: null, leaving: false, cardSet: null, backNotice: '', told: false, draw: () => draw(),
};
let ws = null, retry = 500;
const chat = makeChat(msg => {   // the table's chat (chat.js): its messages go over the table's socket
  if (!ws || ws.readyState !== WebSocket.OPEN) return false;
  ws.send(JSON.stringify(msg));
  return true;
}, () => draw());
const pacer = makePacer(show);
/** The table's stakes (issue 42): rated or not, and the ratings of the signed-in people on its seats. */
const standing = makeStanding(() => draw());
// the record's moves: those heard, less one for each taken back (docs/protocol.md, "Taking back")
const replay = makeReplay(id, () => page.heard.filter(e => kindOf(e) === 'action').length
  - page.heard.filter(e => kindOf(e) === 'undo').length, () => draw());
// review.js, loaded when a finished table is first drawn (issue 46); its state made then
const reviewModule = lazyModule(() => import('./review.js'));
let review = null;

let wsUrl = null;   // where the table is played: its summary's "ws" (several nodes: docs/server.md); null: here
function connect() {
  page.conn = page.last ? 'reconnecting' : 'connecting';
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const where = wsUrl || `${proto}://${location.host}/ws/tables/${id}`;
  // the token goes in the first message, never in the URL (a front's access log keeps URLs: docs/server.md)
  ws = new WebSocket(where);
  let fresh = true;   // the first update of a connection carries the whole history
  ws.onopen = () => {
    // a private table shows itself only to a code: the watch link's, else the invite of the join link being answered
    const code = localStorage.getItem(watchKey(id)) ?? page.joining?.invite;
    if (page.token) ws.send(JSON.stringify({ type: 'hello', token: page.token }));
    else if (code) ws.send(JSON.stringify({ type: 'hello', code }));
    page.conn = 'connected'; retry = 500; draw();
  };
  ws.onmessage = ev => {
    const m = JSON.parse(ev.data);
    if (m.type === 'chat') { chat.heard(m); return; }
    page.sentAt = null;
    if (m.type === 'update' && m.seat === null && page.token) return;   // a spectator's, before the hello is answered
    if (m.type === 'update') {
      chat.update(m);
      const first = fresh;
      fresh = false;
      const next = arrived.then(() => gameModule(m.view.game).catch(() => {})).then(() => receive(m, first));
      arrived = next.catch(() => {});   // an update that failed (an error on the page) never holds back the next
    } else if (m.type === 'error') refused(m.error);
  };
  ws.onclose = () => {
    page.sentAt = null; page.conn = 'reconnecting'; draw();
    setTimeout(reconnect, retry); retry = Math.min(retry * 2, 8000);
  };
}

/** Before connecting again, the summary says where the table is played now: another node took it (this one
 * closed with 4001 "moved", refused the upgrade with 421, or died); the same token goes there. */
function reconnect() {
  api(`/api/tables/${id}`).then(s => { if (s.ws) wsUrl = s.ws; }).catch(() => {}).finally(connect);
}

function refused(error) {
  page.error = `${t('error')}: ${error.message}`;
  if (error.code === 'bad_token') { localStorage.removeItem(tokenKey(id)); page.token = null; }
  draw();
}

/** An update: its new entries become steps of the pacer, one move or event each; a connection's first
 * update (the whole history) and the answer to this seat's own act are shown at once. */
function receive(m, fresh) {
  m.received = performance.now();
  if (fresh) {
    pacer.flush();
    page.heard = []; page.log = [];
    const entries = mergeEntries(page.heard, m.log);
    welcomeBack(m, entries);
    show({ update: m, entries, fresh: true });
    return;
  }
  const entries = mergeEntries(page.heard, m.log);
  if (!entries.length) { pacer.push({ update: m, entries, last: true }); return; }
  // the seat's own move shows at once (with what waited before it); what follows it is paced
  const mine = e => kindOf(e) !== 'event' && e.seat === m.seat && e.by === 'human';   // a take-back too
  entries.forEach((e, k) => pacer.push({ update: m, entries: [e], last: k === entries.length - 1 }, mine(e)));
  document.body.dataset.waiting = pacer.waiting;   // what is on its way (draw() sets it too)
}

/** A person back at their seat is told what a bot played for them meanwhile (log entries by the bot or a
 * timeout since the last entry this device saw), and that the seat is theirs again. */
function welcomeBack(m, entries) {
  if (m.seat === null || !page.token) return;
  const seen = localStorage.getItem(`asobi.seen.${id}`);   // the last entry this device showed the seat
  if (seen === null) return;
  const played = entries.filter(e => kindOf(e) === 'action' && e.seat === m.seat && e.index > Number(seen) && e.by !== 'human');
  if (played.length) page.backNotice = count(played.length, 'back_played');
}

/** Shows one step: its update on the page, its entries in the log and said aloud (others' moves, events),
 * and "your turn" when the seat has just been given something to do. */
function show(step) {
  const before = page.last;
  const m = step.update;
  if (m.rematch && m.seat !== null && page.token) { goToRematch(m.rematch); return; }
  page.last = m; page.error = ''; page.menu = null;
  standing.update(m);
  page.log.push(...step.entries);
  page.taken = step.fresh ? [] : step.entries;   // what happens now flies (moments.js); a history shown at once does not
  const lastIndex = page.log.length ? page.log[page.log.length - 1].index : -1;
  if (m.seat !== null && page.token) localStorage.setItem(`asobi.seen.${id}`, lastIndex);
  for (const e of step.entries) if (!(kindOf(e) !== 'event' && e.seat === m.seat)) announce(sentence(m.view.game, e, name));
  announceHandovers(before, m);
  yourTurn(m, step.entries, step.last !== false && pacer.waiting === 0);
  // the summary: a finished table's, and a waiting one's (its "ws" says the --public-url the join links use)
  if ((m.status === 'over' || m.status === 'open') && !page.summary) loadSummary();
  if (m.status === 'playing' && page.summary?.status === 'open') page.summary = null;
  draw();
}

const myTurn = m => m.status === 'playing' && m.legal.length > 0;

/** "Your turn", said and (when turned on) sounded once per turn, after the moves that came before it (LAST:
 * the update's last step, nothing waiting after it): again only after the seat has acted. */
function yourTurn(m, entries, last) {
  if (entries.some(e => kindOf(e) === 'action' && e.seat === m.seat) || !myTurn(m)) page.told = false;
  if (!myTurn(m) || page.told || !last) return;
  page.told = true;
  announce(t('your_turn_live'));
  cue();
}
const name = s => (page.last ? seatName(page.last.seats, s) : `${s + 1}`);

/** When a bot takes a person's seat (handed), everyone is told. */
function announceHandovers(before, m) {
  if (!before) return;
  for (const s of m.seats) if (s.handed && !before.seats[s.seat]?.handed) announce(handoverText(s, name));
}

async function loadSummary() {
  try { page.summary = await api(`/api/tables/${id}`); } catch { /* the result shows without it */ }
  draw();
}

/** Time Masters' card set, for its cards in words: the table's own (a loaded set travels in its options)
 * or ours (web/data/timemasters_cards.json, our set written as a card file). */
async function loadCardSet() {
  if (page.cardSet) return;
  page.cardSet = { cards: [] };
  try {
    const own = (page.summary ?? await api(`/api/tables/${id}`)).options?.cards;   // one summary less when it is here
    page.cardSet = typeof own === 'object' && own?.cards ? own : await (await fetch('/data/timemasters_cards.json')).json();
  } catch { /* cards keep their names only */ }
  draw();
}

/** Sends one act. Until its answer comes (every act gets an update or a refusal: docs/server.md) further clicks
 * are ignored: a double click or a double tap would send the act twice, and the second, refused, would show
 * its error until the next update, which in a game between people may be a whole turn away. A lost answer
 * frees the page after ACT_ANSWER_MS. */
const ACT_ANSWER_MS = 3000;
function act(text) {
  if (page.sentAt !== null && performance.now() - page.sentAt < ACT_ANSWER_MS) return;
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  page.sentAt = performance.now();
  ws.send(JSON.stringify({ type: 'act', action: text }));
}

/** Takes back this seat's last move (the Undo button, Ctrl+Z), as an act goes out: one at a time. */
function undo() {
  if (page.sentAt !== null && performance.now() - page.sentAt < ACT_ANSWER_MS) return;
  if (!ws || ws.readyState !== WebSocket.OPEN || !page.last?.undo) return;
  page.sentAt = performance.now();
  ws.send(JSON.stringify({ type: 'undo' }));
}

/** What a game's drawing uses: its legal actions and the way to make a clickable thing. */
function context(view, live) {
  const last = page.last;
  const legal = live && last.status === 'playing' ? last.legal.map(a => a.text) : [];
  const onThings = new Set();   // the actions a drawn thing offers (a card, a question): a phone folds their buttons
  return {
    t, tf, count, el, legal, onThings, seat: last.seat, seats: last.seats, name, cardSet: page.cardSet, draw,
    label: a => actionLabel(view?.game, a),
    /** A drawn thing NODE that performs the legal actions MATCHing it: one action → the click does it;
     * several → the click opens a menu of them (each a data-action button). A phone folds the buttons of
     * what a card of the hand offers (data-card: the hand is in the dock, always in sight); what only a thing
     * on the board offers (NINJA's open cards, Time Masters' spheres and timers, a board's Pass) keeps its
     * button in the dock, since the thing may be off the phone's screen. */
    actionable(node, match) {
      const acts = legal.filter(match);
      if (!acts.length) return node;
      if (node.dataset.card !== undefined) for (const a of acts) onThings.add(a);
      node.classList.add('can');
      node.tabIndex = 0; node.setAttribute('role', 'button');
      if (acts.length === 1) node.dataset.action = acts[0];
      const go = () => {
        if (acts.length === 1) act(acts[0]);
        else { page.menu = { acts }; draw(); }
      };
      node.addEventListener('click', go);
      node.addEventListener('keydown', e => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(); } });
      return node;
    },
  };
}

/** A button that performs legal action A: its words in the page's language, the text itself in data-action
 * (what is sent) and, on the English page, in the tooltip (serverWords: no English in the Japanese page's tooltips). */
function actionButton(a) {
  // while the connection is down a move cannot go out: the button says so by being disabled
  return el('button', { 'data-action': a, title: serverWords(a), disabled: page.conn !== 'connected', onclick: () => act(a) }, actionLabel(page.last.view?.game, a));
}

/** The legal actions as buttons. On a phone the buttons of what a drawn thing offers (a tapped card opens its
 * moves) are folded under "All moves (N)" (style.css), so the dock leaves the board in sight; the others (Pass,
 * Octo!, End the phase) stay. */
function legalList(ctx) {
  const folded = ctx.legal.filter(a => ctx.onThings.has(a)).length;
  const fold = folded
    ? el('button', { class: 'fold', type: 'button', 'aria-expanded': String(Boolean(page.unfolded)),
      onclick: () => { page.unfolded = !page.unfolded; draw(); } }, tf(page.unfolded ? 'fold_moves' : 'all_moves', { n: ctx.legal.length })) : '';
  return el('section', { class: `legal${page.unfolded ? ' unfolded' : ''}` }, el('h2', {}, t('legal')),
    ctx.legal.length ? el('ul', {}, ctx.legal.map(a => el('li', { class: ctx.onThings.has(a) ? 'on-thing' : '' }, actionButton(a))), fold ? el('li', { class: 'fold-item' }, fold) : '')
      : el('p', {}, t('no_legal')));
}

/** Rematch (docs/server.md): ask the server; it makes one new table where everyone keeps their seat under the
 * same token, and every page of this table hears of it in its next update ("rematch"). */
function rematch() {
  if (page.last.rematch) { goToRematch(page.last.rematch); return; }
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'rematch' }));
}

/** Once: until the new page has loaded, this one still hears updates that carry the same rematch (another
 * seat's page leaving makes one), and a second `location.href` would abort the first navigation. */
function goToRematch(table) {
  if (page.leaving) return;
  page.leaving = true;
  if (page.token) localStorage.setItem(tokenKey(table), page.token);
  if (ws) ws.onclose = null;   // the socket closes with the page: no reconnecting meanwhile
  location.href = `/t/${table}`;
}

function menuSection() {
  if (!page.menu) return '';
  return el('div', { class: 'menu', role: 'dialog' }, el('p', {}, t('choose')), page.menu.acts.map(actionButton),
    el('button', { onclick: () => { page.menu = null; draw(); } }, t('cancel')));
}

/** The page's header; OPENER, a phone's chat button, at its end while the seat is not playing (playing, the
 * button is in the dock: a button floating over the page covered the language switch). */
function header(game, opener = '') {
  return el('header', {}, el('a', { href: '/' }, 'asobi'), ` ${t('table')} ${id} `, standing.rated ? ratedBadge() : '',
    game ? el('a', { class: 'rules-link', href: `/rules/${game}.html`, target: '_blank' }, t('rules_link')) : '',
    el('span', { class: 'conn', 'data-conn': page.conn }, t(page.conn)), soundSwitch(draw), languageSwitch(draw), opener);
}

/** The board and the log: the live table's, or a replay's step once the game is over. */
function boardAndLog(ctx, g, opener) {
  const shown = replay.shown;
  const view = shown ? shown.view : page.last.view;
  const live = !shown;
  const c = live ? ctx : context(view, false);
  // a replay's step is the all-seeing view: the seat's own hand is drawn from it as on its page
  const board = el('section', { class: `board ${view.game}` }, games[view.game].render(view, c));
  const mover = lastMover(shown ? shown.log : page.log);
  if (mover !== null) board.querySelector(`.player[data-seat="${mover}"]`)?.classList.add('just-moved');
  // while the game is played the hand and the actions stay on screen (docked at the bottom of a phone's
  // screen); a spectator has neither, a finished game's result and rematch come first
  const playing = live && page.last.status === 'playing' && page.last.seat !== null;
  const hand = board.querySelector('.hand');
  // (an empty hand, all played, is neither: axe-core finds a label on a bare box)
  if (hand?.querySelector('[data-card]') && playing) Object.assign(hand, { tabIndex: 0 }).setAttribute('aria-label', t('hand'));   // it may scroll
  // what to do now, or whom the table waits for: first in the dock while the seat plays, else above the board
  const prompt = !live ? '' : page.conn !== 'connected' && c.legal.length
    ? el('p', { class: 'prompt offline', 'data-prompt': 'offline', role: 'status' }, t('offline_acts')) : promptLine(page.last, games[g], c);
  // a first game's tip of the turn, under the prompt line (teach.js)
  const teach = playing && page.conn === 'connected' ? teachLine(page, view, c.legal, draw) : '';
  // Undo sits by the prompt while the server allows a take-back (undo.js), and so does a phone's chat button
  const undoNow = live ? undoButton(page.last, page.conn !== 'connected', undo) : '';
  const said = undoNow || opener ? el('div', { class: 'prompt-row' }, prompt, undoNow, opener) : prompt;
  const dock = hand || playing
    ? el('section', { class: `dock${playing ? ' docked' : ''}` }, playing ? said : '', teach, hand ?? '', playing ? legalList(c) : '') : '';
  return { board, dock, prompt: playing ? '' : prompt, log: logSection(view.game, shown ? shown.log : page.log, name) };
}

/** The table laid out for the screen (issue 43): the board and the dock (hand, actions) in one column, and
 * beside it on a wide screen the side (your seat, the seats, the result, the replay's controls, the log), so
 * the hand, the first action and the newest log line are on one screen; a phone takes them one under another
 * (style.css: the side's parts around the board, the replay's controls just above it, the log below). */
function tableArea(ctx, g, last, opener) {
  const { board, dock, prompt, log } = boardAndLog(ctx, g, opener);
  // (not "watching" to someone the join form asks for a name)
  const seatWords = last.seat !== null ? `${t('your_seat')}: ${last.seat + 1}` : joiningNow(page) ? '' : t('spectator');
  return el('div', { class: 'table-area' },
    el('div', { class: 'play' }, menuSection(), prompt, board, dock),
    el('div', { class: 'side' }, seatWords ? el('p', { class: 'who' }, seatWords) : '', seatsBar(last, lastMover(page.log), standing.ratings),
      resultSection(last, games[g], ctx, rematch), last.status === 'over' ? replaySection(replay) : '',
      last.status === 'over' ? reviewPart(g, last) : '',
      log, joiningNow(page) ? '' : chat.section(replay.shown?.step ?? null)));
}

/** A finished game's review (review.js): the buttons per seat, the value curve and the marked moves; nothing
 * until the module has come (it redraws then). */
function reviewPart(g, last) {
  const m = reviewModule(draw);
  if (!m) return '';
  review ??= m.makeReview(id, () => draw());
  return m.reviewSection(review, replay, g, Array.from({ length: last.seats.length }, (_, k) => name(k)), last.seat);
}

/** Where the keyboard is, to be found again after a redraw: the element with the same action, card, replay
 * control or id is focused again (a keyboard player's card; the name being typed in the join form). Taken
 * before the new parts are built: building moves the join form's kept name field out of the page, and that
 * takes its focus away. */
function focusPlace() {
  const focused = document.activeElement;
  const refocus = focused?.dataset?.action ? `[data-action="${CSS.escape(focused.dataset.action)}"]`
    : focused?.dataset?.card ? `[data-card="${CSS.escape(focused.dataset.card)}"]`
      : focused?.dataset?.replay ? `[data-replay="${focused.dataset.replay}"]`
      : focused?.dataset?.reviewSeat ? `[data-review-seat="${focused.dataset.reviewSeat}"]`
      : focused?.dataset?.undo !== undefined ? '[data-undo]'
        : focused?.id ? `#${CSS.escape(focused.id)}` : null;
  // the same part of the page (the dock's Pass, not the board's): focusing the other one scrolled a phone's
  // page 600 px away from the dragon's questions; and a redraw never scrolls (preventScroll)
  const part = focused?.closest?.('.dock, .board, .side')?.classList[0];
  return () => {
    if (!refocus) return;
    const again = (part && document.querySelector(`.${part} ${refocus}`)) || document.querySelector(refocus);
    again?.focus({ preventScroll: true });
  };
}

async function draw() {
  document.title = `${t('table')} ${id} — asobi`;
  const last = page.last;
  if (!last) {
    const refocus = focusPlace();
    app.replaceChildren(header(null), joinSection(page, seated), el('p', {}, t('connecting')),
      el('p', { class: 'error' }, page.error));
    refocus();
    return;
  }
  const g = last.view.game;
  if (!games[g]) await gameModule(g);
  if (g === 'timemasters' && !page.cardSet) loadCardSet();
  const refocus = focusPlace();
  const ctx = context(last.view, true);
  // the tab's title says when this seat has something to do, for a player who waits in another tab
  if (ctx.legal.length) document.title = `▶ ${t('your_move')} · ${t('table')} ${id} — asobi`;
  document.body.dataset.index = page.log.length ? page.log[page.log.length - 1].index : -1;
  document.body.dataset.status = last.status;
  document.body.dataset.conn = page.conn;   // reconnecting: the playable things look and are inert (style.css)
  document.body.dataset.waiting = pacer.waiting;
  const docked = last.status === 'playing' && last.seat !== null && !replay.shown;
  document.body.classList.toggle('docked', docked);
  // the chat's panel and its phone button (chat.js), except while the join form asks for a name: an invited
  // friend's page says one thing, "type your name and sit at seat 2" (issue 43), not the spectators' wall
  const opener = joiningNow(page) ? '' : chat.opener();
  app.replaceChildren(header(g, docked ? '' : opener), joinSection(page, seated),
    ...noticesSection(page), ...awayNotices(last, name),
    page.backNotice ? el('p', { class: 'notice back', role: 'status' }, page.backNotice) : '',
    waitingSection(page, draw), el('p', { class: 'error', role: 'alert' }, page.error), tableArea(ctx, g, last, docked ? opener : ''));
  if (review) reviewModule(draw).markLog(review);
  refocus();
  playMoments(app, !page.drawnOnce);   // animations run beside the page: a click is never kept waiting
  if (page.taken?.length) { flyMoments(app, page.taken); page.taken = []; }
  page.drawnOnce = true;
}

/** Seated by the join form: the socket reopens under the seat's token. */
function seated(token) {
  page.token = token;
  if (ws) { ws.onclose = null; ws.close(); }
  connect();
}

setInterval(() => {
  if (!page.last || !ticking(page.last)) return;
  for (const n of document.querySelectorAll('.seats-bar')) n.replaceWith(seatsBar(page.last, lastMover(page.log), standing.ratings));
}, 1000);
replayKeys(replay, () => page.last?.status === 'over');
undoKeys(() => Boolean(page.last?.undo) && page.last.status === 'playing' && !replay.shown, undo);
draw();
connect();

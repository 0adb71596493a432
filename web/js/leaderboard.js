// leaderboard.js — the leaderboard at /leaderboard: a tab per game, each the top 100 by rating (provisional players left out), names linking to their profiles.
import { t, tf, languageSwitch, titleIn } from './i18n.js';
import './messages_accounts.js';   // the account pages' words (addMessages)
import { el, api } from './dom.js';
import { GAME_ORDER, pageHeader, ratingText } from './standing.js';

const app = document.getElementById('app');
let catalog = { games: [] };
/** The chosen game (the address's #GAME keeps it across a reload), and the boards asked for so far. */
let chosen = GAME_ORDER.includes(location.hash.slice(1)) ? location.hash.slice(1) : GAME_ORDER[0];
const boards = {}, problems = {};

const titleOf = game => titleIn(catalog.games, game);

async function load(game) {
  if (boards[game]) return;
  try { boards[game] = await api(`/api/leaderboard/${game}`); delete problems[game]; }
  catch (e) { problems[game] = `${t('error')}: ${e.message}`; }
  draw();
}

function choose(game) {
  chosen = game;
  history.replaceState(null, '', `#${game}`);
  draw(true);
  load(game);
}

/** The tabs as WAI-ARIA's tab pattern: one tab stop, the arrow keys (and Home, End) move between games. */
function tabs() {
  const key = e => {
    const i = GAME_ORDER.indexOf(chosen), n = GAME_ORDER.length;
    const to = { ArrowRight: (i + 1) % n, ArrowLeft: (i + n - 1) % n, Home: 0, End: n - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    choose(GAME_ORDER[to]);
  };
  return el('div', { class: 'tabs', role: 'tablist', 'aria-label': t('board.games') }, GAME_ORDER.map(g => el('button', {
    type: 'button', role: 'tab', id: `tab-${g}`, 'aria-controls': 'board-panel', 'aria-selected': String(g === chosen),
    tabindex: g === chosen ? '0' : '-1', 'data-game': g, onclick: () => choose(g), onkeydown: key }, titleOf(g))));
}

function panel() {
  const board = boards[chosen];
  const body = problems[chosen] ? el('p', { class: 'error', role: 'alert' }, problems[chosen])
    : !board ? el('p', {}, t('connecting'))
      : !board.players?.length ? el('p', {}, t('board.empty'))
        : el('div', { class: 'scroll-x' }, el('table', { class: 'board-table' },
          el('caption', { class: 'sr-only' }, tf('board.caption', { game: titleOf(chosen) })),
          el('thead', {}, el('tr', {}, ['board.rank', 'board.player', 'board.rating', 'board.played'].map(k =>
            el('th', { scope: 'col', class: k === 'board.rating' || k === 'board.played' ? 'num' : null }, t(k))))),
          el('tbody', {}, board.players.map((p, i) => el('tr', { 'data-player': p.name },
            el('td', {}, i + 1), el('td', {}, el('a', { href: `/u/${encodeURIComponent(p.name)}` }, p.name)),
            el('td', { class: 'num', title: `μ ${Number(p.mu).toFixed(2)} · σ ${Number(p.sigma).toFixed(2)}` }, ratingText(p)),
            el('td', { class: 'num' }, p.games))))));
  return el('section', { id: 'board-panel', role: 'tabpanel', 'aria-labelledby': `tab-${chosen}`, 'data-game': chosen },
    el('p', { class: 'hint' }, t('board.hint')), body);
}

/** The page drawn anew; the chosen tab keeps the keyboard when a tab had it (or TABFOCUS: one was just chosen),
 * also when the board comes after the click and draws the tabs again. */
function draw(tabFocus = false) {
  document.title = `${t('board.title')} — asobi`;
  const focused = tabFocus || document.activeElement?.getAttribute('role') === 'tab';
  app.replaceChildren(pageHeader(() => draw(), languageSwitch), el('h1', {}, t('board.title')), tabs(), panel());
  if (focused) document.getElementById(`tab-${chosen}`)?.focus();
}

draw();
try { catalog = await api('/api/games'); } catch { /* the tabs keep the games' short names */ }
draw();
load(chosen);

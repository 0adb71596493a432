// profile.js — a person's page at /u/NAME: the rating per game with its history drawn as plain SVG, the record against the computer, and the recent games with links to their replays.
import { t, tf, count, ordinal, languageSwitch, titleIn } from './i18n.js';
import './messages_accounts.js';   // the account pages' words (addMessages)
import { el, api } from './dom.js';
import { GAME_ORDER, pageHeader, ratingText, signedChange } from './standing.js';

const app = document.getElementById('app');
const name = decodeURIComponent(location.pathname.split('/')[2] ?? '');
let catalog = { games: [] }, player = null, problem = '', olderNext = null;

const titleOf = game => titleIn(catalog.games, game);

/** The rating of GAME after each rated game, oldest first, from the profile's `history` (its last 200 rows):
 * when it holds the whole history, the line starts from the rating everyone starts at. */
const HISTORY_POINTS = 200, START_RATING = 0;   // mu 25 - 3 sigma (25/3): Weng-Lin's defaults (issue 42)
function historyOf(game) {
  const points = (player.history?.[game] ?? []).map(h => h.rating);
  return points.length && points.length < HISTORY_POINTS ? [START_RATING, ...points] : points;
}

/** A rating's history as a line in plain SVG (no library): one point per rated game, its lowest and highest
 * ratings written on the axis; the whole described in words for a screen reader (role img, its title). */
const W = 320, H = 110, PAD = 28;
function chart(game, points) {
  if (points.length < 2) return el('p', { class: 'hint' }, t('profile.no_history'));
  const lo = Math.min(...points), hi = Math.max(...points), span = hi - lo || 1;
  const x = i => PAD + (i * (W - PAD - 6)) / (points.length - 1);
  const y = v => 8 + (H - 24) * (1 - (v - lo) / span);
  const svg = (tag, attrs, ...kids) => {
    const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    e.append(...kids);
    return e;
  };
  const words = tf('profile.chart_words', { game: titleOf(game), n: points.length - 1, from: points[0].toFixed(1), to: points[points.length - 1].toFixed(1) });
  return svg('svg', { class: 'chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': words, 'data-points': points.length },
    svg('title', {}, words),
    svg('line', { x1: PAD, y1: H - 16, x2: W - 4, y2: H - 16, class: 'axis' }),
    svg('text', { x: 2, y: 14, class: 'tick' }, hi.toFixed(0)), svg('text', { x: 2, y: H - 18, class: 'tick' }, lo.toFixed(0)),
    svg('polyline', { points: points.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '), class: 'line' }),
    ...points.map((v, i) => svg('circle', { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 2.5, class: 'dot' })));
}

function ratingsSection() {
  const rated = GAME_ORDER.filter(g => player.ratings?.[g]);
  return el('section', { class: 'ratings', 'aria-labelledby': 'ratings-title' }, el('h2', { id: 'ratings-title' }, t('profile.ratings')),
    rated.length ? el('div', { class: 'rating-cards' }, rated.map(game => {
      const r = player.ratings[game];
      return el('article', { class: 'rating-card', 'data-game': game }, el('h3', {}, titleOf(game)),
        el('p', { class: 'rating' }, el('strong', { 'data-rating': game }, ratingText(r)),
          r.provisional ? el('span', { class: 'badge provisional' }, ` ${t('rating.provisional')}`) : ''),
        el('p', { class: 'small' }, count(r.games, 'profile.games_n'), ` · μ ${Number(r.mu).toFixed(2)} · σ ${Number(r.sigma).toFixed(2)}`),
        chart(game, historyOf(game)));
    })) : el('p', {}, t('profile.no_ratings')));
}

/** The record against each bot strength per game (`bots`: {GAME: {LEVEL: {wins, losses, draws}}}), as wins
 * out of games. */
function computerSection() {
  const rec = player.bots ?? {};
  const games = GAME_ORDER.filter(g => rec[g]);
  const cell = x => (x ? tf('profile.won_of', { won: x.wins, n: x.wins + x.losses + x.draws }) : '–');
  return el('section', { class: 'computer', 'aria-labelledby': 'computer-title' }, el('h2', { id: 'computer-title' }, t('profile.computer')),
    games.length ? el('div', { class: 'scroll-x' }, el('table', {}, el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('game')),
      ['easy', 'medium', 'strong'].map(l => el('th', { scope: 'col' }, t(`level.${l}`))))),
    el('tbody', {}, games.map(g => el('tr', { 'data-game': g }, el('th', { scope: 'row' }, titleOf(g)),
      ['easy', 'medium', 'strong'].map(l => el('td', {}, cell(rec[g][l])))))))) : el('p', {}, t('profile.no_computer')));
}

/** One finished game: its table (the link opens its replay), the players in their places, rated or not, and this
 * person's rating change. */
function gameItem(g) {
  const players = [...(g.players ?? [])].sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99));
  const change = typeof g.change?.delta === 'number' ? g.change.delta : null;
  return el('li', { class: 'past-game', 'data-table': g.table },
    el('a', { href: `/t/${g.table}` }, tf('profile.game_link', { game: titleOf(g.game), table: g.table })), ' ',
    g.rated ? el('span', { class: 'badge rated' }, t('rated')) : '',
    change !== null ? el('span', { class: `change ${change >= 0 ? 'up' : 'down'}`, 'data-change': change }, ` ${signedChange(change)}`) : '',
    g.claimed ? el('span', { class: 'badge' }, ` ${t('profile.claimed')}`) : '',
    el('ol', { class: 'places' }, players.map(p => el('li', { class: p.name === player.name ? 'me' : '' },
      `${p.rank ? ordinal(p.rank) : '–'} `, p.level ? `${t('bot')} (${t(`level.${p.level}`)})` : p.name ?? '?'))));
}

async function olderGames() {
  try {
    const page = await api(`/api/players/${encodeURIComponent(name)}?before=${olderNext}`);
    player.games = player.games.concat(page.games ?? []);
    olderNext = page.next ?? null;
  } catch (e) { problem = `${t('error')}: ${e.message}`; }
  draw();
}

function gamesSection() {
  const games = player.games ?? [];
  return el('section', { class: 'history', 'aria-labelledby': 'games-title' }, el('h2', { id: 'games-title' }, t('profile.games')),
    games.length ? el('ul', { class: 'past-games' }, games.map(gameItem)) : el('p', {}, t('profile.no_games')),
    olderNext != null ? el('button', { type: 'button', class: 'more-games', onclick: olderGames }, t('profile.older')) : '');
}

function draw() {
  document.title = `${name} — asobi`;
  if (!player) {
    app.replaceChildren(pageHeader(draw, languageSwitch), el('h1', {}, name), el('p', { class: problem ? 'error' : '' }, problem || t('connecting')));
    return;
  }
  app.replaceChildren(pageHeader(draw, languageSwitch), el('h1', { class: 'player-name' }, player.name),
    player.closed ? el('p', { class: 'notice' }, t('profile.closed')) : '',
    ratingsSection(), computerSection(), gamesSection(), el('p', { class: 'error', role: 'alert' }, problem));
}

draw();
try {
  catalog = await api('/api/games');
  player = await api(`/api/players/${encodeURIComponent(name)}`);
  olderNext = player.next ?? null;
} catch (e) {
  problem = /^not_found:/.test(e.message) ? tf('profile.unknown', { name }) : `${t('error')}: ${e.message}`;
}
draw();

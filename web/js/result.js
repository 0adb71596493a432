// result.js — the table's result: each seat's outcome in words, the scores, what the score means in this game and why the game ended; rematch.
import { el } from './dom.js';
import { t, tf, placed } from './i18n.js';

/** Why the game ended, in the page's language, from the view: a game's limit (`capped`) or its own end
 * (PSYCLE: a second victory tile; NINJA: three rounds; THE OCTAL: the places decided; Time Masters: a
 * second sphere ran out). The server's own words (`over`) are kept in the line's title. */
export function whyOver(view, result, name) {
  const game = view.game;
  if (view.capped) return t(`over.${game}.capped`);
  const winners = (result?.winners ?? []).map(name).join(', ');
  return tf(`over.${game}`, { who: winners });
}

/** Seat ME's own outcome: "You won!", "You share the win!", "You placed 2nd of 3.". */
function outcome(r, me, among) {
  if (me === null) return '';
  const text = !r.winners.includes(me) ? placed(r.ranks[me], among) : r.winners.length > 1 ? t('won_shared') : t('won');
  return el('p', { class: 'outcome' }, text);
}

function scoreTable(r, name) {
  return el('table', {}, el('tr', {}, el('th', {}, t('seat')), el('th', {}, t('rank')), el('th', {}, t('score'))),
    r.scores.map((sc, i) => el('tr', { class: r.winners.includes(i) ? 'winner' : '' },
      el('td', {}, `${i + 1}. ${name(i)}`), el('td', {}, r.ranks[i]),
      el('td', {}, sc, r.winners.includes(i) ? ` ★ ${t('winner')}` : ''))));
}

/** The result section of a finished table. GAME is the game's table module (participants, resultNote);
 * ONREMATCH asks for a rematch (a seat's page); a spectator's page links to it once there is one. */
export function resultSection(last, game, ctx, onRematch) {
  const r = last.result;
  if (!r) return '';
  const among = game?.participants?.(last.view) ?? r.scores.length;
  const note = game?.resultNote?.(last.view, ctx) || '';
  const g = last.view.game;
  return el('section', { class: 'result', id: 'result' }, el('h2', {}, t('result')),
    outcome(r, last.seat, among), note ? el('p', { class: 'note' }, note) : '',
    el('p', { class: 'why-over', title: last.over ?? '' }, el('b', {}, `${t('why_over')}: `), whyOver(last.view, r, ctx.name)),
    el('p', { class: 'score-means' }, el('b', {}, `${t('score_means')}: `), t(`score.${g}`)),
    scoreTable(r, ctx.name),
    last.seat === null
      ? (last.rematch ? el('a', { class: 'primary', id: 'rematch', href: `/t/${last.rematch}` }, t('watch_rematch')) : '')
      : el('button', { class: 'primary', id: 'rematch', onclick: onRematch }, t('rematch')),
    ' ', el('a', { href: '/' }, t('back')));
}

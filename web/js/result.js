// result.js — the table's result: each seat's outcome in words, the scores, what the score means in this game and why the game ended; rematch.
import { el } from './dom.js';
import { t, tf, placed, ordinal, serverWords } from './i18n.js';

/** Why the game ended, in the page's language, from the view: a game's limit (`capped`) or its own end
 * (PSYCLE: a second victory tile; NINJA: three rounds, or the shadow first before; THE OCTAL: the places
 * decided; Time Masters: a second sphere ran out). GAME (the game's table module) may name its own reason,
 * `overReason(view)`. The server's own words (`over`) are kept in the line's title on the English page. */
export function whyOver(view, result, name, game) {
  if (view.capped) return t(`over.${view.game}.capped`);
  const winners = (result?.winners ?? []).map(name).join(', ');
  return tf(game?.overReason?.(view) ?? `over.${view.game}`, { who: winners, round: view.round });
}

/** How many seats share seat S's rank. */
const sharing = (r, s) => r.ranks.filter(x => x === r.ranks[s]).length;

/** Seat ME's own outcome: "You won!", "You share the win!", "You placed 2nd of 3.", "You tied for 2nd of 6.". */
function outcome(r, me, among) {
  if (me === null) return '';
  const text = !r.winners.includes(me) ? placed(r.ranks[me], among, sharing(r, me) > 1)
    : r.winners.length > 1 ? t('won_shared') : t('won');
  return el('p', { class: 'outcome' }, text);
}

/** The scores: each seat's rank in words ("tied 2nd" when shared) and score, in the game's terms when its
 * module says them (`scoreText(view, seat, score, ctx)`: THE OCTAL's "did not finish"). */
function scoreTable(r, view, game, ctx) {
  const rank = i => (sharing(r, i) > 1 ? tf('rank_tied', { n: ordinal(r.ranks[i]) }) : ordinal(r.ranks[i]));
  return el('table', {}, el('tr', {}, el('th', {}, t('seat')), el('th', {}, t('rank')), el('th', {}, t('score'))),
    r.scores.map((sc, i) => el('tr', { class: r.winners.includes(i) ? 'winner' : '' },
      el('td', {}, `${i + 1}. ${ctx.name(i)}`), el('td', {}, rank(i)),
      el('td', {}, game?.scoreText?.(view, i, sc, ctx) ?? sc, r.winners.includes(i) ? ` ★ ${t('winner')}` : ''))));
}

/** The result section of a finished table. GAME is the game's table module (participants, resultNote,
 * overReason, scoreText); ONREMATCH asks for a rematch (a seat's page); a spectator's page links to it once
 * there is one. */
export function resultSection(last, game, ctx, onRematch) {
  const r = last.result;
  if (!r) return '';
  const among = game?.participants?.(last.view) ?? r.scores.length;
  const note = game?.resultNote?.(last.view, ctx) || '';
  const g = last.view.game;
  return el('section', { class: 'result', id: 'result' }, el('h2', {}, t('result')),
    outcome(r, last.seat, among), note ? el('p', { class: 'note' }, note) : '',
    el('p', { class: 'why-over', title: serverWords(last.over ?? '') }, el('b', {}, `${t('why_over')}: `), whyOver(last.view, r, ctx.name, game)),
    el('p', { class: 'score-means' }, el('b', {}, `${t('score_means')}: `), t(`score.${g}`)),
    scoreTable(r, last.view, game, ctx),
    last.seat === null
      ? (last.rematch ? el('a', { class: 'primary', id: 'rematch', href: `/t/${last.rematch}` }, t('watch_rematch')) : '')
      : el('button', { class: 'primary', id: 'rematch', onclick: onRematch }, t('rematch')),
    ' ', el('a', { href: '/' }, t('back')));
}

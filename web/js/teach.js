// teach.js — a first game that teaches (issue 43, point 10): on a player's first table of each game (remembered on this device) the prompt line carries one tip a turn, from the seed's own words, with the rules a click away; the tips can be hidden.
import { el } from './dom.js';
import { t, lang } from './i18n.js';
import { kindOf } from './log.js';

/** Each game's tips in the order a first game meets them; WHEN (the view, the legal actions) says the turn a
 * tip fits: NINJA's "follow the led element" only when a trick is led, THE OCTAL's pass only when it may pass. */
const TIPS = {
  psycle: [{ key: 'beats' }, { key: 'gems' }, { key: 'cycle' }],
  ninja: [
    { key: 'follow', when: v => v.phase === 'battle' && v.trick?.length > 0 },
    { key: 'trump', when: v => v.phase === 'trump' || v.phase === 'battle' },
    { key: 'scroll', when: v => v.phase === 'open' || v.phase === 'scroll' || v.phase === 'battle' },
  ],
  octal: [{ key: 'question' }, { key: 'wrap' }, { key: 'pass', when: (v, legal) => legal.includes('pass') }, { key: 'octo' }],
  timemasters: [{ key: 'access', when: v => v.phase === 'main' }, { key: 'pass', when: (v, legal) => legal.includes('pass') }, { key: 'goal' }],
};

const keyOf = game => `asobi.teach.${game}`;

/** What this device remembers of GAME's tips: the first table's id, the tips shown, the turn of the tip on
 * the page now; `hidden` once the player hid them. */
function memory(game) {
  try { return JSON.parse(localStorage.getItem(keyOf(game))) ?? null; } catch { return null; }
}
const remember = (game, m) => localStorage.setItem(keyOf(game), JSON.stringify(m));

/** The tip of this turn (TURN: the table and the seat's moves so far, the same through every redraw of the turn),
 * or null: only at the first table of the game this device played, while tips are left, until hidden. */
function tipOf(table, turn, view, legal) {
  const game = view.game;
  const m = memory(game) ?? { table, shown: [] };
  if (m.hidden || m.table !== table) return null;
  if (m.turn === turn) return m.tip ?? null;
  const tip = (TIPS[game] ?? []).find(x => !m.shown.includes(x.key) && (!x.when || x.when(view, legal)));
  Object.assign(m, { turn, tip: tip?.key ?? null });
  if (tip) m.shown.push(tip.key);
  remember(game, m);
  return m.tip;
}

/** The tip line under the prompt (`[data-teach]`): the tip, the rules' section in the page's language, and
 * the button that hides the tips of this game for good; '' when there is none. REDRAW draws the page again. */
export function teachLine(page, view, legal, redraw) {
  if (!legal.length || page.last?.seat === null) return '';
  // the turn: how many moves this seat has made (others' moves, drawn one at a time meanwhile, leave it as it is)
  const made = page.log.filter(e => kindOf(e) === 'action' && e.seat === page.last.seat).length;
  const key = tipOf(page.id, `${page.id}:${made}`, view, legal);
  if (!key) return '';
  const game = view.game;
  const hide = () => { remember(game, { ...memory(game), hidden: true }); redraw(); };
  return el('p', { class: 'teach', 'data-teach': key, role: 'note' },
    el('button', { type: 'button', class: 'teach-hide', 'data-teach-hide': '', 'aria-label': t('teach.hide'), title: t('teach.hide'), onclick: hide }, '✕'),
    el('span', { class: 'tip' }, t(`teach.${game}.${key}`)), ' ',
    el('a', { href: `/rules/${game}.html#${lang}-play`, target: '_blank' }, t('rules_link')));
}

// log.js — the table's log: every move and every event in the page's language, events set apart, the latest marked; and the sentence the live region says.
import { el } from './dom.js';
import { t, tf, phrase, eventPhrase, cardWords, actionLabel, serverWords } from './i18n.js';

/** An entry's kind: "event" (what happened: docs/protocol.md, "Events"), "undo" (a seat took back its last
 * move: docs/protocol.md, "Taking back") or "action" (a seat's move; entries from servers that do not say are
 * moves). */
export const kindOf = e => (e.kind === 'event' || e.kind === 'undo' ? e.kind : 'action');

/** How the page writes a card of GAME in an event's sentence (NINJA's "fire-5" as "fire 5" / "火の5"). */
const cardOf = game => (game === 'ninja' ? cardWords : c => c);

/** An entry in a sentence of the page's language. NAME names a seat (null: NINJA's shadow). */
export function sentence(game, e, name) {
  const who = s => (s === null || s === undefined ? t('ninja.shadow') : name(s));
  if (kindOf(e) === 'event') return eventPhrase(game, e, who, cardOf(game));
  // the withdrawn move as this viewer was told it (a face-down choice stays face down), in the button's words
  if (kindOf(e) === 'undo') return tf('undo.log', { who: who(e.seat), what: actionLabel(game, e.text) });
  return phrase(game, who(e.seat), e.text) + (e.by === 'timeout' ? ` (${t('timeout')})` : '');
}

/** The log, newest first: each entry a line with data-kind, the server's own text in data-text and (on the
 * English page: serverWords) its tooltip; events set apart (their own look and a word for screen readers); the newest entry marked. */
export function logSection(game, log, name) {
  const newest = log.length - 1;
  const items = log.map((e, k) => {
    const kind = kindOf(e);
    // moves numbered as the table counts them (from 1); an event, under its move, unnumbered
    return el('li', { class: `${kind}${k === newest ? ' latest' : ''}`, 'data-kind': kind, 'data-index': e.index,
      value: kind !== 'event' ? e.index + 1 : null, title: serverWords(e.text), 'data-text': e.text },
    kind === 'event' ? el('span', { class: 'sr-only' }, `${t('event')}: `) : '', sentence(game, e, name));
  }).slice(-200);
  const start = log.length ? log[newest].index + 1 : 0;
  return el('section', { class: 'log' }, el('h2', {}, t('log')),
    // it scrolls: reachable by the keyboard too
    el('ol', { reversed: true, start, tabindex: 0, 'aria-label': t('log') }, items.reverse()));
}

/** Who made the last move shown (not an event; a take-back is one): the seat whose chip and player block are marked. */
export function lastMover(log) {
  for (let k = log.length - 1; k >= 0; k--) if (kindOf(log[k]) !== 'event') return log[k].seat;
  return null;
}

/** Merges an update's new entries into LOG: moves by their index (a reconnection repeats none, but a
 * merged update might), events after the move they follow. Returns the entries that were new. */
export function mergeEntries(log, entries) {
  const moves = new Set(log.filter(e => kindOf(e) !== 'event').map(e => e.index));
  const fresh = entries.filter(e => kindOf(e) === 'event' || !moves.has(e.index));
  log.push(...fresh);
  return fresh;
}

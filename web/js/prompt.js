// prompt.js — the table's one sentence of what to do now (`[data-prompt="act"]`, in the game's words from its module's prompt()) or whom the table waits for (`[data-prompt="wait"]`: "Bot 3 (easy) is thinking…", "Waiting for Aki").
import { el } from './dom.js';
import { t, tf } from './i18n.js';

/** Whom the table waits for: the seats to move other than this page's, each named; a bot "is thinking". */
function waitingWords(last, name) {
  const others = (last.view?.to_move ?? []).filter(s => s !== last.seat);
  if (!others.length) return '';
  if (others.length === 1 && last.seats[others[0]]?.bot) return tf('prompt.thinking', { who: name(others[0]) });
  return tf('prompt.waiting', { who: others.map(name).join(', ') });
}

/** The prompt line of a table being played: what this seat is to do now (GAME's prompt(view, ctx), else a
 * plain "Your turn: choose an action"), or whom everyone waits for; nothing before or after the game. */
export function promptLine(last, game, ctx) {
  if (last.status !== 'playing') return '';
  if (ctx.legal.length) {
    const said = game?.prompt?.(last.view, ctx) || t('prompt.act');
    // the soft cue of a new turn: once per turn (its key: the last entry shown)
    return el('p', { class: 'prompt', 'data-prompt': 'act', 'data-moment': `turn ${document.body.dataset.index}` }, said);
  }
  const waiting = waitingWords(last, ctx.name);
  return waiting ? el('p', { class: 'prompt', 'data-prompt': 'wait' }, waiting) : '';
}

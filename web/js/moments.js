// moments.js — the table's short moments (issue 43): a drawn thing marked `data-moment="KIND KEY"` plays its animation once, the first time its key is drawn (Web Animations, within the pacing's 0.6 s, never under reduced motion, never blocking a click).

import { tmCard } from './i18n.js';

const seen = new Set();
const reduced = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Each kind's keyframes: PSYCLE's reveal (a card turned up), NINJA's trick swept to its winner, THE OCTAL's
 * card sliding onto a question, Time Masters' card taken from a sphere, the soft cue of your turn. */
const KINDS = {
  reveal: [{ transform: 'rotateY(90deg)', opacity: 0.3 }, { transform: 'none', opacity: 1 }],
  sweep: [{ transform: 'scale(1)', boxShadow: '0 0 0 0 #ffd870' }, { transform: 'scale(1.08)', boxShadow: '0 0 0 6px #ffd870' }, { transform: 'none' }],
  slide: [{ transform: 'translateY(40px)', opacity: 0.2 }, { transform: 'none', opacity: 1 }],
  taken: [{ transform: 'translateY(-30px) scale(.8)', opacity: 0.2 }, { transform: 'none', opacity: 1 }],
  turn: [{ backgroundColor: '#ffe08a' }, { backgroundColor: '#fff3cf' }],
};

/** Plays the moments in ROOT not played before (the first drawing of a page plays none: it shows what was). */
export function playMoments(root, first = false) {
  for (const node of root.querySelectorAll('[data-moment]')) {
    const key = node.dataset.moment;
    if (seen.has(key)) continue;
    seen.add(key);
    const frames = KINDS[key.split(' ')[0]];
    if (!first && frames && !reduced() && node.animate) node.animate(frames, { duration: 450, easing: 'ease-out' });
  }
}

/** Cards flying where they go (issue 43, round two): Time Masters' card taken, from its sphere to its taker's
 * panel (`card_taken`); NINJA's trick swept from the table to its winner's panel (`trick_won`, not the
 * shadow's, which has no panel). Each flying card is a copy above the page (aria-hidden, pointer-events none:
 * it never covers a click), gone after 0.45 s, within the pacing; nothing under reduced motion. ENTRIES: the
 * log entries just shown; ROOT: the page drawn with them. */
export function flyMoments(root, entries) {
  if (reduced() || !document.body.animate) return;
  for (const e of entries) {
    const ev = e.kind === 'event' ? e.event : null;
    if (ev?.type === 'card_taken') fly(root.querySelector(`.sphere.l${ev.level}`), root, ev.seat, ev.hidden || !ev.card ? '' : tmCard(ev.card));
    if (ev?.type === 'trick_won' && ev.seat !== null) for (const played of root.querySelectorAll('.trick .played')) fly(played, root, ev.seat, '');
  }
}

/** One card copy, with TEXT, flying from FROM's middle to SEAT's panel in ROOT. */
function fly(from, root, seat, text) {
  const a = from?.getBoundingClientRect(), b = root.querySelector(`.player[data-seat="${seat}"]`)?.getBoundingClientRect();
  if (!a || !b) return;
  const card = document.createElement('div');
  card.className = 'card flying';
  card.setAttribute('aria-hidden', 'true');
  card.textContent = text;
  const x = a.left + a.width / 2 - 30, y = a.top + a.height / 2 - 40;
  Object.assign(card.style, { left: `${x}px`, top: `${y}px` });
  document.body.append(card);
  const dx = b.left + b.width / 2 - 30 - x, dy = b.top + b.height / 2 - 40 - y;
  const flight = card.animate([{ transform: 'none', opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.6)`, opacity: 0.4 }],
    { duration: 450, easing: 'ease-in', fill: 'forwards' });
  flight.onfinish = flight.oncancel = () => card.remove();
}

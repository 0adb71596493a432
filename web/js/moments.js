// moments.js — the table's short moments (issue 43): a drawn thing marked `data-moment="KIND KEY"` plays its animation once, the first time its key is drawn (Web Animations, within the pacing's 0.6 s, never under reduced motion, never blocking a click).

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

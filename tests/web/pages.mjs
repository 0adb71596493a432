// pages.mjs — what the browser tests ask of a page: waiting for a condition, the hand and actions on screen, axe-core's findings.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const axeSource = readFileSync(path.resolve(here, '../../node_modules/axe-core/axe.min.js'), 'utf8');

/** Polls FN in the page (the page's CSP forbids waitForFunction's eval) until it is truthy; its value. */
export async function until(page, fn, arg, ms = 10000, what = 'a condition') {
  const end = Date.now() + ms;
  for (;;) {
    const v = await page.evaluate(fn, arg);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(40);
  }
}

/** Whether the hand's first card and the first action button are inside the screen without scrolling. */
export const onScreen = page => page.evaluate(() => {
  const inside = e => { if (!e) return false; const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.width > 0; };
  // the first action shown: a phone folds the buttons of what a card offers (issue 43), and the card is the way
  const shown = sel => [...document.querySelectorAll(sel)].find(e => e.getClientRects().length > 0);
  return { card: inside(document.querySelector('.dock [data-card]')), action: inside(shown('.dock .legal [data-action]') ?? shown('.dock .can')),
    hasCard: Boolean(document.querySelector('[data-card]')) };
});

/** Issue 43's one screen: whether the hand's first card, the first way to act (an action button, else a playable
 * card: a phone folds the buttons of what a card offers) and the log's newest line (its list's top, where the
 * newest comes; the line itself when there is one) are all inside the screen without scrolling. */
export const oneScreen = page => page.evaluate(() => {
  const inside = e => { if (!e) return false; const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.width > 0; };
  const shown = sel => [...document.querySelectorAll(sel)].find(e => e.getClientRects().length > 0);
  const line = document.querySelector('.log li');
  return { card: inside(document.querySelector('.dock [data-card]')),
    action: inside(shown('.dock .legal [data-action]') ?? shown('.dock .can')),
    log: inside(line ?? document.querySelector('.log ol')) || (!line && inside(document.querySelector('.log h2'))),
    scrolled: scrollY };
});

/** axe-core's serious and critical violations on the page as it is, each in a line. */
export async function axeViolations(page) {
  await page.evaluate(axeSource);
  return page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] }))
    .violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`));
}

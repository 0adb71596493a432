// pages.mjs — what the browser tests ask of a page: waiting for a condition, the hand and actions on screen, axe-core's findings, an element's screenshot; their filters and least counts of checks.
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const axeSource = readFileSync(path.resolve(here, '../../node_modules/axe-core/axe.min.js'), 'utf8');

/** How long a wait for something that must come may last: MS times ASOBI_WEB_PATIENCE (3). A wait's bound is
 * patience, not a property (a property of time is checked as one, with its own bound): on a loaded machine pages
 * are slow, and web_table's OCTAL leavers took 9 s to see a handover beside two busy cores, 20 s beside four, and
 * over 30 s in CI, where 30 s was the bound and failed the run. */
export const patience = ms => ms * (Number(process.env.ASOBI_WEB_PATIENCE) || 3);

/** Polls FN in the page (the page's CSP forbids waitForFunction's eval) until it is truthy (within patience(MS));
 * its value. */
export async function until(page, fn, arg, ms = 10000, what = 'a condition') {
  const end = Date.now() + patience(ms);
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

/** A screenshot of the element SELECTOR on PAGE into FILE. An update may redraw the element between Playwright
 * finding it and taking the picture ("Element is not attached to the DOM", web_browser's log at a game's end on
 * a loaded machine): the selector is found again, a few times, before the failure counts. */
export async function shotOf(page, selector, file) {
  for (let k = 0; ; k++) {
    try {
      return await page.locator(selector).screenshot({ path: file, timeout: 10000 });
    } catch (e) {
      if (k === 4 || !/not attached|detached/i.test(e.message)) throw e;
      await page.waitForTimeout(100);
    }
  }
}

/** The names an ASOBI_WEB_* filter VARIABLE lists, or undefined when it is unset. Each must be among KNOWN: a
 * filter naming nothing known would run no check and pass ("0 checks, 0 failed"), so it throws instead (at a
 * module's top, before any server starts, the test exits with 1; inside a run, the run's catch counts it). */
export function filterOf(variable, known) {
  const value = process.env[variable];
  if (value === undefined) return undefined;
  const names = value.split(',').filter(Boolean), unknown = names.filter(n => !known.includes(n));
  if (names.length === 0 || unknown.length > 0)
    throw new Error(`${variable}=${value} names ${unknown.join(', ') || 'nothing'}; known: ${known.join(', ')}`);
  return names;
}

/** The failures to report at the end of a run of CHECKS checks that should have made at least LEAST: a run that
 * checked less (a filter, a part skipped by mistake, a loop that never ran) fails with one more. */
export function tooFew(checks, least) {
  if (checks >= least) return 0;
  console.error(`FAIL: ${checks} checks, fewer than the ${least} this run makes at least`);
  return 1;
}

/** How many runs a browser test runs at once: ASOBI_WEB_RUNS, else FALLBACK; anything but a whole number of at
 * least 1 throws (ASOBI_WEB_RUNS=0 would run nothing and pass). */
export function runsAtOnce(fallback) {
  const text = process.env.ASOBI_WEB_RUNS, n = Number(text ?? fallback);
  if (!(Number.isInteger(n) && n >= 1)) throw new Error(`ASOBI_WEB_RUNS=${text}: runs at a time, 1 or more`);
  return n;
}

const runOf = new AsyncLocalStorage();

/** Counts one check toward the run of pool's that made it (a test's check() calls it): runs interleave, so a run's
 * own checks are counted by where they were made (AsyncLocalStorage), not by the test's total. */
export const countCheck = () => { const run = runOf.getStore(); if (run) run.checks++; };

/** Runs RUNS ([label, thunk, least]) N at a time, each started as one ends: most of a browser run is spent waiting
 * (the pacing, a grace, the server and its bots), so several share the machine's cores. A run that throws, or that
 * made fewer than its LEAST checks (counted by countCheck: a loop that never ran, a part skipped by mistake), is
 * given to FAILED(label, error) and the others go on. Resolves to the checks of each run, by label. */
export async function pool(n, runs, failed) {
  const queue = [...runs], made = {};
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [label, run, least = 0] = next, tally = { checks: 0 };
      try { await runOf.run(tally, run); } catch (e) { failed(label, e); }
      made[label] = tally.checks;
      if (tally.checks < least) failed(label, { stack: `${tally.checks} checks, fewer than the ${least} it makes at least` });
    }
  };
  await Promise.all(Array.from({ length: n }, worker));
  return made;
}

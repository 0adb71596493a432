// test_review.mjs — issue 46, point 5, in the browser: a finished table's "Review my game" per seat, the seat's value as an SVG curve, its mistakes marked on the move list, a decision's best move and alternatives; both languages, 1280 and 390 px, axe-core, the page's weight.
// Usage: node tests/web/test_review.mjs ASOBI_BINARY OUTPUT_DIR   (CTest: tests/web/CMakeLists.txt)
// A table of three random bots plays THE OCTAL to its end; the page asks for seat 0's review (a small judge,
// --review-bot ismcts:iters=300, for speed), waits for it, checks the curve (a point per decision), the marked
// moves of the log (one per labelled decision), and steps to a mistake: the decision's detail names the move
// played and the bot's best, and lists every move weighed. Screenshots: OUTPUT_DIR/review-*.png.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { axeViolations, until, shotOf, tooFew } from './pages.mjs';

const [asobi, outDir] = process.argv.slice(2);
const webDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../web');
mkdirSync(outDir, { recursive: true });
const dbDir = mkdtempSync(path.join(tmpdir(), 'asobi-web-review-'));
let failures = 0, checks = 0;
const LEAST_CHECKS = 4 * 9 + 1;
const PAGE_WEIGHT_MAX = 200 * 1024;
const check = (cond, what) => { checks++; if (!cond) { failures++; console.error(`FAIL: ${what}`); } };

function startServer() {
  const srv = spawn(asobi, ['serve', '--port', '0', '--host', '127.0.0.1', '--db', path.join(dbDir, 'web.db'),
    '--web', webDir, '--workers', '2', '--bot-table-pace', '0', '--review-bot', 'ismcts:iters=300',
    '--reviews-per-hour-per-address', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  srv.stderr.on('data', () => {});
  return new Promise((resolve, reject) => {
    let out = '';
    srv.stdout.on('data', d => { out += d; const m = out.match(/listening on (http:\/\/[0-9.:]+)/); if (m) resolve({ srv, base: m[1] }); });
    srv.on('exit', code => reject(new Error(`asobi serve exited (${code})`)));
  });
}

async function finishedTable(base) {
  const made = await (await fetch(`${base}/api/tables`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ game: 'octal', players: 3, bots: ['random', 'random', 'random'] }) })).json();
  for (let k = 0; k < 600; k++) {
    const s = await (await fetch(`${base}/api/tables/${made.table}`)).json();
    if (s.status === 'over') return made.table;
    await new Promise(r => setTimeout(r, 100));
  }
  throw new Error('the table never finished');
}

async function reviewPage(browser, base, table, locale, width) {
  const ctx = await browser.newContext({ locale, viewport: { width, height: 900 } });
  const page = await ctx.newPage();
  const bodies = [];
  page.on('response', r => { if (r.url().startsWith(base) && !r.url().includes('/api/')) bodies.push(r.body().then(b => b.length, () => 0)); });
  page.on('pageerror', e => check(false, `a page error: ${e.message}`));
  await page.goto(`${base}/t/${table}`, { waitUntil: 'networkidle' });
  await page.waitForSelector('[data-review-seat="0"]');
  const tag = `${locale.slice(0, 2)}-${width}`;
  const bytes = (await Promise.all(bodies)).reduce((a, b) => a + b, 0);
  check(bytes > 10000 && bytes <= PAGE_WEIGHT_MAX, `${tag}: the table page loads ${bytes} bytes (at most ${PAGE_WEIGHT_MAX})`);
  console.log(`page weight: ${tag} ${bytes} bytes`);
  const buttons = await page.locator('[data-review-seat]').count();
  check(buttons === 3, `${tag}: a review button per seat (${buttons})`);
  await page.click('[data-review-seat="0"]');
  await until(page, () => document.querySelector('[data-review-done="0"]'), null, 60000, 'the review');
  const got = await page.evaluate(async id => (await fetch(`/api/tables/${id}/review?seat=0`)).json(), table);
  const labelled = got.decisions.filter(d => d.label);
  const summary = await page.locator('.review-summary').textContent();
  check(!/\b1 (inaccuracies|mistakes|blunders)\b/.test(summary), `${tag}: the summary counts in the singular for one (${summary})`);
  const dots = await page.locator('.review-curve .review-dot').count();
  const points = await page.evaluate(() => document.querySelector('.review-curve polyline')?.getAttribute('points').split(' ').length);
  check(points === got.decisions.length, `${tag}: the curve has a point per decision (${points} of ${got.decisions.length})`);
  check(dots === labelled.length, `${tag}: a dot per labelled decision (${dots} of ${labelled.length})`);
  const marks = await page.locator('.log li .review-mark').count();
  // the log lists a long game's last 200 entries (log.js): each labelled decision among them is marked
  const listed = await page.evaluate(ds => ds.filter(d => document.querySelector(`.log li[data-kind="action"][data-index="${d.index}"]`)).length, labelled);
  check(listed > 0 && marks === listed, `${tag}: the move list marks each labelled decision it lists (${marks} of ${listed}; ${labelled.length} labelled)`);
  const lang = await page.evaluate(() => document.documentElement.lang);
  const heading = await page.locator('.review h2').textContent();
  check(heading === (lang === 'ja' ? '振り返り' : 'Review'), `${tag}: the review's heading in the page's language (${heading})`);
  // step to a decision: the worst one (a mistake when there is one), by its button or by the replay
  const worst = got.summary.worst.length ? got.summary.worst[0] : got.decisions[0].index;
  if (labelled.length) await page.click(`[data-review-step="${labelled[0].index}"]`);
  else await page.evaluate(i => document.querySelector('[data-replay="first"]')?.click(), worst);
  const target = labelled.length ? labelled[0] : null;
  if (target) {
    await until(page, i => document.querySelector(`.review-decision[data-review-index="${i}"]`), target.index, 20000, 'the decision');
    const rows = await page.locator('.review-moves tbody tr').count();
    check(rows === target.moves.length, `${tag}: every move weighed is listed (${rows} of ${target.moves.length})`);
    // the board shown is the one before the decided move: the decision says so, and the replay's counter agrees
    const said = await page.evaluate(() => ({ before: document.querySelector('.review-before')?.textContent ?? '',
      step: document.querySelector('.replay-step')?.dataset.step }));
    check(said.before.includes(String(target.index + 1)) && said.step === String(target.index),
      `${tag}: the decision names the move it precedes (${said.before}; the replay at step ${said.step})`);
  } else {
    check(true, `${tag}: no labelled decision to step to`);
  }
  const axe = await axeViolations(page);
  check(axe.length === 0, `${tag}: axe-core: ${axe.join('; ')}`);
  // one column (a phone): the review comes below the board, so a decision stepped to is seen on the board just above
  const order = await page.evaluate(() => document.querySelector('.review').getBoundingClientRect().top - document.querySelector('.board').getBoundingClientRect().bottom);
  check(width > 900 || order >= 0, `${tag}: on one column the review is below the board (${order} px)`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  check(overflow <= 0, `${tag}: nothing wider than the screen (${overflow} px)`);
  await shotOf(page, '.review', path.join(outDir, `review-${tag}.png`));
  await page.screenshot({ path: path.join(outDir, `review-page-${tag}.png`), fullPage: false });
  await ctx.close();
}

const { srv, base } = await startServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const table = await finishedTable(base);
  for (const [locale, width] of [['en-US', 1280], ['ja-JP', 390], ['en-US', 390], ['ja-JP', 1280]])
    await reviewPage(browser, base, table, locale, width);
  const log = await (await fetch(`${base}/api/tables/${table}/review?seat=0`)).json();
  check(log.status === 'done', 'the review is done and cached');
} catch (e) {
  failures++;
  console.error(`FAIL: ${e.stack}`);
} finally {
  await browser.close();
  srv.kill('SIGTERM');
  rmSync(dbDir, { recursive: true, force: true });
}
failures += tooFew(checks, LEAST_CHECKS);
console.log(`${checks} checks, ${failures} failed`);
process.exit(failures ? 1 : 0);

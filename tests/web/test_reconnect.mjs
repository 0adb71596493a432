// test_reconnect.mjs — the table page when its server goes away (issue 41): killed with SIGKILL and restarted on the same
// database, the page reconnects by itself (table.js's backoff) and its seat comes back, the same moment of the game, and
// plays on; its clock counts down on the seats' bar and comes back with the seat.
// Usage: node test_reconnect.mjs PATH/TO/asobi OUTDIR
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { until, tooFew } from './pages.mjs';

const [asobi, outDir] = process.argv.slice(2);
const webDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../web');
mkdirSync(outDir, { recursive: true });
const dbDir = mkdtempSync(path.join(tmpdir(), 'asobi-reconnect-'));
let failures = 0, checks = 0;
const check = (cond, what) => { checks++; if (!cond) { failures++; console.error(`FAIL: ${what}`); } };
const servers = new Set();

/** `asobi serve` on PORT (0: a free one) with ARGS; resolves to { srv, base } once it listens. */
function serve(port, args) {
  const srv = spawn(asobi, ['serve', '--host', '127.0.0.1', '--port', String(port), '--web', webDir, '--grace', '120',
    '--allow-chosen-seeds', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  servers.add(srv);
  srv.on('exit', () => servers.delete(srv));
  srv.stderr.on('data', d => { if (process.env.ASOBI_WEB_DEBUG) process.stderr.write(d); });
  return new Promise((resolve, reject) => {
    let out = '';
    srv.stdout.on('data', d => { out += d; const m = out.match(/listening on (http:\/\/127\.0\.0\.1:(\d+))/); if (m) resolve({ srv, base: m[1], port: Number(m[2]) }); });
    srv.on('exit', code => reject(new Error(`asobi serve exited (${code})`)));
  });
}

const kill9 = srv => new Promise(resolve => { srv.once('exit', resolve); srv.kill('SIGKILL'); });
const post = async (base, p, body) => (await fetch(base + p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();

/** The page's seat: its connection, the game's step, whether it may act, its clock's text. */
const seen = page => page.evaluate(() => ({
  conn: document.querySelector('[data-conn]')?.dataset.conn, index: Number(document.body.dataset.index),
  mine: document.querySelectorAll('.legal [data-action]').length > 0,
  clock: document.querySelector('.seatchip.me .clock')?.textContent ?? null,
}));

/** Opens TABLE on a new page from BASE and sits at seat 1 by the join form. */
async function sitDown(browser, base, table) {
  const ctx = await browser.newContext({ locale: 'en-US', reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  page.on('pageerror', e => check(false, `error on the page: ${e.message}`));
  await page.goto(`${base}/t/${table}?join=0`);
  await page.fill('form.join input[name=name]', 'Aki');
  await page.click('form.join button[type=submit]');
  await until(page, () => document.querySelectorAll('.legal [data-action]').length > 0, null, 20000, 'the seat\'s turn');
  return { ctx, page };
}

/** The server killed and restarted on the same database and port: the seat comes back, at the same step, with its
 * clock, and plays on. */
async function restart(browser) {
  const db = path.join(dbDir, 'restart.db');
  let { srv, base, port } = await serve(0, ['--db', db]);
  const { table } = await post(base, '/api/tables', { game: 'psycle', players: 2, bots: [null, 'random'], seed: 5,
    clock: { kind: 'move', seconds: 600 } });
  const { ctx, page } = await sitDown(browser, base, table);
  const before = await seen(page);
  check(before.conn === 'connected' && before.mine, `restart: the seat is connected and to move (${JSON.stringify(before)})`);
  // the clock on the seat's chip counts down (10:00, then less)
  check(/\d+:\d\d/.test(before.clock ?? ''), `restart: the seat's clock is shown (${before.clock})`);
  const ticked = await until(page, c => { const t = document.querySelector('.seatchip.me .clock')?.textContent; return t && t !== c ? t : null; },
    before.clock, 5000, 'the clock to count down').catch(() => null);
  check(ticked !== null, `restart: the clock counts down (${before.clock}, then ${ticked})`);
  await kill9(srv);
  await until(page, () => document.querySelector('[data-conn]')?.dataset.conn === 'reconnecting', null, 10000, 'the page to say it reconnects')
    .then(() => check(true, ''), () => check(false, 'restart: the page says it is reconnecting'));
  await page.waitForTimeout(1500);   // a retry or two fails meanwhile: the backoff goes on
  ({ srv, base } = await serve(port, ['--db', db]));
  const back = await until(page, () => document.querySelector('[data-conn]')?.dataset.conn === 'connected'
    && document.querySelectorAll('.legal [data-action]').length > 0, null, 20000, 'the seat back').then(() => true, () => false);
  const after = await seen(page);
  check(back && after.index === before.index, `restart: the seat comes back at the same step (${JSON.stringify(before)} → ${JSON.stringify(after)})`);
  check(/\d+:\d\d/.test(after.clock ?? ''), `restart: the clock comes back (${after.clock})`);
  await page.click('.legal [data-action]');
  const moved = await until(page, i => Number(document.body.dataset.index) > i, after.index, 10000, 'a move').then(() => true, () => false);
  check(moved, 'restart: the seat plays on');
  await page.screenshot({ path: path.join(outDir, 'reconnect_restart.png') });
  await ctx.close();
  srv.kill('SIGTERM');
}

const browser = await chromium.launch({ executablePath: process.env.ASOBI_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  await restart(browser);
} catch (e) {
  failures++; console.error(`FAIL: ${e.stack}`);
} finally {
  await browser.close();
  for (const srv of servers) srv.kill('SIGKILL');
  rmSync(dbDir, { recursive: true, force: true });
}
failures += tooFew(checks, 7);
console.log(`${checks} checks, ${failures} failed`);
process.exit(failures ? 1 : 0);

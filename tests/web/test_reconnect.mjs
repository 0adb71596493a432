// test_reconnect.mjs — the table page when its server goes away (issue 41): killed with SIGKILL and restarted on the same
// database, the page reconnects by itself (table.js's backoff) and its seat comes back, the same moment of the game, and
// plays on; its clock counts down on the seats' bar and comes back with the seat, counting down on. And on two nodes of one
// PostgreSQL: a page opened on the node that does not own its table follows the table's "ws" to the owner (its upgrade
// refused with 421), the owner is killed with SIGKILL, and the seat comes back through the node that takes the table over.
// Usage: ASOBI_TEST_PG=URI node test_reconnect.mjs PATH/TO/asobi OUTDIR   (CTest runs it under tests/support/pg_fixture.py)
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { until, tooFew } from './pages.mjs';
import { freePort, startNginx, PROXY } from './front.mjs';

const [asobi, outDir] = process.argv.slice(2);
const webDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../web');
mkdirSync(outDir, { recursive: true });
const dbDir = mkdtempSync(path.join(tmpdir(), 'asobi-reconnect-'));
let failures = 0, checks = 0;
const check = (cond, what) => { checks++; if (!cond) { failures++; console.error(`FAIL: ${what}`); } };
const servers = new Set();
const MOVE_SECONDS = 600;   // the tables' move clock

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
  const page = trackSockets(await ctx.newPage());
  page.on('pageerror', e => check(false, `error on the page: ${e.message}`));
  await page.goto(`${base}/t/${table}?join=0`);
  await page.fill('form.join input[name=name]', 'Aki');
  await page.click('form.join button[type=submit]');
  await until(page, () => document.querySelectorAll('.legal [data-action]').length > 0, null, 20000, 'the seat\'s turn');
  return { ctx, page };
}

/** The WebSockets PAGE opened, in order, each with its URL and the number of frames it received (page.sockets). */
function trackSockets(page) {
  page.sockets = [];
  page.on('websocket', w => {
    const socket = { url: w.url(), frames: 0 };
    page.sockets.push(socket);
    w.on('framereceived', () => { socket.frames++; });
  });
  return page;
}

/** A clock's text (M:SS, or H:MM:SS) in seconds; NaN when there is none. */
const secondsOf = text => {
  const m = (text ?? '').match(/\d+(:\d\d)+/);
  return m ? m[0].split(':').reduce((n, x) => n * 60 + Number(x), 0) : NaN;
};

/** After a reconnection: the clock is shown, within the move's time (600 s: a restart or a takeover starts the
 * current move's clock afresh, docs/server.md, Clocks and leavers) and not run out, and counts down on. LABEL names
 * the case. */
async function clockGoesOn(page, label) {
  // the new socket's first update (the clock the server holds now) has arrived: before it, the page counts down the
  // clock of the last update it had
  for (let i = 0; i < 200 && !(page.sockets.at(-1)?.frames > 0); i++) await page.waitForTimeout(50);
  // ... and has been drawn (a frame received is not yet a page redrawn: CI once read 9:56, the old update's
  // clock, and then 9:58, the restarted server's fresh one)
  await page.waitForTimeout(600);
  const now = (await seen(page)).clock, left = secondsOf(now);
  check(left > 0 && left <= MOVE_SECONDS, `${label}: the clock comes back within the move's ${MOVE_SECONDS} s (${now})`);
  const ticked = await until(page, c => { const t = document.querySelector('.seatchip.me .clock')?.textContent; return t && t !== c ? t : null; },
    now, 5000, 'the clock to count down').catch(() => null);
  check(ticked !== null && secondsOf(ticked) < left, `${label}: the clock counts down after the reconnection (${now}, then ${ticked})`);
}

/** The server killed and restarted on the same database and port: the seat comes back, at the same step, with its
 * clock, and plays on. */
async function restart(browser) {
  const db = path.join(dbDir, 'restart.db');
  let { srv, base, port } = await serve(0, ['--db', db]);
  const { table } = await post(base, '/api/tables', { game: 'psycle', players: 2, bots: [null, 'random'], seed: 5,
    clock: { kind: 'move', seconds: MOVE_SECONDS } });
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
  await clockGoesOn(page, 'restart');
  await page.click('.legal [data-action]');
  const moved = await until(page, i => Number(document.body.dataset.index) > i, after.index, 10000, 'a move').then(() => true, () => false);
  check(moved, 'restart: the seat plays on');
  await page.screenshot({ path: path.join(outDir, 'reconnect_restart.png') });
  await ctx.close();
  srv.kill('SIGTERM');
}

/** Two nodes, a and b, on one PostgreSQL with a short lease (a dead owner's tables are taken within it and a
 * heartbeat, about 5 s), behind one nginx front as docs/deploy.md sets it up (/n/a/ and /n/b/ reach each node, every
 * other path a live node: b while it lives, a its backup, so that the page's first socket meets the node that does
 * not own the table; the page's fetches may go to its own origin only, lws's connect-src 'self'). The table is made on
 * a (its owner); the page is opened with the seat's token: b refuses its WebSocket (421), the page asks the table's
 * summary (b's 307 to /n/a/) and follows its "ws" to a. Then a is killed with SIGKILL: the page says it reconnects,
 * its retries meet a dead node until b takes the table, and the seat comes back there, at the same step, with its
 * clock, and plays on. */
async function takeover(browser, uri) {
  const front = await freePort(), origin = `http://127.0.0.1:${front}`;
  const cluster = ['--db', uri, '--lease', '3', '--grace', '120', '--trusted-proxy', '127.0.0.1'];
  const a = await serve(0, [...cluster, '--node', 'a', '--public-url', `${origin}/n/a`]);
  const b = await serve(0, [...cluster, '--node', 'b', '--public-url', `${origin}/n/b`]);
  const nginxDir = mkdtempSync(path.join(tmpdir(), 'asobi-reconnect-front-'));
  const proxy = await startNginx(nginxDir, front, `    upstream asobi_any {
        server 127.0.0.1:${b.port} max_fails=1 fail_timeout=2s;
        server 127.0.0.1:${a.port} backup;
    }
    server {
        listen 127.0.0.1:${front};
        ${PROXY}
        location /n/a/ { proxy_pass http://127.0.0.1:${a.port}/; }
        location /n/b/ { proxy_pass http://127.0.0.1:${b.port}/; }
        location / { proxy_pass http://asobi_any; proxy_next_upstream error timeout http_502; }
    }`);
  try {
    const { table } = await post(`${origin}/n/a`, '/api/tables', { game: 'psycle', players: 2, bots: [null, 'random'],
      seed: 5, clock: { kind: 'move', seconds: MOVE_SECONDS } });
    const { token } = await post(`${origin}/n/a`, `/api/tables/${table}/join`, { name: 'Aki', seat: 0 });
    const ctx = await browser.newContext({ locale: 'en-US', reducedMotion: 'reduce' });
    const page = trackSockets(await ctx.newPage());
    page.on('pageerror', e => check(false, `takeover: error on the page: ${e.message}`));
    const urls = () => page.sockets.map(w => w.url);
    if (process.env.ASOBI_WEB_DEBUG) page.on('console', m => console.log(`page: ${m.text()}`));
    await page.goto(`${origin}/t/${table}#token=${token}`);
    const mine = () => document.querySelector('[data-conn]')?.dataset.conn === 'connected'
      && document.querySelectorAll('.legal [data-action]').length > 0;
    const seated = await until(page, mine, null, 20000, 'the seat at the owner').then(() => true, () => false);
    const before = await seen(page);
    check(seated && urls()[0] === `ws://127.0.0.1:${front}/ws/tables/${table}` && urls().at(-1).includes('/n/a/ws/'),
      `takeover: the page's socket was refused by b, then followed the table's "ws" to its owner a (${urls().join(' ')})`);
    check(/\d+:\d\d/.test(before.clock ?? ''), `takeover: the seat's clock is shown (${before.clock})`);
    await kill9(a.srv);
    await until(page, () => document.querySelector('[data-conn]')?.dataset.conn === 'reconnecting', null, 10000, 'the page to say it reconnects')
      .then(() => check(true, ''), () => check(false, 'takeover: the page says it is reconnecting'));
    const back = await until(page, mine, null, 40000, 'the seat back through the new owner').then(() => true, () => false);
    const after = await seen(page);
    check(back && after.index === before.index, `takeover: the seat comes back at the same step (${JSON.stringify(before)} → ${JSON.stringify(after)})`);
    check(urls().at(-1).includes('/n/b/ws/'), `takeover: the page plays on b, the new owner (${urls().at(-1)})`);
    await clockGoesOn(page, 'takeover');
    await page.click('.legal [data-action]');
    const moved = await until(page, i => Number(document.body.dataset.index) > i, after.index, 10000, 'a move').then(() => true, () => false);
    check(moved, 'takeover: the seat plays on at the new owner');
    await page.screenshot({ path: path.join(outDir, 'reconnect_takeover.png') });
    await ctx.close();
  } finally {
    proxy.kill('SIGQUIT');
    await new Promise(r => proxy.on('exit', r));
    rmSync(nginxDir, { recursive: true, force: true });
    b.srv.kill('SIGTERM');
  }
}

const browser = await chromium.launch({ executablePath: process.env.ASOBI_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  await restart(browser);
  // a PostgreSQL is needed (CTest starts one): without it the test fails, it never skips
  if (!process.env.ASOBI_TEST_PG) throw new Error('ASOBI_TEST_PG is unset: run under tests/support/pg_fixture.py');
  await takeover(browser, process.env.ASOBI_TEST_PG);
} catch (e) {
  failures++; console.error(`FAIL: ${e.stack}`);
} finally {
  await browser.close();
  for (const srv of servers) srv.kill('SIGKILL');
  rmSync(dbDir, { recursive: true, force: true });
}
failures += tooFew(checks, 17);
console.log(`${checks} checks, ${failures} failed`);
process.exit(failures ? 1 : 0);

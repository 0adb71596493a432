// test_private_tables.mjs — issue 31 in the browser: "play with friends" makes a private table whose join links (and QR codes) carry the seat's invite code; a chosen deal is shown.
// Usage: node tests/web/test_private_tables.mjs ASOBI_BINARY OUTPUT_DIR   (CTest: tests/web/CMakeLists.txt)
// The lobby's form with two people makes a private table (the box ticked by default; hidden with one person):
// it is in no list, the creator's page shows the free seat's link with #invite=CODE and its QR code, and the
// watch link (#watch=CODE); a stranger following the link without the code is shown nothing of the table (issue 39)
// and sits nowhere, a watcher with the watch link sees it; a friend following the
// link sits down and the game begins. A table whose seed its creator chose says so in the lobby and on its page.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tooFew } from './pages.mjs';

const [asobi, outDir] = process.argv.slice(2);
const webDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../web');
mkdirSync(outDir, { recursive: true });
const dbDir = mkdtempSync(path.join(tmpdir(), 'asobi-web-private-'));
let failures = 0, checks = 0;
const LEAST_CHECKS = 10;   // the fewest a run makes (see the end)
const check = (cond, what) => { checks++; if (!cond) { failures++; console.error(`FAIL: ${what}`); } };

/** `asobi serve` on a free loopback port (seeds allowed, for the chosen deal's notice); resolves to its base URL. */
function startServer(extra = [], db = 'web.db') {
  const srv = spawn(asobi, ['serve', '--port', '0', '--host', '127.0.0.1', '--db', path.join(dbDir, db), '--web', webDir,
    '--workers', '1', '--allow-chosen-seeds', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  srv.stderr.on('data', () => {});
  return new Promise((resolve, reject) => {
    let out = '';
    srv.stdout.on('data', d => { out += d; const m = out.match(/listening on (http:\/\/[0-9.:]+)/); if (m) resolve({ srv, base: m[1] }); });
    srv.on('exit', code => reject(new Error(`asobi serve exited (${code})`)));
  });
}

/** A GET's JSON; a private table's with its code in the X-Asobi-Code header (issue 39: a stranger gets 404). */
const getJson = async (url, code) => (await fetch(url, code ? { headers: { 'X-Asobi-Code': code } } : {})).json();

/** A page that answers the in-page name form of a join link with NAME (a browser prompt fails the test). */
async function pageAnswering(browser, locale, name) {
  const ctx = await browser.newContext({ locale, viewport: { width: 360, height: 800 } });
  const page = await ctx.newPage();
  page.on('dialog', d => { check(false, `a join link opened a browser dialog (${d.type()})`); d.dismiss(); });
  page.answerJoin = async () => {
    await page.waitForSelector('form.join input[name=name]');
    await page.fill('form.join input[name=name]', name);
    await page.click('form.join button[type=submit]');
  };
  return { ctx, page };
}

async function privateTable(browser, base) {
  const { ctx, page } = await pageAnswering(browser, 'en-US', 'Aki');
  await page.goto(base + '/');
  await page.waitForSelector('input[name=private]');
  check(await page.isChecked('input[name=private]'), 'two people: the table is private by default');
  await page.selectOption('select[name=bot1]', 'random');
  check(!(await page.isVisible('input[name=private]')), 'one person and a bot: nobody to invite, no private box');
  await page.selectOption('select[name=bot1]', '');
  check(await page.isVisible('input[name=private]'), 'two people again: the box is back');
  await page.fill('input[name=player_name]', 'Aki');
  await page.click('button[type=submit]');
  await page.waitForURL(/\/t\/\d+/);
  const id = Number(page.url().match(/\/t\/(\d+)/)[1]);
  await page.waitForSelector('.waiting li.invite a');
  const link = await page.getAttribute('.waiting li.invite a', 'href');
  check(new RegExp(`^${base}/t/${id}\\?join=1#invite=[0-9a-f]{32}$`).test(link), `the free seat's link carries its code (${link})`);
  check(await page.locator('.waiting svg.qr').count() === 1, 'and its QR code');
  // issue 43: on a loopback address the links reach no phone: the page says so, and how to serve on the network
  const warn = await page.textContent('.waiting [data-warn=loopback]').catch(() => '');
  check(/127\.0\.0\.1/.test(warn) && warn.includes('--host 0.0.0.0') && warn.includes('--public-url'), `the loopback address is said, with how to serve on the network: ${warn}`);
  check((await page.textContent('.notice.private'))?.includes('private table'), 'the page says the table is private');
  const listed = (await getJson(`${base}/api/tables`)).tables.map(x => x.table);
  check(!listed.includes(id), `the private table is in no list (${listed})`);
  const watch = await page.evaluate(id => localStorage.getItem(`asobi.watch.${id}`), id);
  check(/^[0-9a-f]{32}$/.test(watch ?? ''), `the creator's browser keeps the watch code (${watch})`);
  check((await page.getAttribute('.waiting .watch-link a', 'href')) === `${base}/t/${id}#watch=${watch}`, 'the page shows the watch link');
  check((await getJson(`${base}/api/tables/${id}`, watch)).private === true, 'its summary says private');
  check((await getJson(`${base}/api/tables/${id}`)).error?.code === 'not_found', 'a stranger asking its summary hears not_found');
  await page.screenshot({ path: path.join(outDir, 'web_private_table.png'), fullPage: true });

  // a stranger with the link but not the code
  const stranger = await pageAnswering(browser, 'en-US', 'Eve');
  await stranger.page.goto(`${base}/t/${id}?join=1`);
  await stranger.page.waitForTimeout(1500);
  check(await stranger.page.locator('.board').count() === 0 && !(await stranger.page.textContent('body')).includes('Aki'),
    'a stranger\'s page is shown nothing of the private table (issue 39)');
  check((await getJson(`${base}/api/tables/${id}`, watch)).seats[1].name === null, 'the stranger sits nowhere');
  // a watcher with the watch link sees the table, and no join link
  const watcher = await pageAnswering(browser, 'en-US', 'Wu');
  await watcher.page.goto(`${base}/t/${id}#watch=${watch}`);
  await watcher.page.waitForSelector('.board');
  check(await watcher.page.locator('.waiting li.invite').count() === 0, 'the watcher is shown no join link');
  await watcher.ctx.close();
  await stranger.ctx.close();

  // a friend with the link (a Japanese phone)
  const friend = await pageAnswering(browser, 'ja-JP', 'ベン');
  await friend.page.goto(link);
  check(!friend.page.url().includes('invite='), `the code leaves the address bar at once (${friend.page.url()})`);
  // issue 43: the invited friend's page says one thing: type your name and sit at seat 2 (not "watching", not
  // "share the join links", not "the links are on the creator's page")
  await friend.page.waitForSelector('form.join input[name=name]');
  await friend.page.waitForSelector('.board');
  const one = await friend.page.textContent('form.join h2');
  check(one === '名前を入力して、2番の席に座ってください。', `the friend's page says what to do: ${one}`);
  const rest = await friend.page.textContent('main');
  check(!/観戦|参加リンクを送る|作った人の画面|招待コード付きのリンクから参加します/.test(rest) && await friend.page.locator('.waiting').count() === 0,
    `and nothing else of the kind: ${rest.slice(0, 200)}`);
  await friend.page.screenshot({ path: path.join(outDir, 'web_private_friend.png') });
  await friend.page.answerJoin();
  await friend.page.waitForSelector('body[data-status=playing]');
  const summary = await getJson(`${base}/api/tables/${id}`, watch);
  check(summary.seats[1].name === 'ベン' && summary.status === 'playing', `the friend sits at seat 2 (${JSON.stringify(summary.seats)})`);
  check((await friend.page.textContent('.notice.private'))?.includes('招待制'), 'the friend\'s page says so in Japanese');
  check(!friend.page.url().includes('invite='), `the code leaves the address bar (${friend.page.url()})`);
  await friend.ctx.close();
  await ctx.close();
}

/** Issue 43: a server given --public-url builds the invite links from it (a phone reaches the table there), and
 * no loopback warning is shown. */
async function publicUrl(browser) {
  const { srv: other, base: local } = await startServer(['--public-url', 'http://phone.example:8080'], 'public.db');
  try {
    const { ctx, page } = await pageAnswering(browser, 'en-US', 'Aki');
    await page.goto(local + '/');
    await page.click('[data-quick=friends]');
    await page.waitForSelector('.waiting li.invite a');
    const link = await page.getAttribute('.waiting li.invite a', 'href');
    check(/^http:\/\/phone\.example:8080\/t\/\d+\?join=1#invite=[0-9a-f]{32}$/.test(link), `the invite link is built from --public-url (${link})`);
    check(await page.locator('[data-warn=loopback]').count() === 0, 'no loopback warning with --public-url');
    await page.screenshot({ path: path.join(outDir, 'web_private_public_url.png') });
    await ctx.close();
  } finally { other.kill('SIGTERM'); }
}

async function chosenDeal(browser, base) {
  const r = await fetch(`${base}/api/tables`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ game: 'psycle', players: 2, seed: 5 }) });
  const { table } = await r.json();
  const { ctx, page } = await pageAnswering(browser, 'en-US', 'x');
  await page.goto(base + '/');
  await page.waitForSelector(`#tables li:has(a[href="/t/${table}?join=0"]) .seed-chosen`);
  check((await page.textContent(`#tables li:has(a[href="/t/${table}?join=0"]) .seed-chosen`)).includes('deal chosen'), 'the lobby marks a chosen deal');
  await page.goto(`${base}/t/${table}`);
  await page.waitForSelector('.notice.seed-chosen');
  check((await page.textContent('.notice.seed-chosen')).includes('chosen by the table\'s creator'), 'the table page says the deal was chosen');
  await ctx.close();
}

const { srv, base } = await startServer();
const browser = await chromium.launch({ executablePath: process.env.ASOBI_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
// the table page paces bots' moves 0.6 s apart unless the browser asks for reduced motion (web/js/pacing.js):
// these tests play fast (tests/web/test_table.mjs tests the pacing itself)
const plainContext = browser.newContext.bind(browser);
browser.newContext = options => plainContext({ reducedMotion: 'reduce', ...options });
try {
  await privateTable(browser, base);
  await chosenDeal(browser, base);
  await publicUrl(browser);
} catch (e) {
  failures++; console.error(e);
} finally {
  await browser.close();
  srv.kill('SIGTERM');
  rmSync(dbDir, { recursive: true, force: true });
}
failures += tooFew(checks, LEAST_CHECKS);
console.log(`${checks} checks, ${failures} failed`);
process.exit(failures ? 1 : 0);

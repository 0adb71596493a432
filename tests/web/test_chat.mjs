// test_chat.mjs — the table's chat in the browser (issue 44): two people chat (one page in Japanese at 1280 px, one in
// English at 390 px, its panel one tap away with an unread count), a spectator's line stays out of their pages during
// play, quick phrases arrive in each reader's language, mute works, an injected tag stays text, the live region reads
// lines only while the reader is in the chat, and chat can be turned off on a device.
// Usage: node test_chat.mjs PATH/TO/asobi OUTDIR
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { until, tooFew, axeViolations } from './pages.mjs';

const [asobi, outDir] = process.argv.slice(2);
const webDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../web');
mkdirSync(outDir, { recursive: true });
const dbDir = mkdtempSync(path.join(tmpdir(), 'asobi-chat-'));
let failures = 0, checks = 0;
const check = (cond, what) => { checks++; if (!cond) { failures++; console.error(`FAIL: ${what}`); } };

const srv = spawn(asobi, ['serve', '--host', '127.0.0.1', '--port', '0', '--web', webDir, '--db', path.join(dbDir, 'chat.db'),
  '--workers', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
srv.stderr.on('data', d => { if (process.env.ASOBI_WEB_DEBUG) process.stderr.write(d); });
const base = await new Promise((resolve, reject) => {
  let out = '';
  srv.stdout.on('data', d => { out += d; const m = out.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/); if (m) resolve(m[1]); });
  srv.on('exit', code => reject(new Error(`asobi serve exited (${code})`)));
});
const post = async (p, body) => (await fetch(base + p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();

/** A page of TABLE in LOCALE at WIDTH, a seat's with TOKEN (else a spectator's). */
async function open(browser, table, { locale, width, token }) {
  const ctx = await browser.newContext({ locale, viewport: { width, height: width > 500 ? 800 : 844 }, reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  page.on('pageerror', e => check(false, `error on the page: ${e.message}`));
  await page.goto(`${base}/t/${table}${token ? `#token=${token}` : ''}`);
  await until(page, () => document.querySelector('[data-conn]')?.dataset.conn === 'connected' && document.querySelector('.chat'),
    null, 20000, 'the table and its chat');
  return page;
}

/** The chat's lines on PAGE as its reader sees them: [channel, name, text]. */
const linesOf = page => page.evaluate(() => [...document.querySelectorAll('.chat-line')].reverse()
  .map(li => [li.dataset.channel, li.querySelector('.chat-name').textContent, li.querySelector('.chat-text').textContent]));
const hasLine = (page, text) => until(page, x => [...document.querySelectorAll('.chat-text')].some(e => e.textContent === x), text,
  10000, `the line "${text}"`).then(() => true, () => false);

async function say(page, text) {
  if (await page.evaluate(() => getComputedStyle(document.querySelector('.chat')).display === 'none')) await page.click('#chat-opener');
  await page.fill('#chat-input', text);
  await page.click('#chat-send');
}

const browser = await chromium.launch({ executablePath: process.env.ASOBI_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const { table } = await post('/api/tables', { game: 'psycle', players: 2 });
  const tokens = [(await post(`/api/tables/${table}/join`, { name: 'あき' })).token, (await post(`/api/tables/${table}/join`, { name: 'Ben' })).token];
  const aki = await open(browser, table, { locale: 'ja-JP', width: 1280, token: tokens[0] });
  const ben = await open(browser, table, { locale: 'en-US', width: 390, token: tokens[1] });
  const watcher = await open(browser, table, { locale: 'en-US', width: 1280 });
  const watcherJa = await open(browser, table, { locale: 'ja-JP', width: 390 });   // both languages at both widths

  // a laptop shows the panel beside the log; a phone folds it behind a button
  check(await aki.evaluate(() => getComputedStyle(document.querySelector('.chat')).display !== 'none'), 'the panel is shown at 1280 px');
  check(await ben.evaluate(() => getComputedStyle(document.querySelector('.chat')).display === 'none'
    && getComputedStyle(document.querySelector('#chat-opener')).display !== 'none'), 'a phone folds the panel behind its button');

  // an injected tag stays text, everywhere
  const tag = '<img src=x onerror="window.pwned=1">';
  await say(aki, tag);
  check(await hasLine(watcher, tag), 'the spectator reads the seat\'s line as it was typed');
  const opener = await until(ben, () => { const b = document.querySelector('#chat-opener'); return /\(1\)/.test(b.textContent) && b.textContent; },
    null, 10000, 'the unread count').catch(() => null);
  check(opener === 'Chat (1)', `the phone's button counts the unread line (${opener})`);
  await ben.click('#chat-opener');
  check(await hasLine(ben, tag), 'the phone shows the line once unfolded');
  for (const page of [aki, ben, watcher]) {
    check(await page.evaluate(() => document.querySelectorAll('.chat img').length === 0 && window.pwned === undefined),
      'an injected tag made no element and ran nothing');
  }
  check(await ben.evaluate(() => !/\(\d+\)/.test(document.querySelector('#chat-opener').textContent)), 'opening the panel reads the unread lines');
  const [ch, name] = (await linesOf(ben))[0] ?? [];
  check(ch === 'players' && name === 'あき', `a line names its seat (${ch}, ${name})`);
  check(await ben.evaluate(() => document.querySelector('.chat-mark').textContent === '(seat 1)'), 'the name is marked as a seat');

  // the spectators' wall: a spectator's line reaches spectators only while the game is played
  await say(watcher, 'play your 3!');
  check(await hasLine(watcher, 'play your 3!'), 'the spectator reads its own line');
  check(await watcher.evaluate(() => document.querySelector('.chat-line[data-channel=spectators] .chat-mark').textContent === '(spectator)'),
    'a spectator\'s name is marked as a spectator\'s');
  await say(ben, 'after the coach');   // a later line: the spectator's would have come before it
  check(await hasLine(aki, 'after the coach'), 'the seats read each other');
  for (const page of [aki, ben]) check(!(await page.content()).includes('play your 3!'), 'a spectator\'s line reached a seat during play');

  // quick phrases in each reader's language
  await ben.click('.chat-phrases [data-phrase=gg]');
  check(await hasLine(aki, 'ありがとうございました'), 'a quick phrase in Japanese for the Japanese page');
  check(await hasLine(ben, 'Good game'), 'the same phrase in English for the English page');
  check(await hasLine(watcher, 'Good game'), 'and for the spectator');
  await watcherJa.click('#chat-opener');
  check(await hasLine(watcherJa, 'ありがとうございました'), 'and for the Japanese phone');
  check(await watcherJa.evaluate(() => document.querySelector('.chat-line[data-channel=spectators] .chat-mark')?.textContent === '(観戦者)'),
    'the Japanese phone marks a spectator\'s name');
  await watcherJa.screenshot({ path: path.join(outDir, 'chat_spectator_ja_390.png') });

  // the live region reads new lines only while the reader is in the chat
  await aki.focus('#chat-input');
  await say(ben, 'read aloud');
  check(await until(aki, () => document.getElementById('live').textContent.includes('read aloud'), null, 10000, 'the live region')
    .then(() => true, () => false), 'a line is read aloud while the reader is in the chat');
  await aki.evaluate(() => document.activeElement.blur());
  await say(ben, 'not aloud');
  check(await hasLine(aki, 'not aloud'), 'the line arrives');
  check(!(await aki.evaluate(() => document.getElementById('live').textContent.includes('not aloud'))), 'a line is not read aloud outside the chat');

  // mute: Aki mutes Ben, whose next line does not reach Aki (it does the spectator)
  await aki.click('.chat-mute[data-mute="1"]');
  await until(aki, () => document.querySelector('.chat-mute[data-mute="1"]').getAttribute('aria-pressed') === 'true', null, 10000, 'the mute');
  const left = await until(aki, () => ![...document.querySelectorAll('.chat-text')].some(e => e.textContent === 'after the coach'),
    null, 10000, 'the history without the muted seat').then(() => true, () => false);
  check(left, `a muted seat's lines leave the history (${JSON.stringify(await linesOf(aki))})`);
  await say(ben, 'can you hear me');
  check(await hasLine(watcher, 'can you hear me'), 'the spectator reads the muted seat');
  await aki.waitForTimeout(500);
  check(!(await aki.content()).includes('can you hear me'), 'the muted seat\'s line reached the one who muted');
  await aki.reload();
  await until(aki, () => document.querySelector('.chat-mute[data-mute="1"]')?.getAttribute('aria-pressed') === 'true', null, 10000, 'the mute after reloading')
    .then(() => check(true, ''), () => check(false, 'the mute holds after reloading'));
  await aki.screenshot({ path: path.join(outDir, 'chat_ja_1280.png') });
  await ben.screenshot({ path: path.join(outDir, 'chat_en_390.png') });
  await watcher.screenshot({ path: path.join(outDir, 'chat_spectator_en_1280.png') });
  const found = await axeViolations(ben);
  check(found.length === 0, `axe-core on the phone's open chat: ${found.join('; ')}`);

  // chat off on this device: remembered
  await ben.click('#chat-off');
  check(await ben.evaluate(() => localStorage.getItem('asobi.chat.off') === 'on' && !document.querySelector('.chat-lines')), 'chat turned off');
  await ben.reload();
  await until(ben, () => document.querySelector('.chat'), null, 10000, 'the page again');
  check(await ben.evaluate(() => !document.querySelector('#chat-opener') && document.querySelector('.chat').textContent.includes('off')),
    'chat stays off on this device');
} catch (e) {
  failures++; console.error(`FAIL: ${e.stack}`);
} finally {
  await browser.close();
  srv.kill('SIGKILL');
  rmSync(dbDir, { recursive: true, force: true });
}
failures += tooFew(checks, 31);
console.log(`${checks} checks, ${failures} failed`);
process.exit(failures ? 1 : 0);

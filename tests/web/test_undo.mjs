// test_undo.mjs — taking back and asking first (issue 44, point 9): the Undo button by the prompt line and Ctrl+Z in
// Time Masters and NINJA, each bringing the board back; leaving a table asks in a dialog first; both languages, 1280x800
// and 390x844, axe-core clean.
// Usage: node test_undo.mjs PATH/TO/asobi OUTDIR   (ASOBI_WEB_UNDO=timemasters,ninja,leave runs a part)
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { until, tooFew, axeViolations, filterOf } from './pages.mjs';

const [asobi, outDir] = process.argv.slice(2);
const webDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../web');
mkdirSync(outDir, { recursive: true });
const dbDir = mkdtempSync(path.join(tmpdir(), 'asobi-undo-'));
const parts = filterOf('ASOBI_WEB_UNDO', ['timemasters', 'ninja', 'leave']) ?? ['timemasters', 'ninja', 'leave'];
let failures = 0, checks = 0;
const check = (cond, what) => { checks++; if (!cond) { failures++; console.error(`FAIL: ${what}`); } };

function serve() {
  const srv = spawn(asobi, ['serve', '--host', '127.0.0.1', '--port', '0', '--web', webDir, '--db', path.join(dbDir, 'undo.db'),
    '--allow-chosen-seeds', '--grace', '120'], { stdio: ['ignore', 'pipe', 'pipe'] });
  srv.stderr.on('data', d => { if (process.env.ASOBI_WEB_DEBUG) process.stderr.write(d); });
  return new Promise((resolve, reject) => {
    let out = '';
    srv.stdout.on('data', d => { out += d; const m = out.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/); if (m) resolve({ srv, base: m[1] }); });
    srv.on('exit', code => reject(new Error(`asobi serve exited (${code})`)));
  });
}
const post = async (base, p, body) => (await fetch(base + p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();
const getJson = async (base, p) => (await fetch(base + p)).json();

const SIZES = { 1280: { width: 1280, height: 800 }, 390: { width: 390, height: 844 } };
const WORDS = { en: { undo: 'Undo', took: 'took back', sure: 'Really leave?' }, ja: { undo: '取り消す', took: '取り消した', sure: '本当に抜けますか?' } };

async function newPage(browser, lang, width) {
  const ctx = await browser.newContext({ locale: lang === 'ja' ? 'ja-JP' : 'en-US', viewport: SIZES[width], reducedMotion: 'reduce' });
  await ctx.addInitScript(l => localStorage.setItem('asobi.lang', l), lang);
  const page = await ctx.newPage();
  page.on('pageerror', e => check(false, `error on the page: ${e.message}`));
  return { ctx, page };
}

/** The page's board and what it offers, as a person sees them: compared before an action and after its take-back. */
const picture = page => page.evaluate(() => ({
  board: document.querySelector('.board')?.innerText, legal: [...document.querySelectorAll('.legal [data-action]')].map(b => b.dataset.action),
  index: Number(document.body.dataset.index), undo: Boolean(document.querySelector('[data-undo]')),
}));

/** Acts (the first legal action whose text starts with one of PREFER, else the first) until the Undo button shows;
 * the picture before that last action. */
async function actUntilUndoable(page, prefer) {
  for (let k = 0; k < 60; k++) {
    await until(page, () => document.body.dataset.waiting === '0' && document.querySelectorAll('.legal [data-action]').length > 0
      && !document.querySelector('[data-undo]'), null, 30000, 'the seat to move');
    const before = await picture(page);
    const a = prefer.map(p => before.legal.find(x => x.startsWith(p))).find(Boolean) ?? before.legal[0];
    // the dock's button (a phone folds what a card offers: clicked as the card's menu would)
    await page.evaluate(a => document.querySelector(`.legal [data-action="${CSS.escape(a)}"]`).click(), a);
    await until(page, i => Number(document.body.dataset.index) > i, before.index, 30000, 'the move');
    await page.waitForTimeout(150);
    if (await page.locator('[data-undo]').count()) return { before, action: a };
  }
  throw new Error('no move could be taken back in 60 moves');
}

/** One game at one language and width: a move taken back by the button, another by Ctrl+Z; each time the board and
 * the legal actions are those before the move, the log says who took back what, the button sits by the prompt. */
async function undoIn(browser, base, game, lang, width) {
  const spec = game === 'timemasters' ? { game, players: 2, bots: [null, 'random'], seed: 4 }
    : { game, players: 3, bots: [null, 'random', 'random'], seed: 11 };
  const prefer = game === 'timemasters' ? ['play ', 'set ', 'pay '] : ['scroll ', 'trump '];
  const { table } = await post(base, '/api/tables', spec);
  const { ctx, page } = await newPage(browser, lang, width);
  const tag = `${game} ${lang} ${width}`;
  try {
    await page.goto(`${base}/t/${table}?join=0`);
    await page.fill('form.join input[name=name]', 'Aki');
    await page.click('form.join button[type=submit]');
    for (const how of ['button', 'Ctrl+Z']) {
      const { before, action } = await actUntilUndoable(page, prefer);
      const button = page.locator('[data-undo]');
      check(await button.textContent() === WORDS[lang].undo, `${tag}: the button says ${WORDS[lang].undo}`);
      const near = await page.evaluate(() => {
        const p = document.querySelector('[data-prompt]'), u = document.querySelector('[data-undo]');
        return p && u && p.parentElement === u.parentElement && u.getBoundingClientRect().top < innerHeight && u.getBoundingClientRect().bottom > 0;
      });
      check(near, `${tag}: Undo sits by the prompt line, on screen`);
      if (how === 'button' && width === 390 && lang === 'en') await page.screenshot({ path: path.join(outDir, `undo_${game}_${lang}_${width}.png`) });
      if (how === 'button' && width === 1280) await page.screenshot({ path: path.join(outDir, `undo_${game}_${lang}_${width}.png`) });
      if (how === 'button') {   // once a page: axe-core takes seconds on a loaded machine
        const axe = await axeViolations(page);
        check(axe.length === 0, `${tag}: axe-core with Undo shown: ${axe.join('; ')}`);
      }
      const index = (await picture(page)).index;
      if (how === 'button') await button.click();
      else { await page.locator('body').focus().catch(() => {}); await page.keyboard.press('Control+z'); }
      await until(page, i => Number(document.body.dataset.index) > i, index, 15000, 'the take-back');
      await page.waitForTimeout(150);
      const after = await picture(page);
      check(after.board === before.board, `${tag} (${how}): the board is as before "${action}"`);
      check(JSON.stringify(after.legal) === JSON.stringify(before.legal), `${tag} (${how}): the same moves are offered again`);
      const line = await page.evaluate(() => document.querySelector('.log li[data-kind="undo"]')?.textContent ?? '');
      check(line.includes('Aki') && line.includes(WORDS[lang].took), `${tag} (${how}): the log says it (${line})`);
      if (how === 'Ctrl+Z' && width === 390) await page.screenshot({ path: path.join(outDir, `undone_${game}_${lang}_${width}.png`) });
    }
  } finally {
    await ctx.close();
  }
}

/** Leaving from the lobby's My tables asks first, in a dialog: named by its title, the focus on Cancel, Escape and
 * Cancel keep the seat, Leave leaves. */
async function leaveAsks(browser, base, lang, width) {
  const tag = `leave ${lang} ${width}`;
  const { table } = await post(base, '/api/tables', { game: 'psycle', players: 2, seed: 3 });
  const { ctx, page } = await newPage(browser, lang, width);
  try {
    await page.goto(`${base}/t/${table}?join=0`);
    await page.fill('form.join input[name=name]', 'Aki');
    await page.click('form.join button[type=submit]');
    await until(page, () => document.querySelector('.who')?.textContent.match(/1/), null, 15000, 'the seat');
    const ben = await post(base, `/api/tables/${table}/join`, { name: 'Ben' });
    check(Boolean(ben.token), `${tag}: Ben joins`);
    await page.goto(`${base}/`);
    const leave = page.locator(`li.my-table[data-table="${table}"] button.leave`);
    await leave.waitFor({ timeout: 15000 });
    await leave.click();
    const dialog = page.locator('dialog.confirm-dialog[open]');
    await dialog.waitFor({ timeout: 5000 });
    const seen = await page.evaluate(() => {
      const d = document.querySelector('dialog.confirm-dialog');
      return { title: document.getElementById(d.getAttribute('aria-labelledby'))?.textContent,
        body: document.getElementById(d.getAttribute('aria-describedby'))?.textContent,
        focus: document.activeElement?.className, modal: d.matches(':modal') };
    });
    check(seen.title === WORDS[lang].sure && seen.body && seen.modal, `${tag}: a modal dialog asks, named and described (${JSON.stringify(seen)})`);
    check(seen.focus === 'cancel', `${tag}: the focus is on Cancel (${seen.focus})`);
    await page.screenshot({ path: path.join(outDir, `leave_dialog_${lang}_${width}.png`) });
    const axe = await axeViolations(page);
    check(axe.length === 0, `${tag}: axe-core with the dialog: ${axe.join('; ')}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: 5000 });
    let summary = await getJson(base, `/api/tables/${table}`);
    check(!summary.seats[0].left && !summary.seats[0].handed, `${tag}: Escape keeps the seat`);
    await leave.click();
    await page.click('dialog.confirm-dialog button.cancel');
    await dialog.waitFor({ state: 'detached', timeout: 5000 });
    summary = await getJson(base, `/api/tables/${table}`);
    check(!summary.seats[0].left, `${tag}: Cancel keeps the seat`);
    check(await page.evaluate(() => document.activeElement?.classList.contains('leave')), `${tag}: the focus is back on the button`);
    await leave.click();
    await page.click('dialog.confirm-dialog button.confirm');
    await page.waitForSelector(`li.my-table[data-table="${table}"]`, { state: 'detached', timeout: 10000 });
    summary = await getJson(base, `/api/tables/${table}`);
    check(summary.seats[0].left === true, `${tag}: Leave leaves (${JSON.stringify(summary.seats[0])})`);
  } finally {
    await ctx.close();
  }
}

const browser = await chromium.launch({ executablePath: process.env.ASOBI_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
const { srv, base } = await serve();
try {
  for (const lang of ['en', 'ja'])
    for (const width of [1280, 390]) {
      for (const game of ['timemasters', 'ninja'])
        if (parts.includes(game)) await undoIn(browser, base, game, lang, width).catch(e => check(false, `${game} ${lang} ${width}: ${e.stack}`));
      if (parts.includes('leave')) await leaveAsks(browser, base, lang, width).catch(e => check(false, `leave ${lang} ${width}: ${e.stack}`));
    }
} finally {
  await browser.close();
  srv.kill('SIGTERM');
  rmSync(dbDir, { recursive: true, force: true });
}
failures += tooFew(checks, parts.length === 3 ? 4 * (2 * 11 + 8) : 1);   // per language and width: 11 a game's take-backs, 8 the leave
console.log(`${checks} checks, ${failures} failed`);
process.exit(failures ? 1 : 0);

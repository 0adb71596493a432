// test_table.mjs — the table page of issue 33 in a real browser (Debian's chromium, playwright-core) against a real `asobi serve`.
// Usage: node tests/web/test_table.mjs ASOBI_BINARY OUTPUT_DIR   (CTest web_table: tests/web/CMakeLists.txt)
// Every game's largest table in Japanese and English at 1280 px and 390×844: bots named by level, the rules link,
// the live region, no text under 12 px, the hand and the actions on a phone's screen, focus rings, cards labelled,
// Time Masters' cards in words, axe-core; the events of the log in words; pacing; joining by the in-page form;
// leavers; the sound switch; a loaded card set in words; the page's weight. (The whole game of every game at 390 px,
// its result explained and its replay: tests/web/test_web.mjs's everyTable, which plays those tables anyway.) ASOBI_WEB_PARTS=tables,events,... runs some parts,
// ASOBI_WEB_GAMES=psycle,... some games.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const [asobi, outDir] = process.argv.slice(2);
const here = path.dirname(new URL(import.meta.url).pathname);
const webDir = path.resolve(here, '../../web');
const axeSource = readFileSync(path.resolve(here, '../../node_modules/axe-core/axe.min.js'), 'utf8');
const ourCards = path.resolve(here, '../games/timemasters/cards_ours.json');
mkdirSync(outDir, { recursive: true });
const dbDir = mkdtempSync(path.join(tmpdir(), 'asobi-table-'));
let failures = 0, checks = 0;
const check = (cond, what) => { checks++; if (!cond) { failures++; console.error(`FAIL: ${what}`); } };
const parts = process.env.ASOBI_WEB_PARTS?.split(',');
const wanted = part => !parts || parts.includes(part);

// each game's largest table (ASOBI_WEB_GAMES=psycle,octal: some games only)
const GAMES = Object.fromEntries(Object.entries({ psycle: 4, ninja: 5, octal: 6, timemasters: 4 })
  .filter(([g]) => !process.env.ASOBI_WEB_GAMES || process.env.ASOBI_WEB_GAMES.split(',').includes(g)));
// short games: the safety caps of the games that have them
const CAPS = { psycle: { max_cycles: 2 }, octal: { max_turns: 60 }, timemasters: { max_turns: 24 }, ninja: {} };
const LEVELS = { en: /^Bot \d \((easy|medium|strong)\)$/, ja: /^ボット\d\((やさしい|ふつう|つよい)\)$/ };

/** `asobi serve` on a free loopback port, a temporary database, --grace 2 (the leavers' part waits for it). */
function startServer() {
  const srv = spawn(asobi, ['serve', '--port', '0', '--host', '127.0.0.1', '--db', path.join(dbDir, 'table.db'),
    '--web', webDir, '--workers', '2', '--grace', '2', '--allow-chosen-seeds', '--tables-per-minute-per-address', '0',
    '--max-bot-tables-per-address', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  srv.stderr.on('data', () => {});
  return new Promise((resolve, reject) => {
    let out = '';
    srv.stdout.on('data', d => { out += d; const m = out.match(/listening on (http:\/\/[0-9.:]+)/); if (m) resolve({ srv, base: m[1] }); });
    srv.on('exit', code => reject(new Error(`asobi serve exited (${code})`)));
  });
}

const { srv, base } = await startServer();
const post = async (p, body) => (await fetch(base + p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();
const getJson = async p => (await fetch(base + p)).json();

/** A table of GAME for PLAYERS with seat 0 free for a person and bots of every level elsewhere; its id. */
async function botTable(game, players, extra = {}) {
  const kinds = ['random', 'heuristic', 'ismcts:iters=30'];
  const bots = Array.from({ length: players }, (_, s) => (s === 0 ? null : kinds[(s - 1) % 3]));
  return (await post('/api/tables', { game, players, bots, options: CAPS[game], seed: 7, ...extra })).table;
}

const browser = await chromium.launch({ executablePath: process.env.ASOBI_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });

/** A page in LOCALE at WIDTH (390: a phone, 844 high), reduced motion unless MOTION; every page error fails. */
async function newPage(locale, width, motion = 'reduce') {
  const ctx = await browser.newContext({ locale, reducedMotion: motion,
    viewport: width === 390 ? { width: 390, height: 844 } : { width, height: 900 } });
  const page = await ctx.newPage();
  page.on('pageerror', e => check(false, `${locale} ${width}: error on the page: ${e.message}`));
  page.on('console', m => { if (m.type() === 'error') check(false, `${locale} ${width}: console error: ${m.text()}`); });
  page.on('dialog', d => { check(false, `a browser dialog opened (${d.type()}: ${d.message()})`); d.dismiss(); });
  return { ctx, page };
}

/** Polls FN in the page (the page's CSP forbids waitForFunction's eval) until it is truthy; its value. */
async function until(page, fn, arg, ms = 10000, what = 'a condition') {
  const end = Date.now() + ms;
  for (;;) {
    const v = await page.evaluate(fn, arg);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(40);
  }
}

const myTurn = page => until(page, () => document.querySelectorAll('[data-action]').length > 0 || document.body.dataset.status === 'over',
  null, 20000, 'the seat\'s turn');

/** axe-core on the page as it is: no serious or critical violation. */
async function axe(page, label) {
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] }))
    .violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`));
  check(found.length === 0, `${label}: axe-core finds ${found.join('; ')}`);
}

/** Every visible text on the page at least 12 px high. */
async function smallText(page) {
  return page.evaluate(() => {
    const small = [];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const e = n.parentElement;
      if (!n.textContent.trim() || !e || e.closest('.sr-only') || !e.getClientRects().length) continue;
      const size = parseFloat(getComputedStyle(e).fontSize);
      if (size < 12) small.push(`${n.textContent.trim().slice(0, 20)} (${size}px)`);
    }
    return small.slice(0, 5);
  });
}

/** Whether the hand's first card and the first action button are inside the screen without scrolling. */
const onScreen = page => page.evaluate(() => {
  const inside = e => { if (!e) return false; const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.width > 0; };
  return { card: inside(document.querySelector('.dock [data-card]')), action: inside(document.querySelector('.dock .legal [data-action]')),
    hasCard: Boolean(document.querySelector('[data-card]')) };
});

/** The focus ring of each kind of control (a card of the hand, an action button, a link, the language switch):
 * reached by the keyboard, its outline visible and unlike its look without focus. */
async function focusRings(page) {
  const bad = [];
  for (const sel of ['.dock [data-card].can', '.legal button[data-action]', 'header a', '#lang-switch', '#sound']) {
    if (!(await page.locator(sel).count())) continue;
    await page.keyboard.press('Shift');   // a keyboard user: :focus-visible applies
    const ring = await page.evaluate(s => {
      const e = document.querySelector(s);
      const before = getComputedStyle(e).outlineColor + getComputedStyle(e).outlineStyle;
      e.focus();
      const st = getComputedStyle(e);
      return { ok: st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) >= 2 && st.outlineColor + st.outlineStyle !== before,
        what: `${st.outlineStyle} ${st.outlineWidth} ${st.outlineColor}` };
    }, sel);
    if (!ring.ok) bad.push(`${sel}: ${ring.what}`);
  }
  return bad;
}

// ---------------------------------------------------------------------------------------------------------
// Every game's largest table, both languages, both widths.
// ---------------------------------------------------------------------------------------------------------
async function tablePages() {
  for (const [game, players] of Object.entries(GAMES)) {
    for (const [locale, lang] of [['en-US', 'en'], ['ja-JP', 'ja']]) {
      // one table and one page per game and language, checked at 1280 px and then, resized, at 390 px (a
      // phone, 844 high): the same checks at each width (the page's layout is CSS only: web/style.css)
      const table = await botTable(game, players);
      const { token } = await post(`/api/tables/${table}/join`, { name: 'Aki', seat: 0 });
      const { ctx, page } = await newPage(locale, 1280);
      await page.goto(`${base}/t/${table}#token=${token}`);
      await page.waitForSelector('.board');
      await myTurn(page);
      for (const width of [1280, 390]) {
        const label = `${game} ${players}p ${lang} ${width}`;
        if (width === 390) await page.setViewportSize({ width: 390, height: 844 });
        const seats = await page.$$eval('.seats-bar li', lis => lis.map(li => li.firstChild.textContent.replace(/^\d+\. /, '')));
        check(seats.slice(1).every(s => LEVELS[lang].test(s)), `${label}: bots named by level: ${seats}`);
        const bar = await page.textContent('.seats-bar');
        check(!/ismcts|heuristic|random/.test(bar), `${label}: no engine spec on the seats (${bar})`);
        const rules = await page.$eval('a.rules-link', a => a.getAttribute('href')).catch(() => null);
        check(rules === `/rules/${game}.html`, `${label}: the rules link (${rules})`);
        check(await page.locator('#live[aria-live]').count() === 1, `${label}: a live region`);
        const small = await smallText(page);
        check(small.length === 0, `${label}: text under 12 px: ${small}`);
        const labels = await page.$$eval('[data-card]', cs => cs.map(c => c.getAttribute('aria-label') ?? ''));
        check(labels.length > 0 && labels.every(l => l.length > 2), `${label}: hand cards labelled (${labels.slice(0, 3)})`);
        if (game === 'psycle') check(labels.every(l => (lang === 'en' ? /cost .*beats/ : /コスト.*勝つ相手/).test(l)), `${label}: PSYCLE's cards labelled with cost and beats: ${labels[0]}`);
        if (game === 'timemasters') await timeMastersWords(page, label, lang);
        const keys = await page.evaluate(() => document.body.innerText.match(/(?<![\w.])(level|tmc|eff|ev|replay|score|over|bot_named|grace_left)\.\S*/g));
        check(!keys, `${label}: message keys shown: ${keys}`);
        if (width === 390) {
          const fit = await onScreen(page);
          check(fit.card && fit.action, `${label}: the hand and the actions are on the phone's screen without scrolling (${JSON.stringify(fit)})`);
        }
        const rings = await focusRings(page);
        check(rings.length === 0, `${label}: no visible focus ring: ${rings}`);
        await axe(page, label);
        await page.screenshot({ path: path.join(outDir, `table_${game}_${width}_${lang}.png`) });
      }
      await ctx.close();
    }
  }
}

/** Time Masters' cards say what they do: every card face (hand, spheres, timers) has its kind, level and
 * cost and its effect in words, in the page's language; its label says the same. */
async function timeMastersWords(page, label, lang) {
  await until(page, () => document.querySelector('.tm-card .effect'), null, 5000, 'the card set');
  const faces = await page.$$eval('.tm-card', cs => cs.map(c => [c.querySelector('.name')?.textContent,
    c.querySelector('.kind')?.textContent ?? '', c.querySelector('.effect')?.textContent ?? '', c.getAttribute('aria-label'), Boolean(c.closest('.spheres'))]));
  const kind = lang === 'en' ? /^(Spell|Focus|Timer) · level \d · / : /^(スペル|フォーカス|タイマー) · レベル\d · /;
  const bad = faces.filter(([, k, e, l]) => !kind.test(k) || !e || !l.includes(e));
  check(faces.length > 0 && bad.length === 0, `${label}: cards without their words: ${bad.slice(0, 2).map(f => f.join('/'))}`);
  check(faces.some(f => f[4]), `${label}: the spheres' cards say what they do too`);
  const suggestion = faces.find(f => f[0] === 'Suggestion');
  if (suggestion) check(suggestion[2] === (lang === 'en' ? 'draw a card' : 'カードを1枚引く') && /1/.test(suggestion[1]), `${label}: Suggestion reads ${suggestion}`);
}

// ---------------------------------------------------------------------------------------------------------
// The log's events in words: every documented event type of docs/protocol.md ("Events"), both languages.
// ---------------------------------------------------------------------------------------------------------
const EVENTS = {
  any: [{ type: 'game_over', winners: [0], reason: 'x' }, { type: 'game_over', winners: [], reason: 'x' }],
  psycle: [{ type: 'reveal', cycle: 1, round: 3, target: 4, bonus: 2, cards: ['2', '5'] },
    { type: 'round_score', seat: 0, card: '0', points: 3, gems: 5, total: 7, gems_held: 9 },
    { type: 'cycle_end', cycle: 1, scores: [12, 9], winners: [0], replayed: false, tiles: [1, 0] },
    { type: 'cycle_end', cycle: 2, scores: [9, 9], winners: [], replayed: true, tiles: [1, 0] },
    { type: 'round_start', cycle: 1, round: 2, target: 4, bonus: 2 }],
  ninja: [{ type: 'shadow_row', cards: ['fire-3', 'water-5', 'wood-1'], tile: 3 },
    { type: 'shadow_plays', seat: null, shadow: true, card: 'water-5' }, { type: 'tile_flipped', seat: 1, card: 'fire-6', tile: 5 },
    { type: 'flip_start', seat: 1, count: 1, points: 9 },
    { type: 'battle_start', seat: 1 },
    { type: 'trick_won', seat: 1, shadow: false, card: 'fire-6', cards: [{ seat: 1, card: 'fire-6' }], tiles: [5, -1], points: 9 },
    { type: 'trick_won', seat: null, shadow: true, card: 'fire-6', cards: [], tiles: [], points: 4 },
    { type: 'shadow_opens', card: 'metal-2', tile: null }, { type: 'shadow_tile_up', card: 'metal-2', tile: -3 },
    { type: 'round_end', round: 1, points: [12, 5], shadow_points: 4 }, { type: 'tiles_drawn', seat: 0, count: 3, tiles: [1, 5, -3] },
    { type: 'tiles_drawn', seat: 0, count: 1 }, { type: 'round_start', round: 2, seat: 1 }],
  octal: [{ type: 'penalty', seat: 1, count: 2 }, { type: 'draw', seat: 0, count: 1, cards: ['5大↑'] },
    { type: 'refill', count: 6, discards: 4, deck: 6 }, { type: 'finish', seat: 2, place: 1 }],
  timemasters: [{ type: 'draw', seat: 0, count: 2, cards: ['Spark', 'Insight'] }, { type: 'reshuffle', seat: 0, count: 7 },
    { type: 'ke_gained', seat: 0, kind: 'ephemeral', count: 2 }, { type: 'ke_readied', seat: 0, count: 3 },
    { type: 'ke_spent', seat: 0, gold: 2, ephemeral: 1 }, { type: 'ke_spent', seat: 0, gold: 2, ephemeral: 0 }, { type: 'reminder', seat: 1, cost: 1, limit: 0 },
    { type: 'reminder', seat: 1, cost: 0, limit: 3 }, { type: 'timer_released', seat: 0, timer: 2, card: 'Clock', spells: ['Spark'] },
    { type: 'timer_discarded', seat: 0, timer: 2, card: 'Hourglass', spells: ['Spark'], delay: 1 },
    { type: 'card_taken', seat: 0, level: 3, card: 'Flow', hidden: false, points: 12 },
    { type: 'card_taken', seat: 1, level: 3, card: null, hidden: true, points: 5 },
    { type: 'sphere_top', level: 3, card: 'Vision' }, { type: 'sphere_emptied', level: 3, empty: 2 }, { type: 'turn_start', seat: 1, turn: 5 }],
};

/** Every event type docs/protocol.md lists ("Events": a table per game, `game_over` for every game). */
function documentedEvents() {
  const doc = readFileSync(path.resolve(here, '../../docs/protocol.md'), 'utf8');
  const section = doc.slice(doc.indexOf('\n## Events'), doc.indexOf('\n## ', doc.indexOf('\n## Events') + 4));
  const types = [];
  let game = 'any';
  for (const line of section.split('\n')) {
    const heading = line.match(/^### .*\(`(\w+)`\)/);
    if (heading) game = heading[1];
    const row = line.match(/^\| `(\w+)` \|/);
    if (row) types.push([game, row[1]]);
  }
  return types;
}

async function eventWords() {
  const documented = documentedEvents();
  check(documented.length >= 30, `events: docs/protocol.md lists the event types (${documented.length})`);
  const sampled = new Set(Object.entries(EVENTS).flatMap(([g, list]) => list.map(e => `${g}.${e.type}`)));
  const unsampled = documented.filter(([g, type]) => !sampled.has(`${g}.${type}`));
  check(unsampled.length === 0, `events: every documented type is worded by this test: ${unsampled.map(x => x.join('.'))}`);
  for (const [locale, lang] of [['en-US', 'en'], ['ja-JP', 'ja']]) {
    const { ctx, page } = await newPage(locale, 1280);
    await page.goto(`${base}/rules/psycle.html`);
    const said = await page.evaluate(async ([events, lang]) => {
      const i18n = await import('/js/i18n.js');
      const out = [];
      for (const [game, list] of Object.entries(events)) {
        for (const g of game === 'any' ? ['psycle', 'octal'] : [game]) {
          for (const event of list) {
            const entry = { kind: 'event', index: 3, seat: null, text: '(fallback)', event };
            out.push([g, event.type, i18n.eventPhrase(g, entry, s => `S${s}`, c => c)]);
          }
        }
      }
      out.push(['octal', 'unknown', i18n.eventPhrase('octal', { kind: 'event', text: 'A new event.', event: { type: 'new_kind' } }, s => `S${s}`)]);
      return [document.documentElement.lang, out];
    }, [EVENTS, lang]);
    check(said[0] === lang, `events: the page is in ${lang} (${said[0]})`);
    for (const [game, type, text] of said[1]) {
      if (type === 'unknown') { check(text === 'A new event.', `events ${lang}: an unknown type falls back to its text (${text})`); continue; }
      check(text !== '(fallback)' && !/undefined|NaN|\[object/.test(text), `events ${lang}: ${game} ${type} in words: ${text}`);
      if (lang === 'ja') check(/[\u3040-\u30ff\u4e00-\u9fff]/.test(text), `events ja: ${game} ${type} in Japanese: ${text}`);
    }
    await ctx.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Pacing: bots' moves one at a time, 0.6 s apart; at once under reduced motion; the last move marked.
// ---------------------------------------------------------------------------------------------------------
/** Plays seat 0's first action at a 6-player OCTAL table of random bots and times the bots' moves shown
 * until seat 0 is to move again: the gaps between them (ms). */
async function pacedMoves(motion, locale) {
  const table = (await post('/api/tables', { game: 'octal', players: 6, bots: [null, 'random', 'random', 'random', 'random', 'random'], seed: 7 })).table;
  const { token } = await post(`/api/tables/${table}/join`, { name: 'Aki', seat: 0 });
  const { ctx, page } = await newPage(locale, 1280, motion);
  await page.goto(`${base}/t/${table}#token=${token}`);
  await myTurn(page);
  // when the log grew (a step shown: a move, an event, or older steps shown together) and its last index
  await page.evaluate(() => {
    window.__shown = [];
    let lines = 0;
    new MutationObserver(() => {
      const now = document.querySelectorAll('.log li').length;
      if (now !== lines) window.__shown.push([performance.now(), Number(document.body.dataset.index)]);
      lines = now;
    }).observe(document.body, { attributes: true, attributeFilter: ['data-index'] });
  });
  await page.evaluate(() => {
    window.__said = [];
    new MutationObserver(ms => ms.forEach(m => m.addedNodes.forEach(n => window.__said.push(n.textContent))))
      .observe(document.getElementById('live'), { childList: true });
  });
  const [sent, from] = await page.evaluate(() => [performance.now(), Number(document.body.dataset.index)]);
  // a pass (it never opens THE OCTAL's late Octo! window, where the seat would move again at once)
  const pass = page.locator('.legal [data-action="pass"]');
  await ((await pass.count()) ? pass : page.locator('.legal [data-action]').first()).click();
  // seat 0's move, then the five bots' (a bot may pass), until seat 0 is to move again
  // (and every step shown: the pacer has nothing waiting)
  await until(page, i => window.__shown.some(([, k]) => k >= i + 6) && document.querySelectorAll('[data-action]').length > 0
    && document.body.dataset.waiting === '0', from, 60000, 'the bots\' moves')

  const [shown, turnAt] = await page.evaluate(() => [window.__shown, performance.now()]);
  // when each step after seat 0's own move was shown (the bots' moves and the events they made)
  const bots = shown.filter(([, i]) => i > from + 1).map(([at]) => at);
  const gaps = bots.slice(1).map((at, k) => at - bots[k]);
  const marked = await page.evaluate(() => ({ latest: document.querySelector('.log li')?.classList.contains('latest'),
    mover: document.querySelector('.seatchip.just-moved')?.dataset.seat, newest: document.querySelector('.log li[data-kind=action]')?.dataset.index,
    player: document.querySelector('.player.just-moved')?.dataset.seat }));
  const live = await page.evaluate(() => window.__said);
  await ctx.close();
  return { gaps, waited: turnAt - sent, marked, live };
}

async function pacing() {
  const paced = await pacedMoves('no-preference', 'en-US');
  console.log(`pacing: gaps between the bots' moves ${paced.gaps.map(Math.round)} ms; the seat's turn back after ${Math.round(paced.waited)} ms`);
  check(paced.gaps.length >= 2 && Math.min(...paced.gaps) >= 400, `pacing: bots' moves shown about 0.6 s apart (gaps ${paced.gaps.map(Math.round)})`);
  check(paced.waited < 5 * 600 + 3000, `pacing: the seat's own turn comes within the paced moves (${Math.round(paced.waited)} ms)`);
  check(paced.marked.latest && paced.marked.mover !== undefined && paced.marked.player === paced.marked.mover,
    `pacing: the last move is marked in the log, the seats and the board (${JSON.stringify(paced.marked)})`);
  check(paced.live.some(x => /^Bot 6 \(easy\) (plays|passes|discards|lays|overrides)/.test(x)) && paced.live.at(-1) === 'Your turn.',
    `pacing: the live region says the bots' moves, then "Your turn." (${paced.live.slice(-4).join(' | ')})`);
  const fast = await pacedMoves('reduce', 'ja-JP');
  check(fast.live.some(x => x.startsWith('ボット6(やさしい)')) && fast.live.at(-1) === 'あなたの番です。',
    `pacing: the live region in Japanese (${fast.live.slice(-4).join(' | ')})`);
  check(fast.gaps.every(g => g < 300), `pacing: reduced motion shows the moves at once (gaps ${fast.gaps.map(Math.round)})`);
  check(fast.waited < 2500, `pacing: under reduced motion the seat's turn is back at once (${Math.round(fast.waited)} ms)`);
}

// ---------------------------------------------------------------------------------------------------------
// Joining: the in-page form, the name remembered, a taken seat.
// ---------------------------------------------------------------------------------------------------------
async function joining() {
  for (const [locale, lang, width] of [['en-US', 'en', 390], ['ja-JP', 'ja', 1280]]) {
    const table = (await post('/api/tables', { game: 'psycle', players: 2, bots: [null, null] })).table;
    const { ctx, page } = await newPage(locale, width);
    await page.goto(`${base}/t/${table}?join=0`);
    await page.waitForSelector('form.join input[name=name]');
    check(!page.url().includes('join='), `join ${lang}: the join leaves the address bar`);
    check((await page.inputValue('form.join input[name=name]')) === '', `join ${lang}: no name yet on this device`);
    const button = await page.textContent('form.join button[type=submit]');
    check(lang === 'en' ? button === 'Sit at seat 1' : button === '1番の席に座る', `join ${lang}: the form says the seat (${button})`);
    await page.fill('form.join input[name=name]', 'Aki');
    await page.dblclick('form.join button[type=submit]');   // one seat, not two
    await until(page, () => document.querySelector('.who')?.textContent.match(/: 1$/), null, 5000, 'seat 1');
    // the same device follows seat 1's link of another table, where somebody sat down meanwhile: the name
    // is remembered, the seat is taken
    const other = (await post('/api/tables', { game: 'psycle', players: 2, bots: [null, null] })).table;
    await post(`/api/tables/${other}/join`, { name: 'Ben', seat: 0 });
    const again = await ctx.newPage();
    again.on('dialog', d => { check(false, 'a dialog'); d.dismiss(); });
    again.on('pageerror', e => check(false, `join ${lang}: error on the page: ${e.message}`));
    await again.goto(`${base}/t/${other}?join=0`);
    await again.waitForSelector('form.join input[name=name]');
    check(await again.inputValue('form.join input[name=name]') === 'Aki', `join ${lang}: the name is remembered on this device`);
    await again.click('form.join button[type=submit]');
    await again.waitForSelector('.taken [data-join=watch]');
    const said = await again.textContent('.taken p');
    check(lang === 'en' ? said === 'Seat 1 is already taken.' : said === '1番の席はもう埋まっています。', `join ${lang}: a taken seat says so (${said})`);
    check(await again.locator('.taken [data-join=seat-1]').count() === 1, `join ${lang}: and offers the free seat`);
    await again.click('.taken [data-join=seat-1]');
    await again.click('form.join button[type=submit]');
    await until(again, () => document.body.dataset.status === 'playing' && document.querySelector('.who')?.textContent.match(/: 2$/), null, 5000, 'seat 2');
    const summary = await getJson(`/api/tables/${other}`);
    check(summary.seats.map(s => s.name).join() === 'Ben,Aki', `join ${lang}: Ben and Aki sit at the table (${summary.seats.map(s => s.name)})`);
    check((await getJson(`/api/tables/${table}`)).seats[0].name === 'Aki', `join ${lang}: the double click took one seat`);
    await axe(again, `join ${lang}`);
    await page.screenshot({ path: path.join(outDir, `join_${lang}.png`) });
    // a third page: watching instead
    const third = await (await browser.newContext({ locale, reducedMotion: 'reduce' })).newPage();
    await third.goto(`${base}/t/${other}?join=1`);
    await until(third, () => document.body.dataset.status, null, 10000, 'the table drawn');   // no redraw under the click
    await third.fill('form.join input[name=name]', 'Cy');
    await third.click('form.join button[type=submit]');
    await third.click('.taken [data-join=watch]');
    check(await third.locator('form.join').count() === 0 && (await third.textContent('.who')).length > 0, `join ${lang}: "watch" leaves a spectator's page`);
    await third.context().close();
    await ctx.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Leavers: the grace counted down; a bot takes the seat and everyone is told; the person back is told.
// ---------------------------------------------------------------------------------------------------------
async function leavers() {
  const table = (await post('/api/tables', { game: 'psycle', players: 2, bots: [null, null], seed: 5, options: { max_cycles: 3 } })).table;
  const a = await post(`/api/tables/${table}/join`, { name: 'Aki', seat: 0 });
  const stay = await newPage('en-US', 390);
  await stay.page.goto(`${base}/t/${table}#token=${a.token}`);
  await stay.page.waitForSelector('.waiting');
  const away = await newPage('ja-JP', 390);   // Ben sits down by the link (the grace counts from then)
  await away.page.goto(`${base}/t/${table}?join=1`);
  await away.page.fill('form.join input[name=name]', 'Ben');
  await away.page.click('form.join button[type=submit]');
  await myTurn(away.page);
  await away.page.close();   // Ben leaves while both are to choose
  await stay.page.locator('.legal [data-action]').first().click();
  const grace = await until(stay.page, () => document.querySelector('.grace')?.textContent, null, 5000, 'the grace countdown');
  check(/a bot plays for them in [0-2] s/.test(grace), `leavers: the waiting player sees the grace count down (${grace})`);
  // Aki plays on; Ben's turns time out (grace 2 s each), three in a row hand his seat to the bot
  await stay.page.evaluate(() => {
    window.__said = [];
    new MutationObserver(ms => ms.forEach(m => m.addedNodes.forEach(n => window.__said.push(n.textContent))))
      .observe(document.getElementById('live'), { childList: true });
  });
  for (let k = 0; k < 40; k++) {
    if (await stay.page.locator('.notice.handed').count()) break;
    if (await stay.page.locator('.legal [data-action]').count()) await stay.page.locator('.legal [data-action]').first().click().catch(() => {});
    await stay.page.waitForTimeout(300);
  }
  const told = await stay.page.textContent('.notice.handed').catch(() => '');
  check(told.includes('Ben is away: a bot plays their seat'), `leavers: everyone is told a bot took the seat (${told})`);
  const live = await stay.page.evaluate(() => window.__said.join(' | '));
  check(live.includes('Ben is away: a bot plays their seat'), `leavers: the live region says it too (${live.slice(-200)})`);
  const back = await away.ctx.newPage();
  await back.goto(`${base}/t/${table}`);
  const notice = await until(back, () => document.querySelector('.notice.back')?.textContent, null, 5000, 'the welcome back');
  check(/離席中にボットがあなたの代わりに\d+手打ちました/.test(notice), `leavers: the person back is told in their language (${notice})`);
  await until(stay.page, () => !document.querySelector('.notice.handed'), null, 5000, 'the seat given back');
  await back.screenshot({ path: path.join(outDir, 'leavers_back_ja.png') });
  // Ben leaves for good (the lobby's "leave"): everyone is told, and not that he will be back
  const token = await back.evaluate(id => localStorage.getItem(`asobi.token.${id}`), table);
  await post(`/api/tables/${table}/leave`, { token });
  const left = await until(stay.page, () => document.querySelector('.notice.handed.left')?.textContent, null, 5000, 'the leave told');
  check(left === 'Ben left the table: a bot plays their seat to the end.', `leavers: a seat left for good is told so (${left})`);
  check((await stay.page.textContent('.seats-bar li[data-seat="1"]')).includes('left: a bot plays for them'), 'leavers: and its chip says so');
  await stay.page.screenshot({ path: path.join(outDir, 'leavers_en.png') });
  await stay.ctx.close();
  await away.ctx.close();
}

// ---------------------------------------------------------------------------------------------------------
// Sound: off by default, remembered, a cue when the turn comes.
// ---------------------------------------------------------------------------------------------------------
async function sound() {
  for (const [locale, lang, width] of [['en-US', 'en', 1280], ['ja-JP', 'ja', 390]]) {
    const table = await botTable('octal', 3);
    const { token } = await post(`/api/tables/${table}/join`, { name: 'Aki', seat: 0 });
    const { ctx, page } = await newPage(locale, width);
    await page.goto(`${base}/t/${table}#token=${token}`);
    await myTurn(page);
    check(await page.getAttribute('#sound', 'aria-pressed') === 'false', `sound ${lang}: off by default`);
    await page.click('#sound');
    check(await page.evaluate(() => localStorage.getItem('asobi.sound')) === 'on' && await page.getAttribute('#sound', 'aria-pressed') === 'true',
      `sound ${lang}: turned on and remembered`);
    await page.reload();
    await myTurn(page);
    check(await page.getAttribute('#sound', 'aria-pressed') === 'true', `sound ${lang}: still on after a reload`);
    const before = await page.evaluate(() => Number(document.body.dataset.cued ?? 0));
    await page.locator('.legal [data-action]').first().click();
    await until(page, n => Number(document.body.dataset.cued ?? 0) > n || document.body.dataset.status === 'over', before, 15000, 'the cue');
    check(await page.evaluate(n => Number(document.body.dataset.cued ?? 0) > n, before), `sound ${lang}: the cue sounds when the turn comes back`);
    await ctx.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// A whole game of every game at 390 px, by what a person sees and clicks, with its log, result and replay: in
// tests/web/test_web.mjs (everyTable's largest table of each game, a game it plays anyway, watched by a spectator).
// ---------------------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------------------
// Time Masters: a card set loaded with the `cards` option reads too; our set's copy for the page; the weight.
// ---------------------------------------------------------------------------------------------------------
async function loadedSetAndWeight() {
  check(readFileSync(path.join(webDir, 'data/timemasters_cards.json'), 'utf8') === readFileSync(ourCards, 'utf8'),
    'web/data/timemasters_cards.json is our set, as tests/games/timemasters/cards_ours.json');
  const set = JSON.parse(readFileSync(ourCards, 'utf8'));
  // every starting spell reads differently: one is in the first hand (5 of 10 cards, 4 of them not spells)
  for (const c of set.cards.filter(c => c.level === 0 && c.type === 'spell')) c.effects = [['draw', 2], ['heavy', 1]];
  const table = (await post('/api/tables', { game: 'timemasters', players: 2, bots: [null, 'random'], options: { cards: set } })).table;
  const { token } = await post(`/api/tables/${table}/join`, { name: 'Aki', seat: 0 });
  const { ctx, page } = await newPage('en-US', 1280);
  await page.goto(`${base}/t/${table}#token=${token}`);
  await myTurn(page);
  await until(page, () => document.querySelector('.tm-card .effect'), null, 5000, 'the card set');
  const said = await page.$$eval('.dock .tm-card.spell .effect', es => es.map(e => e.textContent));
  check(said.length > 0 && said.every(e => e === 'draw 2 cards, each opponent\'s next spell costs 1 more Kè'), `a loaded card set reads: its spells say ${said}`);
  // every byte the page received: the document and every resource (modules, style, the card set)
  const bytes = await page.evaluate(() => performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
    .reduce((n, e) => n + e.decodedBodySize, 0));
  check(bytes > 0 && bytes < 200 * 1024, `the Time Masters table page weighs ${bytes} bytes (under 200 KB)`);
  console.log(`table page weight (Time Masters, every byte received): ${bytes} bytes`);
  await ctx.close();
}

const started = Date.now();
try {
  const steps = { tables: tablePages, events: eventWords, pacing, joining, leavers, sound, cards: loadedSetAndWeight };
  for (const [name, run] of Object.entries(steps)) {
    if (!wanted(name)) continue;
    const t0 = Date.now();
    try { await run(); } catch (e) { check(false, `${name}: ${e.stack}`); }
    console.log(`${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
} finally {
  await browser.close();
  srv.kill('SIGTERM');
  rmSync(dbDir, { recursive: true, force: true });
}
console.log(`${checks} checks, ${failures} failed in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${outDir}`);
process.exit(failures ? 1 : 0);

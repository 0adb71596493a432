// test_table.mjs — the table page of issue 33 in a real browser (Debian's chromium, playwright-core) against a real `asobi serve`.
// Usage: node tests/web/test_table.mjs ASOBI_BINARY OUTPUT_DIR   (CTest web_table: tests/web/CMakeLists.txt)
// Every game's largest table in Japanese and English at 1280 px and 390×844: bots named by level, the rules link,
// the live region, no text under 12 px, the hand and the actions on a phone's screen, focus rings, cards labelled,
// Time Masters' cards in words, no English tooltip on the Japanese page, axe-core; the events of the log in words; pacing; joining by the in-page form;
// leavers; the sound switch; a loaded card set in words; the page's weight; Time Masters' card names in the page's language. (The whole game of every game at 390 px,
// its result explained and its replay: tests/web/test_web.mjs's tableRuns, which plays those tables anyway.) Pacing, joining,
// leavers and sound run for every game in both languages, each run at both widths, several runs at a time; so does
// fit, the one screen measured (at 1280×800 and 1366×768 nothing of the board, the hand or the actions off the screen
// or covered; on a phone no control covering another at any scroll position), at three moments of each game.
// ASOBI_WEB_PARTS=tables,smallest,keyboard,events,words,moments,flights,offline,teach,tmnames,fit,... runs some parts, ASOBI_WEB_GAMES=psycle,... some games, ASOBI_WEB_RUNS=N that
// many runs at a time (6), ASOBI_WEB_DEBUG=1 shows the server's log, each bot round's steps and fit's boxes.
import { chromium } from 'playwright-core';
import { until, patience, onScreen, oneScreen, axeViolations, filterOf, tooFew, pool, runsAtOnce, countCheck } from './pages.mjs';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const [asobi, outDir] = process.argv.slice(2);
const here = path.dirname(new URL(import.meta.url).pathname);
const webDir = path.resolve(here, '../../web');
const ourCards = path.resolve(here, '../games/timemasters/cards_ours.json');
mkdirSync(outDir, { recursive: true });
const dbDir = mkdtempSync(path.join(tmpdir(), 'asobi-table-'));
let failures = 0, checks = 0;
const check = (cond, what) => { checks++; countCheck(); if (!cond) { failures++; console.error(`FAIL: ${what}`); } };
// The fewest checks each part makes (a run of the matrix's parts: one game in one language), from the checks it makes
// whatever the game (each part's check sites that always run, once): each run is held to its own, and the whole run
// to the sum for what it ran
const LEAST = { tables: 4, smallest: 4, keyboard: 3, events: 3, words: 6, moments: 2, flights: 3, offline: 3, teach: 5, cards: 3, tmnames: 11, leavers: 4, joining: 6, pacing: 6, sound: 3, fit: 6 };
let least = 0;   // the sum for what this run ran
const parts = filterOf('ASOBI_WEB_PARTS', ['tables', 'smallest', 'keyboard', 'events', 'words', 'moments', 'flights', 'offline', 'teach', 'cards', 'tmnames', 'leavers', 'joining', 'pacing', 'sound', 'fit']);
const wanted = part => !parts || parts.includes(part);

// each game's largest table (ASOBI_WEB_GAMES=psycle,octal: some games only)
const LARGEST = { psycle: 4, ninja: 5, octal: 6, timemasters: 4 };
const onlyGames = filterOf('ASOBI_WEB_GAMES', Object.keys(LARGEST));
const GAMES = Object.fromEntries(Object.entries(LARGEST).filter(([g]) => !onlyGames || onlyGames.includes(g)));
const RUNS = runsAtOnce(6);
// short games: the safety caps of the games that have them
const CAPS = { psycle: { max_cycles: 2 }, octal: { max_turns: 60 }, timemasters: { max_turns: 24 }, ninja: {} };
const LEVELS = { en: /^Bot \d \((easy|medium|strong)\)$/, ja: /^ボット\d\((やさしい|ふつう|つよい)\)$/ };

/** `asobi serve` on a free loopback port, a temporary database, --grace 2 (the leavers' part waits for it; a page that loads slowly on a busy machine must not lose its seat's turn meanwhile). */
function startServer() {
  const srv = spawn(asobi, ['serve', '--port', '0', '--host', '127.0.0.1', '--db', path.join(dbDir, 'table.db'),
    '--web', webDir, '--workers', '2', '--grace', '2', '--allow-chosen-seeds', '--tables-per-minute-per-address', '0',
    '--max-bot-tables-per-address', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  srv.stderr.on('data', d => { if (process.env.ASOBI_WEB_DEBUG) process.stderr.write(d); });
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
async function newPage(locale, width, motion = 'reduce', tips = false) {
  const ctx = await browser.newContext({ locale, reducedMotion: motion,
    viewport: width === 390 ? { width: 390, height: 844 } : { width, height: 900 } });
  // a player who has played every game before: no first game's tips (the part `teach` asks for them)
  if (!tips) await ctx.addInitScript(() => { for (const g of ['psycle', 'ninja', 'octal', 'timemasters']) if (!localStorage.getItem(`asobi.teach.${g}`)) localStorage.setItem(`asobi.teach.${g}`, '{"hidden":true}'); });
  const page = await ctx.newPage();
  page.on('pageerror', e => check(false, `${locale} ${width}: error on the page: ${e.message}`));
  page.on('console', m => { if (m.type() === 'error') check(false, `${locale} ${width}: console error: ${m.text()}`); });
  page.on('dialog', d => { check(false, `a browser dialog opened (${d.type()}: ${d.message()})`); d.dismiss(); });
  return { ctx, page };
}

const myTurn = page => until(page, () => document.querySelectorAll('[data-action]').length > 0 || document.body.dataset.status === 'over',
  null, 20000, 'the seat\'s turn');

/** Opens TABLE on PAGE and sits at seat 1 by the join link's form, as a person does: the page is loaded before
 * the seat is taken, so a busy machine's slow page load never counts against the seat (a seat joined by the
 * API whose page is not yet connected loses its turns to --grace's timeouts: CI saw a game played out by them). */
async function sitDown(page, table) {
  await page.goto(`${base}/t/${table}?join=0`);
  await page.fill('form.join input[name=name]', 'Aki');
  await page.click('form.join button[type=submit]');
  await until(page, () => document.querySelector('.who')?.textContent.match(/: 1$/), null, 10000, `seat 1 at table ${table}`);
}

/** axe-core on the page as it is: no serious or critical violation. */
async function axe(page, label) {
  const found = await axeViolations(page);
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

/** The focus ring of each kind of control (a card of the hand, an action button, a link, the language switch):
 * reached by the keyboard, its outline visible and unlike its look without focus. */
async function focusRings(page) {
  const bad = [];
  for (const sel of ['.dock [data-card].can', '.legal button[data-action]', 'header a', '#lang-switch', '#sound']) {
    if (!(await page.locator(`${sel}:visible`).count())) continue;   // a phone folds some actions (issue 43)
    await page.keyboard.press('Shift');   // a keyboard user: :focus-visible applies
    const ring = await page.evaluate(s => {
      const e = [...document.querySelectorAll(s)].find(x => x.getClientRects().length > 0);
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
      const { ctx, page } = await newPage(locale, 1280);
      await sitDown(page, table);
      await page.waitForSelector('.board');
      await myTurn(page);
      for (const width of [1280, 390]) {
        const label = `${game} ${players}p ${lang} ${width}`;
        await page.setViewportSize(width === 390 ? { width: 390, height: 844 } : { width: 1280, height: 800 });
        await oneScreenAt(page, label, width);
        await promptSaid(page, label, game, lang);
        const seats = await page.$$eval('.seats-bar li', lis => lis.map(li => li.firstChild.textContent.replace(/^\d+\. /, '')));
        check(seats.slice(1).every(s => LEVELS[lang].test(s)), `${label}: bots named by level: ${seats}`);
        const bar = await page.textContent('.seats-bar');
        check(!/ismcts|heuristic|random/.test(bar), `${label}: no engine spec on the seats (${bar})`);
        const rules = await page.$eval('a.rules-link', a => a.getAttribute('href')).catch(() => null);
        check(rules === `/rules/${game}.html`, `${label}: the rules link (${rules})`);
        check(await page.locator('#live[aria-live]').count() === 1, `${label}: a live region`);
        const small = await smallText(page);
        check(small.length === 0, `${label}: text under 12 px: ${small}`);
        // a card's name: its label, or (PSYCLE's, issue 43: Label in Name) its visible text with words for its symbols
        const labels = await page.$$eval('[data-card]', cs => cs.map(c => c.getAttribute('aria-label') ?? c.textContent));
        check(labels.length > 0 && labels.every(l => l.trim().length >= 2), `${label}: hand cards labelled (${labels.slice(0, 3)})`);
        if (game === 'psycle') check(labels.every(l => (lang === 'en' ? /cost .*beats/ : /コスト.*勝つ相手/).test(l)), `${label}: PSYCLE's cards labelled with cost and beats: ${labels[0]}`);
        if (game === 'timemasters') await timeMastersWords(page, label, lang);
        const keys = await page.evaluate(() => document.body.innerText.match(/(?<![\w.])(level|tmc|eff|ev|replay|score|over|bot_named|grace_left)\.\w\S*/g));
        check(!keys, `${label}: message keys shown: ${keys}`);
        // the Japanese page's tooltips say nothing in English (the server's texts stay in data-action, data-text)
        const tips = await page.evaluate(() => [...document.querySelectorAll('[title]')].map(n => n.title)
          .filter(s => /[A-Za-z]{2,}/.test(s.replace(/Ctrl\+Z|Aki/g, ''))));
        if (lang === 'ja') check(tips.length === 0, `${label}: tooltips in English: ${tips.slice(0, 3)}`);
        if (width === 390) {
          const fit = await onScreen(page);
          check(fit.card && fit.action, `${label}: the hand and the actions are on the phone's screen without scrolling (${JSON.stringify(fit)})`);
        }
        const rings = await focusRings(page);
        check(rings.length === 0, `${label}: no visible focus ring: ${rings}`);
        await axe(page, label);
        await page.screenshot({ path: path.join(outDir, `table_${game}_${width}_${lang}.png`) });
        if (width === 390) await phoneDock(page, label, game);
      }
      await ctx.close();
    }
  }
}

/** Issue 43, point 3: one sentence says what to do now, in the game's words and the page's language, on screen. */
const PROMPTS = {
  en: { psycle: /^Your turn: choose a card \d-\d \(you hold \d+ gems?\)\.$/, ninja: /^(Name the trump suit|Open a card of your hand|Lay a scroll tile on one of your open cards|Lead the trick: play any card|Play a card: follow the led suit \(\w+ .\) if you can)\.$/,
    octal: /^(Play a card on a dragon's question(, or pass)?|No card of yours fits a question: pass)\.$/, timemasters: /^Play cards or pass; then end the phase\.Pass: play nothing; all your Kè turns gold\.End the phase: take from the spheres, one card per spell cast\.$/ },
  ja: { psycle: /^あなたの番: カード\d〜\dから1枚選んでください\(ジェム \d+\)。$/, ninja: /^(切り札のスートを決めてください|手札から1枚公開してください|公開したカードに巻物タイルを置いてください|リードです: 好きなカードを出してください|カードを出してください: 出せるならリードのスート\(.\)を)。$/,
    octal: /^(竜の問いにカードを出す(か、パスして)?ください|問いに合うカードがありません: パスしてください)。$/, timemasters: /^カードを出すか、パスしてください。パス: .+フェイズを終える: .+$/ },
};
async function promptSaid(page, label, game, lang) {
  const line = await page.evaluate(() => {
    const p = document.querySelector('[data-prompt=act]');
    if (!p) return null;
    const r = p.getBoundingClientRect();
    return { text: p.textContent, onScreen: r.top >= 0 && r.bottom <= innerHeight && r.width > 0 };
  });
  check(line && PROMPTS[lang][game].test(line.text) && line.onScreen, `${label}: the prompt line says what to do, on screen: ${JSON.stringify(line)}`);
}

/** Issue 43's one screen: at 1280 x 800 the hand, the first action and the log's newest line; at 390 x 844 the
 * hand and the first action (the log is below the board); all without scrolling; nothing wider than the screen. */
async function oneScreenAt(page, label, width) {
  await page.evaluate(() => scrollTo(0, 0));
  const fit = await oneScreen(page);
  check(fit.card && fit.action && (width === 390 || fit.log), `${label}: one screen: the hand, the first action${width === 390 ? '' : ' and the newest log line'} on screen without scrolling (${JSON.stringify(fit)})`);
  const wider = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  check(wider <= 0, `${label}: nothing wider than the screen (${wider} px)`);
}

/** Issue 43, point 2, on a phone: the dock is small (a tapped card offers its moves: their buttons are folded),
 * PSYCLE's six cards all inside the screen, THE OCTAL's questions above the dock; acting (the dock's Pass)
 * never scrolls the page, and the questions stay in sight. Acts last: the page's turn is used up. */
async function phoneDock(page, label, game) {
  await page.evaluate(() => scrollTo(0, 0));
  const dock = await page.evaluate(() => {
    const d = document.querySelector('.dock.docked')?.getBoundingClientRect();
    const cards = [...document.querySelectorAll('.dock [data-card]')].map(c => c.getBoundingClientRect());
    const questions = [...document.querySelectorAll('.question')].map(q => q.getBoundingClientRect());
    return { share: d ? d.height / innerHeight : 1, top: d?.top ?? 0, cardsIn: cards.every(r => r.left >= 0 && r.right <= innerWidth),
      questionsIn: questions.every(r => r.top >= 0 && r.bottom <= (d?.top ?? innerHeight)),
      handFits: [...document.querySelectorAll('.dock .hand')].every(h => h.scrollWidth <= h.clientWidth) };
  });
  // Time Masters' hand wraps three cards to a row (each says what it does): two rows take more of the screen
  const most = game === 'timemasters' ? 0.4 : 0.3;
  check(dock.share <= most, `${label}: the dock takes ${Math.round(dock.share * 100)}% of the phone's screen (at most ${most * 100}%)`);
  // every game's hand fits the phone: PSYCLE's six cards, NINJA's seven narrower, Time Masters' wrapped; nothing
  // scrolls sideways (issue 43, round two: NINJA's and Time Masters' hands did)
  check(dock.cardsIn && dock.handFits, `${label}: every card of the docked hand inside the screen, the hand never scrolls sideways (${JSON.stringify(dock)})`);
  if (game !== 'octal') return;
  check(dock.questionsIn, `${label}: the dragon's questions above the dock`);
  const pass = page.locator('.dock .legal [data-action=pass]');
  if (!(await pass.isVisible())) return;
  const before = await page.evaluate(() => document.body.dataset.index);
  await pass.click();
  await until(page, i => document.body.dataset.index !== i, before, 5000, 'the pass shown').catch(() => {});
  await page.waitForTimeout(300);
  const after = await page.evaluate(() => [scrollY, [...document.querySelectorAll('.question')].every(q => q.getBoundingClientRect().top >= 0 && q.getBoundingClientRect().bottom <= innerHeight)]);
  check(after[0] === 0 && after[1], `${label}: passing from the dock leaves the page where it was (scrolled ${after[0]} px) and the questions in sight`);
}

/** The same at every game's smallest table (issue 43: layout at the largest and the smallest player counts),
 * English at 1280 x 800, Japanese at 390 x 844. */
async function smallestTables() {
  const smallest = { psycle: 2, ninja: 2, octal: 3, timemasters: 2 };
  for (const game of Object.keys(GAMES)) {
    for (const [locale, lang, width] of [['en-US', 'en', 1280], ['ja-JP', 'ja', 390]]) {
      const table = await botTable(game, smallest[game]);
      const { ctx, page } = await newPage(locale, width);
      await page.setViewportSize(width === 390 ? { width: 390, height: 844 } : { width: 1280, height: 800 });
      await sitDown(page, table);
      await page.waitForSelector('.board');
      await myTurn(page);
      await oneScreenAt(page, `${game} ${smallest[game]}p ${lang} ${width}`, width);
      if (width === 390) {
        // the docked hand fits the phone: no card cut, nothing scrolls sideways (NINJA's and Time Masters' did)
        const fits = await page.evaluate(() => [...document.querySelectorAll('.dock .hand')].every(h => h.scrollWidth <= h.clientWidth
          && [...h.querySelectorAll('.card')].every(c => c.getBoundingClientRect().right <= innerWidth)));
        check(fits, `${game} ${smallest[game]}p ${lang} 390: the docked hand fits the screen, never scrolls sideways`);
      }
      await page.screenshot({ path: path.join(outDir, `table_${game}${smallest[game]}_${width}_${lang}.png`) });
      await ctx.close();
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Issue 43's one screen, measured (part `fit`): every game's largest table in both languages. On a laptop
// (1280 x 800, 1366 x 768) the board, the hand and every control to act are inside the screen at once, scrolled to
// the top, and nothing covers any of them (the sticky dock, 298-351 px tall, covered the board's last rows); on a
// phone (390 x 844) no control covers another at any scroll position (the floating chat button covered the
// language switch). At the first turn and after 4 and 10 of the seat's moves, when the board has grown.
// ---------------------------------------------------------------------------------------------------------
const LAPTOPS = [{ width: 1280, height: 800 }, { width: 1366, height: 768 }];
const PHONE = { width: 390, height: 844 };

/** What of the table is not on one laptop screen, scrolled to the top: each of the board's parts (its top-level
 * blocks and every panel, question, sphere, tile or trick in them), the hand's cards, the prompt line and every
 * control to act (the dock's buttons and playable cards) must lie inside the screen, and the point at each one's
 * corners and centre must be the thing itself, not something over it (the dock, the side); the page must not
 * scroll. The boxes measured come back too: the board's, the dock's, the hand's, the last action's. */
const laptopScreen = page => page.evaluate(() => {
  scrollTo(0, 0);
  const box = e => { const r = e.getBoundingClientRect(); return { top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right) }; };
  const shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const board = document.querySelector('.play .board'), dock = document.querySelector('.dock.docked');
  const name = e => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}${e.dataset.action ? `[${e.dataset.action}]` : ''}${e.dataset.seat ? `[seat ${e.dataset.seat}]` : ''}`;
  const bad = [];
  const whole = (e, what) => {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return;
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) { bad.push(`${what} ${name(e)} outside the screen ${JSON.stringify(box(e))}`); return; }
    // five points a little inside its box: each must hit the thing itself (a card's outline is outside its box)
    const inset = Math.min(3, r.width / 4, r.height / 4);
    for (const [x, y] of [[r.left + inset, r.top + inset], [r.right - inset, r.top + inset], [r.left + inset, r.bottom - inset],
      [r.right - inset, r.bottom - inset], [(r.left + r.right) / 2, (r.top + r.bottom) / 2]]) {
      const hit = document.elementFromPoint(x, y);
      if (hit && !e.contains(hit) && !hit.contains(e)) { bad.push(`${what} ${name(e)} covered at (${Math.round(x)}, ${Math.round(y)}) by ${name(hit)}`); return; }
    }
  };
  if (!board || !dock) return { bad: [`no ${board ? 'dock' : 'board'}`] };
  const parts = [...board.firstElementChild.children, ...board.querySelectorAll('.player, .question, .sphere, .tile, .trick, .timer, .released, .zone, .choice')];
  parts.filter(shown).forEach(e => whole(e, 'the board\'s'));
  document.querySelectorAll('.dock .hand [data-card]').forEach(e => whole(e, 'the hand\'s'));
  [...document.querySelectorAll('.dock .legal button, .dock .prompt, .dock button.undo, .menu button')].filter(shown).forEach(e => whole(e, 'to act:'));
  const acts = [...document.querySelectorAll('.dock .legal button')].filter(shown);
  const b = box(board), d = box(dock);
  const crossing = Math.max(0, Math.min(b.bottom, d.bottom) - Math.max(b.top, d.top)) * Math.max(0, Math.min(b.right, d.right) - Math.max(b.left, d.left));
  if (crossing > 0) bad.push(`the dock ${JSON.stringify(d)} over the board ${JSON.stringify(b)}`);
  // and the page itself has nothing below the screen to scroll to (the side's log and chat scroll in their box)
  const below = document.documentElement.scrollHeight - innerHeight;
  if (below > 0) bad.push(`the page scrolls ${below} px`);
  return { bad, board: b, dock: d, hand: box(document.querySelector('.dock .hand') ?? dock), lastAct: acts.length ? box(acts[acts.length - 1]) : null,
    page: document.documentElement.scrollHeight, acts: acts.length };
});

/** The controls that cover another on a phone at scroll position Y (px): every visible control (link, button, field,
 * playable card, focusable box) is hit-tested on a grid of points inside its visible box (cut by the screen and by
 * the boxes that scroll it); a point that hits another control (not one inside or around it) is covered. Under a
 * bar fixed across the screen (the dock; the open chat sheet) the page is off the screen, not covered: only a
 * smaller floating thing (the chat button) can cover. */
const coveredAt = (page, y) => page.evaluate(y => {
  scrollTo(0, y);
  const CONTROL = 'a[href], button, input, select, textarea, summary, [role=button], [tabindex]:not([tabindex="-1"])';
  const name = e => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.classList.length ? `.${[...e.classList].join('.')}` : ''}${e.dataset.action ? `[${e.dataset.action}]` : ''} "${e.textContent.trim().slice(0, 16)}"`;
  const bar = e => { for (let a = e; a && a !== document.body; a = a.parentElement) {
    const st = getComputedStyle(a);
    if ((st.position === 'fixed' || st.position === 'sticky') && a.getBoundingClientRect().width >= innerWidth * 0.9) return a;
  } return null; };
  const found = new Set();
  for (const c of document.querySelectorAll(CONTROL)) {
    if (!c.getClientRects().length || getComputedStyle(c).visibility === 'hidden' || c.closest('.sr-only')) continue;
    const r = c.getBoundingClientRect();
    let l = Math.max(r.left, 0), t = Math.max(r.top, 0), rr = Math.min(r.right, innerWidth), b = Math.min(r.bottom, innerHeight);
    for (let a = c.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.overflowX !== 'visible' || st.overflowY !== 'visible') { const q = a.getBoundingClientRect(); l = Math.max(l, q.left); t = Math.max(t, q.top); rr = Math.min(rr, q.right); b = Math.min(b, q.bottom); }
      if (st.position === 'fixed') break;
    }
    if (rr - l < 2 || b - t < 2) continue;
    // every 4 px across, its edges included: a button two pixels under another is covered too
    const across = (from, to) => Array.from({ length: Math.ceil((to - from - 1) / 4) + 1 }, (_, k) => Math.min(from + 0.5 + 4 * k, to - 0.5));
    for (const x of across(l, rr)) for (const yy of across(t, b)) {
      const hit = document.elementFromPoint(x, yy);
      const over = hit?.closest(CONTROL);
      if (!over || over === c || c.contains(over) || over.contains(c)) continue;
      const frame = bar(over), fr = frame?.getBoundingClientRect();
      // under the dock: scrolled off the screen (a button floating outside the dock's own box still covers)
      if (frame && !frame.contains(c) && x >= fr.left && x <= fr.right && yy >= fr.top && yy <= fr.bottom) continue;
      found.add(`${name(over)} covers ${name(c)} at scroll ${Math.round(scrollY)}`);
    }
  }
  return [...found];
}, y);

/** Plays MOVES moves of PAGE's seat, each its last legal action other than a pass or ending the phase where there
 * is one (a card played, a timer set: the board grows, where passes would end the game at once), and waits for its
 * next turn; whether the game is still played. */
async function playLastMoves(page, moves) {
  for (let k = 0; k < moves; k++) {
    const before = await page.evaluate(() => document.body.dataset.index);
    await page.evaluate(() => {
      const acts = [...document.querySelectorAll('.legal [data-action]')];
      (acts.filter(a => !/^(pass|done)$/.test(a.dataset.action)).pop() ?? acts.pop())?.click();
    });
    await until(page, i => document.body.dataset.index !== i && (document.querySelectorAll('.legal [data-action]').length > 0 || document.body.dataset.status === 'over'),
      before, 20000, 'the next turn').catch(() => {});
  }
  return page.evaluate(() => document.body.dataset.status === 'playing' && document.querySelectorAll('.legal [data-action]').length > 0);
}

/** One run: GAME's largest table in LANG, measured at both laptop sizes and on a phone, at its first turn and
 * again after 4 and 10 of its moves; the screenshots fit_GAME_WxH_LANG[_later|_late].png. */
async function fitRun({ game, locale, lang }) {
  const players = GAMES[game];
  // (THE OCTAL's deal 1: still played after ten of the seat's moves, where deal 7 ends before its fourth)
  const table = await botTable(game, players, game === 'octal' ? { seed: 1 } : {});
  const { ctx, page } = await newPage(locale, 1280);
  await sitDown(page, table);
  await page.waitForSelector('.board');
  await myTurn(page);
  for (const [when, moves] of [['first', 0], ['later', 4], ['late', 6]]) {
    await page.setViewportSize(LAPTOPS[0]);
    if (!(await playLastMoves(page, moves))) break;   // (the game is over: its earlier turns were measured)
    for (const size of LAPTOPS) {
      const label = `${game} ${players}p ${lang} ${size.width}x${size.height} ${when}`;
      await page.setViewportSize(size);
      const m = await laptopScreen(page);
      if (process.env.ASOBI_WEB_DEBUG) console.log(label, JSON.stringify(m));
      check(m.bad.length === 0, `${label}: the board, the hand and the controls to act on one screen, none covered: ${m.bad.slice(0, 4).join('; ')} (${JSON.stringify({ board: m.board, dock: m.dock, page: m.page })})`);
      await page.screenshot({ path: path.join(outDir, `fit_${game}_${size.width}x${size.height}_${lang}${when === 'first' ? '' : `_${when}`}.png`) });
    }
    const label = `${game} ${players}p ${lang} 390x844 ${when}`;
    await page.setViewportSize(PHONE);
    const end = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
    const covered = [];
    for (const y of [0, 20, 60, 150, 400, Math.round(end / 2), end]) covered.push(...await coveredAt(page, Math.min(y, end)));
    check(covered.length === 0, `${label}: no control covers another at any scroll position: ${[...new Set(covered)].slice(0, 4).join('; ')}`);
    if (when === 'first') {
      // the chat unfolded: a sheet over the page whose own close button covers nothing; closing it gives the
      // keyboard back to the chat's button (under the sheet while it is open)
      await page.click('#chat-opener');
      const open = await coveredAt(page, 0);
      check(open.length === 0, `${label}: with the chat open no control covers another: ${open.slice(0, 4).join('; ')}`);
      await page.click('#chat-close');
      const back = await page.evaluate(() => [document.activeElement?.id, getComputedStyle(document.querySelector('.chat')).display]);
      check(back[0] === 'chat-opener' && back[1] === 'none', `${label}: the chat's own button closes it, the keyboard back on the chat's button (${back})`);
    }
    await page.evaluate(() => scrollTo(0, 0));
    await page.screenshot({ path: path.join(outDir, `fit_${game}_390x844_${lang}${when === 'first' ? '' : `_${when}`}.png`) });
  }
  await axe(page, `${game} ${lang} fit`);
  await ctx.close();
}
const fit = () => everyGameAndLanguage().map(run => [`fit ${run.game} ${run.lang}`, () => fitRun(run)]);

// ---------------------------------------------------------------------------------------------------------
// Keyboard play (issue 41): Tab to an action and press Enter, Tab to a card of the hand and press Enter (and to
// the action of its menu, when it opens one): each makes exactly one act, the one focused.
// ---------------------------------------------------------------------------------------------------------
/** Presses Tab until the focused element matches SEL (at most 80 times); whether it did. */
async function tabTo(page, sel) {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(s => document.activeElement?.matches(s) ?? false, sel)) return true;
  }
  return false;
}

async function keyboardPlay() {
  for (const game of ['psycle', 'octal'].filter(g => g in GAMES)) {
    const label = `${game}: keyboard play`;
    const table = await botTable(game, 2 + (game === 'octal'));
    const { ctx, page } = await newPage('en-US', 1280);
    const acts = [];
    page.on('websocket', ws => ws.on('framesent', f => {
      try { const m = JSON.parse(f.payload); if (m.type === 'act') acts.push(m.action); } catch { /* not JSON */ }
    }));
    await sitDown(page, table);
    await page.waitForSelector('.board');
    await myTurn(page);
    // an action of the list of legal actions
    let reached = await tabTo(page, '.legal button[data-action]');
    check(reached, `${label}: Tab reaches an action button`);
    if (reached) {
      const focused = await page.evaluate(() => document.activeElement.dataset.action);
      await page.keyboard.press('Enter');
      await page.waitForTimeout(1000);
      check(acts.length === 1 && acts[0] === focused, `${label}: Enter on "${focused}" sends it, once (${JSON.stringify(acts)})`);
    }
    // a card of the hand (a card that performs one action does it; one of several opens their menu)
    const before = acts.length;
    await until(page, () => document.querySelector('.dock [data-card].can'), null, 30000, `${label}: a playable card`);
    reached = await tabTo(page, '.dock [data-card].can');
    check(reached, `${label}: Tab reaches a playable card of the hand`);
    if (reached) {
      const one = await page.evaluate(() => document.activeElement.dataset.action ?? null);
      await page.keyboard.press('Enter');
      let focused = one;
      if (one === null) {   // the card's menu: Tab on to one of its actions
        const inMenu = await tabTo(page, '.menu [data-action]');
        check(inMenu, `${label}: Tab reaches an action of the card's menu`);
        focused = inMenu ? await page.evaluate(() => document.activeElement.dataset.action) : null;
        if (inMenu) await page.keyboard.press('Enter');
      }
      await page.waitForTimeout(1000);
      check(acts.length === before + 1 && acts.at(-1) === focused,
        `${label}: Enter on a card sends its action "${focused}", once (${JSON.stringify(acts.slice(before))})`);
    }
    await ctx.close();
  }
}

/** Time Masters' cards say what they do: every card face (hand, spheres, timers) has its kind, level and
 * cost and its effect in words, in the page's language; its label says the same. */
async function timeMastersWords(page, label, lang) {
  await until(page, () => document.querySelector('.tm-card .effect'), null, 5000, 'the card set');
  const faces = await page.$$eval('.tm-card', cs => cs.map(c => [c.querySelector('.name')?.textContent,
    c.querySelector('.kind')?.textContent ?? '', c.querySelector('.effect')?.textContent ?? '', c.getAttribute('aria-label') ?? c.textContent, Boolean(c.closest('.spheres'))]));
  const kind = lang === 'en' ? /^(Spell|Focus|Timer) · level \d · / : /^(スペル|フォーカス|タイマー) · レベル\d · /;
  const bad = faces.filter(([, k, e, l]) => !kind.test(k) || !e || !l.includes(e));
  check(faces.length > 0 && bad.length === 0, `${label}: cards without their words: ${bad.slice(0, 2).map(f => f.join('/'))}`);
  check(faces.some(f => f[4]), `${label}: the spheres' cards say what they do too`);
  const suggestion = faces.find(f => f[0] === (lang === 'en' ? 'Suggestion' : 'サジェスチョン'));
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
    { type: 'reminder', seat: 1, cost: 0, limit: 3 }, { type: 'reminder_used', seat: 1, cost: 1, limit: 0 },
    { type: 'reminder_used', seat: 1, cost: 0, limit: 3 }, { type: 'ke_lost', seat: 0, kind: 'ephemeral', count: 1, cap: 4 },
    { type: 'card_removed', seat: 0, card: 'Suggestion' }, { type: 'timer_released', seat: 0, timer: 2, card: 'Clock', spells: ['Spark'] },
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
// Words that are right (issue 43, point 4): the result, the boards and the events drawn from made-up views by
// the page's own modules, in both languages: no "undefined", a tie said as one, no label left empty, NINJA's
// suits named in English with the kanji beside, the shadow's early end, Japanese never broken inside a word.
// ---------------------------------------------------------------------------------------------------------
const BROKEN = /undefined|NaN|\[object/;
async function rightWords() {
  for (const [locale, lang] of LOCALES) {
    const { ctx, page } = await newPage(locale, 390);
    await page.goto(`${base}/rules/psycle.html`);
    const said = await page.evaluate(async () => {
      const i18n = await import('/js/i18n.js'), dom = await import('/js/dom.js'), result = await import('/js/result.js');
      const ninja = await import('/js/games/ninja.js'), octal = await import('/js/games/octal.js'), tm = await import('/js/games/timemasters.js');
      const name = s => `P${s + 1}`;
      const ctx = { ...i18n, el: dom.el, legal: [], seat: 0, name, cardSet: null, actionable: n => n, label: a => a };
      const text = node => { const d = document.createElement('div'); d.append(node); document.body.append(d); const s = d.innerText; d.remove(); return s; };
      // THE OCTAL, 6 players, one finisher and five sharing 2nd
      const octalView = { game: 'octal', capped: false, players: [0, 1, 2, 3, 4, 5].map(s => ({ seat: s, hand_size: s, finished_rank: s ? null : 1 })) };
      const octalResult = text(result.resultSection({ seat: 2, view: octalView, over: 'x', result: { winners: [0], ranks: [1, 2, 2, 2, 2, 2], scores: [6, -1, -2, -3, -4, -5] } }, octal, ctx, () => {}));
      // NINJA, 2 players: the shadow first after round 2
      const shadowView = { game: 'ninja', round: 2, shadow_won: true, players: [{ seat: 0 }, { seat: 1 }, { seat: 2, shadow: true, points: 9 }] };
      const why = result.whyOver(shadowView, { winners: [] }, name, ninja);
      // NINJA's board: a void in three suits, nothing won yet, a last trick
      const ninjaView = { game: 'ninja', round: 1, phase: 'battle', pile_size: 3, trump: 'fire', to_move: [0], trick: [],
        last_trick: { cards: [{ seat: 0, card: 'wood-4', scroll: null }, { seat: 1, card: 'water-2', scroll: 3 }], winner: 0 },
        players: [{ seat: 0, hand: ['fire-1'], hand_size: 1, points: 0, won: [], void: ['water', 'wood', 'earth'], open: [], scrolls: [] },
          { seat: 1, hand: null, hand_size: 1, points: 3, won: [3], void: [], open: [] }] };
      const ninjaBoard = text(ninja.render(ninjaView, ctx));
      // Time Masters: an empty spell zone and no timers
      const tmView = { game: 'timemasters', turn: 1, phase: 'main', active: 0, access_points: 0, spell_zone: [], choice: null, spheres: [],
        players: [{ seat: 0, ke_ready: 1, ke_spent: 0, ke_ephemeral: 0, hand: [], hand_size: 0, deck_size: 5, discard: [], points: 0, timers: [], released: [] }] };
      const tmBoard = text(tm.render(tmView, ctx));
      // an event told to another seat: no points (docs/protocol.md)
      const taken = i18n.eventPhrase('timemasters', { kind: 'event', text: 'x', event: { type: 'card_taken', seat: 1, level: 3, card: null, hidden: true } }, name);
      // PSYCLE's panel: the net score after the gem penalty (point 8)
      const psycleView = { game: 'psycle', cycle: 1, round: 2, target: 3, bonus: 2, revealed: [], supply: 20, to_move: [0], last_round: null,
        players: [{ seat: 0, gems: 7, points: 4, victory_tiles: 0, hand: ['0', '1'], choice: null, chosen: false }] };
      const psycleBoard = text((await import('/js/games/psycle.js')).render(psycleView, ctx));
      // an away seat with a clock: one countdown, the one that acts first (point 8)
      const seats = await import('/js/seats.js');
      const bar = (grace, clock) => text(seats.seatsBar({ status: 'playing', seat: 0, received: performance.now(), view: { to_move: [1] },
        clock: { remaining_ms: [60000, clock], running: [1] },
        seats: [{ seat: 0, name: 'Aki', connected: true }, { seat: 1, name: 'Ben', connected: false, grace_left_ms: grace }] }, null)).split('2. Ben')[1];
      // the waiting line (point 3): a bot thinking, a person waited for
      const { promptLine } = await import('/js/prompt.js');
      const waitFor = bot => text(promptLine({ status: 'playing', seat: 0, view: { to_move: [1] },
        seats: [{ seat: 0, name: 'Aki' }, { seat: 1, name: bot ? null : 'Ben', bot: bot ? 'random' : null, level: bot ? 'easy' : null }] },
      null, { ...ctx, legal: [], name: s => (s ? (bot ? (i18n.lang === 'ja' ? 'ボット2(やさしい)' : 'Bot 2 (easy)') : 'Ben') : 'Aki') }));
      return { octalResult, why, ninjaBoard, tmBoard, taken, psycleBoard, graceFirst: bar(10000, 15000), clockFirst: bar(110000, 15000),
        thinking: waitFor(true), waiting: waitFor(false) };
    });
    const all = Object.values(said).join('\n');
    check(!BROKEN.test(all), `words ${lang}: no "undefined", "NaN" or "[object": ${all.match(BROKEN)?.[0]} in ${all.replace(/\n/g, ' / ').slice(0, 300)}`);
    check((lang === 'en' ? /You tied for 2nd of 6/ : /6人中2位タイ/).test(said.octalResult), `words ${lang}: THE OCTAL's shared 2nd is said as a tie: ${said.octalResult}`);
    check((lang === 'en' ? /tied 2nd/ : /2位タイ/).test(said.octalResult) && (lang === 'en' ? /did not finish/ : /上がれず/).test(said.octalResult)
      && !/-\d/.test(said.octalResult), `words ${lang}: the score column agrees with the ranks: ${said.octalResult.replace(/\n/g, ' / ')}`);
    check(!/Three rounds|3ラウンド/.test(said.why) && /2/.test(said.why), `words ${lang}: the shadow's end after round 2: ${said.why}`);
    check(!/:\s*(·|\n|$)/m.test(said.ninjaBoard) && !/:\s*(·|\n|$)/m.test(said.tmBoard), `words ${lang}: no label left empty: ${said.ninjaBoard.replace(/\n/g, ' / ')} | ${said.tmBoard.replace(/\n/g, ' / ')}`);
    if (lang === 'en') {
      check(/void in water 水, wood 木, earth 土/.test(said.ninjaBoard), `words en: NINJA's suits named in English with the kanji: ${said.ninjaBoard.replace(/\n/g, ' / ')}`);
      check(/wood 4 木/.test(said.ninjaBoard), `words en: the last trick's chips named in English: ${said.ninjaBoard.replace(/\n/g, ' / ')}`);
    }
    check(!BROKEN.test(said.taken) && /3/.test(said.taken), `words ${lang}: a card taken, told without points: ${said.taken}`);
    check(WAIT_LINE[lang].test(said.thinking) && /(Bot |ボット)2/.test(said.thinking) && WAIT_LINE[lang].test(said.waiting) && /Ben/.test(said.waiting),
      `words ${lang}: the waiting line says who: ${said.thinking} | ${said.waiting}`);
    check((lang === 'en' ? /net -3/ : /差し引き-3点/).test(said.psycleBoard), `words ${lang}: PSYCLE's panel gives the net score after the gems: ${said.psycleBoard.replace(/\n/g, ' / ')}`);
    const countdowns = x => (x.match(/\d+:\d\d/g) ?? []).length + (x.match(/(in|あと)\s?\d+\s?(s|秒)/g) ?? []).length;
    check(countdowns(said.graceFirst) === 1 && countdowns(said.clockFirst) === 1 && /0:15/.test(said.clockFirst) && !/0:15/.test(said.graceFirst),
      `words ${lang}: an away seat with a clock shows the countdown that acts first, alone: ${said.graceFirst} | ${said.clockFirst}`);
    // Japanese breaks between words: no word of a narrow table page broken across two lines
    if (lang === 'ja') {
      const style = await page.evaluate(() => [getComputedStyle(document.body).wordBreak, getComputedStyle(document.body).lineBreak]);
      check(/keep-all|auto-phrase/.test(style[0]) && style[1] === 'strict', `words ja: line breaking by phrases (${style})`);
    }
    await ctx.close();
  }
}

/** Issue 43, point 7: a moment (`data-moment`) plays once, the first time its key is drawn, in at most the
 * pacing's 0.6 s; never under reduced motion; never on a page's first drawing (what was, not what happens). */
async function moments() {
  for (const motion of ['no-preference', 'reduce']) {
    const { ctx, page } = await newPage('en-US', 1280, motion);
    await page.goto(`${base}/rules/psycle.html`);
    const played = await page.evaluate(async () => {
      const { playMoments } = await import('/js/moments.js');
      const root = document.createElement('div');
      const draw = key => { root.innerHTML = `<div data-moment="${key}"></div>`; document.body.append(root); playMoments(root); return root.firstChild.getAnimations(); };
      playMoments(Object.assign(document.createElement('div'), { innerHTML: '<i data-moment="reveal 0"></i>' }), true);
      const again = draw('reveal 0').length, fresh = draw('reveal 1'), redrawn = draw('reveal 1').length;
      return { first: again, fresh: fresh.length, redrawn, ms: fresh[0]?.effect.getTiming().duration ?? 0 };
    });
    if (motion === 'reduce') check(played.fresh === 0, `moments: none under reduced motion (${JSON.stringify(played)})`);
    else check(played.first === 0 && played.fresh === 1 && played.redrawn === 0 && played.ms > 0 && played.ms <= 600,
      `moments: a new moment plays once, within the pacing, not on the first drawing (${JSON.stringify(played)})`);
    await ctx.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Issue 43, round two (points 7, 8 and 10), played at each game's smallest table in both languages.
// ---------------------------------------------------------------------------------------------------------
const FIRST = { psycle: 2, ninja: 2, octal: 3, timemasters: 2 };
const FIRST_RUNS = [['en-US', 'en', 1280], ['ja-JP', 'ja', 390]];

/** Plays PAGE's seat by its first legal action (clicked as a person would, by script when a phone folds it)
 * until DONE(page) holds, the game is over or MOVES moves were made; whether DONE held. */
async function playFirstMoves(page, done, moves = 30) {
  for (let k = 0; k < moves; k++) {
    if (await done(page)) return true;
    if (await page.evaluate(() => document.body.dataset.status === 'over')) return false;
    const before = await page.evaluate(() => document.body.dataset.index);
    await page.evaluate(() => document.querySelector('.legal [data-action]')?.click());
    await until(page, i => document.body.dataset.index !== i && (document.querySelectorAll('.legal [data-action]').length > 0 || document.body.dataset.status === 'over'),
      before, 20000, 'the next turn').catch(() => {});
  }
  return done(page);
}

/** Point 7, live: each game's moment plays on a real table (PSYCLE's reveal, NINJA's trick swept to its winner,
 * THE OCTAL's card onto a question, Time Masters' card flying to its taker, the cue of your turn), within the
 * pacing, a flying card never in the way of a click; under reduced motion none at all. The page's animations are
 * recorded as they start (Element.animate, wrapped before the page's own scripts run). */
const MOMENT_OF = { psycle: 'reveal', ninja: 'flying', octal: 'slide', timemasters: 'flying' };
async function flights() {
  for (const game of Object.keys(GAMES)) {
    for (const [[locale, lang, width], motion] of [[FIRST_RUNS[0], 'no-preference'], [FIRST_RUNS[1], 'no-preference'], [FIRST_RUNS[0], 'reduce']]) {
      const label = `flights ${game} ${lang} ${width} ${motion}`;
      const { ctx, page } = await newPage(locale, width, motion);
      await ctx.addInitScript(() => {
        localStorage.setItem('asobi.pace', '150');   // quicker bots: the moments are the same
        window.__played = [];
        const animate = Element.prototype.animate;
        Element.prototype.animate = function (...args) {
          const a = animate.apply(this, args);
          const r = this.getBoundingClientRect();
          const x = r.left + r.width / 2, y = r.top + r.height / 2;
          window.__played.push({ kind: this.classList.contains('flying') ? 'flying' : this.dataset.moment?.split(' ')[0] ?? '?',
            ms: a.effect.getTiming().duration, clickThrough: getComputedStyle(this).pointerEvents === 'none'
              || !this.classList.contains('flying') || document.elementFromPoint(x, y) !== this });
          return a;
        };
      });
      const table = await botTable(game, FIRST[game]);
      await sitDown(page, table);
      await myTurn(page);
      const want = MOMENT_OF[game];
      const seen = await playFirstMoves(page, p => p.evaluate(k => window.__played.some(m => m.kind === k), want), game === 'ninja' ? 40 : 25);
      const played = await page.evaluate(() => window.__played);
      const kinds = [...new Set(played.map(m => m.kind))];
      if (motion === 'reduce') check(played.length === 0, `${label}: no animation at all under reduced motion (${kinds})`);
      else {
        check(seen, `${label}: the game's moment (${want}) plays on a real table (${kinds})`);
        check(kinds.includes('turn'), `${label}: the soft cue of your turn plays (${kinds})`);
        check(played.every(m => m.ms > 0 && m.ms <= 600), `${label}: every moment within the pacing's 0.6 s (${played.map(m => m.ms)})`);
        check(played.every(m => m.clickThrough), `${label}: a flying card is never in the way of a click`);
      }
      // input never waits for a moment: the first action is live the moment the turn is drawn
      const live = await page.evaluate(() => { const b = document.querySelector('.legal [data-action]'); return !b || (!b.disabled && getComputedStyle(b).pointerEvents !== 'none'); });
      check(live, `${label}: the actions are live while moments play`);
      if (motion !== 'reduce' && game === 'timemasters') await page.screenshot({ path: path.join(outDir, `flights_${game}_${width}_${lang}.png`) });
      await ctx.close();
    }
  }
}

/** Point 8: while the socket is down (dropped by the page's own WebSocket, held down until let up), the move
 * buttons are disabled, the cards inert, and the prompt line says so; a click sends nothing; back, they are live. */
const OFFLINE = { en: 'Reconnecting: your moves can be made again once the table is back.', ja: '再接続中です。テーブルに戻ると、また手を選べます。' };
async function offline() {
  for (const game of Object.keys(GAMES)) {
    for (const [locale, lang, width] of FIRST_RUNS) {
      const label = `offline ${game} ${lang} ${width}`;
      const { ctx, page } = await newPage(locale, width);
      await ctx.addInitScript(() => {
        const Real = window.WebSocket;
        window.__sockets = []; window.__down = false;
        window.WebSocket = function (url, protocols) {
          if (window.__down) {   // the network is down: a socket that closes at once, without a try
            const gone = { readyState: 3, send() {}, close() {} };
            setTimeout(() => gone.onclose?.({ code: 1006 }), 50);
            return gone;
          }
          const ws = new Real(url, protocols);
          window.__sockets.push(ws);
          return ws;
        };
        Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
        window.WebSocket.prototype = Real.prototype;
      });
      const table = await botTable(game, FIRST[game]);
      await sitDown(page, table);
      await myTurn(page);
      // your own chip and the last mover's look nothing like the keyboard's focus ring (point 8)
      const rings = await page.evaluate(() => [...document.querySelectorAll('.seatchip.me, .seatchip.just-moved')].filter(c => c !== document.activeElement)
        .map(c => getComputedStyle(c)).filter(st => st.outlineStyle !== 'none' || /(rgb\(13, 71, 161\)|rgb\(21, 101, 192\)) 0px 0px 0px [1-9]/.test(st.boxShadow)).length);
      check(rings === 0, `${label}: no seat chip ringed like the keyboard's focus (${rings})`);
      await page.evaluate(() => { window.__down = true; for (const ws of window.__sockets) ws.close(); });
      await until(page, () => document.body.dataset.conn === 'reconnecting', null, 5000, 'the page reconnecting').catch(() => {});
      const down = await page.evaluate(() => ({
        prompt: document.querySelector('[data-prompt=offline]')?.textContent ?? null,
        buttons: [...document.querySelectorAll('.legal button[data-action]')].map(b => b.disabled),
        cards: [...document.querySelectorAll('.can')].map(c => getComputedStyle(c).pointerEvents),
        conn: document.querySelector('header [data-conn]')?.textContent, index: document.body.dataset.index }));
      check(down.prompt === OFFLINE[lang], `${label}: the prompt line says the moves wait for the table (${down.prompt})`);
      check(down.buttons.length > 0 && down.buttons.every(Boolean) && down.cards.every(p => p === 'none'),
        `${label}: every move button disabled, every card inert (${JSON.stringify(down)})`);
      await page.evaluate(() => document.querySelector('.can')?.click());
      await page.waitForTimeout(300);
      check(await page.evaluate(() => document.body.dataset.index) === down.index, `${label}: a click while reconnecting makes no move`);
      await page.screenshot({ path: path.join(outDir, `offline_${game}_${width}_${lang}.png`) });
      await page.evaluate(() => { window.__down = false; });
      const back = await until(page, () => document.body.dataset.conn === 'connected' && [...document.querySelectorAll('.legal button[data-action]')].some(b => !b.disabled),
        null, 15000, 'the seat back').then(() => true, () => false);
      check(back && !(await page.$('[data-prompt=offline]')), `${label}: back, the moves are live again and the line says what to do`);
      await ctx.close();
    }
  }
}

/** Point 10: a first game that teaches. The first table of each game on this device gives one tip a turn, under
 * the prompt line, in the page's language, each a different one; its "Rules of this game" opens the rules at the
 * section of the page's language; the first action stays on screen; a second table of the game gives none; the
 * tips can be hidden, for good. */
const TIP = { en: /^Tip: \S.{20,}[.!]$/, ja: /^ヒント: \S.{10,}。$/ };
async function teach() {
  for (const game of Object.keys(GAMES)) {
    for (const [locale, lang, width] of FIRST_RUNS) {
      const label = `teach ${game} ${lang} ${width}`;
      const { ctx, page } = await newPage(locale, width, 'reduce', true);
      const table = await botTable(game, FIRST[game]);
      await sitDown(page, table);
      await myTurn(page);
      const tipNow = () => page.evaluate(() => {
        const p = document.querySelector('[data-teach]');
        if (!p) return null;
        const r = p.getBoundingClientRect();
        return { key: p.dataset.teach, text: p.querySelector('.tip').textContent, rules: p.querySelector('a').getAttribute('href'),
          link: p.querySelector('a').textContent, onScreen: r.top >= 0 && r.bottom <= innerHeight, hide: p.querySelector('[data-teach-hide]')?.getAttribute('aria-label') };
      });
      const first = await tipNow();
      check(first && TIP[lang].test(first.text) && !BROKEN.test(first.text) && first.onScreen, `${label}: the first turn's tip, on screen (${JSON.stringify(first)})`);
      check(first?.rules === `/rules/${game}.html#${lang}-play` && first?.link === (lang === 'en' ? 'Rules of this game' : 'このゲームのルール'),
        `${label}: the tip's "Rules of this game" (${first?.rules})`);
      const fit = await oneScreen(page);
      check(fit.card && fit.action, `${label}: the hand and the first action still on screen with the tip (${JSON.stringify(fit)})`);
      await axe(page, label);
      if (first) {
        // the rules open at the section of the page's language
        const rules = await ctx.newPage();
        await rules.goto(`${base}${first.rules}`);
        const section = await rules.evaluate(id => { const h = document.getElementById(id); return h && h.getClientRects().length > 0 && h.closest('section').lang; }, `${lang}-play`);
        check(section === lang, `${label}: the rules open at the ${lang} section (${section})`);
        await rules.close();
      }
      // one tip a turn, the same through redraws of the turn (the language switched there and back), a new one the next
      await page.click('#lang-switch'); await page.click('#lang-switch');
      const same = await tipNow();
      check(same?.key === first?.key, `${label}: the turn's tip stays through a redraw (${first?.key}, ${same?.key})`);
      const keys = first ? [first.key] : [];
      await playFirstMoves(page, async p => { const k = (await tipNow())?.key; if (k && !keys.includes(k)) keys.push(k); return keys.length >= 2; }, 12);
      check(keys.length >= 2, `${label}: a new tip on a later turn (${keys})`);
      // a second table of the same game: no tips (the first table teaches)
      const second = await browserPageIn(ctx, await botTable(game, FIRST[game]));
      check(!(await second.$('[data-teach]')), `${label}: a second table of the game gives no tips`);
      await second.close();
      // hidden: gone now and after a reload
      await myTurn(page);
      if (await page.$('[data-teach]')) {
        await page.click('[data-teach-hide]');
        check(!(await page.$('[data-teach]')), `${label}: the tips hidden`);
      }
      await page.reload();
      await myTurn(page);
      check(!(await page.$('[data-teach]')) && (await page.evaluate(g => JSON.parse(localStorage.getItem(`asobi.teach.${g}`)).hidden, game)),
        `${label}: the tips stay hidden after a reload`);
      if (first) await page.screenshot({ path: path.join(outDir, `teach_${game}_${width}_${lang}.png`) });
      await ctx.close();
    }
  }
}

/** A second page in CTX seated at TABLE, at its turn. */
async function browserPageIn(ctx, table) {
  const page = await ctx.newPage();
  await sitDown(page, table);
  await myTurn(page);
  return page;
}

// ---------------------------------------------------------------------------------------------------------
// Pacing, joining, leavers and sound: every game, both languages, both widths. Each run opens its page at one
// width and checks its points there, then resized at the other (a run of English starts at 1280 px, one of
// Japanese at 390: the screenshots show both). Small tables: these points are the page's, not the table's
// size (tablePages has every game's largest table at both widths).
// ---------------------------------------------------------------------------------------------------------
const SMALL = { psycle: 3, ninja: 4, octal: 3, timemasters: 2 };
const LOCALES = [['en-US', 'en'], ['ja-JP', 'ja']];
const BOT_SAYS = { en: /^Bot \d \((easy|medium|strong)\) /, ja: /^ボット\d\((やさしい|ふつう|つよい)\)/ };
const YOUR_TURN = { en: 'Your turn.', ja: 'あなたの番です。' };
const WAIT_LINE = { en: /^(Bot \d \((easy|medium|strong)\) is thinking…|Waiting for .+\.)$/, ja: /^(ボット\d\((やさしい|ふつう|つよい)\)が考えています…|.+を待っています。)$/ };
const WIDTHS = { en: [1280, 390], ja: [390, 1280] };
const sizeOf = width => (width === 390 ? { width: 390, height: 844 } : { width, height: 900 });

/** Every game in both languages: the runs of the parts below. */
const everyGameAndLanguage = () => Object.keys(GAMES).flatMap(game => LOCALES.map(([locale, lang]) => ({ game, locale, lang })));

const lap = (what, t0) => process.env.ASOBI_WEB_PROFILE && console.log(`  ${what}: ${((Date.now() - t0) / 1000).toFixed(2)} s`);

/** A table of GAME with seats 0 and 1 for people (OCTAL's third seat a bot); its id. */
const twoPeople = (game, extra = {}) => post('/api/tables', { game, players: game === 'octal' ? 3 : 2,
  bots: game === 'octal' ? [null, null, 'random'] : [null, null], ...extra }).then(r => r.table);

/** Whether the element SEL is on PAGE's screen (inside the viewport, not scrolled away); with TOP, once the
 * page is scrolled to its top (the header and the notices, where a player who scrolled down to the board looks). */
const visible = (page, sel, top = false) => page.evaluate(([s, top]) => {
  if (top) scrollTo(0, 0);
  const e = document.querySelector(s);
  if (!e) return false;
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
}, [sel, top]);

/** Records on PAGE each step shown (when, the log's last index, the seat that moved last, the steps still
 * waiting) in window.__shown, and what the live region says in window.__said. */
const watchSteps = page => page.evaluate(() => {
  window.__shown = []; window.__said = []; window.__waits = [];
  let lines = document.querySelectorAll('.log li').length;
  new MutationObserver(() => {
    const now = document.querySelectorAll('.log li').length;
    // issue 43: the waiting line says whom the table waits for while the others move
    const wait = document.querySelector('[data-prompt=wait]')?.textContent;
    if (wait) window.__waits.push(wait);
    if (now !== lines) window.__shown.push([performance.now(), Number(document.body.dataset.index),
      document.querySelector('.seatchip.just-moved')?.dataset.seat ?? null, document.body.dataset.waiting]);
    lines = now;
  }).observe(document.body, { attributes: true, attributeFilter: ['data-index'] });
  new MutationObserver(ms => ms.forEach(m => m.addedNodes.forEach(n => window.__said.push(n.textContent))))
    .observe(document.getElementById('live'), { childList: true });
});

/** Seat 0 ends its turn (a pass or "done" where it may, else its first action; again while the turn is still
 * its own) and the others move until it is to move again. The steps shown after its last move ([when, index,
 * mover, waiting], the first being its own move), how long its turn took to come back, what the live region said. */
async function botRound(page, label) {
  for (let k = 0; ; k++) {
    if (k === 15) throw new Error(`${label}: the bots never move`);
    await myTurn(page);
    const [from, sent] = await page.evaluate(() => { window.__shown = []; window.__said = [];
      return [Number(document.body.dataset.index), performance.now()]; });
    // a pass or "done" where the seat may, else its first action, chosen and clicked in one step in the page
    // (an update between choosing and clicking would take a Playwright locator's element away)
    const clicked = await page.evaluate(() => {
      const acts = [...document.querySelectorAll('.legal [data-action]')];
      const end = acts.find(a => a.dataset.action === 'pass' || a.dataset.action === 'done');
      (end ?? acts[0])?.click();
      return acts.length > 0;
    });
    if (!clicked && await page.evaluate(() => document.body.dataset.status === 'over'))
      throw new Error(`${label}: the game is over (${JSON.stringify(await getJson(`/api/tables/${new URL(page.url()).pathname.split('/')[2]}`))})`);
    if (!clicked) continue;   // the turn went by meanwhile (THE OCTAL's Octo! window closed): the next one
    // its move shown; then a bot's step, or the seat still to move with nothing on its way (Time Masters'
    // turn goes on; THE OCTAL's pass draws a card to play; PSYCLE's next round may begin before the bots'
    // choices come)
    const next = await until(page, i => {
      if (Number(document.body.dataset.index) <= i) return null;
      if (window.__shown.some(([, , mover]) => mover !== null && mover !== '0')) return 'bots';
      if (document.body.dataset.status === 'over') return 'over';
      return document.querySelectorAll('.legal [data-action]').length && document.body.dataset.waiting === '0' ? 'mine' : null;
    }, from, 20000, `${label}: seat 0's move shown`);
    if (process.env.ASOBI_WEB_DEBUG) console.log(label, k, next, JSON.stringify(await page.evaluate(() => window.__shown)));
    if (next === 'over') throw new Error(`${label}: the game ended`);
    if (next === 'mine') continue;
    await until(page, () => document.querySelectorAll('.legal [data-action]').length > 0 && document.body.dataset.waiting === '0',
      null, 60000, `${label}: seat 0's turn back`);
    const [shown, back, said] = await page.evaluate(() => [window.__shown, performance.now(), window.__said]);
    return { shown, waited: back - sent, said };
  }
}

/** The last move marked in the log, on the seats' bar and on the board; a finished trick's or a revealed
 * round's cards still in view. */
async function marks(page, label, game, players) {
  const m = await page.evaluate(() => ({ latest: document.querySelector('.log li')?.classList.contains('latest'),
    mover: document.querySelector('.seatchip.just-moved')?.dataset.seat, player: document.querySelector('.player.just-moved')?.dataset.seat }));
  check(m.latest && m.mover !== undefined && m.player === m.mover, `${label}: the last move is marked in the log, the seats and the board (${JSON.stringify(m)})`);
  if (game === 'psycle') {
    const shown = await page.locator('.player .reveal').count();
    check(shown === players, `${label}: the round's revealed cards stay in view (${shown} of ${players})`);
  }
  if (game === 'ninja') {
    const done = await page.locator('.trick.done .played').count(), now = await page.locator('.trick .played').count();
    check(done === players || (done === 0 && now > 0) || now === 0, `${label}: a finished trick's cards stay in view (${done} of ${players})`);
  }
}

/** One game in one language under MOTION: a round of the bots at each width. */
/** The gaps (ms) between the steps a round showed after the first (the seat's own move, and whatever came
 * with it: shown at once); each later step waits for the pace. */
const gapsOf = round => round.shown.slice(2).map(([at], k) => at - round.shown[k + 1][0]);

/** What a ROUND of the bots left on PAGE under MOTION: the last move marked, the cards in view, the live
 * region's words; the steps shown at once (reduced motion) or the turn back when the paced steps are shown. */
async function roundSeen(page, label, game, lang, round, motion) {
  await marks(page, label, game, SMALL[game]);
  // (PSYCLE's bots choose while the seat may: "your turn" may come before their choices)
  const turnLast = game === 'psycle' ? round.said.includes(YOUR_TURN[lang]) : round.said.at(-1) === YOUR_TURN[lang];
  check(round.said.some(x => BOT_SAYS[lang].test(x)) && turnLast,
    `${label}: the live region says the bots' moves and "${YOUR_TURN[lang]}" (${round.said.slice(-4).join(' | ')})`);
  if (motion === 'reduce') {
    check(round.shown.every(([, , , waiting]) => waiting === '0'), `${label}: every step shown at once, nothing kept waiting`);
    check(round.waited < 5000, `${label}: the seat's turn is back at once (${Math.round(round.waited)} ms)`);
  } else {
    check(round.waited < (round.shown.length + 1) * 600 + 5000,
      `${label}: the turn comes back with the paced steps (${Math.round(round.waited)} ms for ${round.shown.length})`);
  }
}

/** One game in one language at the browser's default pace: rounds of the bots at each width, until two gaps
 * between the others' steps were seen there (a round may be one bot's move). Reduced motion: soundRun. */
async function pacedRun({ game, locale, lang }) {
  const motion = 'no-preference';
  const players = SMALL[game];
  const bots = Array.from({ length: players }, (_, s) => (s ? 'random' : null));
  const table = (await post('/api/tables', { game, players, bots, seed: 7 })).table;
  const [w1, w2] = WIDTHS[lang];
  const { ctx, page } = await newPage(locale, w1, motion);
  await sitDown(page, table);
  await myTurn(page);
  await watchSteps(page);
  for (const width of [w1, w2]) {
    const label = `pacing ${game} ${lang} ${width}`;
    if (width !== w1) await page.setViewportSize(sizeOf(width));
    const gaps = [];
    for (let k = 0; k < 4 && gaps.length < 2; k++) {
      const round = await botRound(page, label);
      gaps.push(...gapsOf(round));
      await roundSeen(page, label, game, lang, round, motion);
    }
    console.log(`${label}: gaps between the others' steps ${gaps.map(Math.round)} ms`);
    const waits = await page.evaluate(() => window.__waits.splice(0));
    // (fast bots' moves are often paced in while the seat's turn is already back: the line then says what to do)
    check(waits.every(w => WAIT_LINE[lang].test(w)), `${label}: the waiting line names who moves: ${[...new Set(waits)].slice(0, 3)}`);
    check(gaps.length >= 2 && Math.min(...gaps) >= 400, `${label}: the bots' moves and the events shown about 0.6 s apart (gaps ${gaps.map(Math.round)})`);
    await page.screenshot({ path: path.join(outDir, `paced_${game}_${width}_${lang}.png`) });
  }
  await ctx.close();
}

const pacing = () => everyGameAndLanguage().map(run => [`pacing ${run.game} ${run.lang}`, () => pacedRun(run)]);

// ---------------------------------------------------------------------------------------------------------
// Joining: the in-page form, the name remembered, a taken seat offers another seat or to watch.
// ---------------------------------------------------------------------------------------------------------
const SIT_AT = { en: n => `Sit at seat ${n}`, ja: n => `${n}番の席に座る` };
const TAKEN = { en: n => `Seat ${n} is already taken.`, ja: n => `${n}番の席はもう埋まっています。` };

async function joinRun({ game, locale, lang }) {
  const [w1, w2] = WIDTHS[lang];
  const table = await twoPeople(game);
  const { ctx, page } = await newPage(locale, w1);
  await page.goto(`${base}/t/${table}?join=0`);
  await page.waitForSelector('form.join input[name=name]');
  check(!page.url().includes('join='), `join ${game} ${lang}: the join leaves the address bar`);
  for (const width of [w1, w2]) {
    const label = `join ${game} ${lang} ${width}`;
    if (width !== w1) await page.setViewportSize(sizeOf(width));
    check(await visible(page, 'form.join button[type=submit]') && await page.inputValue('form.join input[name=name]') === '',
      `${label}: the form on screen, no name yet on this device`);
    const button = await page.textContent('form.join button[type=submit]');
    check(button === SIT_AT[lang](1), `${label}: the form says the seat (${button})`);
  }
  await page.fill('form.join input[name=name]', 'Aki');
  await page.dblclick('form.join button[type=submit]');   // one seat, not two
  await until(page, () => document.querySelector('.who')?.textContent.match(/: 1$/), null, 5000, `join ${game} ${lang}: seat 1`);
  await page.screenshot({ path: path.join(outDir, `join_${game}_${lang}.png`) });   // (in front: a second page hides it)
  // the same device follows seat 1's link of another table, where somebody sat down meanwhile: the name
  // is remembered, the seat is taken
  const other = await twoPeople(game);
  await post(`/api/tables/${other}/join`, { name: 'Ben', seat: 0 });
  const again = await ctx.newPage();
  again.on('dialog', d => { check(false, 'a dialog'); d.dismiss(); });
  again.on('pageerror', e => check(false, `join ${game} ${lang}: error on the page: ${e.message}`));
  await again.setViewportSize(sizeOf(w2));
  await again.goto(`${base}/t/${other}?join=0`);
  await again.waitForSelector('form.join input[name=name]');
  check(await again.inputValue('form.join input[name=name]') === 'Aki', `join ${game} ${lang}: the name is remembered on this device`);
  await again.click('form.join button[type=submit]');
  await again.waitForSelector('.taken [data-join=watch]');
  for (const width of [w2, w1]) {
    const label = `join ${game} ${lang} ${width}`;
    if (width !== w2) await again.setViewportSize(sizeOf(width));
    const said = await again.textContent('.taken p');
    check(said === TAKEN[lang](1), `${label}: a taken seat says so (${said})`);
    check(await visible(again, '.taken [data-join=seat-1]') && await visible(again, '.taken [data-join=watch]'),
      `${label}: and offers the free seat and watching, on screen`);
  }
  await again.click('.taken [data-join=seat-1]');
  await again.click('form.join button[type=submit]');
  await until(again, () => document.body.dataset.status === 'playing' && document.querySelector('.who')?.textContent.match(/: 2$/),
    null, 5000, `join ${game} ${lang}: seat 2`);
  const summary = await getJson(`/api/tables/${other}`);
  check(summary.seats.slice(0, 2).map(s => s.name).join() === 'Ben,Aki', `join ${game} ${lang}: Ben and Aki sit at the table (${summary.seats.map(s => s.name)})`);
  check((await getJson(`/api/tables/${table}`)).seats[0].name === 'Aki', `join ${game} ${lang}: the double click took one seat`);
  await axe(again, `join ${game} ${lang}`);
  // a third page: watching instead
  const third = await (await browser.newContext({ locale, reducedMotion: 'reduce', viewport: sizeOf(w2) })).newPage();
  await third.goto(`${base}/t/${other}?join=1`);
  await until(third, () => document.body.dataset.status, null, 10000, 'the table drawn');   // no redraw under the click
  await third.fill('form.join input[name=name]', 'Cy');
  await third.click('form.join button[type=submit]');
  await third.click('.taken [data-join=watch]');
  check(await third.locator('form.join').count() === 0 && (await third.textContent('.who')).length > 0, `join ${game} ${lang}: "watch" leaves a spectator's page`);
  await third.context().close();
  await ctx.close();
}

const joining = () => everyGameAndLanguage().map(run => [`join ${run.game} ${run.lang}`, () => joinRun(run)]);

// ---------------------------------------------------------------------------------------------------------
// Leavers: the grace counted down; a bot takes the seat and everyone is told; the person back is told; a
// seat left for good. The one who stays reads LANG, the one who leaves the other language.
// ---------------------------------------------------------------------------------------------------------
const HANDED = { en: 'Ben is away: a bot plays their seat until they come back.', ja: 'Benが離席中: 戻るまでボットが代わりに打ちます。' };
const GRACE = { en: /a bot plays for them in [0-2] s/, ja: /あと[0-2]秒でボットが代わりに打ちます/ };
const BACK = { en: /^While you were away a bot played (a move|\d+ moves) for you\. Your seat is yours again\.$/, ja: /^離席中にボットがあなたの代わりに\d+手打ちました。/ };
const LEFT = { en: 'Ben left the table: a bot plays their seat to the end.', ja: 'Benはテーブルを去りました。最後までボットが代わりに打ちます。' };
const LEFT_BADGE = { en: 'left: a bot plays for them', ja: '退席: ボットが代わりに打ちます' };

/** What PAGE shows, for a failure's message: its status, the seats' bar, the prompt, the log's newest lines. */
const pageState = page => page.evaluate(() => JSON.stringify({
  status: document.body.dataset.status, conn: document.body.dataset.conn,
  seats: document.querySelector('.seats-bar')?.textContent,
  prompt: document.querySelector('[data-prompt]')?.textContent,
  log: [...document.querySelectorAll('.log li')].slice(0, 6).map(e => e.textContent),   // newest first
})).catch(e => `unreadable: ${e.message}`);

/** Plays PAGE's seat (its first legal action whenever it has one) until FN is truthy in the page (within patience(MS)); its value. */
async function playUntil(page, fn, what, ms = 30000) {
  const end = Date.now() + patience(ms);
  for (;;) {
    const v = await page.evaluate(fn);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (the page: ${await pageState(page)})`);
    const act = page.locator('[data-action]:visible');   // what is shown (a phone folds what a card offers)
    if (await act.count()) await act.first().click({ timeout: 1000 }).catch(() => {});
    await page.waitForTimeout(100);
  }
}

async function leaverRun({ game, locale, lang }) {
  const started = Date.now();
  const other = lang === 'en' ? ['ja-JP', 'ja'] : ['en-US', 'en'];
  const [w1, w2] = WIDTHS[lang];
  const table = await twoPeople(game, { seed: 5 });
  const a = await post(`/api/tables/${table}/join`, { name: 'Aki', seat: 0 });
  const stay = await newPage(locale, w1);
  await stay.page.goto(`${base}/t/${table}#token=${a.token}`);
  await stay.page.waitForSelector('.waiting');
  lap(`leavers ${game} ${lang}: stay`, started);
  const away = await newPage(other[0], w2);   // Ben sits down by the link, plays a little, leaves
  await away.page.goto(`${base}/t/${table}?join=1`);
  await away.page.fill('form.join input[name=name]', 'Ben');
  await away.page.click('form.join button[type=submit]');
  lap(`leavers ${game} ${lang}: clicked`, started);
  // seated (the page's own seat's update, not the spectator's one before it): the device has seen the table
  await until(away.page, () => document.body.dataset.status === 'playing' && document.querySelector('.who')?.textContent.match(/: 2$/),
    null, 10000, `leavers ${game} ${other[1]}: Ben seated`).catch(async e => {
    const said = await away.page.evaluate(() => [document.body.dataset.status, document.querySelector('.who')?.textContent,
      document.querySelector('.error')?.textContent, document.querySelector('form.join') !== null,
      document.querySelector('form.join input')?.value]);
    throw new Error(`${e.message} (status, seat, error, form, name: ${JSON.stringify(said)})`);
  });
  await away.page.close();
  lap(`leavers ${game} ${lang}: seated`, started);
  await watchSteps(stay.page);
  // the grace counts down on the seats' bar at each width (each of Ben's turns starts it again)
  for (const width of [w1, w2]) {
    const label = `leavers ${game} ${lang} ${width}`;
    if (width !== w1) await stay.page.setViewportSize(sizeOf(width));
    // its words, and whether it is on screen once the page is at its top, at one moment (it ends with the grace)
    const [grace, seen] = await playUntil(stay.page, () => {
      const e = document.querySelector('.grace');
      if (!e) return null;
      scrollTo(0, 0);
      const r = e.getBoundingClientRect();
      return [e.textContent, r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth];
    }, `${label}: the grace countdown`);
    check(GRACE[lang].test(grace) && seen, `${label}: the waiting player sees the grace count down, on screen (${grace})`);
  }
  lap(`leavers ${game} ${lang}: countdowns`, started);
  // Ben's turns time out (the grace each), three in a row hand his seat to a bot: everyone is told
  await playUntil(stay.page, () => document.querySelector('.notice.handed'), `leavers ${game} ${lang}: the handover`);
  lap(`leavers ${game} ${lang}: handed`, started);
  for (const width of [w2, w1]) {
    const label = `leavers ${game} ${lang} ${width}`;
    if (width !== w2) await stay.page.setViewportSize(sizeOf(width));
    const told = await stay.page.textContent('.notice.handed');
    check(told === HANDED[lang] && await visible(stay.page, '.notice.handed', true), `${label}: everyone is told a bot took the seat, on screen (${told})`);
  }
  const said = await stay.page.evaluate(() => window.__said);
  check(said.includes(HANDED[lang]), `leavers ${game} ${lang}: the live region says it too (${said.slice(-3).join(' | ')})`);
  // Ben comes back (his token on this device): told what the bot played, in his language, at each width
  const back = await away.ctx.newPage();
  await back.goto(`${base}/t/${table}`);
  await until(back, () => document.querySelector('.notice.back'), null, 5000, 'the welcome back');
  for (const width of [w2, w1]) {
    if (width !== w2) await back.setViewportSize(sizeOf(width));
    const notice = await back.textContent('.notice.back');
    check(BACK[other[1]].test(notice) && await visible(back, '.notice.back', true), `leavers ${game} ${other[1]} ${width}: the person back is told in their language (${notice})`);
  }
  await until(stay.page, () => !document.querySelector('.notice.handed'), null, 5000, 'the seat given back');
  lap(`leavers ${game} ${lang}: back`, started);
  await back.screenshot({ path: path.join(outDir, `leavers_back_${game}_${other[1]}.png`) });
  // Ben leaves for good (the lobby's "leave"): everyone is told, and not that he will be back
  const token = await back.evaluate(id => localStorage.getItem(`asobi.token.${id}`), table);
  await post(`/api/tables/${table}/leave`, { token });
  await until(stay.page, () => document.querySelector('.notice.handed.left'), null, 5000, 'the leave told');
  for (const width of [w1, w2]) {
    const label = `leavers ${game} ${lang} ${width}`;
    if (width !== w1) await stay.page.setViewportSize(sizeOf(width));
    const left = await stay.page.textContent('.notice.handed.left');
    check(left === LEFT[lang], `${label}: a seat left for good is told so (${left})`);
    check((await stay.page.textContent('.seats-bar li[data-seat="1"]')).includes(LEFT_BADGE[lang]), `${label}: and its chip says so`);
  }
  await stay.page.screenshot({ path: path.join(outDir, `leavers_${game}_${lang}.png`) });
  await stay.ctx.close();
  await away.ctx.close();
  console.log(`leavers ${game} ${lang}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const leavers = () => everyGameAndLanguage().map(run => [`leavers ${run.game} ${run.lang}`, () => leaverRun(run)]);

// ---------------------------------------------------------------------------------------------------------
// Sound: off by default, remembered, a cue when the turn comes, at each width; and the bots' moves shown at
// once under reduced motion (these pages ask for it: newPage).
// ---------------------------------------------------------------------------------------------------------
async function soundRun({ game, locale, lang }) {
  const [w1, w2] = WIDTHS[lang];
  const players = SMALL[game];
  const table = (await post('/api/tables', { game, players, bots: Array.from({ length: players }, (_, s) => (s ? 'random' : null)) })).table;
  const { ctx, page } = await newPage(locale, w1);
  await sitDown(page, table);
  await myTurn(page);
  check(await page.getAttribute('#sound', 'aria-pressed') === 'false', `sound ${game} ${lang}: off by default`);
  await page.click('#sound');
  check(await page.evaluate(() => localStorage.getItem('asobi.sound')) === 'on' && await page.getAttribute('#sound', 'aria-pressed') === 'true',
    `sound ${game} ${lang}: turned on and remembered`);
  await page.reload();
  await myTurn(page);
  await watchSteps(page);
  for (const width of [w1, w2]) {
    const label = `sound ${game} ${lang} ${width}`;
    if (width !== w1) await page.setViewportSize(sizeOf(width));
    check(await page.getAttribute('#sound', 'aria-pressed') === 'true' && await visible(page, '#sound', true), `${label}: still on after a reload, on screen`);
    const before = await page.evaluate(() => Number(document.body.dataset.cued ?? 0));
    await roundSeen(page, `${label} (reduced motion)`, game, lang, await botRound(page, label), 'reduce');
    check(await page.evaluate(n => Number(document.body.dataset.cued ?? 0) > n, before), `${label}: the cue sounds when the turn comes back`);
  }
  await ctx.close();
}

const sound = () => everyGameAndLanguage().map(run => [`sound ${run.game} ${run.lang}`, () => soundRun(run)]);

// ---------------------------------------------------------------------------------------------------------
// A whole game of every game at 390 px, by what a person sees and clicks, with its log, result and replay: in
// tests/web/test_web.mjs (tableRuns' largest table of each game, a game it plays anyway, watched by a spectator).
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
  const { ctx, page } = await newPage('en-US', 1280);
  await sitDown(page, table);
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

// ---------------------------------------------------------------------------------------------------------
// Time Masters' card names in the page's language (web/js/games/timemasters_names.js): after a spell is played,
// the Japanese page shows no English name of our set in the hand, the spheres, the spell zone, the timers, the
// buttons, the log or the live region, and every card face there has its Japanese name (a card we have no name
// for, a loaded set's, keeps its own); the English page shows the English ones; an English page switched to
// Japanese at the table names them in Japanese too. Screenshots of the Japanese table at 1280×800 and 390×844.
// ---------------------------------------------------------------------------------------------------------
async function timeMastersNames() {
  const ours = JSON.parse(readFileSync(ourCards, 'utf8')).cards.map(c => c.name);
  const english = new RegExp(`\\b(${ours.map(n => n.replace(/ /g, '\\s+')).join('|')})\\b`);
  const JAPANESE = /^[\u3040-\u30ff\u4e00-\u9fff・ー]+$/;
  // what a person reads where cards are named: the drawn parts' text, the card faces' and timers' tooltips
  const shown = page => page.evaluate(() => {
    const text = sel => [...document.querySelectorAll(sel)].map(n => n.innerText).join('\n');
    return { hand: text('.dock .hand'), spheres: text('.board .spheres'), board: text('.board'), legal: text('.legal'),
      log: text('.log'), live: text('#live'), tips: [...document.querySelectorAll('.tm-card[title], .timer[title]')].map(n => n.title).join('\n'),
      names: [...document.querySelectorAll('.tm-card .name')].map(n => n.textContent),
      effects: [...document.querySelectorAll('.tm-card .effect')].map(n => n.textContent) };
  });
  for (const [locale, lang] of LOCALES) {
    const label = `tmnames ${lang}`;
    const table = (await post('/api/tables', { game: 'timemasters', players: 2, bots: [null, 'random'], options: CAPS.timemasters, seed: 11 })).table;
    const { ctx, page } = await newPage(locale, 1280);
    await page.setViewportSize({ width: 1280, height: 800 });
    await sitDown(page, table);
    await myTurn(page);
    // a starting spell played (5 of the 10 starting cards are in the hand, only 4 are not spells)
    const spell = await page.$$eval('.legal [data-action^="play "]', bs => bs.map(b => b.dataset.action)
      .find(a => ['play Suggestion', 'play Recovery', 'play Energy'].includes(a)));
    check(Boolean(spell), `${label}: a starting spell to play`);
    if (spell) {
      await page.click(`.legal [data-action="${spell}"]`);
      await until(page, text => document.querySelector(`.log li[data-text="${text}"]`), spell, 10000, `${spell} in the log`);
    }
    const s = await shown(page);
    check(s.names.length > 0 && s.spheres.length > 0 && s.log.length > 0, `${label}: cards and a log to read (${s.names.length} faces)`);
    if (lang === 'ja') {
      for (const part of ['hand', 'spheres', 'board', 'legal', 'log', 'live', 'tips']) {
        check(!english.test(s[part]), `${label}: no English card name of our set in the ${part}: ${s[part].match(english)?.[0]} in ${s[part].replace(/\n/g, ' / ').slice(0, 200)}`);
      }
      check(s.names.every(n => JAPANESE.test(n)), `${label}: every card face named in Japanese: ${s.names.filter(n => !JAPANESE.test(n))}`);
      check(/(サジェスチョン|リカバリー|エナジー)/.test(s.log), `${label}: the spell played named in Japanese in the log: ${s.log.slice(0, 120)}`);
      check(s.effects.some(e => e.includes('、')) && !s.effects.some(e => e.includes(',')), `${label}: a card's effects joined by 、: ${s.effects.filter(e => e.includes(','))}`);
      // a card of a loaded set that we have no name for keeps its own (the `cards` option)
      const own = await page.evaluate(async () => (await import('/js/i18n.js')).tmCard('Quartz Clock'));
      check(own === 'Quartz Clock', `${label}: a card we have no name for keeps its own: ${own}`);
      await page.screenshot({ path: path.join(outDir, 'table_timemasters_names_1280_ja.png') });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: path.join(outDir, 'table_timemasters_names_390_ja.png') });
      // a card taken from a sphere, then the page reloaded: the history's events said at once are said with the
      // Japanese names too (an update waits for the game's module, which brings them)
      await page.click('.legal [data-action="done"]');
      await until(page, () => document.querySelector('.legal [data-action^="take "]'), null, 10000, 'a sphere to take from');
      await page.click('.legal [data-action^="take "]');
      await until(page, () => document.querySelector('.log li[data-kind="event"][data-text*="from sphere"]'), null, 10000, 'the card taken in the log');
      await ctx.addInitScript(() => new MutationObserver(ms => {
        for (const m of ms) if (m.target.id === 'live') for (const n of m.addedNodes) (window.said ??= []).push(n.textContent);
      }).observe(document, { childList: true, subtree: true }));
      await page.reload();
      await until(page, () => document.querySelector('.log li[data-kind="event"][data-text*="from sphere"]'), null, 10000, 'the history after a reload');
      const said = (await page.evaluate(() => window.said ?? [])).join('\n');
      const taken = await page.evaluate(async () => Object.values((await import('/js/games/timemasters_names.js')).CARD_NAMES_JA));
      check(taken.some(n => said.includes(n)) && !english.test(said), `${label}: said after a reload, with the Japanese names: ${said.replace(/\n/g, ' / ').slice(0, 300)}`);
    } else {
      check(s.names.every(n => ours.includes(n)), `${label}: every card face named in English: ${s.names.filter(n => !ours.includes(n))}`);
      check(english.test(s.hand) && english.test(s.spheres) && english.test(s.log), `${label}: the English names in the hand, the spheres and the log`);
      // switched to Japanese at the table: the names come, and the page draws again with them
      await page.click('#lang-switch');
      await until(page, () => document.querySelector('.dock .hand .tm-card .name')?.textContent.match(/^[^A-Za-z]+$/), null, 5000, 'the Japanese names after the switch');
      const after = await shown(page);
      check(!english.test(after.hand) && !english.test(after.log), `${label}: switched to Japanese, no English card name in the hand and the log: ${(after.hand + after.log).match(english)?.[0]}`);
    }
    await ctx.close();
  }
}

const started = Date.now();
try {
  // the parts that run once, one after the other (beside the matrix's six runs their pages met refused connections,
  // net::ERR_SOCKET_NOT_CONNECTED, on a loaded machine), then every game in both languages at both widths (the runs
  // of the matrix's parts) RUNS at a time (ASOBI_WEB_RUNS), the leavers' first (the longest)
  const steps = { tables: tablePages, smallest: smallestTables, keyboard: keyboardPlay, events: eventWords, words: rightWords, moments,
    flights, offline, teach, cards: loadedSetAndWeight, tmnames: timeMastersNames };
  const once = Object.entries(steps).filter(([name]) => wanted(name)).map(([name, run]) => [name, async () => {
    const t0 = Date.now();
    await run();
    console.log(`${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }, LEAST[name]]);
  const matrix = { leavers, joining, pacing, sound, fit };
  const runs = Object.entries(matrix).filter(([name]) => wanted(name)).flatMap(([name, part]) => part().map(run => [...run, LEAST[name]]));
  least = [...once, ...runs].reduce((n, run) => n + run[2], 0);
  const t0 = Date.now();
  const failed = (label, e) => check(false, `${label}: ${e.stack}`);
  const made = { ...await pool(1, once, failed), ...await pool(RUNS, runs, failed) };
  console.log(`${once.length} parts, then ${runs.length} runs ${RUNS} at a time, in ${((Date.now() - t0) / 1000).toFixed(1)} s; ` +
    `their checks: ${Object.entries(made).map(([label, n]) => `${label} ${n}`).join(', ')}`);
} finally {
  await browser.close();
  srv.kill('SIGTERM');
  rmSync(dbDir, { recursive: true, force: true });
}
// a run makes at least the sum of its parts' least (each is held to its own in pool); a filter that names nothing
// runs nothing, and is held to one check it cannot make
failures += tooFew(checks, Math.max(least, 1));
console.log(`${checks} checks, ${failures} failed in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${outDir}`);
process.exit(failures ? 1 : 0);

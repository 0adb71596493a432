// test_accounts.mjs — issue 42's pages in the browser: signing up in the lobby, a rated 3-player PSYCLE game between three people (three contexts), the ratings on the seats, on /u/NAME and on /leaderboard, signing out and in again elsewhere, and claiming a guest game; both languages and widths, axe-core, page weight.
// Usage: node tests/web/test_accounts.mjs ASOBI_BINARY OUTPUT_DIR   (CTest web_accounts: tests/web/CMakeLists.txt)
// Three people sign up with the lobby's form (a Japanese 1280 px page, an English phone, an English 1280 px page);
// their profiles say "no rated games". The leaderboard leaves out players with fewer than 10 rated games (issue
// 42), so nine rated games are played first by the pages' own sockets (fast, no clicking), and the tenth through
// the pages: the first person makes a rated table with "play with friends", the others follow its join links and
// every move is a click. Meanwhile the seats show each person's rating and the table page and the lobby say
// "rated". After it: the profile's rating, history chart (one point per rated game, plain SVG), recent games (rated,
// the change, a link to the replay) and the leaderboard's row match the API, and changed with the game. Then sign
// out (the lobby forgets the name), sign in on a new context, and a guest who played the computer signs up and
// claims the game, which joins the profile unrated. Every page in both languages at 1280 x 800 and 390 x 844
// passes axe-core (no serious or critical finding), fits the width, and loads under 200 KB of web/.
// Screenshots (not committed): OUTPUT_DIR/accounts_*.png.
import { chromium } from 'playwright-core';
import { axeViolations, filterOf, tooFew, until } from './pages.mjs';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const [asobi, outDir] = process.argv.slice(2);
const webDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../web');
const WIDTHS = [{ width: 1280, height: 800 }, { width: 390, height: 844 }];
const LANGS = [['ja', 'ja-JP'], ['en', 'en-US']];
const PAGE_WEIGHT_MAX = 200 * 1024;
const PROVISIONAL_GAMES = 10;   // issue 42: a rating is provisional, and off the leaderboard, until 10 rated games
const PASSWORD = 'correct horse battery';
mkdirSync(outDir, { recursive: true });
const dbDir = mkdtempSync(path.join(tmpdir(), 'asobi-web-accounts-'));
let failures = 0, checks = 0, serverLog = '';
const t0 = Date.now();
const phase = what => console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);
const LEAST_CHECKS = 40;   // the fewest a whole run makes (see the end)
const check = (cond, what) => { checks++; if (!cond) { failures++; console.error(`FAIL: ${what}`); } };
// run some parts only: ASOBI_ACCOUNTS_PARTS=pages,rated,signin,claim (rated is needed by signin)
const only = filterOf('ASOBI_ACCOUNTS_PARTS', ['pages', 'rated', 'signin', 'claim']);
const part = name => !only || only.includes(name);

function startServer() {
  const srv = spawn(asobi, ['serve', '--port', '0', '--host', '127.0.0.1', '--db', path.join(dbDir, 'web.db'), '--web', webDir,
    '--workers', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  srv.stderr.on('data', d => { serverLog = (serverLog + d).slice(-4000); });
  return new Promise((resolve, reject) => {
    let out = '';
    srv.stdout.on('data', d => { out += d; const m = out.match(/listening on (http:\/\/[0-9.:]+)/); if (m) resolve({ srv, base: m[1] }); });
    srv.on('exit', code => reject(new Error(`asobi serve exited (${code})`)));
  });
}

const getJson = async url => (await fetch(url)).json();

/** A page of its own context (a person's browser: its own cookies and storage), failing on any error it reports.
 * The table page paces moves unless the browser asks for reduced motion (pacing.js): these games play fast. */
async function person(browser, locale, viewport, who) {
  const ctx = await browser.newContext({ locale, viewport, bypassCSP: true, reducedMotion: 'reduce' });   // the CSP would refuse axe-core
  const page = await ctx.newPage();
  page.on('pageerror', e => check(false, `${who}: page error: ${e.message}`));
  page.on('console', m => { if (m.type() === 'error' && !/status of 40[14]/.test(m.text())) check(false, `${who}: console error: ${m.text()}`); });
  page.on('dialog', d => { check(false, `${who}: a browser dialog (${d.type()})`); d.dismiss(); });
  return { ctx, page, who, locale, viewport };
}

/** The page as a person sees it: axe-core clean, nothing wider than the screen, and a screenshot of it. */
async function looked(p, what, file) {
  const found = await axeViolations(p.page);
  check(found.length === 0, `${what}: axe-core finds ${found.join('; ')}`);
  const wide = await p.page.evaluate(() => document.documentElement.scrollWidth);
  check(wide <= p.viewport.width, `${what}: nothing wider than the screen (${wide} px)`);
  await p.page.screenshot({ path: path.join(outDir, `accounts_${file}.png`), fullPage: true });
}

/** Signs up NAME with the lobby's form; the lobby then says who is signed in. */
async function signUp(p, base, name) {
  await p.page.goto(base + '/');
  await p.page.waitForSelector('#sign-up');
  await p.page.fill('#sign-up input[name=account_name]', name);
  await p.page.fill('#sign-up input[name=password]', PASSWORD);
  await p.page.click('#sign-up button[type=submit]');
  await p.page.waitForSelector(`[data-me="${name}"]`);
  const me = await p.page.evaluate(async () => (await fetch('/api/me')).json());
  check(me.name === name, `${p.who}: signed up and in as ${name} (${JSON.stringify(me)})`);
}

/** Nine rated games played by the three pages' own sockets (fast: no drawing, no clicking), so the tenth, played
 * on the pages, brings the players onto the leaderboard. Each page joins its seat with its session (the cookie)
 * and plays a random legal action whenever it has one. */
async function quickRatedGames(people, base, games) {
  for (let k = 0; k < games; k++) {
    const { table } = await people[0].page.evaluate(async () => (await fetch('/api/tables', { method: 'POST',
      headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: 'psycle', players: 3, bots: [null, null, null], rated: true }) })).json());
    check(Number.isInteger(table), `rated game ${k + 1}: the table is made (${table})`);
    await Promise.all(people.map((p, seat) => p.page.evaluate(async ([table, seat, name]) => {
      const j = await (await fetch(`/api/tables/${table}/join`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ seat, name }) })).json();
      if (!j.token) throw new Error(`join refused: ${JSON.stringify(j)}`);
      const ws = new WebSocket(`ws://${location.host}/ws/tables/${table}`);
      await new Promise((resolve, reject) => {
        ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', token: j.token }));
        let sent = false;   // an act is on its way: the updates before its answer (another seat's) do not act again
        let last = null;    // the latest update: a refused act is tried again from it
        const actOn = m => {
          if (m.status !== 'playing' || !m.legal.length) return;
          sent = true;
          ws.send(JSON.stringify({ type: 'act', action: m.legal[Math.floor(Math.random() * m.legal.length)].text }));
        };
        ws.onmessage = ev => {
          const m = JSON.parse(ev.data);
          // refused (a loaded machine's stale update, or the rate limit): nothing changed, so no update
          // would come for this seat to act on; try again from the latest, a moment later
          if (m.type === 'error') { sent = false; setTimeout(() => { if (!sent && last) actOn(last); }, 250); return; }
          if (m.type !== 'update') return;
          last = m;
          if (m.status === 'over') { ws.close(); resolve(); return; }
          if (sent && !m.log.some(e => e.seat === seat)) return;
          sent = false;
          actOn(m);
        };
        ws.onclose = () => resolve();
        setTimeout(() => reject(new Error('the game did not end')), 60000);
      });
    }, [table, seat, p.who])));
  }
}

/** One game played on the pages: whoever has a move clicks one, until every page shows the game over. */
async function playOnPages(pages, table) {
  for (let steps = 0, idle = 0; ; ) {
    const over = await Promise.all(pages.map(p => p.page.evaluate(() => document.body.dataset.status === 'over')));
    if (over.every(Boolean)) return steps;
    if (steps > 2000 || idle > 400) throw new Error(`table ${table}: the game did not end (${steps} clicks)`);
    let acted = false;
    for (const p of pages) {
      const buttons = await p.page.$$('.dock [data-action], .legal [data-action]');
      if (!buttons.length) continue;
      const index = await p.page.evaluate(() => document.body.dataset.index);
      try { await buttons[Math.floor(Math.random() * buttons.length)].click({ timeout: 2000 }); } catch { continue; }
      acted = true; steps++;
      await until(p.page, i => document.body.dataset.index !== i || document.body.dataset.status === 'over', index, 5000,
        'the move to come back').catch(() => {});
    }
    if (!acted) { idle++; await pages[0].page.waitForTimeout(50); } else idle = 0;
  }
}

/** The profile of NAME on P's page against the API's: the rating per game, the chart's points, the games. */
async function profileMatches(p, base, name, what) {
  await p.page.goto(`${base}/u/${name}`);
  await p.page.waitForSelector('h1.player-name');
  const api = await getJson(`${base}/api/players/${name}`);
  const shown = await p.page.evaluate(() => ({
    rating: document.querySelector('[data-rating=psycle]')?.textContent,
    points: Number(document.querySelector('[data-game=psycle] svg.chart')?.dataset.points ?? 0),
    games: [...document.querySelectorAll('.past-game')].map(li => ({ table: Number(li.dataset.table),
      rated: Boolean(li.querySelector('.badge.rated')), change: li.querySelector('[data-change]')?.dataset.change ?? null,
      link: li.querySelector('a')?.getAttribute('href') })),
  }));
  check(shown.rating === api.ratings?.psycle?.rating.toFixed(1), `${what}: the page shows the rating ${api.ratings?.psycle?.rating} (${shown.rating})`);
  return { api, shown };
}

async function run(browser, base) {
  // three people: a Japanese 1280 px page, an English phone, an English 1280 px page
  const names = ['Aki', 'Ben_2', 'Chi-3'];
  const people = [await person(browser, 'ja-JP', WIDTHS[0], names[0]), await person(browser, 'en-US', WIDTHS[1], names[1]),
    await person(browser, 'en-US', WIDTHS[0], names[2])];

  if (part('pages')) {
    // the lobby signed out: the account section with both forms, the first section still "play against the computer"
    for (const [lang, locale] of LANGS) for (const viewport of WIDTHS) {
      const p = await person(browser, locale, viewport, `lobby ${lang} ${viewport.width}`);
      await p.page.goto(base + '/');
      await p.page.waitForSelector('#sign-in');
      check(await p.page.evaluate(() => document.documentElement.lang) === lang, `${p.who}: in the browser's language`);
      const heading = await p.page.textContent('#account-title');
      check(heading === (lang === 'ja' ? 'アカウント' : 'Your account'), `${p.who}: the account section is there (${heading})`);
      const box = await p.page.locator('[data-quick="bots"]').boundingBox();
      check(box && box.y + box.height <= viewport.height, `${p.who}: quick play is still on the first screen`);
      // a refusal is said in the page's words: a wrong password
      await p.page.fill('#sign-in input[name=account_name]', 'Nobody');
      await p.page.fill('#sign-in input[name=password]', 'not the password');
      await p.page.click('#sign-in button[type=submit]');
      await p.page.waitForSelector('#sign-in-error:not(:empty)');
      const said = await p.page.textContent('#sign-in-error');
      check(said === (lang === 'ja' ? '名前かパスワードが違います。' : 'Wrong name or password.'), `${p.who}: a bad login in words (${said})`);
      await looked(p, p.who, `lobby_signed_out_${lang}_${viewport.width}`);
      await p.ctx.close();
    }
  }

  if (part('rated') || part('signin')) {
    for (let i = 0; i < 3; i++) await signUp(people[i], base, names[i]);
    // the name shown is text: the lobby's link to the profile, and no profile yet has a rating
    await people[0].page.goto(`${base}/u/${names[0]}`);
    await people[0].page.waitForSelector('main h1');
    await until(people[0].page, () => !document.querySelector('main p')?.textContent.startsWith('connecting'), null, 5000, 'the profile').catch(() => {});
    check(await people[0].page.locator('h1.player-name').count() === 1 && await people[0].page.locator('.rating-card').count() === 0,
      `a new account's profile is there, with no rating yet (${await people[0].page.textContent('main')})`);
    await looked(people[0], 'a new profile (ja, 1280)', 'profile_new_ja_1280');

    phase('signed up');
    await quickRatedGames(people, base, PROVISIONAL_GAMES - 1);
    phase('nine rated games');
    const before = await getJson(`${base}/api/players/${names[0]}`);
    check(before.ratings?.psycle?.games === PROVISIONAL_GAMES - 1 && before.ratings.psycle.provisional === true,
      `after ${PROVISIONAL_GAMES - 1} rated games the rating is provisional (${JSON.stringify(before.ratings)})`);
    const boardBefore = await getJson(`${base}/api/leaderboard/psycle`);
    check(boardBefore.players?.length === 0, `nobody on the leaderboard yet (${JSON.stringify(boardBefore)})`);

    // the tenth: "play with friends", rated, three players, on the pages
    const [a, b, c] = people;
    await a.page.goto(base + '/');
    await a.page.waitForSelector('input[name=rated]');
    await a.page.selectOption('select[name=friends_game]', 'psycle');
    await a.page.selectOption('select[name=friends_players]', '3');
    await a.page.check('input[name=rated]');
    await a.page.click('[data-quick=friends]');
    await a.page.waitForURL(/\/t\/\d+/);
    const table = Number(a.page.url().match(/\/t\/(\d+)/)[1]);
    await a.page.waitForSelector('header [data-rated]');
    const invites = JSON.parse(await a.page.evaluate(id => localStorage.getItem(`asobi.invites.${id}`), table));
    for (const [seat, p] of [[1, b], [2, c]]) {
      await p.page.goto(`${base}/t/${table}?join=${seat}#invite=${invites[seat]}`);
      await p.page.waitForSelector('form.join input[name=name]');
      await p.page.fill('form.join input[name=name]', 'ignored');   // a signed-in join takes the account's name
      await p.page.click('form.join button[type=submit]');
      await p.page.waitForSelector('body[data-status]');
    }
    await a.page.waitForSelector('body[data-status=playing]');
    // a private table's summary: asked with the seat's token as its code (dom.js does the same)
    const summary = await a.page.evaluate(async id => (await fetch(`/api/tables/${id}`, { headers: { 'X-Asobi-Code': localStorage.getItem(`asobi.token.${id}`) } })).json(), table);
    check(summary.rated === true, `the table is rated (${JSON.stringify(summary).slice(0, 200)})`);
    check(JSON.stringify(summary.seats?.map(s => s.name)) === JSON.stringify(names), `each seat holds its account's name, not the typed one (${JSON.stringify(summary.seats?.map(s => s.name))})`);
    for (const p of people) {
      await p.page.waitForSelector('.seats-bar .seat-rating');
      await until(p.page, n => document.querySelectorAll('.seats-bar .seat-rating').length === n, 3, 5000, 'three ratings').catch(() => {});
      const ratings = await p.page.$$eval('.seats-bar .seat-rating', ns => ns.length);
      check(ratings === 3, `${p.who}: every seat shows its person's rating (${ratings})`);
      check(await p.page.locator('header [data-rated]').count() === 1, `${p.who}: the table page says rated`);
    }
    const lang0 = await a.page.evaluate(() => document.querySelector('.seats-bar .seat-rating').textContent);
    check(lang0.includes('レーティング'), `the Japanese page says レーティング on the seats (${lang0})`);
    await looked(b, 'a rated table (en, 390)', 'table_rated_en_390');
    await looked(a, 'a rated table (ja, 1280)', 'table_rated_ja_1280');
    phase('the tenth begins');
    const clicks = await playOnPages(people, table);
    phase('the tenth is over');
    check(clicks > 3, `the rated game was played on the pages (${clicks} clicks)`);
    const after = await until(a.page, async n => { const j = await (await fetch(`/api/players/${n}`)).json(); return j.ratings?.psycle?.games === 10 && j; },
      names[0], 10000, 'the rating of the tenth game');
    check(after.ratings.psycle.provisional === false, `after ${PROVISIONAL_GAMES} rated games the rating is no longer provisional`);
    check(after.ratings.psycle.rating !== before.ratings.psycle.rating, `the tenth game changed the rating (${before.ratings.psycle.rating} → ${after.ratings.psycle.rating})`);

    // /u/NAME in both languages and widths: the rating as the API says, the chart's 11 points (the start and 10
    // games), the tenth game listed first with its change and a link to its replay
    for (const [lang, locale] of LANGS) for (const viewport of WIDTHS) {
      const p = await person(browser, locale, viewport, `profile ${lang} ${viewport.width}`);
      const { api, shown } = await profileMatches(p, base, names[0], p.who);
      check(shown.points === PROVISIONAL_GAMES + 1, `${p.who}: the chart has a point per rated game and the start (${shown.points})`);
      const first = shown.games[0];
      check(first?.table === table && first.rated && first.link === `/t/${table}`, `${p.who}: the newest game is the rated one, linked to its replay (${JSON.stringify(first)})`);
      check(first && Number(first.change) === api.games[0].change.delta, `${p.who}: with its rating change (${first?.change})`);
      await looked(p, p.who, `profile_${lang}_${viewport.width}`);
      // the leaderboard: the three players, each row as the API says, the tabs a tablist
      await p.page.goto(`${base}/leaderboard`);
      await p.page.waitForSelector('#board-panel tbody tr');
      const rows = await p.page.$$eval('#board-panel tbody tr', trs => trs.map(tr => [tr.dataset.player, tr.children[2].textContent]));
      const board = await getJson(`${base}/api/leaderboard/psycle`);
      check(JSON.stringify(rows) === JSON.stringify(board.players.map(x => [x.name, x.rating.toFixed(1)])), `${p.who}: the leaderboard as the API says (${JSON.stringify(rows)})`);
      check(rows.length === 3, `${p.who}: the three players are on it after their tenth game`);
      await looked(p, `leaderboard ${lang} ${viewport.width}`, `leaderboard_${lang}_${viewport.width}`);
      await p.page.click('#tab-ninja');
      await p.page.waitForSelector('#board-panel[data-game=ninja] p');
      check(await p.page.getAttribute('#tab-ninja', 'aria-selected') === 'true', `${p.who}: a tab per game (NINJA chosen)`);
      await p.page.keyboard.press('ArrowRight');
      check(await p.page.evaluate(() => document.activeElement?.id) === 'tab-octal', `${p.who}: the arrow keys move between the tabs`);
      await p.ctx.close();
    }
    // the lobby lists rated tables as rated
    const open = await a.page.evaluate(async () => (await fetch('/api/tables', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ game: 'psycle', players: 2, bots: [null, null], rated: true }) })).json());
    await c.page.goto(base + '/');
    await c.page.waitForSelector(`#tables li:has(a[href="/t/${open.table}"]) [data-rated]`);
    check(true, 'the lobby marks the rated table');
    await looked(c, 'the lobby signed in (en, 1280)', 'lobby_signed_in_en_1280');
    await looked(b, 'the lobby signed in (en, 390)', 'lobby_signed_in_en_390');

    // sign out, and in again on another context (another device)
    if (part('signin')) {
      await a.page.goto(base + '/');
      await a.page.click('#sign-out');
      await a.page.waitForSelector('#sign-in');
      check((await a.page.evaluate(async () => (await fetch('/api/me')).status)) === 401, 'signed out: /api/me answers 401');
      const d = await person(browser, 'en-US', WIDTHS[1], 'another device');
      await d.page.goto(base + '/');
      await d.page.waitForSelector('#sign-in');
      await d.page.fill('#sign-in input[name=account_name]', names[0].toLowerCase());   // names are unique ignoring case
      await d.page.fill('#sign-in input[name=password]', PASSWORD);
      await d.page.click('#sign-in button[type=submit]');
      await d.page.waitForSelector(`[data-me="${names[0]}"]`);
      check(true, 'signed in on another context');
      await d.ctx.close();
    }
  }

  if (part('claim')) {
    // a guest plays the computer, then signs up on the same device and claims the game
    const g = await person(browser, 'en-US', WIDTHS[1], 'a guest');
    await g.page.goto(base + '/');
    await g.page.waitForSelector('[data-quick=bots]');
    await g.page.selectOption('select[name=quick_game]', 'psycle');
    await g.page.selectOption('select[name=quick_players]', '2');
    await g.page.check('input[name=quick_level][value=easy]');
    await g.page.click('[data-quick=bots]');
    await g.page.waitForURL(/\/t\/\d+/);
    const table = Number(g.page.url().match(/\/t\/(\d+)/)[1]);
    await g.page.waitForSelector('body[data-status=playing]');
    phase('the guest plays');
    await playOnPages([g], table);
    phase('the guest\'s game is over');
    await signUp(g, base, 'Guest_4');
    await g.page.waitForSelector('#claim');
    await looked(g, 'the claim offer (en, 390)', 'claim_en_390');
    await g.page.click('#claim');
    await g.page.waitForSelector('.account .notice');
    check(await g.page.locator('#claim').count() === 0, 'the claim is offered once');
    const profile = await getJson(`${base}/api/players/Guest_4`);
    const claimed = profile.games?.find(x => x.table === table);
    check(claimed && claimed.rated === false, `the claimed game joins the profile, unrated (${JSON.stringify(profile.games)})`);
    check(!profile.ratings?.psycle, 'a claimed game never counts for ratings');
    await g.page.goto(`${base}/u/Guest_4`);
    await g.page.waitForSelector(`.past-game[data-table="${table}"]`);
    check(true, 'the profile page lists the claimed game');
    // change the password (a wrong current one said in words first), then close the account with it
    await g.page.goto(base + '/');
    await g.page.click('details.account-more:has(#change-password) summary');
    await g.page.fill('#change-password input[name=password]', 'not the password');
    await g.page.fill('#change-password input[name=new_password]', 'another long password');
    await g.page.click('#change-password button[type=submit]');
    await g.page.waitForSelector('#change-password-error:not(:empty)');
    check(await g.page.textContent('#change-password-error') === 'Wrong name or password.', 'a wrong current password is refused in words');
    await g.page.fill('#change-password input[name=password]', PASSWORD);
    await g.page.click('#change-password button[type=submit]');
    await g.page.waitForSelector('.account .notice');
    check((await g.page.textContent('.account .notice')).includes('password is changed'), 'the password is changed');
    await g.page.click('details.account-more:has(#close-account) summary');
    await g.page.fill('#close-account input[name=password]', 'another long password');
    await g.page.click('#close-account button[type=submit]');
    await g.page.waitForSelector('#sign-in');
    check((await g.page.textContent('.account .notice')) === 'Your account is closed.', 'the account is closed, and the lobby says so');
    check((await g.page.evaluate(async () => (await fetch('/api/session', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Guest_4', password: 'another long password' }) })).status)) === 401, 'a closed account signs in no more');
    await g.ctx.close();
  }

  // page weight: the bytes of web/ each new page loads
  if (part('pages')) for (const [what, url] of [['a profile', `/u/${names[0]}`], ['the leaderboard', '/leaderboard'], ['the lobby', '/']]) {
    const p = await person(browser, 'en-US', WIDTHS[0], what);
    const bodies = [];
    p.page.on('response', r => { if (r.url().startsWith(base) && !r.url().includes('/api/')) bodies.push(r.body().then(x => x.length, () => 0)); });
    await p.page.goto(base + url, { waitUntil: 'networkidle' });
    const bytes = (await Promise.all(bodies)).reduce((x, y) => x + y, 0);
    console.log(`page weight: ${what} ${bytes} bytes`);
    check(bytes > 10000 && bytes <= PAGE_WEIGHT_MAX, `${what} loads ${bytes} bytes of web/ (at most ${PAGE_WEIGHT_MAX})`);
    await p.ctx.close();
  }
  for (const p of people) await p.ctx.close();
}

const started = Date.now();
const { srv, base } = await startServer();
const browser = await chromium.launch({ executablePath: process.env.ASOBI_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  await run(browser, base);
} catch (e) {
  failures++; console.error(e);
} finally {
  await browser.close();
  srv.kill('SIGTERM');
  rmSync(dbDir, { recursive: true, force: true });
}
if (failures) console.error(`the server's last lines:\n${serverLog}`);
failures += tooFew(checks, only ? 3 : LEAST_CHECKS);
console.log(`${checks} checks, ${failures} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
process.exit(failures ? 1 : 0);

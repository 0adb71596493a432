// test_front.mjs — issue 39 in the browser: a game played through Debian's nginx (docs/deploy.md's front) leaves the seat's token in no WebSocket URL of the page and no line of nginx's access log.
// Usage: node tests/web/test_front.mjs ASOBI_BINARY OUTPUT_DIR   (CTest: tests/web/CMakeLists.txt)
// The page reads its token from #token=T (a fragment never reaches a server) and sends it in the socket's first
// message ({"type":"hello"}); nginx runs in the foreground with a prefix of its own on a free port, as
// tests/server/test_fronts.py runs it. Skipped (exit 0, said) only when nginx is absent outside CI.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { nginx, freePort, startNginx, PROXY } from './front.mjs';

const [asobi, outDir] = process.argv.slice(2);
const webDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../web');
mkdirSync(outDir, { recursive: true });
if (!nginx) {
  if (process.env.CI === 'true') { console.error('FAIL: nginx is missing (scripts/setup.sh installs it)'); process.exit(1); }
  console.log('skipped: nginx is not installed (scripts/setup.sh installs it)');
  process.exit(0);
}
const dir = mkdtempSync(path.join(tmpdir(), 'asobi-web-front-'));
let failures = 0, checks = 0;
const check = (cond, what) => { checks++; if (!cond) { failures++; console.error(`FAIL: ${what}`); } };

function startServer(frontPort) {
  const srv = spawn(asobi, ['serve', '--port', '0', '--host', '127.0.0.1', '--db', path.join(dir, 'web.db'), '--web', webDir,
    '--workers', '1', '--trusted-proxy', '127.0.0.1', '--allow-origin', `http://127.0.0.1:${frontPort}`],
  { stdio: ['ignore', 'pipe', 'pipe'] });
  srv.stderr.on('data', () => {});
  return new Promise((resolve, reject) => {
    let out = '';
    srv.stdout.on('data', d => { out += d; const m = out.match(/listening on http:\/\/127\.0\.0\.1:(\d+)/); if (m) resolve({ srv, port: Number(m[1]) }); });
    srv.on('exit', code => reject(new Error(`asobi serve exited (${code})`)));
  });
}

/** nginx in the foreground as docs/deploy.md sets it up, every path to the one server. */
const startFront = (port, backend) => startNginx(dir, port, `    server {
        listen 127.0.0.1:${port};
        location / {
            proxy_pass http://127.0.0.1:${backend};
            ${PROXY}
        }
    }`);

const post = async (base, p, body) => (await fetch(base + p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();

const frontPort = await freePort();
const { srv, port } = await startServer(frontPort);
const front = await startFront(frontPort, port);
const base = `http://127.0.0.1:${frontPort}`;
let token = '';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const { table } = await post(base, '/api/tables', { game: 'psycle', players: 2, bots: [null, 'random'] });
  ({ token } = await post(base, `/api/tables/${table}/join`, { name: 'Aki', seat: 0 }));
  const ctx = await browser.newContext({ locale: 'en-US', viewport: { width: 1000, height: 900 } });
  const page = await ctx.newPage();
  const sockets = [];
  page.on('websocket', ws => sockets.push(ws.url()));
  await page.goto(`${base}/t/${table}#token=${token}`);
  await page.waitForSelector('.board');
  // play the game out by clicking what the page offers (bounded: a game of PSYCLE is about 30 actions)
  const end = Date.now() + 120000;
  while (Date.now() < end && !(await page.$('#result'))) {
    const targets = await page.$$('[data-action]');
    if (targets.length) {
      try { await targets[Math.floor(Math.random() * targets.length)].click({ timeout: 2000 }); } catch { /* redrawn meanwhile */ }
    }
    await page.waitForTimeout(100);
  }
  check(await page.$('#result'), 'the game played in the browser through nginx is over');
  await page.screenshot({ path: path.join(outDir, 'web_front_over.png') });
  check(sockets.length > 0 && sockets.every(u => u.includes(`/ws/tables/${table}`)), `the page's WebSockets went to the table (${sockets})`);
  check(sockets.every(u => !u.includes(token) && !u.includes('token')), `no token in the page's WebSocket URLs (${sockets})`);
  await ctx.close();
} finally {
  await browser.close();
  front.kill('SIGQUIT');
  await new Promise(r => front.on('exit', r));
  srv.kill('SIGTERM');
}
const log = readFileSync(`${dir}/access.log`, 'utf8');
check(log.includes('/ws/tables/'), 'the access log has the WebSocket\'s line');
check(token && !log.includes(token) && !/token=/.test(log), `no token in nginx's access log:\n${log.split('\n').filter(l => /token/.test(l)).join('\n')}`);
rmSync(dir, { recursive: true, force: true });
console.log(`${checks - failures}/${checks} checks passed`);
process.exit(failures ? 1 : 0);

// front.mjs — Debian's nginx in front of `asobi serve` nodes for the browser tests, as docs/deploy.md sets it up: run in the foreground with a prefix of its own on a free port.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

/** Debian's nginx binary, or undefined when it is not installed. */
export const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find(existsSync);

/** A free loopback port (for a server that must be named in another's configuration before it starts). */
export const freePort = () => new Promise(resolve => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

/** nginx in the foreground in DIR (its configuration, temporary folders, error and access logs), listening on PORT;
 * HTTP is what goes in its http block besides the logs and the temporary folders (upstreams, the `server` with its
 * locations; the map $connection_upgrade is given). Resolves to the process once /healthz answers through it. */
export async function startNginx(dir, port, http) {
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(conf, `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
    access_log ${dir}/access.log;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    map $http_upgrade $connection_upgrade { default upgrade; '' close; }
${http}
}
`);
  const proc = spawn(nginx, ['-p', dir, '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  proc.stderr.on('data', () => {});
  for (let i = 0; i < 200; i++) {
    try { await fetch(`http://127.0.0.1:${port}/healthz`); return proc; } catch { await new Promise(r => setTimeout(r, 50)); }
  }
  throw new Error('nginx did not start: ' + (existsSync(`${dir}/error.log`) ? readFileSync(`${dir}/error.log`, 'utf8') : ''));
}

/** The proxy settings of docs/deploy.md for every location: WebSockets upgraded, the client's address passed on. */
export const PROXY = `proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $remote_addr;
        proxy_read_timeout 1h;`;

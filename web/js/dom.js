// dom.js — building elements (text is always inserted as text, never as HTML) and calling the HTTP API.
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  return e;
}

/** What opens a private table to this browser (its seat's token, else a watch code it was given), for a GET about
 * table ID: sent in a header, never in the URL, which access logs keep (docs/server.md, "Private tables"). */
function secretFor(path) {
  const id = /^\/api\/tables\/(\d+)/.exec(path)?.[1];
  return id ? localStorage.getItem(tokenKey(id)) ?? localStorage.getItem(watchKey(id)) : null;
}

export async function api(path, body) {
  const secret = body === undefined ? secretFor(path) : null;
  const r = await fetch(path, body === undefined ? (secret ? { headers: { 'X-Asobi-Code': secret } } : {}) :
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error ? `${j.error.code}: ${j.error.message}` : r.statusText);
  return j;
}

/** Where a seat's token is kept in this browser. */
/** A module that only some pages show (a waiting table's QR codes, a finished game's review), loaded the first
 * time it is asked for, so that the other pages never carry its bytes (issue 43: a page under 200 KB). The
 * getter gives the module, or null while it loads; once it has come, redraw() draws the page again with it. */
export function lazyModule(load) {
  let mod = null;
  let asked = false;
  return redraw => {
    if (!mod && !asked) {
      asked = true;
      load().then(m => { mod = m; redraw(); });
    }
    return mod;
  };
}

export const tokenKey = id => `asobi.token.${id}`;

/** Where the invite codes of a private table its creator made are kept in this browser (a JSON array, a code
 * or null per seat): the table page puts them in the free seats' join links. */
export const invitesKey = id => `asobi.invites.${id}`;

/** Where a private table's watch code is kept in this browser (its creator's, or one a watch link #watch=CODE gave). */
export const watchKey = id => `asobi.watch.${id}`;

/** Where this device keeps the seat it holds at a table (a number from 0), beside its token: "My tables" says it. */
export const seatKey = id => `asobi.seat.${id}`;

/** The name this device last played under (the lobby's quick play and the forms start from it). */
export const nameKey = 'asobi.name';

/** The tables this device holds a seat at: the ids of its stored tokens, newest first. */
export function heldTables() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i++) {
    const m = /^asobi\.token\.(\d+)$/.exec(localStorage.key(i));
    if (m) ids.push(Number(m[1]));
  }
  return ids.sort((a, b) => b - a);
}

/** Forget this device's seat at table ID (its token, seat and invite codes). */
export function forgetSeat(id) {
  for (const key of [tokenKey(id), seatKey(id), invitesKey(id), watchKey(id)]) localStorage.removeItem(key);
}

/** The bots' strengths people choose from (`level.NAME` in i18n.js) and the engine's bot spec of each
 * (docs/web.md): every one answers within a fraction of a second, inside the server's bot budgets. */
export const LEVELS = { easy: 'random', medium: 'heuristic', strong: 'ismcts:iters=2000' };

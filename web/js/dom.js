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

export async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} :
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error ? `${j.error.code}: ${j.error.message}` : r.statusText);
  return j;
}

/** Where a seat's token is kept in this browser. */
export const tokenKey = id => `asobi.token.${id}`;

/** Where the invite codes of a private table its creator made are kept in this browser (a JSON array, a code
 * or null per seat): the table page puts them in the free seats' join links. */
export const invitesKey = id => `asobi.invites.${id}`;

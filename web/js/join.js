// join.js — sitting down at a table: the seat's token (a link's #token=T or this device's), and the in-page name form of a join link (?join=K), never a browser prompt.
import { el, api, tokenKey, seatKey, nameKey } from './dom.js';
import { t, tf } from './i18n.js';

/** The seat's token: from #token=T (a shared link), else localStorage; kept in localStorage. */
export function takeToken(id) {
  const m = location.hash.match(/token=([0-9a-f]+)/i);
  if (m) { localStorage.setItem(tokenKey(id), m[1]); history.replaceState(null, '', location.pathname); }
  return localStorage.getItem(tokenKey(id));
}

/** What a join link asks (/t/ID?join=K, a private table's with #invite=CODE after '#': a fragment is
 * never sent to the server with the page's request, nor in a Referer): { seat, invite }, or null. The
 * address bar keeps neither. */
export function joinRequest() {
  const seat = new URLSearchParams(location.search).get('join');
  const invite = location.hash.match(/invite=([0-9a-f]+)/i)?.[1] ?? null;
  if (seat === null) return null;
  history.replaceState(null, '', location.pathname);
  return { seat: Number(seat), invite, problem: null };
}

/** Sends the join of REQ under NAME; resolves to the token, or records the refusal in REQ.problem. */
async function sitDown(id, req, name) {
  localStorage.setItem(nameKey, name);
  try {
    const j = await api(`/api/tables/${id}/join`, { name, seat: req.seat, ...(req.invite ? { invite: req.invite } : {}) });
    localStorage.setItem(tokenKey(id), j.token);
    localStorage.setItem(seatKey(id), String(j.seat));   // the lobby's "My tables" says it
    return j.token;
  } catch (e) {
    const code = e.message.split(':')[0];
    // a rated table seats signed-in people only (issue 42): the lobby is where one signs in
    req.problem = { code, message: /^(invite_required|bad_invite)$/.test(code) ? t('invite_needed')
      : code === 'account_required' ? t('acct.error.account_required') : e.message };
    return null;
  }
}

/** A seat's refusal in words, with the ways on: a taken seat offers to watch or to take a free one. */
function problemPart(page, req) {
  const p = req.problem;
  if (!p) return '';
  if (p.code !== 'seat_taken') return el('p', { class: 'error', role: 'alert' }, tf('join_failed', { why: p.message }));
  const free = (page.last?.seats ?? []).filter(s => !s.bot && !s.name && s.seat !== req.seat);
  return el('div', { class: 'taken', role: 'alert' }, el('p', {}, tf('seat_taken', { n: req.seat + 1 })),
    el('button', { 'data-join': 'watch', onclick: () => { page.joining = null; page.draw(); } }, t('watch_instead')),
    free.map(s => el('button', { 'data-join': `seat-${s.seat}`,
      onclick: () => { req.seat = s.seat; req.problem = null; page.draw(); } }, tf('take_seat', { n: s.seat + 1 }))));
}

/** The join form of a join link: the name (remembered on this device) and the seat; once seated, ONSEATED
 * gets the token. Nothing while the page holds a seat already. */
export function joinSection(page, onSeated) {
  const req = page.joining;
  if (!req || page.token) return '';
  // the same field across redraws (an update may come while the name is typed)
  const input = req.input ??= el('input', { name: 'name', id: 'join-name', required: true, maxlength: 24,
    autocomplete: 'nickname', value: localStorage.getItem(nameKey) ?? '' });
  // one join per submit: a double click must not send two (kept on the request, not in this drawing of the
  // form: an update may redraw the page between the two clicks)
  const submit = async ev => {
    ev.preventDefault();
    const name = input.value.trim();
    if (req.busy || !name) return;
    req.busy = true;
    const token = await sitDown(page.id, req, name);
    req.busy = token !== null;   // seated: a click still on its way finds the request done
    if (token) { page.joining = null; onSeated(token); } else page.draw();
  };
  // the same button across redraws too: a redraw between the press and the release of a click would
  // otherwise lose the click (the press on one drawing's button, the release on the next one's)
  const button = req.button ??= el('button', { type: 'submit', class: 'primary' });
  button.textContent = tf('sit_at', { n: req.seat + 1 });
  return el('form', { class: 'join', onsubmit: submit }, el('h2', {}, tf('join_what', { n: req.seat + 1 })),
    el('label', { for: 'join-name' }, t('your_name')), ' ', input, ' ', button,
    el('small', {}, ` (${t('name_remembered')})`), problemPart(page, req));
}

// account.js — the person's account in the lobby: signing up and in (a name of one's own), signing out, changing the password, closing the account, and claiming this device's guest games for the new profile.
import { t, tf } from './i18n.js';
import './messages_accounts.js';   // the account pages' words (addMessages)
import { el, heldTables, tokenKey, nameKey } from './dom.js';

/** A request to the account API (docs/server.md, "Accounts and ratings"): METHOD (GET, POST, DELETE) on PATH with
 * an optional JSON BODY. The session travels in its HttpOnly cookie, never in the page's reach: the page only
 * learns who is signed in from GET /api/me. Resolves to { status, body }; a body that is no JSON is {}. */
export async function call(method, path, body) {
  const r = await fetch(path, body === undefined ? { method } :
    { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  let json = {};
  try { json = await r.json(); } catch { /* an empty answer (204) */ }
  return { status: r.status, body: json, retryAfter: r.headers.get('Retry-After') };
}

/** Whether this browser may hold a session: set when it signs up or in, cleared when it signs out or /api/me says
 * no. The session itself is the HttpOnly cookie, out of the page's reach; this only spares a guest's every page a
 * GET /api/me that would answer 401 (which the browser's console reports as an error). It is no secret: the name. */
const sessionHintKey = 'asobi.account';

/** Who is signed in on this browser: GET /api/me's body, or null (a guest, or the session ended: 401). */
export async function whoAmI() {
  if (!localStorage.getItem(sessionHintKey)) return null;
  try {
    const r = await call('GET', '/api/me');
    if (r.status === 200 && r.body.name) return r.body;
    if (r.status === 401) localStorage.removeItem(sessionHintKey);
    return null;
  } catch { return null; }
}

/** A refusal in the page's words: the error's code picks the message (acct.error.CODE), else the server's own. */
export function refusal(r) {
  const code = r.body?.error?.code;
  if (r.status === 429) return tf('acct.error.rate_limited', { s: r.retryAfter ?? '?' });
  const known = code && t(`acct.error.${code}`, null);
  return known ?? `${t('error')}: ${r.body?.error?.message ?? r.status}`;
}

/** Names the server takes (issue 42): 2-20 letters, digits, _ and -; passwords 8 to 256 characters. */
const NAME_PATTERN = '[A-Za-z0-9_\\-]{2,20}';

/** The table ids this device holds guest seats at and has not claimed yet (asobi.claimed: the ones already
 * offered to an account and taken). */
const claimedKey = 'asobi.claimed';
const claimed = () => new Set(JSON.parse(localStorage.getItem(claimedKey) ?? '[]'));
export const unclaimed = () => { const done = claimed(); return heldTables().filter(id => !done.has(id)); };

/** The account section of the lobby. STATE: { me (null: a guest), message }; REDRAW draws the lobby again after
 * a change (signed in or out: the lobby's choices depend on it). */
export function accountSection(state, redraw) {
  const line = (id, text = '') => el('p', { class: 'error', id, role: 'alert' }, text);
  const field = (name, label, type, complete, extra = {}) => el('label', {}, el('span', {}, label),
    el('input', { name, type, autocomplete: complete, required: true, ...extra }));
  const password = (name, label, complete) => field(name, label, 'password', complete, { minlength: 8, maxlength: 256 });
  /** A form whose submit sends its fields to METHOD PATH and, on success, calls DONE with the reply. */
  const form = (id, fields, button, method, path, done) => el('form', { id, class: 'account-form', onsubmit: async e => {
    e.preventDefault();
    const f = e.currentTarget, submit = f.querySelector('button[type=submit]');
    if (submit.disabled) return;   // one request per submit (a double click)
    submit.disabled = true;
    // the name's field is account_name: the lobby's own forms have a field "name" (the table's seat)
    const { account_name: accountName, ...body } = Object.fromEntries(new FormData(f));
    if (accountName !== undefined) body.name = accountName;
    const r = await call(method, path, body).catch(err => ({ status: 0, body: { error: { message: err.message } } }));
    submit.disabled = false;
    if (r.status >= 200 && r.status < 300) done(r.body);
    else f.querySelector('.error').textContent = refusal(r);
  } }, fields, el('button', { type: 'submit', class: 'primary' }, button), line(`${id}-error`));

  const signedIn = body => {
    localStorage.setItem(sessionHintKey, body.name);
    localStorage.setItem(nameKey, body.name);   // a join link's form starts from it (a signed-in join takes it anyway)
    state.me = { name: body.name }; state.message = '';
    redraw();
  };
  if (!state.me) {
    const nameField = complete => field('account_name', t('acct.name'), 'text', complete,
      { minlength: 2, maxlength: 20, pattern: NAME_PATTERN, title: t('acct.name_rule'), autocapitalize: 'off', spellcheck: 'false' });
    return el('section', { class: 'account', id: 'account', 'aria-labelledby': 'account-title' },
      el('h2', { id: 'account-title' }, t('acct.title')),
      state.message ? el('p', { class: 'notice', role: 'status' }, state.message) : '', el('p', { class: 'hint' }, t('acct.guest_hint')),
      el('div', { class: 'account-forms' },
        el('div', {}, el('h3', {}, t('acct.sign_in')),
          form('sign-in', [nameField('username'), password('password', t('acct.password'), 'current-password')],
            t('acct.sign_in'), 'POST', '/api/session', signedIn)),
        el('div', {}, el('h3', {}, t('acct.sign_up')),
          form('sign-up', [nameField('username'), password('password', t('acct.password'), 'new-password'),
            el('small', { class: 'rule' }, t('acct.rules'))], t('acct.sign_up'), 'POST', '/api/accounts', body => {
            state.justSignedUp = true; signedIn(body);
          }))));
  }
  const me = state.me;
  const signedOut = message => { localStorage.removeItem(sessionHintKey); state.me = null; state.message = message; redraw(); };
  const signOut = async () => { await call('DELETE', '/api/session').catch(() => {}); signedOut(''); };
  const changed = () => { state.message = t('acct.password_changed'); redraw(); };
  const closed = () => signedOut(t('acct.closed'));
  return el('section', { class: 'account signed-in', id: 'account', 'aria-labelledby': 'account-title' },
    el('h2', { id: 'account-title' }, t('acct.title')),
    el('p', { class: 'me' }, `${t('acct.signed_in_as')} `, el('a', { href: `/u/${encodeURIComponent(me.name)}`, 'data-me': me.name }, me.name),
      ' · ', el('a', { href: '/leaderboard' }, t('board.title')), ' ',
      el('button', { type: 'button', id: 'sign-out', onclick: signOut }, t('acct.sign_out'))),
    state.message ? el('p', { class: 'notice', role: 'status' }, state.message) : '',
    claimPart(state, redraw),
    el('details', { class: 'account-more' }, el('summary', {}, t('acct.change_password')),
      form('change-password', [password('password', t('acct.password_now'), 'current-password'),
        password('new_password', t('acct.password_new'), 'new-password')], t('acct.change_password'), 'POST', '/api/me/password', changed)),
    el('details', { class: 'account-more' }, el('summary', {}, t('acct.close')),
      el('p', { class: 'hint' }, t('acct.close_hint')),
      form('close-account', [password('password', t('acct.password_now'), 'current-password')], t('acct.close'), 'DELETE', '/api/me', closed)));
}

/** After signing up (and whenever this device still holds unclaimed guest seats), the offer to bring those games
 * into the profile: the server checks each seat's token (it proves this device sat there) and adds its finished
 * games, which never count for ratings (issue 42, point 4). */
function claimPart(state, redraw) {
  const ids = unclaimed();
  if (!ids.length) return '';
  const claim = async e => {
    const button = e.currentTarget;
    button.disabled = true;
    const tokens = ids.map(id => localStorage.getItem(tokenKey(id))).filter(Boolean);
    const r = await call('POST', '/api/me/claim', { tokens }).catch(err => ({ status: 0, body: { error: { message: err.message } } }));
    if (r.status === 200) {
      localStorage.setItem(claimedKey, JSON.stringify([...claimed(), ...ids]));
      state.message = tf('acct.claimed', { n: r.body.claimed ?? r.body.games?.length ?? ids.length });
      redraw();
    } else {
      button.disabled = false;
      document.getElementById('claim-error').textContent = refusal(r);
    }
  };
  return el('div', { class: `claim${state.justSignedUp ? ' fresh' : ''}` },
    el('p', {}, tf('acct.claim_hint', { n: ids.length })),
    el('button', { type: 'button', id: 'claim', class: state.justSignedUp ? 'primary' : '', onclick: claim }, t('acct.claim')),
    el('p', { class: 'error', id: 'claim-error', role: 'alert' }));
}

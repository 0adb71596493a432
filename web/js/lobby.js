// lobby.js — the lobby screen: play against the computer in one click, play with friends, my tables, the live open tables, the games with their rules, the full create-table form.
import { t, languageSwitch, gameTitle, titleIn } from './i18n.js';
import { el, api, tokenKey, invitesKey, watchKey, seatKey, nameKey, heldTables, forgetSeat, LEVELS } from './dom.js';
import { confirmDialog } from './confirm.js';
import { accountSection, whoAmI } from './account.js';
import { ratedBadge } from './standing.js';

const app = document.getElementById('app');
let catalog = null, tables = [];
/** The list comes in pages of at most 100, newest first (docs/server.md): `tables` is the first, pushed live;
 * `older` the pages asked for with "older tables" (GET /api/tables?before=ID), `next` where the next one starts. */
let next = null, older = [], olderNext = undefined;
const form = { game: 'psycle', players: 2, options: {}, bots: [], clock: 'none', seconds: 60, base: 300, increment: 10,
  name: localStorage.getItem(nameKey) ?? '',
  file: null, private: true };   // file: the name of the card file read for a data option; private: invite only (friends)

/** Quick play and friends: the game, the players, the bots' strength; remembered on this device. */
const quick = Object.assign({ game: 'psycle', players: 2, level: 'medium', friends: 'psycle', friendsPlayers: 2 },
  JSON.parse(localStorage.getItem('asobi.quick') ?? '{}'));
const keepQuick = () => localStorage.setItem('asobi.quick', JSON.stringify(quick));
/** Who is signed in (issue 42: account.js): { me: GET /api/me's body or null, message }. */
const account = { me: null, message: '' };
/** The name this device plays under: the account's when signed in (the server takes it from the session
 * anyway), else what was typed last, else "Player". */
const playerName = () => account.me?.name ?? (form.name.trim() || t('name_default'));
const setName = v => { form.name = v; localStorage.setItem(nameKey, v); };

/** Playing with friends: more than one person's seat, so others are to be invited. Such a table is private unless
 * the box is unticked (docs/server.md, "Deals and private tables"): unlisted, and each free seat's join link
 * carries that seat's invite code, so a stranger reading the lobby cannot take a friend's seat. */
const withFriends = () => Array.from({ length: form.players }, (_, i) => form.bots[i] || null).filter(b => b === null).length > 1;

/** A bot by its strength, the algorithm a detail after it: "Bot: strong (ISMCTS, search)" (docs/server.md,
 * `level`: random moves easy, a search strong, the others medium). */
function botWords(spec) {
  const name = spec.split(':')[0];
  const level = name === 'random' ? 'easy' : name === 'ismcts' ? 'strong' : 'medium';
  return `${t('bot')}: ${t(`level.${level}`)} (${t(`bot.${name}`, name)})`;
}

function gameInfo(name) { return catalog.games.find(g => g.name === name); }

function gamesSection() {
  return el('section', { class: 'games' }, el('h2', {}, t('games')),
    el('div', { class: 'game-list' }, catalog.games.map(g => el('article', { class: 'game-card' },
      el('h3', {}, gameTitle(g)), el('p', { class: 'count' }, `${g.min_players}-${g.max_players} ${t('players')}`),
      t(`${g.name}.desc`).split('\n').map(line => el('p', {}, line)),
      el('a', { href: `/rules/${g.name}.html` }, t('rules'))))));
}

/** Options that are safety caps (docs/web.md): shown under "more options". */
const SAFETY_CAPS = new Set(['max_cycles', 'max_turns']);

/** Options whose value is a seat (from 0; -1: drawn by lot), shown as a choice of seats numbered from 1. */
const SEAT_OPTIONS = new Set(['ninja.start_player']);

/** The control of option O of the chosen game, its words from the message table under KEY (opt.GAME.OPTION,
 * .CHOICE). A card set (type data) is ours (null), a set the server loaded (by name), or a file read here
 * whose JSON content is sent: the server never opens a path a client names. */
function optionInput(o, key) {
  const seat = SEAT_OPTIONS.has(`${form.game}.${o.name}`);
  if (seat && form.options[o.name] >= form.players) delete form.options[o.name];   // fewer players now
  const val = form.options[o.name] ?? o.default;
  const set = v => { form.options[o.name] = o.type === 'int' ? Number(v) : v; };
  const choice = (value, label) => el('option', { value, selected: String(value) === String(val) }, label);
  if (seat)
    return el('select', { name: o.name, onchange: e => set(e.target.value) }, choice(-1, t(`${key}.drawn`)),
      Array.from({ length: form.players }, (_, s) => choice(s, `${t('seat')} ${s + 1}`)));
  if (o.type === 'enum')
    return el('select', { name: o.name, onchange: e => set(e.target.value) }, o.choices.map(c => choice(c, t(`${key}.${c}`, c))));
  if (o.type === 'data') {
    const sets = (catalog.card_sets ?? []).filter(c => c.game === form.game && c.option === o.name);
    // The select's own values for "the file read" and "read a file": no set's name starts with \u0001.
    const file = el('input', { type: 'file', name: `${o.name}_file`, accept: '.json,application/json', hidden: true,
      oncancel: () => draw(),
      onchange: async e => {
        const f = e.target.files[0];
        let problem = '';
        try { set(JSON.parse(await f.text())); form.file = f.name; }
        catch (err) { set(null); form.file = null; problem = `${f.name}: ${err.message}`; }
        draw();   // a new form: its error line after
        document.getElementById('create-error').textContent = problem;
      } });
    const loaded = val !== null && typeof val === 'object';
    return el('span', {}, el('select', { name: o.name,
      onchange: e => { if (e.target.value === '\u0001file') file.click(); else set(e.target.value || null); } },
      el('option', { value: '', selected: val === null }, t(`${key}.ours`)),
      sets.map(c => choice(c.name, c.title ? `${c.name}: ${c.title}` : c.name)),
      loaded ? el('option', { value: '\u0001loaded', selected: true }, form.file ?? t(`${key}.file`)) : '',
      el('option', { value: '\u0001file' }, t(`${key}.file`))), file);
  }
  return el('input', { name: o.name, type: o.type === 'int' ? 'number' : 'text', value: val, min: o.min, max: o.max, onchange: e => set(e.target.value) });
}

function createSection() {
  const g = gameInfo(form.game);
  form.players = Math.min(Math.max(form.players, g.min_players), g.max_players);
  const seats = [];
  for (let i = 0; i < form.players; i++) {
    const sel = el('select', { 'aria-label': `${t('seat')} ${i + 1}`, name: `bot${i}`,
      onchange: e => { form.bots[i] = e.target.value || null; document.getElementById('private-choice').hidden = !withFriends(); } },
      el('option', { value: '' }, t('person')),
      catalog.bots.filter(b => b.name !== 'psycle-nash' || (form.game === 'psycle' && form.players === 2))
        .map(b => el('option', { value: b.name, selected: form.bots[i] === b.name }, botWords(b.name))));
    seats.push(el('label', {}, `${t('seat')} ${i + 1} `, sel));
  }
  // shown while there are friends to invite (a change of the seats shows or hides it without redrawing the form)
  seats.push(el('label', { class: 'private', id: 'private-choice', hidden: !withFriends() },
    el('input', { type: 'checkbox', name: 'private', checked: form.private, onchange: e => { form.private = e.target.checked; } }),
    ` ${t('private_label')}`));
  const option = o => {
    const key = `opt.${form.game}.${o.name}`;
    return el('div', { class: 'option' }, el('label', {}, `${t(key, o.name)} `, optionInput(o, key)), el('small', {}, t(`${key}.help`, o.help)));
  };
  // the safety caps (a cycle or turn limit) are for tests and long sessions: under "more options", closed
  const opts = g.options.filter(o => !SAFETY_CAPS.has(o.name)).map(option);
  const caps = g.options.filter(o => SAFETY_CAPS.has(o.name)).map(option);
  const clockInputs = form.clock === 'move'
    ? [el('label', {}, `${t('seconds')} `, el('input', { type: 'number', min: 1, value: form.seconds, onchange: e => { form.seconds = +e.target.value; } }))]
    : form.clock === 'fischer'
      ? [el('label', {}, `${t('base')} `, el('input', { type: 'number', min: 1, value: form.base, onchange: e => { form.base = +e.target.value; } })),
         el('label', {}, `${t('increment')} `, el('input', { type: 'number', min: 0, value: form.increment, onchange: e => { form.increment = +e.target.value; } }))]
      : [];
  return el('section', { class: 'create' }, el('h2', {}, t('create')),
    el('form', { onsubmit: e => { e.preventDefault(); createTable(); } },
      el('label', {}, `${t('game')} `, el('select', { name: 'game', onchange: e => { form.game = e.target.value; form.options = {}; form.file = null; draw(); } },
        catalog.games.map(x => el('option', { value: x.name, selected: x.name === form.game }, gameTitle(x))))),
      el('label', {}, `${t('players_label')} `, el('select', { name: 'players', onchange: e => { form.players = +e.target.value; draw(); } },
        Array.from({ length: g.max_players - g.min_players + 1 }, (_, k) => g.min_players + k)
          .map(n => el('option', { value: n, selected: n === form.players }, n)))),
      opts.length ? el('fieldset', {}, el('legend', {}, t('options')), opts) : '',
      el('fieldset', { class: 'seats' }, el('legend', {}, t('seats')), seats),
      el('fieldset', {}, el('legend', {}, t('clock')),
        el('select', { name: 'clock', 'aria-label': t('clock'), onchange: e => { form.clock = e.target.value; draw(); } },
          ['none', 'move', 'fischer'].map(k => el('option', { value: k, selected: form.clock === k }, t(`clock_${k}`)))), clockInputs),
      caps.length ? el('details', { class: 'more-options' }, el('summary', {}, t('more_options')), caps) : '',
      el('button', { type: 'submit', class: 'primary' }, t('sit')),
      el('p', { class: 'error', id: 'create-error' })));
}

/** One table per "sit": a second tap while the first is on its way (a double click, an impatient phone) would
 * make and join a second table, and its navigation would abort the first's. And should the join fail after the
 * table was made, "sit" again with the same form joins that table (`made`) instead of making another. */
let creating = false, made = null;
async function createTable() {
  if (creating) return;
  creating = true;
  const clock = form.clock === 'move' ? { kind: 'move', seconds: form.seconds }
    : form.clock === 'fischer' ? { kind: 'fischer', base: form.base, increment: form.increment } : { kind: 'none' };
  try {
    const bots = Array.from({ length: form.players }, (_, i) => form.bots[i] || null);
    const request = { game: form.game, players: form.players, options: form.options, bots, clock };
    if (withFriends() && form.private) request.private = true;
    const key = JSON.stringify(request);
    if (made?.key !== key) {
      const reply = await api('/api/tables', request);
      made = { key, table: reply.table, invites: reply.invites ?? null };
      // the codes are shown once: kept here for the table page's join links
      if (made.invites) localStorage.setItem(invitesKey(made.table), JSON.stringify(made.invites));
      if (reply.watch) localStorage.setItem(watchKey(made.table), reply.watch);
    }
    const { table, invites } = made;
    const firstPerson = bots.indexOf(null);
    if (firstPerson < 0) { location.href = `/t/${table}`; return; }
    const j = await api(`/api/tables/${table}/join`, { name: form.name.trim() || t('name_default'), seat: firstPerson,
      ...(invites ? { invite: invites[firstPerson] } : {}) });
    sit(table, j);
  } catch (e) {
    if (/^(seat_taken|table_full|not_found):/.test(e.message)) made = null;   // somebody else sat down: a new table
    creating = false; document.getElementById('create-error').textContent = e.message;
  }
}

/** This device now holds seat J.seat at TABLE: keep its token (the table page reconnects with it) and go there. */
function sit(table, j) {
  localStorage.setItem(tokenKey(table), j.token);
  localStorage.setItem(seatKey(table), String(j.seat));
  location.href = `/t/${table}`;
}

/** Play against the computer, in one click: a table of the chosen game where this device's person takes seat 1
 * and bots of the chosen strength the others, so it starts at once. Friends: a private table of people only;
 * its page gives the other seats' invite links and QR codes (table.js). One table per click, as createTable. */
let starting = false;
async function quickStart(friends) {
  if (starting) return;
  starting = true;
  const errorLine = document.getElementById(friends ? 'friends-error' : 'quick-error');
  errorLine.textContent = '';
  const game = friends ? quick.friends : quick.game, players = friends ? quick.friendsPlayers : quick.players;
  const bots = Array.from({ length: players }, (_, i) => (i === 0 || friends ? null : LEVELS[quick.level]));
  try {
    const rated = friends && account.me && quick.rated;   // rated: every seat a signed-in person (issue 42)
    const reply = await api('/api/tables', { game, players, bots, ...(friends ? { private: true } : {}), ...(rated ? { rated: true } : {}) });
    if (reply.invites) localStorage.setItem(invitesKey(reply.table), JSON.stringify(reply.invites));
    if (reply.watch) localStorage.setItem(watchKey(reply.table), reply.watch);
    const j = await api(`/api/tables/${reply.table}/join`, { name: playerName(), seat: 0,
      ...(reply.invites ? { invite: reply.invites[0] } : {}) });
    sit(reply.table, j);
  } catch (e) {
    starting = false;
    errorLine.textContent = `${t('error')}: ${e.message}`;
  }
}

/** A choice of one of the four games, the players it allows, kept in quick[KEY] and quick[PLAYERS]. */
function gameChoice(prefix, key, playersKey) {
  const g = gameInfo(quick[key]) ?? catalog.games[0];
  quick[key] = g.name;
  quick[playersKey] = Math.min(Math.max(quick[playersKey], g.min_players), g.max_players);
  return [el('label', {}, el('span', {}, t('game')), el('select', { name: `${prefix}_game`,
      onchange: e => { quick[key] = e.target.value; keepQuick(); draw(); } },
    catalog.games.map(x => el('option', { value: x.name, selected: x.name === g.name }, gameTitle(x))))),
  el('label', {}, el('span', {}, t('players_label')), el('select', { name: `${prefix}_players`,
      onchange: e => { quick[playersKey] = +e.target.value; keepQuick(); } },
    Array.from({ length: g.max_players - g.min_players + 1 }, (_, k) => g.min_players + k)
      .map(n => el('option', { value: n, selected: n === quick[playersKey] }, n))))];
}

/** The top of the page: play against the computer, play with friends, and the name both use. */
function startSection() {
  const levels = el('fieldset', { class: 'levels' }, el('legend', {}, t('level')),
    Object.keys(LEVELS).map(level => el('label', { class: 'level' },
      el('input', { type: 'radio', name: 'quick_level', value: level, checked: quick.level === level,
        onchange: () => { quick.level = level; keepQuick(); } }), ` ${t(`level.${level}`)}`)));
  return el('div', { class: 'start' },
    el('section', { class: 'quick', 'aria-labelledby': 'quick-title' }, el('h2', { id: 'quick-title' }, t('quick_title')),
      el('div', { class: 'choices' }, gameChoice('quick', 'game', 'players'), levels),
      el('button', { type: 'button', class: 'primary big', 'data-quick': 'bots', onclick: () => quickStart(false) }, t('quick_play')),
      el('p', { class: 'hint' }, t('quick_hint')),
      el('p', { class: 'error', id: 'quick-error', role: 'alert' })),
    el('section', { class: 'friends', 'aria-labelledby': 'friends-title' }, el('h2', { id: 'friends-title' }, t('friends_title')),
      el('p', { class: 'hint' }, t('friends_hint')),
      el('div', { class: 'choices' }, gameChoice('friends', 'friends', 'friendsPlayers')),
      account.me ? el('label', { class: 'private rated-choice' }, el('input', { type: 'checkbox', name: 'rated', checked: Boolean(quick.rated),
        onchange: e => { quick.rated = e.target.checked; keepQuick(); } }), ` ${t('rated_choice')}`) : '',
      el('button', { type: 'button', class: 'primary', 'data-quick': 'friends', onclick: () => quickStart(true) }, t('friends_play')),
      el('p', { class: 'error', id: 'friends-error', role: 'alert' })),
    account.me ? el('p', { class: 'who' }, `${t('acct.signed_in_as')} `, el('strong', {}, account.me.name))
      : el('p', { class: 'who' }, el('label', {}, el('span', {}, t('your_name')), el('input', { name: 'player_name', maxlength: 24,
        value: form.name, placeholder: t('name_default'), autocomplete: 'nickname',
        oninput: e => setName(e.target.value) }))));
}

/** My tables: the seats this device holds (its stored tokens), each with its table's state, a way back, and a way
 * out: leave (the seat goes to a bot, docs/server.md) or, once the table is over or gone, forget it here. */
let mine = [];   // [{ id, summary }] newest first; summary null: gone from the server
async function loadMine() {
  const ids = heldTables().slice(0, 20);
  mine = await Promise.all(ids.map(async id => {
    try { return { id, summary: await api(`/api/tables/${id}`) }; }
    catch (e) { return { id, summary: null, gone: /^not_found:/.test(e.message) }; }
  }));
  // a table the server no longer knows (expired) holds no seat: forgotten here
  for (const m of mine) if (m.gone) forgetSeat(m.id);
  mine = mine.filter(m => !m.gone);
  const old = app.querySelector('section.mine');
  if (old) old.replaceWith(mineSection());
}

/** Leaving gives the seat away for good, so a dialog asks first (confirm.js), saying what follows: KEY is the
 * button's (leaveKey). */
async function leave(id, button, key) {
  if (!await confirmDialog(t('leave_sure'), t(`${key}.what`), key)) return;
  button.disabled = true;
  const line = document.getElementById(`mine-error-${id}`);
  try {
    await api(`/api/tables/${id}/leave`, { token: localStorage.getItem(tokenKey(id)) });
    forgetSeat(id);
    await loadMine();
  } catch (e) {
    button.disabled = false;
    if (line) line.textContent = `${t('error')}: ${e.message}`;
  }
}

/** What leaving does at table S from SEAT (the key of its words) (docs/server.md, "Leaving a table"): with another person there the
 * heuristic bot plays on in the seat; with nobody else the table ends. */
function leaveKey(s, seat) {
  const others = s.seats.some(x => x.seat !== seat && x.name !== null && !x.bot && !x.handed);
  return !others ? 'leave_ends' : s.status === 'playing' ? 'leave_playing' : 'leave';
}

function mineSection() {
  if (!mine.length) return el('section', { class: 'mine', hidden: true });
  return el('section', { class: 'mine', 'aria-labelledby': 'mine-title' }, el('h2', { id: 'mine-title' }, t('my_tables')),
    el('ul', { id: 'my-tables' }, mine.map(({ id, summary: s }) => {
      const stored = localStorage.getItem(seatKey(id));
      const seat = stored === null ? -1 : Number(stored);
      const held = s?.seats[seat];
      const over = !s || s.status === 'over';
      return el('li', { class: 'my-table', 'data-table': id },
        el('p', {}, el('strong', {}, `${t('table')} ${id}: ${s ? titleIn(catalog.games, s.game) : ''}`),
          s ? ` (${t(`status_${s.status}`)})` : '', held ? ` · ${t('seat')} ${seat + 1}: ${held.name ?? ''}` : ''),
        el('p', { class: 'actions' }, el('a', { href: `/t/${id}`, class: 'back-to' }, over ? t('see_table') : t('return_table')),
          over ? el('button', { type: 'button', class: 'forget', onclick: () => { forgetSeat(id); loadMine(); } }, t('forget'))
            : el('button', { type: 'button', class: 'leave', 'data-leave': id, onclick: e => leave(id, e.currentTarget, leaveKey(s, seat)) }, t(leaveKey(s, seat)))),
        el('p', { class: 'error', id: `mine-error-${id}`, role: 'alert' }));
    })));
}

async function moreTables() {
  const before = olderNext === undefined ? next : olderNext;
  if (before == null) return;
  try {
    const page = await api(`/api/tables?before=${before}`);
    older = older.concat(page.tables);
    olderNext = page.next ?? null;
    showTables(tables, next);
  } catch { /* the button stays: try again */ }
}

function tablesSection() {
  const newest = tables.length ? tables[tables.length - 1].table : Infinity;
  const shown = tables.concat(older.filter(tb => tb.table < newest));
  const more = olderNext === undefined ? next : olderNext;
  const list = shown.length ? shown.map(tb => el('li', { class: 'open-table' },
    el('strong', {}, `${t('table')} ${tb.table}: ${titleIn(catalog.games, tb.game)}`), ` (${t(`status_${tb.status}`)}) `,
    tb.seed_chosen ? el('span', { class: 'badge seed-chosen', title: t('seed_chosen') }, `${t('seed_chosen_short')} `) : '',
    tb.rated ? [ratedBadge(), ' '] : '',
    el('a', { href: `/t/${tb.table}` }, t('watch')),
    el('ul', {}, tb.seats.map(s => el('li', {}, `${t('seat')} ${s.seat + 1}: `,
      s.bot ? botWords(s.bot) : s.name ? s.name
        : el('a', { href: `/t/${tb.table}?join=${s.seat}`, class: 'join' }, `${t('join')} (${t('join_link')})`))))))
    : [el('li', {}, t('none_open'))];
  return el('section', { class: 'tables' }, el('h2', {}, t('open_tables')), el('ul', { id: 'tables' }, list),
    more != null ? el('button', { type: 'button', class: 'more-tables', onclick: moreTables }, t('more_tables')) : '');
}

function draw() {
  document.title = t('title');
  app.replaceChildren(el('header', {}, el('h1', {}, 'asobi'),
    el('nav', { class: 'account-links', 'aria-label': t('board.nav') }, el('a', { href: '/leaderboard' }, t('board.title')), ' · ',
      account.me ? el('a', { href: `/u/${encodeURIComponent(account.me.name)}` }, account.me.name) : el('a', { href: '#account' }, t('acct.sign_in'))),
    languageSwitch(draw)), startSection(), mineSection(), tablesSection(), gamesSection(), createSection(),
    accountSection(account, draw));
}

function showTables(list, after) {
  tables = list;
  next = after ?? null;
  const old = app.querySelector('section.tables');
  if (old) old.replaceWith(tablesSection());
}

async function refreshTables() {
  try { const page = await api('/api/tables'); showTables(page.tables, page.next); } catch { /* the next try */ }
}

/** The open tables, live: the server pushes the list on /ws/lobby at every change (docs/server.md);
 * a dropped socket reconnects by itself, and while it is down the list is polled every 3 s. */
let polling = null, lobbyRetry = 500;
function listen() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${proto}://${location.host}/ws/lobby`);
  ws.onopen = () => { lobbyRetry = 500; if (polling) { clearInterval(polling); polling = null; } };
  ws.onmessage = ev => { const m = JSON.parse(ev.data); if (m.type === 'tables') showTables(m.tables, m.next); };
  ws.onclose = () => {
    if (!polling) polling = setInterval(refreshTables, 3000);
    setTimeout(listen, lobbyRetry); lobbyRetry = Math.min(lobbyRetry * 2, 30000);
  };
}

catalog = await api('/api/games');
catalog.games.sort((a, b) => ['psycle', 'ninja', 'octal', 'timemasters'].indexOf(a.name) - ['psycle', 'ninja', 'octal', 'timemasters'].indexOf(b.name));
await refreshTables();
account.me = await whoAmI();
draw();
listen();
loadMine();

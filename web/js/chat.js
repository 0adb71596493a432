// chat.js — the table's chat (docs/server.md, "Chat"): its lines (always inserted as text), quick phrases in the reader's language, mutes, turning it off on this device, and the unread count of a phone's folded panel.
import { el } from './dom.js';
import { t, tf } from './i18n.js';
import { announce } from './announce.js';
import { seatName } from './seats.js';

const OFF_KEY = 'asobi.chat.off';
const PHRASES = ['hi', 'gl', 'wp', 'ty', 'oops', 'think', 'gg'];
const SHOWN_MAX = 200;   // lines kept on the page (the server sends the last 100 as history)

/** The chat of one table page. SEND sends a message over the table's socket (false when it is down); REDRAW
 * draws the page again. The panel's element is made once and kept across the page's redraws, so a line
 * being typed survives them; it is filled again from the state at each draw. */
export function makeChat(send, redraw) {
  const chat = { lines: [], unread: 0, open: false, muted: { seats: [], spectators: false }, last: null };
  const input = el('input', { id: 'chat-input', type: 'text', maxlength: 500, autocomplete: 'off', enterkeyhint: 'send' });
  const form = el('form', { class: 'chat-form' }, input, el('button', { type: 'submit', id: 'chat-send' }, ''));
  form.addEventListener('submit', ev => {
    ev.preventDefault();
    const text = input.value.trim();
    if (text && send({ type: 'chat', text })) input.value = '';
  });
  const list = el('ol', { class: 'chat-lines', tabindex: 0 });
  const panel = el('section', { class: 'chat', id: 'chat' });

  /** A name marked as what it is: a seat (its number), a bot's seat, a spectator. */
  function who(line) {
    const seats = chat.last?.seats ?? [];
    if (line.seat === null || line.seat === undefined) return [line.name, t('chat_spectator')];
    const name = seats.length ? seatName(seats, line.seat) : line.name;
    return [name, seats[line.seat]?.bot ? t('chat_bot') : tf('chat_seat', { n: line.seat + 1 })];
  }

  /** What a line says in this reader's language: a quick phrase by its id, else the text as it was typed. */
  const words = line => (line.phrase ? t(`phrase.${line.phrase}`, line.phrase) : line.text);

  function lineItem(line) {
    const [name, mark] = who(line);
    return el('li', { class: 'chat-line', 'data-index': line.index, 'data-channel': line.channel },
      el('span', { class: 'chat-name' }, name), ' ', el('span', { class: 'chat-mark' }, `(${mark})`), ' ',
      el('span', { class: 'chat-text', ...(line.phrase ? { 'data-phrase': line.phrase } : {}) }, words(line)));
  }

  const focusedHere = () => panel.contains(document.activeElement);

  /** A line as it arrives: kept, counted unread where it cannot be seen, said aloud only while the reader is
   * in the chat (lines would otherwise talk over the game's own announcements). */
  function heard(line) {
    if (chat.lines.some(l => l.index === line.index)) return;
    chat.lines.push(line);
    if (chat.lines.length > SHOWN_MAX) chat.lines.shift();
    const mine = chat.last && line.seat === chat.last.seat && line.seat !== null;
    if (!mine && !isOff() && !chat.open && !focusedHere()) chat.unread++;
    if (!isOff() && focusedHere() && !mine) announce(`${who(line)[0]}: ${words(line)}`);
    redraw();
  }

  /** An update: its history ("chat"), when it carries one, replaces the lines; its seats name them. */
  function update(m) {
    chat.last = m;
    if (m.chat) chat.lines = m.chat.slice(-SHOWN_MAX);
    if (m.chat_muted) chat.muted = m.chat_muted;
  }

  const isOff = () => localStorage.getItem(OFF_KEY) === 'on';

  function muteButtons() {
    const last = chat.last;
    if (!last) return '';
    const items = last.seats.filter(s => s.seat !== last.seat && !s.bot).map(s => {
      const on = chat.muted.seats.includes(s.seat);
      const name = seatName(last.seats, s.seat);
      return el('button', { type: 'button', class: 'chat-mute', 'aria-pressed': String(on), 'data-mute': s.seat,
        onclick: () => send({ type: on ? 'unmute' : 'mute', seat: s.seat }) }, tf(on ? 'chat_unmute' : 'chat_mute', { who: name }));
    });
    const spect = chat.muted.spectators;
    items.push(el('button', { type: 'button', class: 'chat-mute', 'aria-pressed': String(spect), 'data-mute': 'spectators',
      onclick: () => send({ type: spect ? 'unmute' : 'mute', spectators: true }) },
    tf(spect ? 'chat_unmute' : 'chat_mute', { who: t('chat_spectators') })));
    return el('div', { class: 'chat-mutes' }, items);
  }

  /** The panel as the page shows it now (the same element each time). STEP: a replay's step on the page (the
   * lines said by then, each at the move it was said: "move" counts the actions before it), or null. */
  function section(step = null) {
    const off = isOff();
    if (chat.open || focusedHere()) chat.unread = 0;
    const toggle = el('button', { type: 'button', class: 'chat-off', id: 'chat-off', 'aria-pressed': String(off),
      onclick: () => { localStorage.setItem(OFF_KEY, off ? 'off' : 'on'); chat.unread = 0; redraw(); } },
    t(off ? 'chat_turn_on' : 'chat_turn_off'));
    form.querySelector('button').textContent = t('chat_send');
    input.setAttribute('placeholder', t('chat_placeholder'));
    input.setAttribute('aria-label', t('chat_placeholder'));
    list.setAttribute('aria-label', t('chat'));
    const shown = step === null ? chat.lines : chat.lines.filter(l => l.move <= step);
    list.replaceChildren(...shown.map(lineItem).reverse());
    const phrases = el('div', { class: 'chat-phrases', role: 'group', 'aria-label': t('chat_phrases') },
      PHRASES.map(p => el('button', { type: 'button', 'data-phrase': p, onclick: () => send({ type: 'chat', phrase: p }) }, t(`phrase.${p}`))));
    const wall = chat.last?.seat !== null && chat.last?.status === 'playing' ? el('p', { class: 'chat-note' }, t('chat_wall')) : '';
    panel.classList.toggle('open', chat.open);
    // a phone's open panel covers the page, its button too: it closes by its own (the keyboard back on the button)
    const close = chat.open ? el('button', { type: 'button', class: 'chat-close', id: 'chat-close', 'aria-controls': 'chat',
      onclick: () => { chat.open = false; redraw(); document.getElementById('chat-opener')?.focus(); } }, `✕ ${t('chat')}`) : '';
    panel.replaceChildren(close, el('h2', {}, t('chat')), toggle, ...(off ? [el('p', { class: 'chat-note' }, t('chat_is_off'))]
      : [step === null ? '' : el('p', { class: 'chat-note' }, tf('chat_replay', { k: step })),
        shown.length ? list : el('p', { class: 'chat-note' }, t('chat_empty')), phrases, form, muteButtons(), wall]));
    return panel;
  }

  /** A phone's button that unfolds the panel, with the lines not yet read (in the page's flow: the header's, or
   * the dock's while the seat plays). */
  function opener() {
    if (isOff()) return '';
    return el('button', { type: 'button', class: 'chat-opener', id: 'chat-opener', 'aria-expanded': String(chat.open),
      'aria-controls': 'chat', onclick: () => { chat.open = !chat.open; chat.unread = 0; redraw(); if (chat.open) input.focus(); } },
    chat.open ? `✕ ${t('chat')}` : chat.unread ? tf('chat_unread', { n: chat.unread }) : t('chat'));
  }

  return { heard, update, section, opener, get unread() { return chat.unread; } };
}

// waiting.js — what a table says about itself: the free seats' join links while it waits (with QR codes), a private table, a chosen deal, and seats a bot plays while their person is away.
import { el, invitesKey, watchKey, lazyModule } from './dom.js';
import { t, tf } from './i18n.js';

// qr.js, loaded when a table first shows a join link (most tables never do)
const qrModule = lazyModule(() => import('./qr.js'));

/** The invite codes this browser keeps for a private table it created (lobby.js), or null. */
function invites(id) {
  try { return JSON.parse(localStorage.getItem(invitesKey(id))); } catch { return null; }
}

/** Where others reach this table: the server's --public-url (its summary's "ws", docs/server.md, minus
 * `/ws/tables/ID`, ws becoming http), else this page's own address. */
function publicBase(summary) {
  const ws = summary?.ws?.match(/^(wss?):\/\/(.+)\/ws\/tables\/\d+$/);
  return ws ? `${ws[1] === 'wss' ? 'https' : 'http'}://${ws[2]}` : location.origin;
}

/** A link on a loopback address reaches no phone: said where the links are, with how to serve on the network. */
function loopbackWarning(base) {
  const host = new URL(base).hostname;
  if (!/^(127\.|localhost$|\[::1\]$)/.test(host)) return '';
  return el('p', { class: 'notice warn', 'data-warn': 'loopback', role: 'note' }, `⚠ ${tf('loopback', { host })}`);
}

/** Each free seat's join link while the table is open; a private table's carries the seat's invite code, known
 * only to the page of whoever created it (elsewhere the page says where the links are). Nothing while this
 * page's join form asks for a name: it says the one thing to do. The QR codes come once qr.js has loaded
 * (redraw). */
export function waitingSection(page, redraw) {
  const last = page.last;
  if (last.status !== 'open' || joiningNow(page)) return '';
  const codes = last.private ? invites(page.id) : null;
  const free = last.seats.filter(s => !s.bot && !s.name && (!last.private || codes?.[s.seat]));
  const base = publicBase(page.summary);
  // a private table's watch link: spectators need its code (in the fragment, which no request carries)
  const watch = last.private && codes ? localStorage.getItem(watchKey(page.id)) : null;
  const watchLink = watch ? `${base}/t/${page.id}#watch=${watch}` : null;
  return el('section', { class: 'waiting' }, el('p', {}, t('waiting')), free.length ? loopbackWarning(base) : '', el('ul', {}, free.map(s => {
    const link = `${base}/t/${page.id}?join=${s.seat}${last.private ? `#invite=${codes[s.seat]}` : ''}`;
    // a QR code per link: friends at the same table scan it with their phones
    return el('li', { class: 'invite' }, `${t('seat')} ${s.seat + 1}: `, el('a', { href: link }, link),
      qrModule(redraw)?.qrSvg(link, `${t('qr_of')} ${t('seat')} ${s.seat + 1}`) ?? '');
  })), watchLink ? el('p', { class: 'watch-link' }, `${t('watch_link')} `, el('a', { href: watchLink }, watchLink)) : '',
  last.private && !codes ? el('p', {}, t('private_no_links')) : '');
}

/** Whether the page's join form asks for a name now (a join link, nothing refused yet). */
export const joiningNow = page => Boolean(page.joining && !page.token && !page.joining.problem);

/** What everyone at the table is told about how it was made: a deal its creator chose, a private table (not
 * to the invited friend while the join form asks for a name: it says the one thing to do). */
export function noticesSection(page) {
  const last = page.last;
  return [last.seed_chosen ? el('p', { class: 'notice seed-chosen', role: 'note' }, `⚠ ${t('seed_chosen')}`) : '',
    last.private && !joiningNow(page) ? el('p', { class: 'notice private', role: 'note' }, t('private_table')) : ''];
}

/** Everyone is told when a bot plays a person's seat (handed to it after timeouts, docs/server.md), until
 * the person is back; or for good, when the person left the table (`left`). */
export const handoverText = (s, name) => tf(s.left ? 'left_notice' : 'handed_notice', { who: name(s.seat) });

export function awayNotices(last, name) {
  return last.seats.filter(s => s.handed)
    .map(s => el('p', { class: `notice handed${s.left ? ' left' : ''}`, role: 'status', 'data-seat': s.seat },
      handoverText(s, name)));
}

// seats.js — the table's seats: who sits where (people by name, bots as "Bot 2 (strong)"), whose turn it is, clocks, and a leaver's grace counting down.
import { el } from './dom.js';
import { t, tf } from './i18n.js';
import { ratingText } from './standing.js';

/** The name of seat S as the page says it: a person's own name, a bot by its seat and level ("Bot 2
 * (strong)", docs/server.md `level`: never the engine's spec), else "Seat 3". */
export function seatName(seats, s) {
  const x = seats[s];
  if (!x) return `${s + 1}`;
  if (x.name && !x.bot) return x.name;
  if (x.bot) return tf('bot_named', { n: s + 1, level: t(`level.${x.level ?? 'medium'}`) });
  return `${t('seat')} ${s + 1}`;
}

/** Milliseconds still left of MS, counted down locally since the update came (RECEIVED). */
const since = (ms, received) => ms - (performance.now() - received);

function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** What a seat's chip says of a person who left: away, the grace left on their turn, or that a bot plays
 * for them until they return (handed). */
function leaverBadge(s, received, clockFirst) {
  if (s.handed) return el('span', { class: 'badge handed' }, ` · ${t(s.left ? 'left_badge' : 'handed_to_bot')}`);
  if (s.bot || s.connected || !s.name) return '';
  const grace = clockFirst ? null : s.grace_left_ms ?? null;
  const seconds = grace === null ? 0 : Math.max(0, Math.ceil(since(grace, received) / 1000));
  return el('span', { class: 'badge away' }, ` · ${t('away_for')}`, grace === null ? ''
    : el('span', { class: 'grace', 'data-seat': s.seat }, ` · ${tf('grace_left', { s: seconds })}`));
}

/** The seats as a bar of chips: number and name, "(you)", a signed-in person's rating in the game (RATINGS by
 * name, issue 42), the turn, clocks, leavers; LASTMOVER's chip marked. */
export function seatsBar(last, lastMover, ratings = {}) {
  const toMove = last.view?.to_move ?? [];
  const c = last.clock;
  return el('ol', { class: 'seats-bar' }, last.seats.map(s => {
    const turn = toMove.includes(s.seat) && last.status === 'playing';
    let remaining = c ? c.remaining_ms[s.seat] : null;
    if (c && c.running.includes(s.seat)) remaining = since(remaining, last.received);
    // an away seat with a clock shows one countdown, the one that acts first (a grace and a clock disagreed)
    const grace = s.grace_left_ms === undefined || s.grace_left_ms === null ? null : since(s.grace_left_ms, last.received);
    const clockFirst = remaining !== null && grace !== null && remaining <= grace;
    if (grace !== null && !clockFirst && !s.connected && !s.bot) remaining = null;
    const classes = ['seatchip', turn && 'turn', s.seat === last.seat && 'me', s.seat === lastMover && 'just-moved'];
    return el('li', { class: classes.filter(Boolean).join(' '), 'data-seat': s.seat },
      `${s.seat + 1}. ${seatName(last.seats, s.seat)}`, s.seat === last.seat ? ` (${t('you')})` : '',
      s.name && !s.bot && ratings[s.name] ? el('span', { class: 'seat-rating', 'data-rating': ratingText(ratings[s.name]) },
        ` · ${tf('seat.rating', { r: ratingText(ratings[s.name]) })}${ratings[s.name].provisional ? ` (${t('rating.provisional')})` : ''}`) : '',
      turn ? el('span', { class: 'badge' }, ` ▶ ${t('to_move')}`) : '', leaverBadge(s, last.received, clockFirst),
      remaining !== null ? el('span', { class: 'clock', 'data-seat': s.seat }, ` ${t('clock')} ${clockText(remaining)}`) : '');
  }));
}

/** Whether anything on the bar counts down (a clock running, a leaver's grace): the page redraws it each second. */
export const ticking = last => last.status === 'playing' &&
  (Boolean(last.clock) || last.seats.some(s => s.grace_left_ms !== undefined));

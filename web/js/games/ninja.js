// ninja.js — NINJA SCROLL TRICK's table: trump, own hand, every player's open cards with scroll tiles up or down, the trick, won tiles.
const SUITS = { fire: '火', water: '水', wood: '木', metal: '金', earth: '土' };
/** The suit's name in the page's language, where it is not the kanji already shown (in Japanese it is). */
const suitName = (t, suit) => (t(suit) === SUITS[suit] ? '' : t(suit));
/** A suit in words with its kanji: "water 水" in English, "水" in Japanese. */
const suitWords = (t, suit) => `${suitName(t, suit)} ${SUITS[suit] || suit}`.trim();
/** A small card in a line of text: "wood 4 木" in English, "木4" in Japanese. */
const miniCard = (t, id) => {
  const [suit, n] = id.split('-');
  return suitName(t, suit) ? `${suitName(t, suit)} ${n} ${SUITS[suit]}` : `${SUITS[suit] || suit}${n}`;
};
/** The scroll tiles of a list, or "none" (never a label left empty). */
const tilesOrNone = (ctx, list, cls) => (list.length
  ? list.map(s => ctx.el('span', { class: `scroll ${cls}` }, `${s > 0 ? '+' : ''}${s}`)) : ctx.t('none'));

/** A card face: the suit's kanji, symbol and name (not colour alone) and its number. Its name is what it shows
 * ("2 火 fire"; WCAG 2.5.3, Label in Name: no aria-label that differs from it); the suit in words in the tooltip. */
export function card(ctx, id, extra = {}) {
  const { el, t } = ctx;
  const [suit, n] = id.split('-');
  return el('div', { class: `card ninja-card ${suit}`, 'data-c': id, title: `${t(suit)} ${n}`, ...extra },
    el('span', { class: 'num' }, n), el('span', { class: 'suit' }, SUITS[suit] || suit),
    el('small', {}, suitName(t, suit)));
}

function scroll(ctx, s, faceUp) {
  const { el, t } = ctx;
  if (s === null || s === undefined) return '';
  const shown = s === 'hidden' ? '巻' : `${s > 0 ? '+' : ''}${s}`;
  return el('span', { class: `scroll${faceUp ? ' up' : ' down'}`, title: t(faceUp ? 'ninja.face_up' : 'ninja.face_down') }, faceUp ? shown : `▮ ${s === 'hidden' ? '?' : shown}`);
}

const mentions = id => a => a.split(' ').includes(id);

/** Who sits at POS: a seat's name, or the shadow (2 players), which is no seat: its entry has no seat's fields
 * ("void", "scrolls" of its own) and its number is past the last seat's. */
const who = (ctx, v, pos) => (v.players.find(p => p.seat === pos)?.shadow ? ctx.t('ninja.shadow') : ctx.name(pos));

/** How many the result ranks the seats among: when the shadow (2 players) came out ahead, both players share
 * the place after it (ruling 19: it is ranked with them); otherwise the seats are ranked among themselves. */
export const participants = v => (v.shadow_won ? v.players.length : undefined);

/** Why the game ended before round 3: the shadow came first at a round's end (ruling 13). */
export const overReason = v => (v.shadow_won && v.round < 3 ? 'over.ninja.shadow' : null);

/** The result's word on the shadow: with 2 players it is ranked with them, so when it wins nobody does. */
export function resultNote(v, ctx) {
  const shadow = v.players.find(p => p.shadow);
  if (!shadow) return '';
  return ctx.tf(v.shadow_won ? 'ninja.shadow_won' : 'ninja.shadow_lost', { points: shadow.points });
}

/** What to do now, by the phase: name the trump, open a card, lay a scroll, turn one up, lead or follow. */
export function prompt(v, { t, tf }) {
  if (v.phase !== 'battle') return v.phase in { trump: 1, open: 1, scroll: 1, flip: 1 } ? t(`prompt.ninja.${v.phase}`) : null;
  if (!v.trick.length) return t('prompt.ninja.lead');
  return tf('prompt.ninja.follow', { suit: suitWords(t, v.trick[0].card.split('-')[0]) });
}

export function render(v, ctx) {
  const { el, t, count } = ctx;
  const me = v.players.find(p => p.seat === ctx.seat);
  const head = el('div', { class: 'center' },
    el('div', { class: 'round' }, `${t('ninja.round')} ${v.round} · ${t('ninja.phase')}: ${t(`phase.ninja.${v.phase}`)} · ${t('ninja.pile')} ${v.pile_size}`),
    el('div', { class: 'tiles' }, el('div', { class: 'tile trump' }, el('small', {}, t('ninja.trump')),
      el('b', {}, v.trump ? `${SUITS[v.trump]} ${suitName(t, v.trump)}`.trim() : '—'))),
    ...ctx.legal.filter(a => a.startsWith('trump ')).map(a => {
      const s = a.slice(6);
      return ctx.actionable(el('button', { class: `suit-choice ${s}`, title: ctx.label(a) }, `${SUITS[s]} ${suitName(t, s)}`.trim()), x => x === a);
    }));
  // the cards of the last trick stay in view, its winner marked, until the next trick's first card
  const shown = v.trick.length || !v.last_trick ? v.trick : v.last_trick.cards;
  const done = !v.trick.length && v.last_trick;
  const trick = el('div', { class: `trick${done ? ' done' : ''}` }, el('h3', {}, done ? t('ninja.last_trick') : t('ninja.trick')),
    shown.map(c => el('div', { class: `played${done && c.seat === v.last_trick.winner ? ' won' : ''}`,
      'data-moment': done && c.seat === v.last_trick.winner ? `sweep ${v.round}.${v.tricks_played}` : null },
      el('small', {}, who(ctx, v, c.seat)), card(ctx, c.card), scroll(ctx, c.scroll, true))),
    v.last_trick ? el('div', { class: 'last' }, `${t('ninja.last_trick')}: `,
      v.last_trick.cards.map(c => el('span', { class: 'mini', 'data-c': c.card }, `${miniCard(t, c.card)}${c.scroll !== null ? ` (${c.scroll})` : ''}`)),
      ` → ${who(ctx, v, v.last_trick.winner)}`) : '');
  const players = el('div', { class: 'players' }, v.players.map(p => el('div', { class: `player${p.seat === ctx.seat ? ' me' : ''}`, 'data-seat': p.seat },
    el('h3', {}, p.shadow ? t('ninja.shadow') : `${p.seat + 1}. ${ctx.name(p.seat)}`),
    el('p', {}, `${t('hand')}: ${count(p.hand_size, 'cards')} · ${t('ninja.points')} ${p.points} · ${t('ninja.won')}: `,
      tilesOrNone(ctx, p.won, 'up'),
      p.void?.length ? ` · ${t('ninja.void')} ${p.void.map(s => suitWords(t, s)).join(', ')}` : ''),
    el('div', { class: 'open' }, p.open.map(o => {
      const n = el('div', { class: 'open-card' }, card(ctx, o.card), scroll(ctx, o.scroll, o.face_up));
      return p.seat === ctx.seat ? ctx.actionable(n, mentions(o.card)) : n;
    })),
    p.seat === ctx.seat && p.scrolls ? el('p', {}, `${t('ninja.scrolls')}: `, tilesOrNone(ctx, p.scrolls, 'down')) : '')));
  const hand = me && me.hand ? el('div', { class: 'hand' }, el('h3', {}, t('hand')),
    me.hand.map(c => ctx.actionable(card(ctx, c, { 'data-card': c }), mentions(c)))) : '';
  return el('div', {}, head, trick, players, hand);
}

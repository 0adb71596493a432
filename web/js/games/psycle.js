// psycle.js — PSYCLE's table: target and bonus tiles, gems, each player's cards 0-5 with cost and stars, the reveal.
const STARS = [0, 3, 3, 2, 1, 1];                       // docs/rules/psycle.md, reconstructed data
const BEATS = [[], [0, 5], [0, 1], [0, 1, 2], [0, 1, 2, 3], [0, 2, 3, 4]];

/** A card face. Its name is its visible text, with words for the symbols read in place (★★★: "3 stars", ">":
 * "beats"): no aria-label that differs from what is seen (WCAG 2.5.3, Label in Name: speech input users say what
 * they see); the whole sentence stays in the tooltip. */
function card(ctx, n, extra = {}) {
  const { el, t, tf, count } = ctx;
  const label = tf('psycle.card_label', { n, stars: STARS[n], beats: BEATS[n].join(' ') || '—' });
  const said = text => el('span', { class: 'sr-only' }, text);
  return el('div', { class: `card psycle-card c${n}`, 'data-c': `psycle-${n}`, title: label, ...extra },
    el('span', { class: 'num' }, n),
    el('span', { class: 'stars' }, el('span', { 'aria-hidden': 'true' }, '★'.repeat(STARS[n]) || '—'), said(` ${count(STARS[n], 'psycle.stars_n')} `)),
    el('span', { class: 'cost' }, el('span', { class: 'word' }, t('psycle.cost')), ` ${n}◆`),
    el('span', { class: 'beats' }, el('span', { 'aria-hidden': 'true' }, '>'), said(` ${t('psycle.beats')}`), ` ${BEATS[n].join(' ') || '—'}`));
}

function tile(ctx, kind, value) {
  return ctx.el('div', { class: `tile ${kind}` }, ctx.el('small', {}, ctx.t(`psycle.${kind}`)), ctx.el('b', {}, value === null || value === undefined ? '—' : kind === 'bonus' ? `+${value}★` : value));
}

/** What to do now: "Your turn: choose a card 0-5 (you hold 7 gems)." (the cards this seat can pay for). */
export function prompt(v, { tf, count, legal, seat }) {
  const cards = legal.filter(a => a.startsWith('play ')).map(a => Number(a.slice(5))).sort((a, b) => a - b);
  const me = v.players.find(p => p.seat === seat);
  if (!cards.length || !me) return null;
  return tf('prompt.psycle', { lo: cards[0], hi: cards[cards.length - 1], gems: count(me.gems, 'psycle.gems') });
}

export function render(v, ctx) {
  const { el, t, count } = ctx;
  const me = v.players.find(p => p.seat === ctx.seat);
  const tiles = el('div', { class: 'center' },
    el('div', { class: 'round' }, `${t('psycle.cycle')} ${v.cycle} · ${t('psycle.round')} ${v.round}/5`),
    el('div', { class: 'tiles' }, tile(ctx, 'target', v.target), tile(ctx, 'bonus', v.bonus)),
    el('div', { class: 'revealed' }, `${t('psycle.revealed')}: `, v.revealed.map(r => el('span', { class: 'mini' }, `${r.target}/+${r.bonus}`))),
    el('div', { class: 'supply' }, `${t('psycle.supply')}: `, el('span', { class: 'gem' }, '◆'), ` ${v.supply}`));
  const lr = v.last_round;
  const others = v.players.map(p => el('div', { class: `player${p.seat === ctx.seat ? ' me' : ''}`, 'data-seat': p.seat },
    el('h3', {}, `${p.seat + 1}. ${ctx.name(p.seat)}`),
    // the net score: a cycle ends with a point lost per gem held (§9)
    el('p', {}, el('span', { class: 'gem' }, '◆'), ` ${count(p.gems, 'psycle.gems')} · ${count(p.points, 'psycle.points')} (${ctx.tf('psycle.net', { n: p.points - p.gems })}) · ${count(p.victory_tiles, 'psycle.vt')}`),
    el('div', { class: 'slot' },
      p.choice !== null && p.choice !== undefined ? card(ctx, Number(p.choice), { class: `card psycle-card c${p.choice} chosen`, 'data-choice': p.choice })
        : p.chosen ? el('div', { class: 'card back' }, t('psycle.chosen'))
          : v.to_move.includes(p.seat) ? el('div', { class: 'card empty' }, t('psycle.thinking')) : '',
      lr ? el('div', { class: 'reveal', 'data-moment': `reveal ${v.cycle}.${v.round}.${p.seat}.${v.revealed.length}` }, el('small', {}, t('psycle.reveal')), card(ctx, Number(lr.cards[p.seat])),
        el('small', {}, `${count(lr.points[p.seat], 'psycle.points', true)} · ${lr.gems[p.seat] >= 0 ? '+' : ''}${lr.gems[p.seat]}◆`)) : '')));
  const lastRound = lr ? el('p', { class: 'last' }, `${t('psycle.reveal')}: ${t('psycle.target')} ${lr.target}, ${t('psycle.bonus')} +${lr.bonus}`) : '';
  const hand = me && me.hand ? el('div', { class: 'hand' }, el('h3', {}, t('hand')), me.hand.map(c =>
    ctx.actionable(card(ctx, Number(c), { 'data-card': c }), a => a === `play ${c}`))) : '';
  return el('div', {}, tiles, el('div', { class: 'players' }, others), lastRound, hand);
}

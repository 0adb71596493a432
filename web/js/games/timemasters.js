// timemasters.js — Time Masters' table: the five spheres, the spell zone, own hand, timers, Kè and points of every wizard.
function card(ctx, name, extra = {}) {
  return ctx.el('div', { class: 'card tm-card', 'data-c': name, 'aria-label': name, ...extra }, ctx.el('span', { class: 'name' }, name));
}

const mentions = name => a => a.endsWith(` ${name}`) || a.includes(` ${name} on `);

/** The pending choice: cards to pick, or how a spell's Kè is paid ("pay 2 gold 1 ephemeral", ruling 10):
 * the line, which opens the menu of the mixes that can pay. */
function choice(c, ctx) {
  const { el, t } = ctx;
  const what = c.kind === 'pay' ? `${c.card} (${c.left} Kè)` : c.card ?? '';
  return ctx.actionable(el('p', { class: 'choice' }, `${t('choose')}: ${t(`choice.timemasters.${c.kind}`)} ${what}`),
    a => c.kind === 'pay' && a.startsWith('pay '));
}

export function render(v, ctx) {
  const { el, t } = ctx;
  const me = v.players.find(p => p.seat === ctx.seat);
  const spheres = el('div', { class: 'spheres' }, el('h3', {}, t('tm.spheres')), v.spheres.map(s => ctx.actionable(
    el('div', { class: `sphere l${s.level}`, 'aria-label': `${t('tm.sphere')} ${s.level}` },
      el('b', { class: 'level' }, s.level), el('small', {}, `${t('tm.level')} ${s.level}`),
      s.top ? card(ctx, s.top) : el('div', { class: 'card empty' }, t('tm.empty')), el('small', {}, `${t('tm.left')} ${s.size}`)),
    a => a === `take ${s.level}` || a === `take ${s.level} second`)));
  const zone = el('div', { class: 'zone' }, `${t('tm.turn')} ${v.turn} · ${t('tm.phase')}: ${t(`phase.timemasters.${v.phase}`)} · ${ctx.name(v.active)} · ${t('tm.access')} ${v.access_points} · ${t('tm.spell_zone')}: `,
    v.spell_zone.map(c => el('span', { class: 'mini' }, typeof c === 'string' ? c : JSON.stringify(c))),
    v.choice ? choice(v.choice, ctx) : '');
  const players = el('div', { class: 'players' }, v.players.map(p => el('div', { class: `player${p.seat === ctx.seat ? ' me' : ''}`, 'data-seat': p.seat },
    el('h3', {}, `${p.seat + 1}. ${ctx.name(p.seat)}`),
    el('p', { class: 'ke' }, `${t('tm.ke')}: `, el('span', { class: 'ke-gold' }, `● ${p.ke_ready} ${t('tm.ke_ready')}`), ' ',
      el('span', { class: 'ke-grey' }, `○ ${p.ke_spent} ${t('tm.ke_spent')}`), ' ', el('span', { class: 'ke-eph' }, `◇ ${p.ke_ephemeral} ${t('tm.ke_eph')}`)),
    el('p', {}, `${t('hand')} ${p.hand_size} · ${t('tm.deck')} ${p.deck_size} · ${t('tm.discard')} ${p.discard.length} · ${t('tm.points')} ${p.points ?? '?'}`),
    el('div', { class: 'timers' }, `${t('tm.timers')}: `, p.timers.map((tm, i) => ctx.actionable(
      el('div', { class: 'timer', 'aria-label': `${t('tm.timers')} ${i + 1}` }, el('b', {}, `${i + 1}. ${tm.timer}`),
        el('small', {}, ` ${tm.spells.length}/${tm.slots}${tm.full ? ' ●' : ''}${tm.delay ? ` · ${t('tm.delay')} ${tm.delay}` : ''}`),
        el('div', { class: 'slot' }, tm.spells.map(c => card(ctx, typeof c === 'string' ? c : c.name ?? JSON.stringify(c))))),
      a => p.seat === ctx.seat && (a === `activate ${i + 1}` || a === `delay ${i + 1}`)))),
    p.released.length ? el('div', { class: 'released' }, `${t('tm.released')}: `, p.released.map(c => p.seat === ctx.seat ? ctx.actionable(card(ctx, c), a => a === `release ${c}`) : card(ctx, c))) : '')));
  const hand = me && me.hand ? el('div', { class: 'hand' }, el('h3', {}, t('hand')),
    me.hand.map(c => ctx.actionable(card(ctx, c, { 'data-card': c }), mentions(c)))) : '';
  return el('div', {}, spheres, zone, players, hand);
}

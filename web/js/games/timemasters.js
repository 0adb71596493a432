// timemasters.js — Time Masters' table: the five spheres, the spell zone, own hand, timers, Kè and points of every wizard; every card says what it does, by its name in the page's language.
import { tmCard, lang } from '../i18n.js';

/* The Japanese page's card names (timemasters_names.js) come with this module on that page only, before its
 * first drawing: the English page never carries their bytes (the table page's weight, tests/web/test_table.mjs).
 * A page switched to Japanese at the table loads them then, and draws again once they are in (DRAW). */
let names = lang === 'ja' ? await import('./timemasters_names.js') : null;
const namesFor = draw => { if (lang === 'ja' && !names) names = import('./timemasters_names.js').then(() => draw?.()); };

/** The card NAME of the table's set (ctx.cardSet: the table's own or ours), or null while it loads. */
const cardOf = (ctx, name) => ctx.cardSet?.cards?.find(c => c.name.toLowerCase() === String(name).toLowerCase()) ?? null;

/** A card's effects in words, from its primitives ("draw 2 cards, gain 1 ephemeral Kè"): every card set reads. */
const effectWords = (ctx, card) => (card.effects ?? []).map(([what, n]) => ctx.count(n, `eff.${what}`)).join(ctx.t('tmc.sep'));

/** What card C does, in the page's language: its kind, level and cost ("Spell · level 2 · 2 Kè"), and its
 * effect ("draw 2 cards"; a timer's slots and when its effect fires). */
export function describe(ctx, c) {
  const { t, tf, count } = ctx;
  const kind = [t(`tmc.${c.type}`), tf('tmc.level', { n: c.level }),
    c.type === 'spell' ? tf('tmc.cost', { n: c.cost }) : c.type === 'focus' ? t('tmc.free') : count(c.slots ?? 1, 'tmc.slots')];
  const effect = effectWords(ctx, c);
  const fired = c.type === 'timer' && effect ? tf(c.trigger === 'discard' ? 'tmc.on_discard' : 'tmc.on_set', { e: effect }) : effect;
  return { kind: kind.join(' · '), effect: fired || t('tmc.no_effect') };
}

/** A card face: its name, kind, level and cost, and its effect in words, all shown: its name is that text (WCAG
 * 2.5.3, Label in Name: no aria-label that differs from what is seen), the words in its tooltip too. */
function card(ctx, name, extra = {}) {
  const { el } = ctx;
  const c = cardOf(ctx, name);
  const words = c ? describe(ctx, c) : null;
  return el('div', { class: `card tm-card${c ? ` ${c.type}` : ''}`, 'data-c': name,
    title: words ? `${words.kind}\n${words.effect}` : tmCard(name), ...extra },
  el('span', { class: 'name' }, tmCard(name)), words ? el('span', { class: 'kind' }, words.kind) : '',
  words ? el('span', { class: 'effect' }, words.effect) : '');
}

const mentions = name => a => a.endsWith(` ${name}`) || a.includes(` ${name} on `);

/** The pending choice: cards to pick, or how a spell's Kè is paid ("pay 2 gold 1 ephemeral", ruling 10):
 * the line, which opens the menu of the mixes that can pay. */
function choice(c, ctx) {
  const { el, t } = ctx;
  const what = c.kind === 'pay' ? `${tmCard(c.card)} (${c.left} Kè)` : c.card ? tmCard(c.card) : '';
  return ctx.actionable(el('p', { class: 'choice' }, `${t('choose')}: ${t(`choice.timemasters.${c.kind}`)} ${what}`),
    a => c.kind === 'pay' && a.startsWith('pay '));
}

/** What to do now: a pending choice ("Pay 3 Kè: choose gold or ephemeral."), else the phase's work; in the
 * main phase, while both are open, what Pass and End the phase each do. */
export function prompt(v, { t, tf, el, legal }) {
  const c = v.choice;
  if (c) return c.kind === 'pay' ? tf('prompt.tm.pay', { n: c.left }) : tf('prompt.tm.choose', { what: t(`choice.timemasters.${c.kind}`) });
  if (v.phase === 'access') return tf('prompt.tm.access', { n: v.access_points });
  if (v.phase === 'timer' || v.phase === 'pass') return t(`prompt.tm.${v.phase === 'pass' ? 'pass_phase' : 'timer'}`);
  if (v.phase !== 'main') return null;
  const hints = ['pass', 'done'].filter(a => legal.includes(a)).map(a => el('small', { class: 'hint', 'data-hint': a }, t(`hint.tm.${a}`)));
  return [t('prompt.tm.main'), ...hints];
}

export function render(v, ctx) {
  const { el, t } = ctx;
  namesFor(ctx.draw);
  const me = v.players.find(p => p.seat === ctx.seat);
  const spheres = el('div', { class: 'spheres' }, el('h3', {}, t('tm.spheres')), v.spheres.map(s => ctx.actionable(
    el('div', { class: `sphere l${s.level}`, title: `${t('tm.sphere')} ${s.level}` },
      el('b', { class: 'level' }, s.level), el('small', {}, `${t('tm.level')} ${s.level}`),
      s.top ? card(ctx, s.top, { 'data-moment': `taken ${s.level}.${s.size}` }) : el('div', { class: 'card empty' }, t('tm.empty')), el('small', {}, `${t('tm.left')} ${s.size}`)),
    a => a === `take ${s.level}` || a === `take ${s.level} second`)));
  const zone = el('div', { class: 'zone' }, `${t('tm.turn')} ${v.turn} · ${t('tm.phase')}: ${t(`phase.timemasters.${v.phase}`)} · ${ctx.name(v.active)} · ${t('tm.access')} ${v.access_points} · ${t('tm.spell_zone')}: `,
    v.spell_zone.length ? v.spell_zone.map(c => card(ctx, typeof c === 'string' ? c : c.name ?? JSON.stringify(c))) : t('none'),
    v.choice ? choice(v.choice, ctx) : '');
  const players = el('div', { class: 'players' }, v.players.map(p => el('div', { class: `player${p.seat === ctx.seat ? ' me' : ''}`, 'data-seat': p.seat },
    el('h3', {}, `${p.seat + 1}. ${ctx.name(p.seat)}`),
    el('p', { class: 'ke' }, `${t('tm.ke')}: `, el('span', { class: 'ke-gold' }, `● ${p.ke_ready} ${t('tm.ke_ready')}`), ' ',
      el('span', { class: 'ke-grey' }, `○ ${p.ke_spent} ${t('tm.ke_spent')}`), ' ', el('span', { class: 'ke-eph' }, `◇ ${p.ke_ephemeral} ${t('tm.ke_eph')}`)),
    el('p', {}, `${t('hand')} ${p.hand_size} · ${t('tm.deck')} ${p.deck_size} · ${t('tm.discard')} ${p.discard.length} · ${t('tm.points')} ${p.points ?? '?'}`),
    el('div', { class: 'timers' }, `${t('tm.timers')}: `, p.timers.length ? '' : t('none'), p.timers.map((tm, i) => ctx.actionable(
      el('div', { class: 'timer', title: `${t('tm.timers')} ${i + 1}` }, el('b', {}, `${i + 1}. ${tmCard(tm.timer)}`),
        el('small', {}, ` ${tm.spells.length}/${tm.slots}${tm.full ? ' ●' : ''}${tm.delay ? ` · ${t('tm.delay')} ${tm.delay}` : ''}`),
        el('div', { class: 'slot' }, tm.spells.map(c => card(ctx, typeof c === 'string' ? c : c.name ?? JSON.stringify(c))))),
      a => p.seat === ctx.seat && (a === `activate ${i + 1}` || a === `delay ${i + 1}`)))),
    p.released.length ? el('div', { class: 'released' }, `${t('tm.released')}: `, p.released.map(c => p.seat === ctx.seat ? ctx.actionable(card(ctx, c), a => a === `release ${c}`) : card(ctx, c))) : '')));
  const hand = me && me.hand ? el('div', { class: 'hand' }, el('h3', {}, t('hand')),
    me.hand.map(c => ctx.actionable(card(ctx, c, { 'data-card': c }), mentions(c)))) : '';
  return el('div', {}, spheres, zone, players, hand);
}

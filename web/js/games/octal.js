// octal.js — THE OCTAL's table: the dragon's question(s) with conditions and arrows, own hand, others' hand sizes, Octo! and override.

/** An octal card such as "5大↕": number, condition (大小同異倍約) and arrow, all printed. */
function card(ctx, id, extra = {}) {
  const { el, t } = ctx;
  const m = id.match(/^(\d)(.)(.)$/u) || [id, id, '', ''];
  // named by what it shows, the condition and the arrow read in words after it (WCAG 2.5.3, Label in Name)
  const words = [m[2] && t(`cond.${m[2]}`), m[3] && t(`octal.arrow.${m[3]}`)].filter(Boolean).join(', ');
  return el('div', { class: `card octal-card n${m[1]}`, 'data-c': id, title: [m[1], words].filter(Boolean).join(' '), ...extra },
    el('span', { class: 'num' }, m[1]), el('span', { class: 'cond' }, m[2]),
    el('span', { class: 'arrow' }, m[3], words ? el('span', { class: 'sr-only' }, ` (${words})`) : ''));
}

const mentions = id => a => a.split(' ').includes(id);

/** The last action as everybody saw it (the view's last), in words: "Aki played on question 1 Octo!",
 * then a forgotten Octo!'s penalty. */
function lastAction(last, { t, tf, name }) {
  return tf(`octal.last.${last.action}`, { who: name(last.seat), q: last.question }) + (last.octo ? ` ${t('octal.octo')}` : '') +
    (last.penalty ? ` · ${tf('octal.penalty', { who: name(last.penalty_seat ?? last.seat), n: last.penalty })}` : '');
}

/** The result's score of seat S in THE OCTAL's terms, agreeing with the ranks: a finisher's score; the
 * others "did not finish" (they share the next place), or after a capped game the cards they still held
 * (fewer ranked better). */
export function scoreText(v, s, score, { t, count }) {
  const p = v.players.find(x => x.seat === s);
  if (!p || p.finished_rank) return score;
  return v.capped ? count(p.hand_size, 'octal.cards_left') : t('octal.not_finished');
}

/** What to do now: play on a question (or pass), pass when nothing fits, or discard. */
export function prompt(v, { t, legal }) {
  const play = legal.some(a => /^(play|lay|override) /.test(a)), pass = legal.includes('pass');
  if (play) return t(pass ? 'prompt.octal.play_pass' : 'prompt.octal.play');
  if (legal.some(a => a.startsWith('discard'))) return t('prompt.octal.discard');
  return pass ? t('prompt.octal.pass') : null;
}

export function render(v, ctx) {
  const { el, t, tf, count } = ctx;
  const me = v.players.find(p => p.seat === ctx.seat);
  const questions = el('div', { class: 'questions' }, v.questions.map((q, i) => ctx.actionable(
    el('div', { class: 'question' },
      el('h3', {}, `${t('octal.question')} ${i + 1}`),
      el('p', { class: 'condition' }, `${t('octal.condition')}: `, el('b', {}, q.condition), ' → ',
        el('span', { class: 'rule' }, q.reference === null ? t('octal.rule.all') : tf(`octal.rule.${q.condition}`, { n: q.reference }))),
      el('div', { class: 'stack' }, q.cards.map((c, k) => card(ctx, c, {
        ...(k === q.condition_card ? { class: 'card octal-card condition-card' } : {}),
        ...(k === q.cards.length - 1 ? { 'data-moment': `slide ${i}.${q.cards.length}.${c}` } : {}) })))),
    a => a.endsWith(` on ${i + 1}`) && a.startsWith('play ALL'))));
  const info = el('p', { class: 'round' }, `${t('octal.mode')}: ${t(`mode.octal.${v.mode}`)} · ${t('octal.deck')} ${v.deck_size} · ${t('octal.discards')} ${v.discard_size} · ${t('octal.passes')} ${v.passes_in_a_row}`,
    v.last ? ` · ${lastAction(v.last, ctx)}` : '');
  const players = el('div', { class: 'players' }, v.players.map(p => el('div', { class: `player${p.seat === ctx.seat ? ' me' : ''}`, 'data-seat': p.seat },
    el('h3', {}, `${p.seat + 1}. ${ctx.name(p.seat)}`),
    el('div', { class: 'backs' }, Array.from({ length: Math.min(p.hand_size, 12) }, () => el('span', { class: 'back-mini' }, '▮')), el('span', { class: 'size' }, ` ${count(p.hand_size, 'cards')}`)),
    el('p', {}, `${t('octal.discards')}: ${p.discard_count}`, p.finished_rank ? ` · ${t('octal.finished')} ${p.finished_rank}` : ''))));
  const hand = me && me.hand ? el('div', { class: 'hand' }, el('h3', {}, t('hand')),
    me.hand.map(c => ctx.actionable(card(ctx, c, { 'data-card': c }), mentions(c)))) : '';
  // (Pass is the dock's button alone: a second one on the board said it twice)
  return el('div', {}, info, questions, players, hand);
}

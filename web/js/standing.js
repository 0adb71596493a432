// standing.js — what the account pages share: the games in their order, a rating in words, the header of the profile and leaderboard pages, and a table's stakes (rated or not, the ratings of the people on its seats).
import { t } from './i18n.js';
import { el, api } from './dom.js';

/** The games in the lobby's order: each has its own rating (issue 42: options share their game's). */
export const GAME_ORDER = ['psycle', 'ninja', 'octal', 'timemasters'];

/** A displayed rating (mu - 3 sigma, the reference's ordinal) to one decimal. */
export const ratingText = r => (typeof r?.rating === 'number' ? r.rating.toFixed(1) : '–');

/** A rating's change with its sign: "+1.8", "−0.4" (a true minus sign). */
export const signedChange = d => `${d >= 0 ? '+' : '−'}${Math.abs(d).toFixed(1)}`;

/** The header of the profile and leaderboard pages: the way back to the lobby, the leaderboard, the language. */
export function pageHeader(redraw, languageSwitch) {
  return el('header', {}, el('a', { href: '/', class: 'home' }, 'asobi'),
    el('nav', { 'aria-label': t('board.nav') }, el('a', { href: '/' }, t('back_lobby')), ' · ', el('a', { href: '/leaderboard' }, t('board.title'))),
    languageSwitch(redraw));
}

/** A table's stakes: whether it is rated (every update's "rated") and, for the seats held by signed-in people,
 * each one's rating in the table's game (GET /api/players/NAME, once a name). A seat counts as signed in when
 * the update says so (`account`), or at a rated table, which seats nobody else. Calls REDRAW when known. */
export function makeStanding(redraw) {
  const standing = { rated: false, ratings: {}, asked: new Set(), last: null };
  standing.update = last => {
    standing.last = last;
    standing.rated = Boolean(last.rated);
    const game = last.view?.game;
    for (const s of last.seats ?? []) {
      if (!s.name || s.bot || standing.asked.has(s.name) || !(standing.rated || s.account)) continue;
      if (typeof s.rating === 'number') { standing.ratings[s.name] = { rating: s.rating }; continue; }
      standing.asked.add(s.name);
      api(`/api/players/${encodeURIComponent(s.name)}`).then(p => {
        standing.ratings[s.name] = p.ratings?.[game] ?? null; redraw();
      }).catch(() => {});
    }
  };
  return standing;
}

/** The badge a rated table wears (lobby list, table header). */
export const ratedBadge = () => el('span', { class: 'badge rated', 'data-rated': '' }, t('rated'));

// rating_reference.mjs — test_rating's judge: npm openskill 5 (the Weng-Lin reference) rates games and prints them as JSON.
//
// Usage: node tests/core/rating_reference.mjs [SEED]   (test_rating runs it and reads stdout)
// Prints {"reference": VERSION, "games": [...], "sequences": [...]}:
//   games:     one game each, {"before": [[mu, sigma]...], "rank": [...], "after": [[mu, sigma]...], "ordinal": [...]}
//   sequences: a pool of players rated game after game, {"pool": N, "games": [{"seats": [...], "rank": [...],
//              "after": [[mu, sigma]...]}]}: the C side plays them on its own ratings, so errors that add up show.
// The games come from a seeded generator, the same every run; everything else is the reference's own arithmetic
// with its defaults (rating() for a newcomer, rate(teams, {rank}) with teams of one, ordinal()).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { rate, rating, ordinal } from 'openskill';

// the version that judged (its package.json is not exported: found beside its dist/)
const main = createRequire(import.meta.url).resolve('openskill');
const version = JSON.parse(readFileSync(join(dirname(dirname(main)), 'package.json'), 'utf8')).version;

// mulberry32: a small seeded generator, so that the vectors are the same on every run
let state = Number(process.argv[2] ?? 42) >>> 0;
function unit() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const below = (n) => Math.floor(unit() * n);
const between = (lo, hi) => lo + (hi - lo) * unit();

// Ranks for n seats: a strict order, a few ties, or many (ranks drawn from a small range), given in seat order
// (not sorted), sometimes as scattered numbers, since only their order counts.
function ranks(n) {
  const kind = below(4);
  let r;
  if (kind === 0) r = shuffled([...Array(n).keys()].map((i) => i + 1));
  else if (kind === 1) r = Array.from({ length: n }, () => 1 + below(n));
  else if (kind === 2) r = Array.from({ length: n }, () => 1 + below(2));
  else r = Array.from({ length: n }, () => below(7) * 10 - 20);
  return r;
}
function shuffled(a) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = below(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
const pair = (r) => [r.mu, r.sigma];

// Single games: 2-6 seats (the games'), then 8 and 12 (the model's generality); ratings from a newcomer's to
// far apart, sigmas from settled (0.3) to wild (up to 60, where sigma's shrink reaches the kappa floor).
const games = [];
function single(before, rank) {
  const after = rate(before.map((r) => [r]), { rank }).map((team) => team[0]);
  games.push({ before: before.map(pair), rank, after: after.map(pair), ordinal: after.map((r) => ordinal(r)) });
}
for (let n = 2; n <= 6; n++) {
  single(Array.from({ length: n }, () => rating()), [...Array(n).keys()].map((i) => i + 1));
  single(Array.from({ length: n }, () => rating()), Array(n).fill(1));
  for (let k = 0; k < 150; k++) {
    const wild = k % 10 === 9;
    const before = Array.from({ length: n }, () =>
      rating({ mu: between(-10, 60), sigma: wild ? between(5, 60) : between(0.3, 12) }));
    single(before, ranks(n));
  }
}
for (const n of [8, 12]) {
  for (let k = 0; k < 10; k++)
    single(Array.from({ length: n }, () => rating({ mu: between(0, 50), sigma: between(0.5, 9) })), ranks(n));
}
// sigma's floor (kappa): one wild sigma among settled players, last of many, learns more than 1 - kappa of its
// variance in a game, and the floor holds its sigma at a hundredth of what it was
for (const n of [8, 12]) {
  for (const wild of [100, 200]) {
    const before = Array.from({ length: n - 1 }, () => rating({ mu: between(20, 30), sigma: between(0.5, 2) }));
    single([...before, rating({ mu: 25, sigma: wild })], [...Array(n).keys()].map((i) => i + 1));
  }
}

// Sequences: a pool of players, each game a random 2-6 of them with random ranks; and a pool where the better
// player (the lower index) usually wins, so that ratings spread apart and sigmas settle over hundreds of games.
const sequences = [];
function sequence(pool, count, skilled) {
  const players = Array.from({ length: pool }, () => rating());
  const played = [];
  for (let g = 0; g < count; g++) {
    const n = 2 + below(5);
    const seats = shuffled([...Array(pool).keys()]).slice(0, n);
    let rank;
    if (skilled) {
      const perf = seats.map((p) => -p + between(-pool / 3, pool / 3));
      rank = perf.map((x) => 1 + perf.filter((y) => y > x).length);
      if (below(8) === 0) rank[below(n)] = rank[below(n)]; // now and then a tie
    } else {
      rank = ranks(n);
    }
    const after = rate(seats.map((p) => [players[p]]), { rank }).map((team) => team[0]);
    seats.forEach((p, i) => { players[p] = after[i]; });
    played.push({ seats, rank, after: after.map(pair) });
  }
  sequences.push({ pool, games: played });
}
sequence(12, 400, false);
sequence(30, 600, true);
sequence(6, 300, true);

process.stdout.write(JSON.stringify({ reference: version, games, sequences }) + '\n');
